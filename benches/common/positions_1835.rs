//! Mid-game 1835 positions for the storm benchmarks and the NMR-turn equivalence check (issue
//! 38): the start of a company's turn in an operating round (its track step, no offer pending)
//! with tiles on the board, trains and several companies running them — cut from the committed
//! four-player fixture logs (`tests/fixtures/1835/`, `tests/data/1835/rails/`) and from random
//! games played by the engine's rules (each decision the rules' default or a random legal
//! action, half and half, as `benches/game_1835.rs` plays them).
//!
//! Shared by path (`#[path]`) between `benches/storm_1835.rs`, `benches/turn_1835.rs` and the
//! test `tests/api/nmr_turns_1835.rs`.

#![allow(dead_code)]

use serde_json::Value;
use sha2::{Digest, Sha256};
use stationmaster::engine::log::{LoggedAction, replay_each};
use stationmaster::engine::prelude::*;
use stationmaster::engine::{GameRng, Pick, SetupSpec};
use stationmaster::games::r1835::state::{Entity, Round, Step};
use stationmaster::games::r1835::{Action, R1835, State};
use stationmaster::registry::{Adjudication, GmTurn};
use std::collections::{BTreeMap, BTreeSet};

/// One mid-game position: where it was cut and the game it belongs to.
#[derive(Debug, Clone)]
pub struct Position {
    /// The log it was cut from (`whole_game`, `rails/presidency_swap_fewest`, `random-3`).
    pub source: String,
    /// How many actions of that log were played: the next action's sequence number.
    pub at: u64,
    pub seats: u8,
    pub seed: u64,
    pub options: Value,
    /// The state, as the server stores it.
    pub state: Value,
}

impl Position {
    /// `source@at`, the position's name in the digest file and the benches' output.
    pub fn name(&self) -> String {
        format!("{}@{}", self.source, self.at)
    }
}

/// What the position holds, for the benches' output.
pub fn describe(s: &State) -> String {
    let floated = s.majors.iter().filter(|c| c.floated).count();
    let trains: usize = s.majors.iter().map(|c| c.trains.len()).sum::<usize>()
        + s.minors.iter().map(|m| m.trains.len()).sum::<usize>();
    format!(
        "{}, phase {}, {floated} companies floated, {} tiles, {trains} trains",
        s.round.name(),
        s.phase,
        s.board.tiles.len()
    )
}

/// Whether `s` is a company's turn starting in an operating round with at least `tiles` tiles
/// laid and at least three companies (majors and minors) owning trains.
pub fn operating_cut(g: &R1835, s: &State, tiles: usize) -> bool {
    let running = s.majors.iter().filter(|c| !c.trains.is_empty()).count()
        + s.minors.iter().filter(|m| !m.closed && !m.trains.is_empty()).count();
    matches!(s.round, Round::Operating { .. })
        && s.or.turn.step == Step::Track
        && s.or.turn.lays == 0
        && s.or.turn.offer.is_none()
        && s.prussian_due.is_empty()
        && matches!(s.or.queue.first(), Some(Entity::Major(_) | Entity::Minor(_)))
        && s.board.tiles.len() >= tiles
        && running >= 3
        && g.next_decision(s).is_some()
}

/// The four-player fixture logs played with the PBEM preset (the game's default options).
pub const PBEM_FIXTURES: [&str; 2] = ["fixtures/1835/whole_game", "fixtures/1835/bankruptcy_game"];

/// The four-player fixture logs recorded by Rails (the `rails` preset).
pub const RAILS_FIXTURES: [&str; 3] = [
    "data/1835/rails/presidency_swap_fewest",
    "data/1835/rails/presidency_swap_single_shares_first",
    "data/1835/rails/baden_home_on_float",
];

