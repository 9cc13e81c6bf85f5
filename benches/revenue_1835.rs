//! Benchmark: exact optimal revenue of a company's trains on dense late-game 1835 boards.
//!
//! The boards are committed fixtures (`tests/fixtures/1835/boards/dense-*.json`: every
//! buildable hex carries a tile of its family turned to lead onto the map, cities filled with
//! tokens; written by the ignored test `write_benchmark_fixtures`), each with the company that has
//! the most 6+6 routes on it. For each board and train set the time is the best of five runs of
//! `optimal` (route enumeration + branch and bound) on a graph built once. Plain Rust with
//! `std::time::Instant`. Run: `cargo bench --bench revenue_1835`.
//!
//! Then the sweep: a synthetic game until a scripted 1835 game exists. Each fixture's tiles are
//! laid one by one in map order, one per company turn (the eight companies in turn), each hex's
//! tokens arriving with its tile; the phase advances with the share of tiles laid (1 to 3.4),
//! and a company holds the trains of the phase (`TRAINS_BY_PHASE`). Every company turn builds
//! the graph and computes the company's optimum; the figure is the total time of a game.

use stationmaster::games::r1835::Data;
use stationmaster::games::r1835::board::{BoardState, Graph, optimal, route::enumerate};
use stationmaster::games::r1835::data::TrainType;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

const FIXTURES: [(&str, &str); 4] = [
    ("dense-0", include_str!("../tests/fixtures/1835/boards/dense-0.json")),
    ("dense-1", include_str!("../tests/fixtures/1835/boards/dense-1.json")),
    ("dense-2", include_str!("../tests/fixtures/1835/boards/dense-2.json")),
    ("dense-3", include_str!("../tests/fixtures/1835/boards/dense-3.json")),
];

const SETS: [&[&str]; 8] =
    [&["5"], &["6"], &["4+4"], &["5+5"], &["6+6"], &["5", "6"], &["4+4", "5+5"], &["6", "6+6"]];

/// The trains a company holds in each phase of the synthetic game.
const TRAINS_BY_PHASE: [(&str, &[&str]); 7] = [
    ("1", &["2", "2+2"]),
    ("2", &["3", "2+2"]),
    ("2.3", &["4", "3+3"]),
    ("2.4", &["4", "4+4"]),
    ("3", &["5", "4+4"]),
    ("3.3", &["6", "5+5"]),
    ("3.4", &["6", "6+6"]),
];

fn trains_named(data: &Data, names: &[&str]) -> Vec<TrainType> {
    names.iter().map(|n| data.trains.iter().find(|t| t.name == *n).cloned().expect("train")).collect()
}

/// One synthetic game on a fixture's board: returns the company turns, the total time, and
/// the slowest turn.
fn sweep(data: &Data, full: &BoardState) -> (usize, Duration, Duration) {
    let companies: BTreeSet<&str> = full.tokens.values().flatten().map(|t| t.company.as_str()).collect();
    let companies: Vec<&str> = companies.into_iter().collect();
    let mut board = BoardState::default();
    // Tokens on hexes that get no tile stand from the start.
    for (at, tokens) in &full.tokens {
        if !full.tiles.contains_key(at) {
            board.tokens.insert(at.clone(), tokens.clone());
        }
    }
    let (mut total, mut slowest) = (Duration::ZERO, Duration::ZERO);
    let n = full.tiles.len();
    for (i, (at, laid)) in full.tiles.iter().enumerate() {
        board.tiles.insert(at.clone(), laid.clone());
        if let Some(tokens) = full.tokens.get(at) {
            board.tokens.insert(at.clone(), tokens.clone());
        }
        let (phase_id, names) =
            TRAINS_BY_PHASE[(i * TRAINS_BY_PHASE.len() / n).min(TRAINS_BY_PHASE.len() - 1)];
        let phase = data.phases.iter().find(|p| p.id == phase_id).expect("phase");
        let trains = trains_named(data, names);
        let company = companies[i % companies.len()];
        let t = Instant::now();
        let g = Graph::build(data, &board, phase);
        std::hint::black_box(optimal(&g, company, &trains).revenue);
        let took = t.elapsed();
        total += took;
        slowest = slowest.max(took);
    }
    (n, total, slowest)
}

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
            let trains = trains_named(&data, set);
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
    println!("sweep (synthetic game: tiles in map order, one company turn each, trains by phase):");
    for (name, text) in FIXTURES {
        let v: serde_json::Value = serde_json::from_str(text).expect("fixture json");
        let board: BoardState = serde_json::from_value(v["board"].clone()).expect("board");
        let mut best = (0, Duration::MAX, Duration::ZERO);
        for _ in 0..3 {
            let run = sweep(&data, &board);
            if run.1 < best.1 {
                best = run;
            }
        }
        println!("  {name}: {} company turns in {:.2?} (slowest turn {:.2?})", best.0, best.1, best.2);
    }
}
