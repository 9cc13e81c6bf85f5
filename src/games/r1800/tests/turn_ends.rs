//! The two ends of a turn: Command Economy's pop move at its start, before the collection
//! (RULING E22), and admin cards played among the end-of-turn moves (RULING E99).

use super::super::orders::tests::sheet;
use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Rules};

/// Seat 0 (France) under a Command Economy at the start of its first turn, asked for the
/// upkeep's admin card (Urbanization or Conscription).
pub(super) fn command_economy() -> State {
    let mut s = new(2);
    game().adopt(&mut s, 0, card("Command Economy"));
    s.players[0].admin = vec![admin("Urbanization"), admin("Conscription")];
    s.players[0].admin.sort_unstable();
    to_first_turn(&mut s);
    assert_eq!(s.pending[0].choice, Choice::Upkeep { republic: false });
    s
}

/// The seat's answer from these lines (or the rules' default), applied.
fn step(s: &mut State, lines: &[&str]) -> Action {
    let a = game().answer_from(s, &mut sheet(lines)).action.or_else(|| game().default_action(s));
    let a = a.expect("an action");
    game().apply(s, &a, &mut rng()).expect("applies");
    a
}

#[test]
fn ruling_e22_command_economy_moves_a_pop_at_the_start_of_the_turn_before_the_collection() {
    let mut s = command_economy();
    step(&mut s, &["UPKEEP DISCARD Conscription"]);
    assert_eq!(s.pending[0].choice, Choice::StartMove, "then may move 1 pop");
    assert_eq!(s.players[0].supply, [0, 0, 0], "nothing collected yet");
    let mut stay = s.clone();
    let moved = step(&mut s, &["MOVE POP Champagne TO Paris"]);
    assert_eq!(moved, Action::MovePop { from: prov("Champagne"), to: prov("Paris") });
    let me = usize::from(s.players[0].power);
    assert_eq!(s.provinces[usize::from(prov("Paris"))].pops[me], 2);
    step(&mut stay, &["DECLINE MOVE"]);
    assert!(stay.pending.is_empty() && s.pending.is_empty());
    // The farmer moved to Paris eats there in this very collection: 2 food fewer.
    assert_eq!(stay.players[0].supply[F] - s.players[0].supply[F], 2);
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let legal = game().legal_actions(&s);
    assert!(!legal.iter().any(|a| matches!(a, Action::MovePop { .. })), "no end-of-turn pop move any more");
}

#[test]
fn ruling_e22_a_silent_seat_makes_no_command_economy_move_and_collects() {
    let mut s = command_economy();
    step(&mut s, &[]);
    assert_eq!(s.pending[0].choice, Choice::StartMove);
    let before = s.provinces.clone();
    assert_eq!(step(&mut s, &[]), Action::Skip);
    assert_eq!(s.provinces, before);
    assert_eq!(s.players[0].supply, [2, 2, 0], "collected, without Landed Gentry's commerce");
}

/// France in its turn with Macadam Roads (two regiment moves), regiments in Paris and Lyon,
/// Seize Production in hand and the 2 production it costs on its industry policy.
fn marching() -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Macadam Roads"));
    let me = s.players[0].power;
    for p in ["Paris", "Lyon"] {
        s.provinces[usize::from(prov(p))].regiment = Some(Piece { owner: Some(me), conscripted: None });
    }
    s.players[0].admin = vec![admin("Seize Production")];
    let ei = held(&s, 0, "Early Industrialization");
    s.players[0].cards[ei].res[P] = 2;
    s
}

#[test]
fn ruling_e99_an_admin_card_may_be_played_during_the_end_of_turn_moves() {
    let mut s = marching();
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let march = Action::MoveRegiment { from: prov("Paris"), to: prov("Normandie") };
    game().apply(&mut s, &march, &mut rng()).unwrap();
    let seize = Action::Admin { card: admin("Seize Production"), option: 1, target: Target::default() };
    assert!(game().legal_actions(&s).contains(&seize), "at any time during your turn");
    game().apply(&mut s, &seize, &mut rng()).expect("played between the moves");
    assert_eq!(s.players[0].military.len(), 1);
    let march = Action::MoveRegiment { from: prov("Lyon"), to: prov("Champagne") };
    game().apply(&mut s, &march, &mut rng()).expect("the moves go on");
}

#[test]
fn ruling_e99_a_play_line_written_after_a_regiment_move_is_played_after_that_move() {
    let mut s = marching();
    let mut sh = sheet(&[
        "MOVE REGIMENT Paris TO Normandie",
        "PLAY Seize Production FACTORY",
        "BUILD Lyon",
        "MOVE REGIMENT Lyon TO Champagne",
    ]);
    let mut done = Vec::new();
    while matches!(s.stage, Stage::Turn { seat: 0, .. }) {
        let a = game().answer_from(&s, &mut sh).action.or_else(|| game().default_action(&s));
        let a = a.expect("an action");
        game().apply(&mut s, &a, &mut rng()).expect("applies");
        done.push(a);
    }
    let seize = Action::Admin { card: admin("Seize Production"), option: 0, target: Target::default() };
    let expected = vec![
        Action::EndActions,
        Action::MoveRegiment { from: prov("Paris"), to: prov("Normandie") },
        seize,
        Action::Build(prov("Lyon")),
        Action::MoveRegiment { from: prov("Lyon"), to: prov("Champagne") },
        Action::EndTurn,
    ];
    assert_eq!(done, expected);
    assert_eq!(s.provinces[usize::from(prov("Lyon"))].factories, 2);
}
