//! Benchmark: exact optimal revenue of a company's trains on dense late-game 1835 boards.
//!
//! The boards are committed fixtures (`tests/fixtures/1835/boards/dense-*.json`: every
//! buildable hex carries a tile of its family turned to lead onto the map, cities filled with
//! tokens; written by the ignored test `write_benchmark_fixtures`), each with the company that has
//! the most 6+6 routes on it. For each board and train set the time is the best of five runs of
//! `optimal` (route enumeration + branch and bound) on a graph built once. Plain Rust with
//! `std::time::Instant`. Run: `cargo bench --bench revenue_1835`.

use stationmaster::games::r1835::Data;
use stationmaster::games::r1835::board::{BoardState, Graph, optimal, route::enumerate};
use std::time::{Duration, Instant};

const FIXTURES: [(&str, &str); 4] = [
    ("dense-0", include_str!("../tests/fixtures/1835/boards/dense-0.json")),
    ("dense-1", include_str!("../tests/fixtures/1835/boards/dense-1.json")),
    ("dense-2", include_str!("../tests/fixtures/1835/boards/dense-2.json")),
    ("dense-3", include_str!("../tests/fixtures/1835/boards/dense-3.json")),
];

const SETS: [&[&str]; 8] =
    [&["5"], &["6"], &["4+4"], &["5+5"], &["6+6"], &["5", "6"], &["4+4", "5+5"], &["6", "6+6"]];

fn main() {
    let data = Data::standard().expect("1835 data");
    let mut worst = (Duration::ZERO, String::new());
    let mut total = Duration::ZERO;
    for (name, text) in FIXTURES {
        let v: serde_json::Value = serde_json::from_str(text).expect("fixture json");
        let board: BoardState = serde_json::from_value(v["board"].clone()).expect("board");
        let company = v["company"].as_str().expect("company");
        let phase = data.phases.iter().find(|p| Some(p.id.as_str()) == v["phase"].as_str()).expect("phase");
        let t = Instant::now();
        let g = Graph::build(&data, &board, phase);
        println!(
            "{name}: graph of {} stops and {} paths built in {:.2?}",
            g.stops.len(),
            g.paths.len(),
            t.elapsed()
        );
        for set in SETS {
            let trains: Vec<_> = set
                .iter()
                .map(|n| data.trains.iter().find(|t| t.name == *n).cloned().expect("train"))
                .collect();
            let routes = enumerate(&g, company, &trains).len();
            let mut best = Duration::MAX;
            let mut revenue = 0;
            for _ in 0..5 {
                let t = Instant::now();
                revenue = optimal(&g, company, &trains).revenue;
                best = best.min(t.elapsed());
            }
            total += best;
            println!(
                "  {company} {:<12} {routes:>7} routes  revenue {revenue:>4}  {:>9.2?}",
                set.join(" "),
                best
            );
            if best > worst.0 {
                worst = (best, format!("{name} {company} {}", set.join(" ")));
            }
        }
    }
    println!(
        "worst: {} in {:.2?}; all {} cases: {:.2?}",
        worst.1,
        worst.0,
        FIXTURES.len() * SETS.len(),
        total
    );
}
