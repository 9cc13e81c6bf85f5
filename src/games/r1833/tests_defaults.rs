//! The default for missing orders (RULINGS C8, C19, C20): "A player may not pass when it is
//! his turn", so the default always does something when something is possible, and `apply`
//! accepts only what `legal_actions` lists. One sentence each.

use super::R1833;
use super::state::{Action, Ending, State};
use super::tests::{act, game, give, held, pull, refused, table, to_pool};
use crate::engine::prelude::*;

/// The default at the current decision; checks it is listed by `legal_actions`.
fn default_of(g: &R1833, s: &State) -> Action {
    assert!(g.next_decision(s).is_some(), "a decision is pending");
    let a = g.default_action(s).expect("a default");
    assert!(g.legal_actions(s).contains(&a), "the default {a:?} is a legal action");
    a
}

/// Plays the defaults of every decision until the active player's turn is over; returns the
/// actions the active player took (offers to other seats are answered by their default too).
fn default_turn(g: &R1833, s: &mut State) -> Vec<Action> {
    let (who, before) = (s.active, s.turns_taken);
    let mut played = Vec::new();
    while s.turns_taken == before && played.len() < 20 {
        let mine = g.next_decision(s).is_some_and(|d| d.seat.index() == usize::from(who));
        let a = default_of(g, s);
        act(g, s, a.clone());
        if mine {
            played.push(a);
        }
    }
    played
}

#[test]
fn rule_apply_refuses_the_default_draw_when_no_card_can_be_drawn_from_the_deck() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany", "Buffalo", "Toronto", "Level 1"]);
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert!(!g.legal_actions(&s).contains(&Action::DrawToLimitAndEnd));
    assert!(refused(&g, &s, Action::DrawToLimitAndEnd).contains("limit of 5"));
    let mut s = table(&g, 2);
    let all = std::mem::take(&mut s.draw);
    s.removed = all;
    assert!(refused(&g, &s, Action::DrawToLimitAndEnd).contains("empty"));
}

#[test]
fn rule_a_player_may_not_pass_when_a_discard_was_possible() {
    // A full hand and no usable orders: the default discards the card held longest, then
    // draws back up to the limit from the deck and ends the turn (RULING C20).
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany", "Buffalo", "Toronto", "Level 1"]);
    give(&g, &mut s, 1, &["Ithaca", "Ithaca", "Reading", "Reading", "Newark"]);
    let boston = held(&g, &s, 0, "Boston");
    assert_eq!(default_of(&g, &s), Action::Discard(boston));
    let played = default_turn(&g, &mut s);
    assert_eq!(played, vec![Action::Discard(boston), Action::DrawToLimitAndEnd]);
    assert_eq!(s.discard, vec![boston], "nobody could take it: seat 2's hand is full");
    assert_eq!(s.players[0].hand.len(), 5);
    assert_eq!(s.active, 1);
}

#[test]
fn rule_a_player_may_not_pass_when_a_re_shuffle_could_be_played() {
    // A full hand holding a Re-Shuffle that may be played: the default plays it (it can never
    // be discarded and costs 25 at the end), then draws back up to the limit.
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany", "Buffalo", "Toronto", "Re-Shuffle"]);
    let r = held(&g, &s, 0, "Re-Shuffle");
    assert_eq!(default_of(&g, &s), Action::PlayReshuffle(r));
    let played = default_turn(&g, &mut s);
    assert_eq!(played, vec![Action::PlayReshuffle(r), Action::DrawToLimitAndEnd]);
    assert!(s.removed.contains(&r));
    assert_eq!(s.players[0].hand.len(), 5);
}

#[test]
fn rule_a_player_may_not_pass_when_a_pool_draw_was_possible() {
    // The deck has run out: the default takes the first pool card it may, then the top of the
    // discard pile, then ends the turn.
    let g = game();
    let mut s = table(&g, 3);
    to_pool(&g, &mut s, &["Boston", "Albany"]);
    let top = pull(&g, &mut s, "Toronto");
    s.discard.push(top);
    give(&g, &mut s, 0, &["Buffalo"]);
    let rest = std::mem::take(&mut s.draw);
    s.removed = rest;
    s.ending = Some(Ending { trigger: 2, turns_left: Some(2) });
    let boston = s.pool[0];
    let played = default_turn(&g, &mut s);
    assert_eq!(played, vec![Action::DrawPool(boston), Action::DrawDiscard, Action::EndTurn]);
    assert_eq!(s.players[0].hand.len(), 3, "only one pool card after the deck ran out");
}

#[test]
fn rule_the_default_ends_the_turn_only_when_nothing_at_all_is_possible() {
    // RULING C8: a hand of Re-Shuffles that may not be played yet, an empty deck and pool.
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Re-Shuffle"]);
    let rest = std::mem::take(&mut s.draw);
    s.removed = rest;
    s.ending = Some(Ending { trigger: 1, turns_left: Some(1) });
    assert_eq!(default_of(&g, &s), Action::EndTurn);
    act(&g, &mut s, Action::EndTurn);
}

#[test]
fn rule_the_default_is_a_legal_action_at_every_decision_of_a_whole_game() {
    // A game played by the default alone: every default is listed and accepted, and no turn
    // ends without an action while one was possible.
    let g = game();
    let spec = crate::engine::SetupSpec { seats: 4, options: serde_json::Value::Null };
    let mut s = g.setup(&spec, &mut crate::engine::GameRng::for_setup(7)).expect("setup");
    let mut steps = 0;
    while let Some(d) = g.next_decision(&s) {
        let a = default_of(&g, &s);
        if a == Action::EndTurn && s.phase == super::state::Phase::Play {
            let p = s.player(s.active).expect("active");
            assert!(s.turn.actions >= 1 || !g.can_act(&s, p), "a pass while an action was possible");
        }
        let mut rng = crate::engine::GameRng::for_action(7, steps);
        g.apply(&mut s, &a, &mut rng).unwrap_or_else(|e| panic!("default {a:?} refused at {d:?}: {e}"));
        steps += 1;
        assert!(steps < 5_000, "the game ends");
    }
}

#[test]
fn rule_a_silent_seat_with_a_full_hand_discards_and_draws_back_up_through_the_turn_loop() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany", "Buffalo", "Toronto", "Level 1"]);
    let boston = held(&g, &s, 0, "Boston");
    let seat1 = crate::engine::Seat(1);
    let r = crate::adjudication::run_turn(&g, &s, 7, 1, Default::default()).expect("adjudicates");
    let mine: Vec<&Action> =
        r.actions.iter().filter(|(seat, _, _)| *seat == seat1).map(|(_, a, _)| a).collect();
    assert_eq!(mine, vec![&Action::Discard(boston), &Action::DrawToLimitAndEnd]);
    assert!(r.nmr.contains(&seat1), "no orders at all: NMR (ruling S2)");
    assert_eq!(r.state.players[0].hand.len(), 5);
    // Orders that are all unusable: the first step of the default, then the turn ends (C19).
    let sheet = crate::orders::parse_sheet(&g, "DISCARD Norfolk", None).0;
    let r = crate::adjudication::run_turn(&g, &s, 7, 1, [(seat1, sheet)].into()).expect("adjudicates");
    let mine: Vec<&Action> =
        r.actions.iter().filter(|(seat, _, _)| *seat == seat1).map(|(_, a, _)| a).collect();
    assert_eq!(mine, vec![&Action::Discard(boston), &Action::EndTurn]);
    assert!(!r.nmr.contains(&seat1));
}
