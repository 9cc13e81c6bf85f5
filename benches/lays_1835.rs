//! Benchmark: every legal tile lay of every company on 1835 boards (`legal_lays`, called for
//! each decision's legal actions and for HR 17's ranking).
//!
//! Boards: the committed fixtures `tests/fixtures/1835/boards/mid-{0,1}.json` (phase 2, every
//! buildable hex yellow, the printed yellow hexes green: the most upgrades a company can face;
//! written by the ignored test `write_lay_fixtures`) and `dense-{0,1,2,3}.json` (phase 3.4, every
//! hex as far up as brown). For each board, each company with a station on it: the best of five
//! runs. Plain Rust with `std::time::Instant`. Run: `cargo bench --bench lays_1835`.

use stationmaster::games::r1835::Data;
use stationmaster::games::r1835::board::{BoardState, legal_lays};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const FIXTURES: [(&str, &str); 6] = [
    ("mid-0", include_str!("../tests/fixtures/1835/boards/mid-0.json")),
    ("mid-1", include_str!("../tests/fixtures/1835/boards/mid-1.json")),
    ("dense-0", include_str!("../tests/fixtures/1835/boards/dense-0.json")),
    ("dense-1", include_str!("../tests/fixtures/1835/boards/dense-1.json")),
    ("dense-2", include_str!("../tests/fixtures/1835/boards/dense-2.json")),
    ("dense-3", include_str!("../tests/fixtures/1835/boards/dense-3.json")),
];

fn main() {
    let data = Data::standard().expect("1835 data");
    let mut worst = (Duration::ZERO, String::new());
    let (mut total, mut calls) = (Duration::ZERO, 0u32);
    for (name, text) in FIXTURES {
        let v: serde_json::Value = serde_json::from_str(text).expect("fixture json");
        let board: BoardState = serde_json::from_value(v["board"].clone()).expect("board");
        let phase = data.phases.iter().find(|p| Some(p.id.as_str()) == v["phase"].as_str()).expect("phase");
        let companies: BTreeSet<&str> = board.tokens.values().flatten().map(|t| t.company.as_str()).collect();
        for company in companies {
            let mut best = Duration::MAX;
            let mut n = 0;
            for _ in 0..5 {
                let t = Instant::now();
                n = legal_lays(&data, &board, phase, company).len();
                best = best.min(t.elapsed());
            }
            total += best;
            calls += 1;
            println!("{name} {company:<3} {n:>4} lays  {best:>9.2?}");
            if best > worst.0 {
                worst = (best, format!("{name} {company}"));
            }
        }
    }
    println!("worst: {} in {:.2?}; mean of {calls}: {:.2?}", worst.1, worst.0, total / calls.max(1));
}
