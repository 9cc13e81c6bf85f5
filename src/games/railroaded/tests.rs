//! Rule-by-rule tests of the card rules, data file, setup and claim round (one sentence
//! each), plus the table-building helpers the other test files share.

use super::cards::{Card, Dir, Face, Suit};
use super::state::{Action, Chain, Phase, Placed, SeatState, State, StationMark};
use super::*;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, SetupSpec};

pub(super) fn game() -> Railroaded {
    Railroaded::standard().expect("the standard rules file loads")
}

pub(super) fn f(code: &str) -> Face {
    Face::parse(code).expect("test card code")
}

/// Cards from codes; a trailing `!` marks a Station linked there, `~` a moved Station.
pub(super) fn placed(dir: Dir, codes: &str) -> Vec<Placed> {
    codes
        .split_whitespace()
        .map(|w| {
            let code = w.trim_end_matches(['!', '~']);
            let station = match w.chars().last() {
                Some('!') => Some(StationMark { from: dir, linked: true }),
                Some('~') => Some(StationMark { from: dir, linked: false }),
                _ => None,
            };
            Placed { card: Card { face: f(code), copy: 1 }, station }
        })
        .collect()
}

pub(super) fn cards(codes: &str) -> Vec<Card> {
    let mut v: Vec<Card> = codes.split_whitespace().map(|w| Card { face: f(w), copy: 2 }).collect();
    v.sort();
    v
}

/// A play-phase table: chain `i` belongs to seat `i+1` (suit of its beginning card); seat 1 to
/// move; Stations 10S, KD, 2C, 5H; a Terminal of `terminal` cards (top last).
pub(super) fn table(chains: [&str; 4], hands: [&str; 4], terminal: &str) -> State {
    let chains =
        Dir::ALL.map(|d| Chain { owner: Seat::from_index(d.idx()), cards: placed(d, chains[d.idx()]) });
    let seats = (0..4)
        .map(|i| SeatState {
            suit: chains[i].cards.first().map(|p| p.card.face.suit()),
            hand: cards(hands[i]),
        })
        .collect();
    State {
        phase: Phase::Play,
        to_move: Seat(1),
        leader: Some(Seat(4)),
        turns_done: 4,
        seats,
        terminal: terminal.split_whitespace().rev().map(|w| Card { face: f(w), copy: 2 }).collect(),
        stations: [Some(f("10S")), Some(f("KD")), Some(f("2C")), Some(f("5H"))]
            .map(|o| o.map(|face| Card { face, copy: 2 })),
        chains: chains.map(Some),
    }
}

/// Applies with a fixed RNG, returning the public texts.
pub(super) fn act(g: &Railroaded, s: &mut State, a: Action) -> Result<Vec<String>, String> {
    g.apply(s, &a, &mut GameRng::for_action(1, 1))
        .map(|e| e.into_iter().map(|e| e.public).collect())
        .map_err(|e| e.0)
}

pub(super) fn faces(s: &State, seat: Seat) -> String {
    super::cards::faces_text(s.hand(seat))
}

pub(super) fn chain_codes(s: &State, d: Dir) -> String {
    s.chain(d).map(|c| super::cards::faces_text(c.cards.iter().map(|p| &p.card))).unwrap_or_default()
}

pub(super) const CHAINS: [&str; 4] = ["7H", "9D", "4C", "QS"];

#[test]
fn a_red_seven_accepts_a_red_eight_or_a_black_seven() {
    let g = game();
    for yes in ["8H", "6H", "8D", "6D", "7S", "7C"] {
        assert!(g.fits(f(yes), f("7H")), "{yes} should fit 7H");
    }
    for no in ["7H", "7D", "8S", "6C", "9H", "5D"] {
        assert!(!g.fits(f(no), f("7H")), "{no} should not fit 7H");
    }
}

#[test]
fn there_is_no_wrap_between_king_and_ace() {
    let g = game();
    assert!(!g.fits(f("AH"), f("KH")) && !g.fits(f("KD"), f("AH")));
    assert!(g.fits(f("2H"), f("AH")) && g.fits(f("QD"), f("KH")));
}

#[test]
fn the_standard_file_holds_the_numbers_of_the_rules() {
    let r = game().rules().clone();
    assert_eq!((r.decks, r.hand_size, r.seats, r.link_threshold, r.total_cards()), (2, 9, 4, 10, 104));
    assert_eq!(game().seat_counts(), 4..=4);
    assert_eq!((game().slug(), game().rules_version()), ("railroaded", 1));
}

#[test]
fn a_broken_rules_file_is_refused_naming_the_key() {
    let good = STANDARD_TOML;
    let cases = [
        (good.replace("hand_size = 9", "hand_size = \"nine\""), "hand_size"),
        (good.replace("hand_size = 9\n", ""), "hand_size"),
        (good.replace("seats = 4", "seats = 3"), "game.seats"),
        (good.replace("hand_size = 9", "hand_size = 30"), "game.hand_size"),
        (good.replace("CLUBS = \"black\"", "CLUBS = \"blue\""), "CLUBS"),
        (good.replace("decks = 2", "decks = 2\njokers = 2"), "jokers"),
        (good.replace("\"EAST\", \"SOUTH\"", "\"SOUTH\", \"EAST\""), "game.directions"),
        (good.replace("\"J\", \"Q\"", "\"Q\", \"J\""), "game.ranks"),
    ];
    for (text, key) in cases {
        let err = Railroaded::from_toml(&text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains(key), "expected an error naming {key}, got {err:?}");
    }
}