/// The cut points of the fixture logs under `tests/` named by `paths` (four players each), in
/// log order, fixture by fixture; a position met before (two logs share their beginning) once.
pub fn from_fixtures(g: &R1835, paths: &[&str]) -> Vec<Position> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/");
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let read = |ext: &str| std::fs::read_to_string(format!("{dir}{path}.{ext}")).expect("a fixture");
        let game: Value = serde_json::from_str(&read("json")).expect("the fixture's game file");
        let seed = game["seed"].as_u64().expect("a seed");
        let options = game["options"].clone();
        let seats = u8::try_from(game["players"].as_array().map_or(0, Vec::len)).unwrap_or(0);
        let log: Vec<LoggedAction> = read("jsonl")
            .lines()
            .filter(|l| l.starts_with('{'))
            .enumerate()
            .map(|(seq, l)| {
                let v: Value = serde_json::from_str(l).expect("a JSONL action");
                LoggedAction {
                    seq: seq as u64,
                    seat: serde_json::from_value(v["seat"].clone()).expect("a seat"),
                    action: v["action"].clone(),
                    by_default: false,
                }
            })
            .collect();
        let source = path.rsplit_once("1835/").map_or(*path, |(_, n)| n).to_string();
        let spec = SetupSpec { seats, options: options.clone() };
        replay_each(g, &spec, seed, &log, |entry, s| {
            if operating_cut(g, s, 6) && seen.insert(serde_json::to_string(s).expect("a state")) {
                let state = serde_json::to_value(s).expect("a state");
                let at = entry.seq + 1;
                out.push(Position {
                    source: source.clone(),
                    at,
                    seats,
                    seed,
                    options: options.clone(),
                    state,
                });
            }
        })
        .expect("the fixture replays");
    }
    out
}

/// A random legal action: pass one time in three where it is legal, else any other.
fn choose(legal: &[Action], pick: &mut Pick) -> Option<Action> {
    let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::Pass).collect();
    if legal.contains(&Action::Pass) && (others.is_empty() || pick.next(3) == 0) {
        return Some(Action::Pass);
    }
    others.get(pick.next(others.len())).map(|a| (*a).clone())
}

/// The cut points of a random whole game of `seats` players from `seed` (every `every`th one).
pub fn from_random_game(g: &R1835, seats: u8, seed: u64, every: usize) -> Vec<Position> {
    let options = serde_json::json!({});
    let spec = SetupSpec { seats, options: options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).expect("setup");
    let mut pick = Pick(seed);
    let (mut out, mut seq, mut cuts) = (Vec::new(), 0u64, 0usize);
    while g.next_decision(&s).is_some() && seq < 20_000 {
        if operating_cut(g, &s, 6) {
            if cuts.is_multiple_of(every) {
                let state = serde_json::to_value(&s).expect("a state");
                let source = format!("random-{seats}-{seed}");
                out.push(Position { source, at: seq, seats, seed, options: options.clone(), state });
            }
            cuts += 1;
        }
        let legal = g.legal_actions(&s);
        let action = if pick.next(2) == 0 { g.default_action(&s) } else { choose(&legal, &mut pick) };
        let Some(action) = action else { break };
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, seq)).expect("a legal action");
        seq += 1;
    }
    out
}

/// The positions whose storm turns `tests/data/1835/nmr_turns.txt` keeps: every cut of all the
/// fixture logs, then every third of random games of 4 and 5 players from seeds `0..random`.
pub fn check_set(g: &R1835, random: u64) -> Vec<Position> {
    let mut all = from_fixtures(g, &[&PBEM_FIXTURES[..], &RAILS_FIXTURES[..]].concat());
    for seed in 0..random {
        all.extend(from_random_game(g, 4 + (seed % 2) as u8, seed, 3));
    }
    all
}

/// The storm turn at `p` (no seat sends orders) through the registry, as the server plays it:
/// its number of actions and its outcome's digest (SHA-256 of its JSON: actions, events, notes,
/// state), as `tests/data/1835/nmr_turns.txt` keeps them (`actions digest`).
pub fn storm_turn(engine: &dyn stationmaster::registry::DynGame, p: &Position) -> String {
    let none = BTreeSet::new();
    let gm = GmTurn { ask_for: &none, referrals: false, answers: &[] };
    let out = engine
        .adjudicate_asking(&p.state, p.seed, p.at, &BTreeMap::new(), &BTreeMap::new(), gm)
        .expect("the turn adjudicates");
    let Adjudication::Done(outcome) = out else { panic!("{}: the GM was asked", p.name()) };
    let json = serde_json::to_string(&outcome).expect("the outcome as JSON");
    let digest = data_encoding::HEXLOWER.encode(&Sha256::digest(json.as_bytes()));
    format!("{} {digest}", outcome.actions.len())
}
