//! Rule-by-rule tests of play: must-play and draws, Linking Up, moving Stations, Jumping
//! Trains, the end of the game, ties, the forced default and atomic `apply`.

use super::cards::Dir;
use super::state::{Action, Phase};
use super::tests::{CHAINS, act, chain_codes, f, faces, game, table};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, Viewer};

#[test]
fn a_player_who_can_play_may_not_draw_two() {
    let g = game();
    let mut s = table(CHAINS, ["8H 2C", "", "", ""], "3D 4D 5D");
    let err = act(&g, &mut s, Action::DrawTwo).unwrap_err();
    assert!(err.contains("you can play 8H on the North chain"), "{err}");
    assert!(!g.legal_for(&s, Seat(1)).contains(&Action::DrawTwo));
}

#[test]
fn a_player_who_cannot_play_draws_two_and_draws_are_compulsory() {
    let g = game();
    let mut s = table(CHAINS, ["2C", "", "", ""], "3D 4D 5D");
    assert_eq!(g.legal_for(&s, Seat(1)), vec![Action::DrawTwo]);
    let events = g.apply(&mut s, &Action::DrawTwo, &mut GameRng::for_action(1, 1)).unwrap();
    assert_eq!(faces(&s, Seat(1)), "3D 4D 2C");
    assert_eq!(events[1].public, "seat 1 drew two cards");
    assert_eq!(events[1].text_for(Viewer::Seat(Seat(1))), "seat 1 drew two cards (you drew 3D 4D)");
    assert_eq!(events[1].text_for(Viewer::Seat(Seat(2))), "seat 1 drew two cards");
    assert_eq!(
        events[1].text_for(Viewer::Gm),
        "seat 1 drew two cards (to seat 1: you drew 3D 4D)",
        "the GM reads whose draw it was, not \"you drew\" for every seat (issue 36)"
    );
    assert_eq!(s.to_move, Seat(2));
}

#[test]
fn after_a_play_the_player_draws_one() {
    let g = game();
    let mut s = table(CHAINS, ["8H 2C", "", "", ""], "3D 4D 5D");
    let text = act(&g, &mut s, Action::Play { card: f("8H"), dir: Dir::North }).unwrap();
    assert_eq!(text, vec!["seat 1 played 8H on the North chain", "seat 1 drew a card"]);
    assert_eq!(faces(&s, Seat(1)), "3D 2C");
    assert_eq!(chain_codes(&s, Dir::North), "7H 8H");
}

const NINE: &str = "7H 8H 8S 9S 9C 10C 10D JD JH";
const TEN: &str = "7H 7S 8S 9S 9C 10C 10D JD QD JH";

#[test]
fn linking_needs_ten_cards_and_a_card_that_fits_both() {
    let g = game();
    // North Station is 10S; 9 cards: not yet.
    let mut s = table([NINE, "9D", "4C", "QS"], ["JS 10H QH", "", "", ""], "3D 4D");
    let err = act(&g, &mut s, Action::Link { card: f("JS"), dir: Dir::North }).unwrap_err();
    assert!(err.contains("has 9 cards; it needs at least 10"), "{err}");
    // Ten cards (the beginning card counts), ending in JH: JS fits both JH and 10S.
    let mut s = table([TEN, "9D", "4C", "QS"], ["JS QH", "", "", ""], "3D 4D");
    let err = act(&g, &mut s, Action::Link { card: f("QH"), dir: Dir::North }).unwrap_err();
    assert!(err.contains("QH fits the North chain but not the North Station (10S)"), "{err}");
    assert!(act(&g, &mut s, Action::Link { card: f("JS"), dir: Dir::North }).is_ok());
    assert_eq!(s.chain(Dir::North).map(|c| c.len()), Some(12));
    assert_eq!(s.stations[0], None);
    assert!(s.chain(Dir::North).and_then(|c| c.end()).and_then(|p| p.station).is_some_and(|m| m.linked));
}

#[test]
fn plain_play_never_links_and_a_chain_links_only_once() {
    let g = game();
    // 10H fits both the chain end (JH) and the North Station (10S), but PLAY does not link.
    let mut s = table([TEN, "9D", "4C", "QS"], ["10H", "JD", "", ""], "3D 4D 5D");
    act(&g, &mut s, Action::Play { card: f("10H"), dir: Dir::North }).unwrap();
    assert_eq!(s.chain(Dir::North).map(|c| c.len()), Some(11));
    assert!(s.stations[0].is_some());
    s.stations[0] = None; // as if linked before
    let err = act(&g, &mut s, Action::Link { card: f("JD"), dir: Dir::North }).unwrap_err();
    assert!(err.contains("already been linked"), "{err}");
}

#[test]
fn a_moved_station_leaves_its_old_chain() {
    let g = game();
    // 10S sits on the North chain's end; the East chain ends in 9S, which 10S fits.
    let mut s = table(["7H 10S!", "9D 9S", "4C", "QS"], ["2C", "", "", ""], "3D 4D");
    // Moving is optional: a seat that cannot play a card may still draw two (RULING R11).
    assert!(g.legal_for(&s, Seat(1)).contains(&Action::DrawTwo));
    assert_eq!(
        act(&g, &mut s, Action::MoveStation { from: Dir::North, to: Dir::East }).unwrap()[0],
        "seat 1 moved the North Station (10S) from the North chain to the East chain"
    );
    assert_eq!((chain_codes(&s, Dir::North), chain_codes(&s, Dir::East)), ("7H".into(), "9D 9S 10S".into()));
    assert!(
        s.chain(Dir::East)
            .and_then(|c| c.end())
            .and_then(|p| p.station)
            .is_some_and(|m| !m.linked && m.from == Dir::North)
    );
    assert_eq!(faces(&s, Seat(1)), "3D 2C", "moving counts as the play: draw one");
}

