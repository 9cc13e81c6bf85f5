//! Issue 34: the dropoff of a load is designated by the seat whose train holds it, and every
//! load chit and train stays in exactly one place. Played as the game was: 3 players,
//! seed 5, the set-up turn's orders `RRC 12` / `RRC 6` / `RRC 18`, through the adjudicator.

use super::proptests::game;
use super::state::{Stage, State};
use crate::adjudication::{TurnResult, run_turn};
use crate::engine::conformance::check_inventory;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Numbered, OrderSheet, Seat, SetupSpec};
use std::collections::BTreeMap;

/// Order sheets from (seat, line) pairs, each seat's lines numbered from 1.
fn sheets(lines: &[(u8, &str)]) -> BTreeMap<Seat, OrderSheet<super::Order>> {
    let g = game();
    let mut m: BTreeMap<Seat, Vec<Numbered<super::Order>>> = BTreeMap::new();
    for (seat, text) in lines {
        let v = m.entry(Seat(*seat)).or_default();
        let line = v.len() + 1;
        v.push(Numbered { line, order: g.parse_order(text).expect("parses") });
    }
    m.into_iter().map(|(k, v)| (k, OrderSheet::new(v))).collect()
}

/// The game: 3 players, seed 5, before any order.
fn seed_5() -> State {
    let spec = SetupSpec { seats: 3, options: serde_json::Value::Null };
    crate::engine::log::setup(game(), &spec, 5).expect("setup")
}

/// The set-up turn with the RRC choices and `more` lines.
fn set_up_turn(more: &[(u8, &str)]) -> TurnResult<super::Confed> {
    let mut lines = vec![(1, "RRC 12"), (2, "RRC 6"), (3, "RRC 18")];
    lines.extend_from_slice(more);
    run_turn(game(), &seed_5(), 5, 0, sheets(&lines)).expect("the set-up turn adjudicates")
}

/// The chit numbers a seat's trains hold, by train.
fn loads(s: &State, seat: u8) -> Vec<(u8, Option<u32>)> {
    let p = s.player(Seat(seat)).expect("seat");
    p.trains.iter().map(|t| (t.id, t.load.as_ref().map(|c| c.chit))).collect()
}

#[test]
fn rt_3_7_the_dropoff_of_a_starting_load_is_designated_by_the_seat_whose_train_holds_it() {
    // Seat 2 selects load 51 (Rifles) for its train 3 while seat 1 is first in the order; seat
    // 1's line for load 51 must not answer seat 2's decision.
    let r = set_up_turn(&[(1, "DELIVER 51 TO Wheeling"), (2, "DELIVER 51 TO Bowling Green")]);
    let g = game();
    let (s2, s1) = (loads(&r.state, 2), loads(&r.state, 1));
    assert!(s2.contains(&(3, Some(51))), "seat 2's train 3 holds load 51: {s2:?}");
    assert!(s1.contains(&(3, Some(23))), "seat 1's train 3 keeps its load 23: {s1:?}");
    assert!(!s1.iter().any(|(_, c)| *c == Some(51)), "seat 1 holds no copy of load 51: {s1:?}");
    let c = r.state.train(Seat(2), 3).and_then(|t| t.load.clone()).expect("a load");
    assert_eq!(super::board::name(g.data(), c.dropoff), "Bowling Green", "seat 2's own order");
    let note = |seat: u8| r.notes.get(&Seat(seat)).cloned().unwrap_or_default();
    assert!(note(2).iter().any(|n| n.line == 2 && n.executed), "seat 2's DELIVER is reported: {:?}", note(2));
    assert!(
        !note(1).iter().any(|n| n.line == 2 && n.executed),
        "seat 1's DELIVER is not used: {:?}",
        note(1)
    );
}

#[test]
fn rt_3_7_the_set_up_turn_goes_on_through_the_designation_of_a_starting_loads_dropoff() {
    let r = set_up_turn(&[]);
    assert!(matches!(r.state.stage, Stage::Activate), "set-up is over: {:?}", r.state.stage);
    assert!(r.state.players.iter().all(|p| p.trains.iter().all(|t| t.load.is_some())));
}

#[test]
fn the_dropoff_prompt_names_the_seat_the_load_the_train_and_the_choices() {
    let g = game();
    let mut s = seed_5();
    let mut n = 0;
    // Default answers until seat 2 must designate load 51's dropoff.
    while !matches!(s.stage, Stage::Dropoff { chit: 51, .. }) {
        let a = g.default_action(&s).expect("a default");
        g.apply(&mut s, &a, &mut GameRng::for_action(5, n)).expect("the default is legal");
        n += 1;
        assert!(n < 200, "load 51 is selected during set-up");
    }
    let d = g.next_decision(&s).expect("a decision");
    assert_eq!(d.seat, Seat(2));
    assert!(
        d.prompt.starts_with("dropoff station for load 51 (Rifles) on train 3: Wheeling, Fairmont,"),
        "{}",
        d.prompt
    );
    assert!(d.prompt.ends_with(" or Russellville"), "{}", d.prompt);
}

#[test]
fn every_load_chit_and_train_is_in_exactly_one_place_after_every_action_of_the_first_two_turns() {
    // The turn 2: seat 1's DELIVER for seat 2's load 51 (in the issue, seat 2's load
    // then sat on seat 1's train 3 as well, and seat 1's load 23 was gone).
    let g = game();
    let first = set_up_turn(&[]);
    let next = sheets(&[(1, "DELIVER 51 TO Wheeling"), (1, "ACTIVATE 1")]);
    let seq = first.actions.len() as u64;
    let second = run_turn(g, &first.state, 5, seq, next).expect("turn 2 adjudicates");
    let mut s = seed_5();
    let mut before = check_inventory(g, &s, None).expect("the set-up conserves");
    assert!(before.is_some(), "Confederate Rails lists its components");
    for (n, (seat, a, _)) in first.actions.iter().chain(&second.actions).enumerate() {
        g.apply(&mut s, a, &mut GameRng::for_action(5, n as u64)).expect("replays");
        before =
            check_inventory(g, &s, before.as_ref()).unwrap_or_else(|e| panic!("after {a:?} by {seat}: {e}"));
    }
    assert_eq!(s, second.state);
}
