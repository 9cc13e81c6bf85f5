//! The scripted Badische story (tests only) behind the replay fixtures of the options
//! `presidency_swap` and `baden_home_on_float` (issue 33): a driver that plays a four-player
//! game (A, B, C, D; seed 0) through the engine and writes its JSONL log, the format
//! `ledger.rs` reads. `tests_rails_replays.rs` checks that each committed fixture is what its
//! [`Story`] makes (`REGENERATE=1` rewrites it).
//!
//! The policy, at every decision:
//! - start packet: A buys BY's director's certificate and the PfB when it can; every seat buys
//!   the first other item it can, else passes;
//! - stock rounds: BY and SX are bought out of their IPOs, no purchase taking a presidency;
//!   then BA: A buys its director's certificate and one 10 %, B two 10 % and C two, D one, and B
//!   last the ordinary 20 %, which gives B 40 % against A's 30 %: the presidency passes on that
//!   purchase. Once BA has operated, A sells the certificates the story names (what A holds
//!   depends on `presidency_swap`);
//! - operating rounds: every company lays a legal tile drawn by lot — BA the one after which its
//!   trains (a 2-train before it owns one) earn most, else the upgrade of its home L6, else a lay
//!   next to it, so that its route connects and it earns revenue (L6's printed cities have no
//!   track until a green tile) — places the first legal station, runs its best routes, pays out
//!   (`directed.rs`'s policy for a starved seat) and buys a train from the bank whenever it may,
//!   so that the green phase comes; with [`Story::pfb_station`], the first company A presides over
//!   that operates after BA floated and before BA's first operation places the PfB's free
//!   station in the Mannheim city BA's home does not take.

use super::board::{Graph, optimal};
use super::directed;
use super::state::{Loc, Round, State, Step};
use super::tests::{co, ipo};
use super::{Action, R1835};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, SetupSpec};
use serde_json::{Value, json};

/// The players, in seating order.
pub(super) const PLAYERS: [&str; 4] = ["A", "B", "C", "D"];
/// The game seed.
pub(super) const SEED: u64 = 0;

/// What a scripted game is to contain, and where its log ends.
#[derive(Debug, Clone)]
pub(super) struct Story {
    /// The game's options.
    pub options: Value,
    /// BY (A's) places the PfB's station in the other L6 city before BA's first operation; the
    /// log ends with the operating round in which it did.
    pub pfb_station: bool,
    /// Once BA has operated and B presides over it, A sells this many certificates of this
    /// percentage of BA; the log ends with that stock round.
    pub sale: Option<(u8, u8)>,
    /// The `#` lines that head the log.
    pub header: Vec<String>,
}

/// The most actions a story may take.
const CAP: u64 = 8_000;

/// Plays `story` and returns its log (header, one action a line).
pub(super) fn tell(g: &R1835, story: &Story) -> String {
    let spec = SetupSpec { seats: 4, options: story.options.clone() };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(SEED)).expect("setup");
    let mut pick = Pick(SEED);
    let mut out: Vec<String> = story.header.iter().map(|h| format!("# {h}")).collect();
    out.push("# Made by src/games/r1835/tests_rails_story.rs (REGENERATE=1); do not edit by hand.".into());
    let mut done_in: Option<Round> = None;
    for seq in 0..CAP {
        if done_in.is_some_and(|r| r != s.round) {
            return format!("{}\n", out.join("\n"));
        }
        let d = g.next_decision(&s).expect("the story ends before the game");
        let (action, ends) = choose(g, &s, d.seat.0 - 1, story, &mut pick);
        g.apply(&mut s, &action, &mut GameRng::for_action(SEED, seq))
            .unwrap_or_else(|e| panic!("{action:?} refused at \"{}\": {}", d.prompt, e.0));
        out.push(json!({"action": action, "seat": d.seat.0}).to_string());
        if ends {
            done_in = Some(s.round);
        }
    }
    panic!("the story did not end within {CAP} actions")
}

/// The action of seat `p` (0-based), and whether it is the story's last event.
fn choose(g: &R1835, s: &State, p: u8, story: &Story, pick: &mut Pick) -> (Action, bool) {
    let legal = |a: &Action| g.apply_action(&mut s.clone(), a).is_ok();
    let fallback = || {
        let pass = Action::Pass;
        if legal(&pass) { pass } else { g.default_action(s).expect("something to do") }
    };
    if g.prussian_pending(s).is_some() {
        return (g.default_action(s).expect("a Prussian answer"), false);
    }
    match s.round {
        Round::Stock { .. } if s.packet_open() => {
            (packet(g, s, p).filter(legal).unwrap_or_else(fallback), false)
        }
        Round::Stock { .. } => {
            if let Some((count, percent)) = story.sale.filter(|_| p == 0 && sale_due(g, s)) {
                let sale = Action::Sell { company: "BA".into(), count, percent };
                if legal(&sale) {
                    return (sale, true);
                }
            }
            (stock(g, s, p).into_iter().find(legal).unwrap_or_else(fallback), false)
        }
        Round::Operating { .. } => {
            if story.pfb_station
                && let Some(station) = pfb_station(g, s).filter(legal)
            {
                return (station, true);
            }
            let actions = g.legal_actions(s);
            if let Some(lay) = ba_lay(g, s, &actions) {
                return (lay, false);
            }
            // Trains are bought while the bank has them, so that the green phase comes and BA's
            // home (no track until a green tile, L6 "XX") can be upgraded.
            if s.or.turn.step == Step::Trains
                && actions.contains(&Action::Pass)
                && let Some(buy) =
                    actions.iter().find(|a| matches!(a, Action::BuyTrain { from, .. } if from == "bank"))
            {
                return (buy.clone(), false);
            }
            let any = |pick: &mut Pick, f: &dyn Fn(&Action) -> bool| -> Option<Action> {
                let xs: Vec<&Action> = actions.iter().filter(|a| f(a)).collect();
                xs.get(pick.next(xs.len())).map(|a| (*a).clone())
            };
            (directed::operating(g, s, &actions, pick, &any, true).unwrap_or_else(fallback), false)
        }
        Round::Over => panic!("the game ended before the story"),
    }
}