#[test]
fn a_station_cannot_move_onto_a_linked_chain_end() {
    let g = game();
    let mut s = table(["7H 10S!", "9D 10C JS!", "4C", "QS"], ["2C", "", "", ""], "3D 4D");
    let err = act(&g, &mut s, Action::MoveStation { from: Dir::East, to: Dir::North }).unwrap_err();
    assert!(err.contains("placed by a linking play"), "{err}");
    // …but a chain ending in a moved Station may receive one.
    let mut s = table(["7H 10S~", "9D 10C JS!", "4C", "QS"], ["2C", "", "", ""], "3D 4D");
    assert!(act(&g, &mut s, Action::MoveStation { from: Dir::East, to: Dir::North }).is_ok());
}

#[test]
fn a_buried_station_cannot_move() {
    let g = game();
    let mut s = table(["7H 10S! 9S", "9D 9S", "4C", "QS"], ["2C", "", "", ""], "3D 4D");
    let err = act(&g, &mut s, Action::MoveStation { from: Dir::North, to: Dir::East }).unwrap_err();
    assert!(err.contains("does not end in a linked Station"), "{err}");
}

#[test]
fn jumping_swaps_beginning_cards_and_returns_the_old_one_to_hand() {
    let g = game();
    let mut s = table(["7H 8H", "9D 9C 10C", "4C", "QS"], ["AH 2C", "", "", ""], "3D 4D");
    act(&g, &mut s, Action::Jump { ace: f("AH"), dir: Dir::East }).unwrap();
    assert_eq!(chain_codes(&s, Dir::North), "9D 8H");
    assert_eq!(chain_codes(&s, Dir::East), "AH 9C 10C");
    assert_eq!((s.chain_of(Seat(1)), s.chain_of(Seat(2))), (Some(Dir::East), Some(Dir::North)));
    assert_eq!(faces(&s, Seat(1)), "7H 3D 2C", "old beginning card to hand, then draw one");
}

#[test]
fn only_the_ace_of_ones_own_suit_jumps() {
    let g = game();
    let mut s = table(CHAINS, ["AD AH", "", "", ""], "3D 4D");
    assert!(
        act(&g, &mut s, Action::Jump { ace: f("AD"), dir: Dir::East })
            .unwrap_err()
            .contains("Ace of your suit (AH)")
    );
    assert!(
        act(&g, &mut s, Action::Jump { ace: f("AH"), dir: Dir::North })
            .unwrap_err()
            .contains("already control")
    );
}

#[test]
fn the_game_ends_when_the_last_card_is_drawn() {
    let g = game();
    let mut s = table(["7H 8H 9H", "9D", "4C", "QS"], ["2C", "3C", "", ""], "3D");
    let text = act(&g, &mut s, Action::DrawTwo).unwrap().join(" | ");
    assert!(
        text.contains("seat 1 drew a card") && text.contains("seat 1 wins with a chain of 3 cards"),
        "{text}"
    );
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(g.next_decision(&s), None);
    assert!(g.acting_seats(&s).is_empty());
    let st = g.standings(&s).unwrap();
    assert_eq!((st[0].seat, st[0].place, st[1].place), (Seat(1), 1, 2));
}

#[test]
fn ties_share_first_place() {
    let g = game();
    let mut s = table(["7H 8H", "9D 9C", "4C", "QS"], ["2C", "", "", ""], "3D");
    act(&g, &mut s, Action::DrawTwo).unwrap();
    let st = g.standings(&s).unwrap();
    let places: Vec<(u8, u8)> = st.iter().map(|x| (x.seat.0, x.place)).collect();
    assert_eq!(places, vec![(1, 1), (2, 1), (3, 3), (4, 3)]);
    assert!(g.describe(&s, Viewer::Public).contains("Place 1: seat 2, chain of 2 cards (East)"));
}

#[test]
fn the_default_is_the_first_card_play_in_canonical_order_else_draw_two() {
    let g = game();
    // 8H fits North; 9S fits East (9D); the North chain comes first.
    let s = table(CHAINS, ["9S 8H", "", "", ""], "3D 4D");
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(g.default_action(&s), Some(Action::Play { card: f("8H"), dir: Dir::North }));
    let s = table(CHAINS, ["2C", "", "", ""], "3D 4D");
    assert_eq!(g.default_action(&s), Some(Action::DrawTwo));
}

#[test]
fn an_illegal_action_leaves_the_state_unchanged() {
    let g = game();
    let mut s = table(CHAINS, ["8H", "8D", "", ""], "3D 4D");
    let before = s.clone();
    assert!(
        act(&g, &mut s, Action::Play { card: f("8D"), dir: Dir::North })
            .unwrap_err()
            .contains("you do not hold 8D")
    );
    assert!(
        act(&g, &mut s, Action::Play { card: f("8H"), dir: Dir::South })
            .unwrap_err()
            .contains("does not fit the South chain (ends in 4C)")
    );
    assert!(
        act(&g, &mut s, Action::Claim { card: f("8H"), dir: Dir::South })
            .unwrap_err()
            .contains("claim round is over")
    );
    assert_eq!(s, before);
}
