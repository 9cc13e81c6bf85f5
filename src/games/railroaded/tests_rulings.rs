//! One test per ruling that had none (docs/RULINGS.md, Railroaded): R3 (a reveal that finds no
//! card of the suit), R14 (the claim-round default), R15 (two identical decks), R16 (the
//! whole Terminal is shuffled after a reveal) and R17 (card values). Each checks what its
//! ruling says.

use super::cards::{Card, Dir, Suit};
use super::state::{Action, Phase, State};
use super::tests::{CHAINS, act, cards, chain_codes, claim_table, f, faces, game, table};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, Viewer};

/// Cards with deck copy 1 (the helpers' `cards` uses copy 2), as a Terminal (top last).
fn terminal(codes: &str) -> Vec<Card> {
    codes.split_whitespace().rev().map(|w| Card { face: f(w), copy: 1 }).collect()
}

fn sorted(mut v: Vec<Card>) -> Vec<Card> {
    v.sort();
    v
}

#[test]
fn rule_r3_a_reveal_without_the_suit_in_the_terminal_takes_the_first_station_of_it_north_first() {
    let g = game();
    let mut s = claim_table();
    s.seats[0].hand = Vec::new(); // no card of any unclaimed suit: seat 1 must reveal (R1)
    s.terminal = terminal("5C 9D 2S KC");
    let before = sorted(s.terminal.clone());
    // Hearts at East and West: East comes first in the order North, East, South, West.
    s.stations = ["2S", "JH", "3C", "4H"].map(|c| Some(Card { face: f(c), copy: 1 }));
    let text = act(&g, &mut s, Action::Reveal { suit: Suit::Hearts, dir: Dir::South }).unwrap().join(" ");
    assert!(text.contains("the whole Terminal was revealed without a card of Hearts"), "{text}");
    assert_eq!(chain_codes(&s, Dir::South), "JH", "the first Station of Hearts begins the chain");
    assert_eq!(s.stations[3].map(|c| c.face), Some(f("4H")), "the West Station stays");
    // All revealed cards went back; the top card of the Terminal replaced the East Station.
    let east = s.stations[1].expect("the East Station was replaced");
    let mut after = s.terminal.clone();
    after.push(east);
    assert_eq!(sorted(after), before);
    assert_eq!(faces(&s, Seat(2)), "9H 8D", "no hand was touched");
}

#[test]
fn rule_r3_without_a_station_of_the_suit_the_nearest_hand_to_the_left_gives_its_lowest_card() {
    let g = game();
    let mut s = claim_table();
    s.seats[0].hand = Vec::new();
    s.seats[1].hand = cards("8D 9C"); // seat 2, the nearest to the left, holds no Hearts
    s.seats[2].hand = cards("9H 3H 4C"); // seat 3 gives up its lowest Heart
    s.seats[3].hand = cards("2H 6S");
    s.terminal = terminal("5C 9D 2S KC");
    s.stations = ["2S", "JD", "3C", "4S"].map(|c| Some(Card { face: f(c), copy: 1 }));
    let text = act(&g, &mut s, Action::Reveal { suit: Suit::Hearts, dir: Dir::West }).unwrap().join(" ");
    assert!(text.contains("seat 3 gives up 3H"), "{text}");
    assert_eq!(chain_codes(&s, Dir::West), "3H");
    assert_eq!(s.hand(Seat(3)).len(), 3, "seat 3 drew a replacement from the Terminal");
    assert!(faces(&s, Seat(3)).contains("9H") && !faces(&s, Seat(3)).contains("3H"));
    assert_eq!(s.terminal.len(), 3);
    assert_eq!(faces(&s, Seat(4)), "2H 6S", "a farther hand keeps its cards");
    assert_eq!(
        s.stations.map(|c| c.map(|c| c.face.to_string())),
        ["2S", "JD", "3C", "4S"].map(|x| Some(x.into()))
    );
}

#[test]
fn rule_r14_the_claim_round_default_is_the_first_legal_claim_in_canonical_order() {
    let g = game();
    let mut s = claim_table();
    let default = |s: &State| g.default_action(s);
    // Seat 1 (7H 2D 3D): Hearts comes first, at the first free point, North.
    assert_eq!(default(&s), Some(Action::Claim { card: f("7H"), dir: Dir::North }));
    act(&g, &mut s, Action::Claim { card: f("7H"), dir: Dir::East }).unwrap();
    // Seat 2: Hearts is claimed; Diamonds before Spades, and by rank Ace to King: 2D before
    // KD; North is still the first free point.
    s.seats[1].hand = cards("KD 9H 5S 2D");
    assert_eq!(default(&s), Some(Action::Claim { card: f("2D"), dir: Dir::North }));
    let a = default(&s).expect("a default");
    act(&g, &mut s, a).unwrap();
    // Seat 3 holds no Clubs or Spades: a reveal of the first unclaimed suit (Clubs) at the
    // first free point (South).
    s.seats[2].hand = cards("4H 6D");
    assert_eq!(default(&s), Some(Action::Reveal { suit: Suit::Clubs, dir: Dir::South }));
}

