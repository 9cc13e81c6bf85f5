//! Benchmark: the scripted whole 1835 game of `tests/fixtures/1835/whole_game.jsonl` (issue 14;
//! target: the whole replay, every optimal-revenue computation included, under 1 s).
//!
//! - replay: set-up and every action of the log through `apply` (each `run` without routes
//!   computes the optimum inside `apply`), best of five;
//! - ledger: the same replay through `ledger::replay` (the log parsed line by line, the rounds'
//!   cash collected) and its CSV, as `stationmaster replay --engine 1835 --ledger` does, best of
//!   five;
//! - the operating-round actions' share of the log and their rate through `apply`.
//!
//! Plain Rust with `std::time::Instant`. Run: `cargo bench --bench whole_game_1835`.

use serde_json::Value;
use stationmaster::engine::prelude::*;
use stationmaster::engine::{GameRng, SetupSpec};
use stationmaster::games::r1835::state::Round;
use stationmaster::games::r1835::{Action, R1835, ledger};
use std::time::{Duration, Instant};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/1835/");

struct Game1835 {
    log: String,
    players: Vec<String>,
    options: Value,
    seed: u64,
}

fn load(name: &str) -> Game1835 {
    let log = std::fs::read_to_string(format!("{DIR}{name}.jsonl")).expect("the fixture's log");
    let game: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{DIR}{name}.json")).expect("the game file"))
            .expect("JSON");
    let players = game["players"].as_array().expect("players").iter();
    Game1835 {
        log,
        players: players.map(|p| p.as_str().expect("a name").to_string()).collect(),
        options: game["options"].clone(),
        seed: game["seed"].as_u64().expect("seed"),
    }
}

/// The log's actions and whether each was taken in an operating round.
fn actions(g: &R1835, f: &Game1835) -> Vec<(Action, bool)> {
    let spec = SetupSpec { seats: f.players.len() as u8, options: f.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(f.seed)).expect("setup");
    let mut out = Vec::new();
    for line in f.log.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let v: Value = serde_json::from_str(line).expect("a log line");
        let a: Action = serde_json::from_value(v["action"].clone()).expect("an action");
        let operating = matches!(s.round, Round::Operating { .. });
        g.apply(&mut s, &a, &mut GameRng::for_action(f.seed, out.len() as u64)).expect("replays");
        out.push((a, operating));
    }
    assert!(g.next_decision(&s).is_none(), "the fixture plays to the end");
    out
}

/// The whole game through `apply`; the time spent on operating-round actions too.
fn replay(g: &R1835, f: &Game1835, actions: &[(Action, bool)]) -> (Duration, Duration) {
    let t = Instant::now();
    let spec = SetupSpec { seats: f.players.len() as u8, options: f.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(f.seed)).expect("setup");
    let mut operating = Duration::ZERO;
    for (n, (a, or)) in actions.iter().enumerate() {
        let t = Instant::now();
        g.apply(&mut s, a, &mut GameRng::for_action(f.seed, n as u64)).expect("replays");
        if *or {
            operating += t.elapsed();
        }
    }
    (t.elapsed(), operating)
}

fn ledger(g: &R1835, f: &Game1835) -> (Duration, usize) {
    let t = Instant::now();
    let r = ledger::replay(g, &f.players, &f.options, f.seed, &f.log).expect("the ledger");
    let csv = r.csv();
    (t.elapsed(), csv.lines().count())
}

fn main() {
    let g = R1835::standard().expect("1835 data");
    println!(
        "fixture          actions  OR actions  replay(best of 5)  OR actions/s  ledger(best of 5)  ledger lines"
    );
    for name in ["whole_game", "early_prussian_game", "bankruptcy_game"] {
        let f = load(name);
        let acts = actions(&g, &f);
        let ors = acts.iter().filter(|(_, or)| *or).count();
        let (best, op) = (0..5).map(|_| replay(&g, &f, &acts)).min().unwrap_or_default();
        let (led, lines) = (0..5).map(|_| ledger(&g, &f)).min().unwrap_or_default();
        println!(
            "{name:<16} {:>7}  {ors:>10}  {best:>17.2?}  {:>12.0}  {led:>17.2?}  {lines:>12}",
            acts.len(),
            ors as f64 / op.as_secs_f64(),
        );
    }
}
