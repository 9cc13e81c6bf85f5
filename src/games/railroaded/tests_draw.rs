//! The picture of the table (issue 16): snapshots of fixture positions, and a seat's drawing
//! showing nothing of another seat's hand.

use super::cards::Dir;
use super::tests::{cards, game, table};
use crate::draw::snapshot::assert_drawing;
use crate::engine::prelude::*;
use crate::engine::{Seat, Viewer};

/// A play-phase table: North linked up (its Station 10S lies in the chain), East long.
fn fixture() -> super::State {
    let mut s = table(
        ["7H 8H 9H 9S 10S! JS", "9D 9C 10C JC QC KC KH QH JH 10H 9H 8H", "4C 5C", "QS KS"],
        ["2H 3D AS", "4H 5D 6C 7S", "8D 9C", "AH KD"],
        "3C 4D 5S 6H 7C",
    );
    s.stations[Dir::North.idx()] = None;
    s
}

#[test]
fn the_drawing_of_a_seat_shows_the_four_chains_its_hand_and_the_terminal() {
    let svg = game().draw(&fixture(), Viewer::Seat(Seat(1))).expect("railroaded draws");
    assert!(svg.contains("Terminal: 5 cards face down"), "{svg}");
    assert!(svg.contains("Hand of seat 1") && !svg.contains("Hand of seat 2"), "{svg}");
    assert_drawing("railroaded_seat1.svg", &svg);
}

#[test]
fn the_public_drawing_shows_no_hand() {
    let svg = game().draw(&fixture(), Viewer::Public).expect("railroaded draws");
    assert!(!svg.contains("Hand of"), "{svg}");
    assert!(svg.contains("Cards in hand: seat 1 3, seat 2 4, seat 3 2, seat 4 2"), "{svg}");
    assert_drawing("railroaded_public.svg", &svg);
}

#[test]
fn a_seats_drawing_holds_nothing_of_another_seats_hand() {
    let g = game();
    let s = fixture();
    let mut other = s.clone();
    // Seat 2's hand changes; everything seat 1 may know stays (the hand's size included).
    other.seats[1].hand = cards("2C 3C 4S 5S");
    let seat1 = |st: &super::State| g.draw(st, Viewer::Seat(Seat(1)));
    assert_eq!(seat1(&s), seat1(&other));
    assert_eq!(g.draw(&s, Viewer::Public), g.draw(&other, Viewer::Public));
    // The test can fail: seat 2's own drawing and the GM's show the hand.
    assert_ne!(g.draw(&s, Viewer::Seat(Seat(2))), g.draw(&other, Viewer::Seat(Seat(2))));
    assert_ne!(g.draw(&s, Viewer::Gm), g.draw(&other, Viewer::Gm));
}

#[test]
fn a_player_name_or_text_can_never_break_the_document() {
    // Every text goes through the escaping writer: the document parses and renders.
    let svg = game().draw(&fixture(), Viewer::Gm).expect("railroaded draws");
    crate::draw::png(&svg).expect("the drawing renders");
}
