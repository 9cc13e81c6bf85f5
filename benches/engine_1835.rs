//! Benchmark: 1835 stock-round actions applied per second in replay.
//!
//! Builds logs of whole random games (random legal actions; 3-7 players, every start-packet
//! variant; empty operating rounds so play goes on through many stock rounds), then replays
//! them (a) through the engine's `apply` from set-up, as the server's replay does, and (b)
//! from JSONL text through the ledger, as `stationmaster replay --ledger` does. Plain Rust with
//! `std::time::Instant`. Run: `cargo bench --bench engine_1835`.

use serde_json::json;
use stationmaster::engine::prelude::*;
use stationmaster::engine::{GameRng, Pick, SetupSpec};
use stationmaster::games::r1835::{Action, R1835, ledger};
use std::time::{Duration, Instant};

struct Log {
    seats: u8,
    options: serde_json::Value,
    actions: Vec<Action>,
    jsonl: String,
}

fn record(g: &R1835, seed: u64) -> Log {
    let variants = ["standard", "snake", "clemens", "full_thompson", "half_thompson"];
    let seats = 3 + (seed % 5) as u8;
    let options = json!({"variant": variants[(seed % 5) as usize], "empty_operating_rounds": true});
    let mut s = g
        .setup(&SetupSpec { seats, options: options.clone() }, &mut GameRng::for_setup(seed))
        .expect("setup");
    let mut pick = Pick(seed);
    let (mut actions, mut lines) = (Vec::new(), Vec::new());
    while let Some(d) = g.next_decision(&s) {
        if actions.len() >= 4000 {
            break;
        }
        let legal = g.legal_actions(&s);
        let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::Pass).collect();
        let a = if legal.contains(&Action::Pass) && (others.is_empty() || pick.next(3) == 0) {
            Action::Pass
        } else {
            match others.get(pick.next(others.len())) {
                Some(a) => (*a).clone(),
                None => break,
            }
        };
        g.apply(&mut s, &a, &mut GameRng::for_action(seed, 0)).expect("legal");
        lines.push(json!({"seat": d.seat.0, "action": a}).to_string());
        actions.push(a);
    }
    Log { seats, options, actions, jsonl: lines.join("\n") }
}

fn main() {
    let g = R1835::standard().expect("1835 data");
    let t = Instant::now();
    let logs: Vec<Log> = (0..20).map(|seed| record(&g, seed)).collect();
    let total: usize = logs.iter().map(|l| l.actions.len()).sum();
    println!("recorded {} games, {total} actions, in {:.1?}", logs.len(), t.elapsed());

    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for (seed, log) in logs.iter().enumerate() {
            let spec = SetupSpec { seats: log.seats, options: log.options.clone() };
            let mut s = g.setup(&spec, &mut GameRng::for_setup(seed as u64)).expect("setup");
            for a in &log.actions {
                g.apply(&mut s, a, &mut GameRng::for_action(0, 0)).expect("replays");
            }
            std::hint::black_box(&s);
        }
        best = best.min(t.elapsed());
    }
    println!(
        "apply replay: {:.0} actions/s (best of 5: {total} actions in {best:.2?})",
        total as f64 / best.as_secs_f64()
    );

    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        for (seed, log) in logs.iter().enumerate() {
            let names: Vec<String> = (1..=log.seats).map(|i| format!("P{i}")).collect();
            let r = ledger::replay(&g, &names, &log.options, seed as u64, &log.jsonl).expect("replays");
            std::hint::black_box(r.csv());
        }
        best = best.min(t.elapsed());
    }
    println!(
        "JSONL ledger replay: {:.0} actions/s (best of 5: {total} actions in {best:.2?})",
        total as f64 / best.as_secs_f64()
    );
}
