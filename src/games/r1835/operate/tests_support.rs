//! Helpers of the operating-round tests: a game in its first operating round (the standard
//! four-player start packet: BY floated with seat 1 as president, who owns NF, OBB; seat 3 owns
//! PfB), passing to a company's turn, and the best tile lay for a company's trains.

use crate::engine::GameRng;
use crate::engine::prelude::*;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::{Round, State, Step};
use crate::games::r1835::tests::{act, sold_packet};
use serde_json::Value;

/// The standard sold packet, every player passing SR1: OR1.1 begins with M1.
pub(super) fn first_or(g: &R1835, extra: Value) -> State {
    let mut s = sold_packet(g, extra);
    while matches!(s.round, Round::Stock { .. }) {
        act(g, &mut s, Action::Pass);
    }
    s
}

/// The id of the entity operating now.
pub(super) fn operating(g: &R1835, s: &State) -> String {
    g.operating_entity(s).map(|e| g.entity_id(s, e)).unwrap_or_default()
}

/// Passes steps until `id` operates (in its track step).
pub(super) fn pass_to(g: &R1835, s: &mut State, id: &str) {
    for _ in 0..200 {
        if operating(g, s) == id && s.or.turn.step == Step::Track {
            return;
        }
        act(g, s, Action::Pass);
    }
    panic!("{id} never operates");
}

/// The legal tile lay that gives the operating company's trains the best run (None: no lay
/// earns more than nothing).
pub(super) fn best_lay(g: &R1835, s: &State) -> Option<(Action, i64)> {
    g.next_decision(s)?;
    let e = g.operating_entity(s)?;
    let mut best: Option<(Action, i64)> = None;
    for a in g.legal_actions(s).into_iter().filter(|a| matches!(a, Action::LayTile { .. })) {
        let mut t = s.clone();
        g.apply(&mut t, &a, &mut GameRng::for_action(0, 0)).ok()?;
        let (_, run) = g.best_run(&t, e).ok()?;
        if run.revenue > best.as_ref().map_or(0, |b| b.1) {
            best = Some((a, run.revenue));
        }
    }
    best
}