#[test]
fn rule_r15_a_player_holding_both_copies_plays_one_and_it_makes_no_difference_which() {
    let g = game();
    let mut s = table(CHAINS, ["", "", "", ""], "3D 4D");
    s.seats[0].hand = vec![Card { face: f("8H"), copy: 1 }, Card { face: f("8H"), copy: 2 }];
    // Orders and actions name the face only; it is listed once.
    assert!(g.parse_order("PLAY 8H#2 NORTH").is_err());
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    let plays: Vec<Action> = g
        .legal_actions(&s)
        .into_iter()
        .filter(|a| matches!(a, Action::Play { dir: Dir::North, .. }))
        .collect();
    assert_eq!(plays, vec![Action::Play { card: f("8H"), dir: Dir::North }]);
    let mut other = s.clone();
    act(&g, &mut s, Action::Play { card: f("8H"), dir: Dir::North }).unwrap();
    assert_eq!(faces(&s, Seat(1)), "8H 3D", "one copy is played, the other stays");
    // The same play with the other copy: every view, description and legal action is the same.
    let copy = other.seats[0].hand.remove(1);
    if let Some(c) = other.chains[0].as_mut() {
        c.cards.push(super::state::Placed::plain(copy));
    }
    let drawn = other.terminal.pop().expect("a card to draw");
    other.seats[0].hand.push(drawn);
    other.to_move = Seat(2);
    other.turns_done += 1;
    assert_ne!(other, s, "a different physical card was played");
    for v in [Viewer::Public, Viewer::Gm, Viewer::Seat(Seat(1)), Viewer::Seat(Seat(2))] {
        assert_eq!(g.view(&s, v), g.view(&other, v));
        assert_eq!(g.describe(&s, v), g.describe(&other, v));
    }
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(g.legal_actions(&s), g.legal_actions(&other));
}

#[test]
fn rule_r16_a_reveal_shuffles_the_whole_terminal_with_the_game_rng_and_only_after_passing_cards() {
    let g = game();
    let codes = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D";
    // The first card revealed is a Spade: nothing is shuffled.
    let mut s = claim_table();
    s.seats[0].hand = Vec::new();
    s.terminal = terminal(&format!("7S {codes}"));
    let rest = s.terminal[..s.terminal.len() - 1].to_vec();
    act(&g, &mut s, Action::Reveal { suit: Suit::Spades, dir: Dir::North }).unwrap();
    assert_eq!(s.terminal, rest, "the Terminal keeps its order");
    // Two cards are passed over: they go back and the whole Terminal is shuffled, the cards
    // never revealed included, with the game's seeded generator.
    let mut s = claim_table();
    s.seats[0].hand = Vec::new();
    s.terminal = terminal(&format!("AH KH 7S {codes}"));
    let below = s.terminal[..s.terminal.len() - 3].to_vec();
    let mut expected = below.clone();
    expected.extend(terminal("KH AH"));
    GameRng::for_action(1, 1).shuffle(&mut expected);
    act(&g, &mut s, Action::Reveal { suit: Suit::Spades, dir: Dir::North }).unwrap();
    assert_eq!(chain_codes(&s, Dir::North), "7S");
    assert_eq!(s.terminal, expected);
    assert_ne!(&s.terminal[..below.len()], &below[..], "the cards below were shuffled too");
    assert_eq!(s.phase, Phase::Claim);
}

#[test]
fn rule_r17_an_ace_is_one_and_jack_queen_king_are_eleven_to_thirteen_without_wrap() {
    let g = game();
    let ranks: Vec<u8> = ["AS", "10S", "JS", "QS", "KS"].iter().map(|c| f(c).rank()).collect();
    assert_eq!(ranks, vec![1, 10, 11, 12, 13]);
    for (card, onto) in [("JH", "10H"), ("QD", "JH"), ("KH", "QD"), ("AC", "2S"), ("JS", "JH")] {
        assert!(g.fits(f(card), f(onto)), "{card} fits {onto}");
    }
    for (card, onto) in [("AH", "KH"), ("KS", "AC"), ("JH", "KH"), ("QH", "10D")] {
        assert!(!g.fits(f(card), f(onto)), "{card} does not fit {onto}");
    }
}
