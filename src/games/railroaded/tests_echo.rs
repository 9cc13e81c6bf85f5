//! The echo at submission (issue 36): a line for another phase than the turn's (PLAY in the
//! claim round, CLAIM in play), a name misspelt with the one meant, a card not in hand — each on
//! its line, and never from another seat's hand. The order box's example follows the phase.

use super::state::State;
use super::tests::{CHAINS, claim_table, game, table};
use crate::engine::Seat;
use crate::engine::prelude::*;
use crate::orders::{Echo, parse_sheet};

fn echo(s: &State, text: &str) -> Echo {
    parse_sheet(&game(), text, Some((s, Seat(1)))).1
}

fn advice(e: &Echo, line: usize) -> String {
    e.lines.iter().find(|l| l.line == line).and_then(|l| l.advice.clone()).unwrap_or_default()
}

#[test]
fn issue_36_a_play_line_in_the_claim_round_is_flagged_on_its_line() {
    let e = echo(&claim_table(), "CLAIM 7H NORTH\nPLAY 7H NORTH\nDRAW");
    assert_eq!(advice(&e, 1), "");
    assert_eq!(
        advice(&e, 2),
        "not played this turn: PLAY 7H NORTH is an order for the rounds of play; this turn is the claim round, which takes CLAIM only"
    );
    assert!(advice(&e, 3).starts_with("not played this turn: DRAW is an order for the rounds of play"));
}

#[test]
fn issue_36_a_claim_line_in_play_is_flagged_on_its_line() {
    let s = table(CHAINS, ["8H", "", "", ""], "3D 4D");
    let e = echo(&s, "CLAIM HEARTS NORTH\nCLAIM 8H NORTH ELSE PLAY 8H NORTH\nPLAY 8H NORTH");
    assert!(advice(&e, 1).starts_with(
        "not played this turn: CLAIM HEARTS NORTH is an order for the claim round, which is over"
    ));
    let mixed = advice(&e, 2);
    assert!(
        mixed.starts_with("CLAIM 8H NORTH is an order for the claim round"),
        "an alternative of this phase remains: {mixed}"
    );
    assert_eq!(advice(&e, 3), "");
}

#[test]
fn issue_36_a_misspelt_compass_point_or_suit_is_not_understood_with_the_one_meant() {
    let e = echo(&claim_table(), "CLAIM 7H NROTH\nCLAIM HAERTS NORTH");
    assert_eq!(e.errors, 2);
    assert_eq!(e.lines[0].suggestion.as_deref(), Some("did you mean `CLAIM 7H NORTH`?"));
    assert_eq!(e.lines[1].suggestion.as_deref(), Some("did you mean `CLAIM HEARTS NORTH`?"));
}

#[test]
fn issue_36_a_card_not_in_hand_is_flagged_and_another_seats_hand_is_never_told() {
    // Seat 2 holds 8D; nobody holds 10C: seat 1's echo reads the same for both.
    let s = claim_table();
    let e = echo(&s, "CLAIM 8D EAST\nCLAIM 10C EAST");
    assert_eq!(advice(&e, 1), "you do not hold 8D");
    assert_eq!(advice(&e, 2).replace("10C", "8D"), advice(&e, 1));
}

#[test]
fn issue_36_the_order_box_shows_claims_in_the_claim_round_and_plays_after_it() {
    let g = game();
    let s = claim_table();
    let example = g.order_example_at(&s);
    for word in ["PLAY", "LINK", "DRAW"] {
        assert!(!example.contains(word), "{word} in the claim round's example: {example}");
    }
    let e = echo(&s, example);
    assert!(e.errors == 0 && e.lines.iter().all(|l| !advice(&e, l.line).contains("not played")), "{e:?}");
    let play = table(CHAINS, ["8H", "", "", ""], "3D 4D");
    assert_eq!(g.order_example_at(&play), g.order_example());
}
