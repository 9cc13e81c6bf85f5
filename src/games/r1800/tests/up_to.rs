//! The cards that say "up to": the number is the player's to order, and a line without one takes
//! as many as there are, up to the card's number — Urbanization (RULING E34) and Espionage's
//! Sabotage (RULING E98).

use super::super::orders::tests::sheet;
use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Orders};

/// Seat 0 (France) in its turn holding these admin cards, with two of its pops in Champagne.
fn france_with(hand: &[&str]) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = hand.iter().map(|n| admin(n)).collect();
    s.players[0].admin.sort_unstable();
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(prov("Champagne"))].pops[me] = 2;
    s
}

fn pops(s: &State, name: &str) -> u8 {
    s.provinces[usize::from(prov(name))].pops[usize::from(s.players[0].power)]
}

/// Plays the sheet's answer to the decision open now; the note of the line tried.
fn play_line(s: &mut State, line: &str) -> Result<String, String> {
    let a = game().answer_from(s, &mut sheet(&[line]));
    let note = a.notes.first().map(|n| n.note.clone()).unwrap_or_default();
    match a.action {
        Some(act) => game().apply(s, &act, &mut rng()).map(|_| note).map_err(|e| e.0),
        None => Err(note),
    }
}

#[test]
fn ruling_e34_urbanization_moves_the_number_of_pops_the_player_orders() {
    let mut s = france_with(&["Urbanization"]);
    play_line(&mut s, "PLAY Urbanization 1 Champagne TO Paris").expect("one pop");
    assert_eq!((pops(&s, "Champagne"), pops(&s, "Paris")), (1, 2), "one farmer stays");
    let mut s = france_with(&["Urbanization"]);
    play_line(&mut s, "PLAY Urbanization Champagne TO Paris").expect("no number");
    assert_eq!((pops(&s, "Champagne"), pops(&s, "Paris")), (0, 3), "without a number: up to two");
}

#[test]
fn ruling_e34_urbanization_refuses_more_pops_than_the_countryside_holds_and_changes_nothing() {
    let mut s = france_with(&["Urbanization"]);
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(prov("Champagne"))].pops[me] = 1;
    let before = s.clone();
    let why = play_line(&mut s, "PLAY Urbanization 2 Champagne TO Paris").unwrap_err();
    assert!(why.contains("Urbanization cannot be played like that"), "{why}");
    assert_eq!(s, before);
    let e = game().parse_order("PLAY Urbanization 3 Champagne TO Paris").unwrap_err();
    assert!(e.0.contains("up to 2 pops"), "{e}");
}

/// France holding Espionage and 1 C on Autocracy; Prussia's Great Works holds 4 production.
fn saboteur() -> State {
    let mut s = france_with(&["Espionage"]);
    let at = held(&s, 0, "Autocracy");
    s.players[0].cards[at].res[C] = 1;
    game().adopt(&mut s, 1, card("Great Works"));
    let gw = held(&s, 1, "Great Works");
    s.players[1].cards[gw].res[P] = 4;
    s
}

fn works(s: &State) -> u8 {
    s.players[1].cards[held(s, 1, "Great Works")].res[P]
}

#[test]
fn ruling_e98_sabotage_removes_the_number_of_resources_the_player_orders() {
    let mut s = saboteur();
    play_line(&mut s, "PLAY Espionage SABOTAGE 1 P ON Great Works OF Prussia FROM Autocracy").expect("one");
    assert_eq!(works(&s), 3, "one production removed, as ordered");
    let mut s = saboteur();
    play_line(&mut s, "PLAY Espionage SABOTAGE P ON Great Works OF Prussia FROM Autocracy").expect("up to 3");
    assert_eq!(works(&s), 1, "without a number: as many as there are, up to three");
    let e = game().parse_order("PLAY Espionage SABOTAGE 4 P ON Great Works OF Prussia FROM Autocracy");
    assert!(e.unwrap_err().0.contains("SABOTAGE [1|2|3]"));
}

#[test]
fn ruling_e98_sabotage_refuses_more_than_the_card_holds() {
    let mut s = saboteur();
    let gw = held(&s, 1, "Great Works");
    s.players[1].cards[gw].res[P] = 2;
    let before = s.clone();
    let why = play_line(&mut s, "PLAY Espionage SABOTAGE 3 P ON Great Works OF Prussia FROM Autocracy")
        .unwrap_err();
    assert!(why.contains("Espionage cannot be played like that"), "{why}");
    assert_eq!(s, before);
}