/// A start-packet turn: A's wishes first, then the first item any seat may take.
fn packet(g: &R1835, s: &State, p: u8) -> Option<Action> {
    const WISHES: [&str; 2] = ["BY", "PfB"];
    let legal: Vec<Action> = g.legal_actions(s);
    let item = |a: &&Action, f: &dyn Fn(&str) -> bool| matches!(a, Action::BuyItem { item } if f(item));
    let wished = legal.iter().find(|a| p == 0 && item(a, &|i| WISHES.contains(&i)));
    wished.or_else(|| legal.iter().find(|a| item(a, &|i| !WISHES.contains(&i)))).cloned()
}

/// The purchases seat `p` would make now, best first.
fn stock(g: &R1835, s: &State, p: u8) -> Vec<Action> {
    let mut out = Vec::new();
    for id in ["BY", "SX"] {
        let c = co(g, id);
        if g.ipo_empty(s, c) {
            continue;
        }
        // Never a purchase that takes the presidency: those of BY and SX stay where they are.
        let president = g.president(s, c);
        let after = g.percent_of(s, c, p) + 10;
        if president == Some(p) || president.is_some_and(|q| after < g.percent_of(s, c, q)) {
            out.push(ipo(id, 10));
        }
    }
    if !out.is_empty() {
        return out;
    }
    let ba = co(g, "BA");
    let held = |seat: u8, percent: u8, director: bool| {
        s.majors[ba]
            .certs
            .iter()
            .filter(|c| c.at == Loc::Player(seat) && c.percent == percent && c.director == director)
            .count()
    };
    let tens = held(p, 10, false);
    let a_directs = held(0, 20, true) == 1 || g.president(s, ba) == Some(1);
    match p {
        0 if held(0, 20, true) == 0 && g.president(s, ba).is_none() => out.push(ipo("BA", 20)),
        0 if a_directs && held(0, 20, true) == 1 && tens == 0 => out.push(ipo("BA", 10)),
        1 if a_directs && tens < 2 => out.push(ipo("BA", 10)),
        1 if a_directs && held(1, 20, false) == 0 => out.push(ipo("BA", 20)),
        2 if a_directs && tens < 2 => out.push(ipo("BA", 10)),
        3 if a_directs && tens < 1 => out.push(ipo("BA", 10)),
        _ => {}
    }
    out
}

/// B presides over BA, which has operated: A's sale is due.
fn sale_due(g: &R1835, s: &State) -> bool {
    let ba = co(g, "BA");
    s.majors[ba].operated && g.president(s, ba) == Some(1) && g.percent_of(s, ba, 0) > 0
}

/// The PfB's station in the L6 city BA's home does not take, for the operating company if A
/// presides over it, A owns the PfB and BA has floated but not yet operated.
fn pfb_station(g: &R1835, s: &State) -> Option<Action> {
    let ba = co(g, "BA");
    if !s.majors[ba].floated || s.majors[ba].operated {
        return None;
    }
    let e = g.operating_entity(s)?;
    let company = g.entity_id(s, e);
    let pfb = g.data().private_index("PfB")?;
    let ours = s.privates[pfb].owner == Some(0) && !s.privates[pfb].closed;
    if company == "BA" || !ours || g.controller(s, e) != Some(0) {
        return None;
    }
    let other = 2 - g.data().majors[ba].station;
    Some(Action::PlaceToken { company, hex: "L6".into(), city: other + 1 })
}

/// BA's track step: of the legal lays, the first after which BA's trains (a 2-train before it
/// owns one) earn most; none for another company, or when no lay lets BA earn anything.
fn ba_lay(g: &R1835, s: &State, actions: &[Action]) -> Option<Action> {
    let e = g.operating_entity(s)?;
    if g.entity_id(s, e) != "BA" || s.or.turn.step != Step::Track {
        return None;
    }
    let mut trains = g.entity_trains(s, e);
    if trains.is_empty() {
        trains.extend(g.data().trains.iter().find(|t| t.name == "2").cloned());
    }
    let earns = |a: &Action| -> Option<i64> {
        let mut after = s.clone();
        g.apply_action(&mut after, a).ok()?;
        let graph = Graph::build(g.data(), &after.board, g.phase_now(&after).ok()?);
        Some(optimal(&graph, "BA", &trains).revenue)
    };
    // Most revenue first; without any, the home hex's upgrade, then a lay next to it.
    let near = |a: &Action| match a {
        Action::LayTile { hex, .. } if hex == "L6" => 2,
        Action::LayTile { hex, .. } if ["K5", "K7", "L4", "L8", "M5", "M7"].contains(&hex.as_str()) => 1,
        _ => 0,
    };
    let mut best: Option<((i64, i32), &Action)> = None;
    for a in actions.iter().filter(|a| matches!(a, Action::LayTile { .. })) {
        let key = (earns(a).unwrap_or(0), near(a));
        if key > (0, 0) && best.is_none_or(|(b, _)| key > b) {
            best = Some((key, a));
        }
    }
    best.map(|(_, a)| a.clone())
}