#[test]
fn setup_deals_nine_each_four_stations_and_leaves_sixty_four_in_the_terminal() {
    let g = game();
    let s = g
        .setup(&SetupSpec { seats: 4, options: serde_json::Value::Null }, &mut GameRng::for_setup(3))
        .unwrap();
    assert!(s.seats.iter().all(|x| x.hand.len() == 9));
    assert!(s.stations.iter().all(Option::is_some));
    assert_eq!(s.terminal.len(), 64);
    assert_eq!(s.all_cards().len(), 104);
    assert!(
        g.setup(&SetupSpec { seats: 3, options: serde_json::Value::Null }, &mut GameRng::for_setup(3))
            .is_err()
    );
}

pub(super) fn claim_table() -> State {
    let g = game();
    let mut s = g
        .setup(&SetupSpec { seats: 4, options: serde_json::Value::Null }, &mut GameRng::for_setup(1))
        .unwrap();
    s.seats[0].hand = cards("7H 2D 3D");
    s.seats[1].hand = cards("8D 9H");
    s.seats[2].hand = cards("4C 5C");
    s.seats[3].hand = cards("6S 2H");
    s
}

#[test]
fn the_fourth_chooser_leads() {
    let g = game();
    let mut s = claim_table();
    assert_eq!(g.acting_seats(&s), vec![Seat(1), Seat(2), Seat(3), Seat(4)]);
    for (seat, card, dir) in [(1, "7H", Dir::South), (2, "8D", Dir::North), (3, "4C", Dir::West)] {
        assert_eq!(s.to_move, Seat(seat));
        act(&g, &mut s, Action::Claim { card: f(card), dir }).unwrap();
    }
    // The last chooser still picks the card; only EAST and Spades are left.
    assert_eq!(g.legal_for(&s, Seat(4)), vec![Action::Claim { card: f("6S"), dir: Dir::East }]);
    act(&g, &mut s, Action::Claim { card: f("6S"), dir: Dir::East }).unwrap();
    assert_eq!((s.phase, s.to_move, s.leader), (Phase::Play, Seat(4), Some(Seat(4))));
    assert_eq!(g.acting_seats(&s), vec![Seat(4), Seat(1), Seat(2), Seat(3)]);
    assert_eq!(s.chain_of(Seat(2)), Some(Dir::North));
    assert_eq!(faces(&s, Seat(1)), "2D 3D", "claiming draws nothing");
}

#[test]
fn a_claimed_suit_or_compass_point_cannot_be_claimed_again() {
    let g = game();
    let mut s = claim_table();
    act(&g, &mut s, Action::Claim { card: f("7H"), dir: Dir::North }).unwrap();
    let before = s.clone();
    assert!(
        act(&g, &mut s, Action::Claim { card: f("9H"), dir: Dir::East })
            .unwrap_err()
            .contains("Hearts is already claimed")
    );
    assert!(
        act(&g, &mut s, Action::Claim { card: f("8D"), dir: Dir::North })
            .unwrap_err()
            .contains("NORTH is already taken")
    );
    assert_eq!(s, before);
}

#[test]
fn a_player_without_an_unclaimed_suit_reveals_from_the_terminal() {
    let g = game();
    let mut s = claim_table();
    s.seats[3].hand = cards("2H 3D"); // seat 4 will hold no Spades (the last suit)
    for (card, dir) in [("7H", Dir::North), ("8D", Dir::East), ("4C", Dir::South)] {
        act(&g, &mut s, Action::Claim { card: f(card), dir }).unwrap();
    }
    // RULING R1: the fallback applies to the last chooser too.
    assert_eq!(g.legal_for(&s, Seat(4)), vec![Action::Reveal { suit: Suit::Spades, dir: Dir::West }]);
    s.terminal.extend(["3S", "9D", "5C"].map(|c| Card { face: f(c), copy: 1 }));
    let size = s.terminal.len();
    let text = act(&g, &mut s, Action::Reveal { suit: Suit::Spades, dir: Dir::West }).unwrap().join(" ");
    assert!(text.contains("revealed 5C 9D then 3S"), "{text}");
    assert_eq!(chain_codes(&s, Dir::West), "3S");
    assert_eq!(s.terminal.len(), size - 1);
    assert_eq!(s.phase, Phase::Play);
}

#[test]
fn a_player_holding_an_unclaimed_suit_may_not_reveal() {
    let g = game();
    let mut s = claim_table();
    let err = act(&g, &mut s, Action::Reveal { suit: Suit::Spades, dir: Dir::North }).unwrap_err();
    assert!(err.contains("you hold 7H of the unclaimed Hearts"), "{err}");
}

#[test]
fn a_reveal_finding_no_card_of_the_suit_takes_the_first_station_of_it() {
    let g = game();
    let mut s = claim_table();
    s.seats[0].hand = Vec::new(); // no card of any (unclaimed) suit
    s.terminal = cards("5C 9D");
    s.stations = ["2S", "3S", "JH", "4S"].map(|c| Some(Card { face: f(c), copy: 1 }));
    act(&g, &mut s, Action::Reveal { suit: Suit::Hearts, dir: Dir::East }).unwrap();
    assert_eq!(chain_codes(&s, Dir::East), "JH");
    assert_eq!(s.terminal.len(), 1, "the top Terminal card replaced the South Station");
    assert!(s.stations[2].is_some());
}
