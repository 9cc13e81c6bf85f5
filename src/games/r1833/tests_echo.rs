//! The echo at submission (issue 36): each line judged on its own line after the lines before
//! it — a line for another phase, an unknown card name with the nearest the deck knows, a card
//! not in hand, a pool card not in the pool — and never from another seat's hand. The order
//! box's example follows the phase.

use super::state::{Phase, State};
use super::tests::{game, give, table, to_pool};
use super::*;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, SetupSpec};
use crate::orders::{Echo, parse_sheet};

/// The echo of `text` for seat 1 at `s`; every line must be understood.
fn echo(g: &R1833, s: &State, text: &str) -> Echo {
    let (_, echo) = parse_sheet(g, text, Some((s, Seat(1))));
    assert_eq!(echo.errors, 0, "{echo:?}");
    echo
}

fn advice(e: &Echo, line: usize) -> String {
    e.lines.iter().find(|l| l.line == line).and_then(|l| l.advice.clone()).unwrap_or_default()
}

/// A new 3-player game in its set-up selection.
fn selection(g: &R1833) -> State {
    let spec = SetupSpec { seats: 3, options: serde_json::json!({}) };
    let s = g.setup(&spec, &mut GameRng::for_setup(7)).expect("set up");
    assert!(matches!(s.phase, Phase::Select { .. }));
    s
}

#[test]
fn issue_36_a_turns_order_in_the_set_up_selection_is_flagged_on_its_line() {
    let g = game();
    let s = selection(&g);
    let shown = g.deck().name(s.display[0]);
    let e = echo(&g, &s, &format!("SELECT {shown}\nDRAW POOL Philadelphia\nTAKE DISCARD: any Level 3"));
    assert_eq!(advice(&e, 1), "", "a SELECT of a displayed card is this phase's order");
    let flagged = advice(&e, 2);
    assert!(flagged.starts_with("not played this turn: this turn is the set-up selection"), "{flagged}");
    assert!(flagged.contains("DRAW POOL Philadelphia is for your turns of play"), "{flagged}");
    assert_eq!(advice(&e, 3), "", "standing pick-up orders hold in every phase");
}

#[test]
fn issue_36_a_select_in_play_is_flagged_on_its_line() {
    let g = game();
    let mut s = table(&g, 3);
    give(&g, &mut s, 0, &["Level 1"]);
    let e = echo(&g, &s, "DRAW DECK\nSELECT Boston, PRR");
    assert_eq!(advice(&e, 1), "");
    assert_eq!(advice(&e, 2), "not played this turn: SELECT is for the set-up selection, which is over");
}

#[test]
fn issue_36_an_unknown_card_name_is_flagged_with_the_name_meant() {
    let g = game();
    let s = table(&g, 3);
    let e = echo(&g, &s, "DRAW POOL Philadelfia\nTAKE DISCARD: Baltimor, any city\nDISCARD Xanadu");
    assert_eq!(
        advice(&e, 1),
        "there is no card 'Philadelfia' in this game's deck (did you mean Philadelphia?)"
    );
    assert!(advice(&e, 2).contains("'Baltimor' in this game's deck (did you mean Baltimore?)"), "{e:?}");
    assert_eq!(advice(&e, 3), "there is no card 'Xanadu' in this game's deck", "nothing near: no guess");
}

#[test]
fn issue_36_a_card_not_in_hand_is_flagged_after_the_lines_before_it() {
    let g = game();
    let mut s = table(&g, 3);
    give(&g, &mut s, 0, &["Level 2", "Richmond", "Washington"]);
    to_pool(&g, &mut s, &["Baltimore"]);
    let text = "CREATE L2: Richmond-Washington-Baltimore\nDRAW POOL Baltimore\n\
                CREATE L2: Richmond-Washington-Baltimore\nDISCARD Boston\nDRAW POOL Boston\n\
                IF HAND HAS Boston THEN DISCARD Boston";
    let e = echo(&g, &s, text);
    assert_eq!(advice(&e, 1), "you do not hold Baltimore now");
    assert_eq!(advice(&e, 2), "");
    assert_eq!(advice(&e, 3), "", "the pool card drawn on line 2 is in hand by line 3");
    assert_eq!(advice(&e, 4), "you do not hold Boston now");
    assert_eq!(advice(&e, 5), "Boston is not in the pool now");
    assert_eq!(advice(&e, 6), "", "a condition on the card is the player's own check");
    let after_draw = echo(&g, &s, "DRAW DECK\nDISCARD Boston");
    assert_eq!(
        advice(&after_draw, 2),
        "you do not hold Boston now (unless a card you draw before this line is one)"
    );
}

#[test]
fn issue_36_the_echo_never_tells_what_another_seat_holds() {
    let g = game();
    let mut s = table(&g, 3);
    give(&g, &mut s, 0, &["Level 1"]);
    let text = "DISCARD Boston\nCREATE L1: Boston-Albany\nDRAW POOL Boston";
    let before = echo(&g, &s, text);
    give(&g, &mut s, 1, &["Boston", "Albany"]);
    assert_eq!(echo(&g, &s, text), before, "seat 2 holding the cards changes nothing in seat 1's echo");
    assert_eq!(advice(&before, 1), "you do not hold Boston now");
}

#[test]
fn issue_36_the_order_box_shows_the_selection_in_set_up_and_turns_in_play() {
    let g = game();
    let s = selection(&g);
    let example = g.order_example_at(&s);
    assert!(example.contains("SELECT") && !example.contains("DRAW"), "{example}");
    let (_, e) = parse_sheet(&g, example, Some((&s, Seat(1))));
    assert_eq!(e.errors, 0, "{e:?}");
    assert!(e.lines.iter().all(|l| !l.advice.as_deref().unwrap_or("").contains("not played")), "{e:?}");
    assert_eq!(g.order_example_at(&table(&g, 3)), g.order_example());
}
