//! The picture of the table (issue 16): snapshots of a fixture position, and a seat's drawing
//! showing nothing of another seat's hand.

use super::state::{Route, State};
use super::tests::{game, give, pull, table, to_pool};
use super::*;
use crate::draw::snapshot::assert_drawing;
use crate::engine::prelude::*;
use crate::engine::{Seat, Viewer};

/// Three players; seat 1 runs Richmond-Washington-Baltimore with a Level 1, seat 2 a branching
/// route; seat 1 holds five cards, seat 2 three; a pool of four; a discard pile.
fn fixture() -> State {
    let g = game();
    let mut s = table(&g, 3);
    let route = |s: &mut State, loco: &str, names: &[&str], links: &[(usize, usize)]| {
        let cards: Vec<CardId> = names.iter().map(|n| pull(&g, s, n)).collect();
        let links = links.iter().map(|(a, b)| (cards[*a], cards[*b])).collect();
        Route { loco: pull(&g, s, loco), cards, links }
    };
    let r1 = route(&mut s, "Level 1", &["Richmond", "Washington", "Baltimore"], &[(0, 1), (1, 2)]);
    s.players[0].routes.push(r1);
    let r2 = route(
        &mut s,
        "Level 2",
        &["Baltimore", "Lancaster", "Altoona", "Philadelphia", "Harrisburg"],
        &[(0, 1), (1, 2), (0, 3), (0, 4)],
    );
    s.players[1].routes.push(r2);
    give(&g, &mut s, 0, &["New York", "Albany", "Boston", "Level 2", "PRR"]);
    give(&g, &mut s, 1, &["Buffalo", "Level 3", "Re-Shuffle"]);
    to_pool(&g, &mut s, &["New York", "Washington", "Level 1", "B&O"]);
    let top = pull(&g, &mut s, "Albany");
    s.discard.push(top);
    s
}

#[test]
fn the_drawing_of_a_seat_shows_its_hand_every_route_and_the_pool() {
    let svg = game().draw(&fixture(), Viewer::Seat(Seat(1))).expect("1833 draws");
    assert!(svg.contains("Hand of seat 1") && !svg.contains("Hand of seat 2"), "{svg}");
    assert!(svg.contains("Route 1: Level 1, 6 VP"), "{svg}");
    assert_drawing("r1833_seat1.svg", &svg);
}

#[test]
fn the_public_drawing_shows_no_hand() {
    let svg = game().draw(&fixture(), Viewer::Public).expect("1833 draws");
    assert!(!svg.contains("Hand of"), "{svg}");
    assert_drawing("r1833_public.svg", &svg);
}

#[test]
fn a_seats_drawing_holds_nothing_of_another_seats_hand() {
    let g = game();
    let s = fixture();
    let mut other = s.clone();
    // Seat 2's hand is swapped with cards from the deck: seat 1 cannot know which it holds.
    let hand = std::mem::take(&mut other.players[1].hand);
    let fresh: Vec<CardId> = other.draw.drain(..hand.len()).collect();
    other.draw.extend(hand);
    other.players[1].hand = fresh;
    assert_eq!(g.draw(&s, Viewer::Seat(Seat(1))), g.draw(&other, Viewer::Seat(Seat(1))));
    assert_eq!(g.draw(&s, Viewer::Public), g.draw(&other, Viewer::Public));
    assert_ne!(g.draw(&s, Viewer::Seat(Seat(2))), g.draw(&other, Viewer::Seat(Seat(2))));
}
