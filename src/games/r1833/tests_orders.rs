//! The order language and turns played from sealed orders through the generic turn loop:
//! parsing, conditions, standing pick-up orders, the default and NMR, the PBEM turn sizes.

use super::orders::parse;
use super::state::{Action, Phase, State, TakeRule, TurnSize};
use super::tests::{game, give, names, on_top, table, to_pool};
use super::*;
use crate::adjudication::run_turn;
use crate::engine::prelude::*;
use crate::engine::{OrderSheet, Seat};
use crate::orders::parse_sheet;
use std::collections::BTreeMap;

fn sheets(g: &R1833, orders: &[(u8, &str)]) -> BTreeMap<Seat, OrderSheet<Order>> {
    orders.iter().map(|(seat, text)| (Seat(*seat), parse_sheet(g, text, None).0)).collect()
}

fn run(g: &R1833, s: &State, orders: &[(u8, &str)]) -> crate::adjudication::TurnResult<R1833> {
    run_turn(g, s, 7, 1, sheets(g, orders)).expect("adjudicates")
}

#[test]
fn orders_print_back_in_canonical_form() {
    for line in [
        "DRAW DECK",
        "DRAW DECK 3",
        "DRAW DECK TO LIMIT",
        "DRAW POOL New York",
        "DRAW DISCARD",
        "DISCARD Albany & Susquehanna",
        "CREATE L2: Richmond-Washington-Baltimore",
        "CREATE: Baltimore-Washington, Baltimore-Cumberland",
        "EXTEND ROUTE 2 WITH L3: Baltimore-Harrisburg",
        "RESHUFFLE",
        "END",
        "SELECT Boston, PRR, Level 2",
        "TAKE DISCARD: Philadelphia, any Level 3, any city",
        "TAKE DISCARD: NONE",
        "IF HAND HAS Philadelphia AND Level 2 THEN CREATE L2: Philadelphia-Baltimore",
    ] {
        assert_eq!(parse(line).map(|o| o.to_string()).expect(line), line);
    }
    assert_eq!(parse("  draw   pool  new york ").expect("lower case").to_string(), "DRAW POOL new york");
}

#[test]
fn parse_errors_name_the_problem() {
    let err = |l: &str| parse(l).expect_err(l).0;
    assert!(err("FLY TO Boston").contains("unknown order 'FLY TO Boston'"));
    assert!(err("DRAW DECK 12").contains("1 to 8"));
    assert!(err("CREATE L2 Richmond-Washington").contains("':' must come before the layout"));
    assert!(err("CREATE L4: Richmond-Washington").contains("not a locomotive level"));
    assert!(err("CREATE L2: Richmond").contains("not a path"));
    assert!(err("EXTEND ROUTE x: A-B").contains("route number"));
    assert!(err("IF HAND HAS Boston DISCARD Boston").contains("THEN"));
    assert!(err("TAKE DISCARD: any Level 7").contains("not a locomotive level"));
}

#[test]
fn a_turn_is_played_from_orders_in_sequence() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Level 2", "Richmond"]);
    to_pool(&g, &mut s, &["Washington", "Boston"]);
    on_top(&g, &mut s, &["Toronto", "Baltimore"]);
    let r = run(&g, &s, &[(1, "DRAW POOL Washington\nDRAW DECK\nCREATE L2: Richmond-Washington-Baltimore")]);
    let p = &r.state.players[0];
    assert_eq!(p.routes.len(), 1, "{:?}", r.notes);
    assert_eq!(p.limit, 6);
    assert_eq!(r.state.active, 1, "the turn ended when the orders ran out");
    assert!(r.nmr.is_empty());
}

#[test]
fn a_condition_on_the_hand_is_read_when_the_line_is_reached() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany"]);
    to_pool(&g, &mut s, &["Philadelphia", "Toronto"]);
    let orders = "DRAW POOL Philadelphia\nIF HAND HAS Philadelphia THEN DISCARD Boston\nIF HAND HAS Toronto THEN DISCARD Albany";
    let r = run(&g, &s, &[(1, orders)]);
    assert_eq!(names(&g, &r.state.players[0].hand), ["Albany", "Philadelphia"]);
    let notes = &r.notes[&Seat(1)];
    assert!(notes.iter().any(|n| n.line == 3 && !n.executed && n.note.contains("no Toronto")), "{notes:?}");
}

#[test]
fn standing_pick_up_orders_take_a_discard_for_another_seat() {
    let g = game();
    let mut s = table(&g, 3);
    s.turn_size = TurnSize::Round;
    give(&g, &mut s, 0, &["Boston", "Albany"]);
    let r = run(
        &g,
        &s,
        &[
            (1, "DISCARD Boston"),
            (2, "TAKE DISCARD: Philadelphia\nDRAW DECK"),
            (3, "TAKE DISCARD: any city\nDRAW DECK"),
        ],
    );
    assert_eq!(names(&g, &r.state.players[2].hand)[0], "Boston", "seat 3 took it; seat 2 declined");
    assert_eq!(r.state.players[1].standing.len(), 1);
    assert!(!r.nmr.contains(&Seat(2)) && !r.nmr.contains(&Seat(3)));
}

#[test]
fn in_a_player_turn_other_seats_answer_offers_from_standing_orders_recorded_earlier() {
    let g = game();
    let mut s = table(&g, 2);
    let boston = g.deck().lookup("Boston").expect("Boston");
    s.players[1].standing = vec![TakeRule::Kind(boston)];
    give(&g, &mut s, 0, &["Boston", "Albany"]);
    give(&g, &mut s, 0, &["Toronto"]);
    let r = run(&g, &s, &[(1, "DISCARD Boston\nDISCARD Albany\nDISCARD Toronto")]);
    assert_eq!(names(&g, &r.state.players[1].hand), ["Boston"]);
    assert_eq!(names(&g, &r.state.discard), ["Albany"]);
    let notes = &r.notes[&Seat(1)];
    assert!(notes.iter().any(|n| n.line == 3 && !n.executed), "no further discard after Albany: {notes:?}");
    assert!(r.nmr.is_empty(), "declining an offer without orders is no NMR");
    assert!(g.turn_complete(&s, &r.state));
}

#[test]
fn take_discard_lines_are_recorded_as_standing_orders_in_the_seats_own_turn() {
    let g = game();
    let s = table(&g, 2);
    let r = run(&g, &s, &[(1, "TAKE DISCARD: Philadelphia, any Level 3\nDRAW DECK")]);
    let p = &r.state.players[0];
    assert_eq!(p.standing.len(), 2);
    assert_eq!(p.hand.len(), 1);
}

#[test]
fn missing_orders_draw_to_the_hand_limit_from_the_deck_and_count_an_nmr() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston"]);
    let r = run(&g, &s, &[]);
    assert_eq!(r.state.players[0].hand.len(), 5);
    assert_eq!(r.actions.len(), 1);
    assert!(r.nmr.contains(&Seat(1)) && r.defaulted.contains(&Seat(1)));
}

#[test]
fn orders_that_cannot_be_carried_out_fall_back_to_the_default() {
    let g = game();
    let s = table(&g, 2);
    let r = run(&g, &s, &[(1, "DISCARD Boston")]);
    // RULING S2 / HR 16: orders that cannot be carried out are reported, not an NMR.
    assert!(r.defaulted.contains(&Seat(1)) && !r.nmr.contains(&Seat(1)));
    assert!(r.notes[&Seat(1)].iter().any(|n| !n.executed), "{:?}", r.notes);
    assert_eq!(r.state.players[0].hand.len(), 5);
}

#[test]
fn a_route_can_be_extended_by_orders_naming_its_cards_and_a_new_locomotive() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Level 1", "Boston", "Albany", "Level 3", "Syracuse"]);
    let r = run(&g, &s, &[(1, "CREATE L1: Boston-Albany")]);
    let mut s = r.state;
    s.active = 0;
    s.turn = Default::default();
    let r = run(&g, &s, &[(1, "EXTEND ROUTE 1: Albany-Syracuse")]);
    let route = &r.state.players[0].routes[0];
    assert_eq!(route.cards.len(), 3, "{:?}", r.notes);
    assert_eq!(g.deck().name(route.loco), "Level 3");
}

#[test]
fn the_set_up_selection_is_one_turn_for_everyone_with_preference_lists() {
    let g = game();
    let spec = crate::engine::SetupSpec { seats: 2, options: serde_json::json!({"turn_size": "round"}) };
    let s = g.setup(&spec, &mut crate::engine::GameRng::for_setup(3)).expect("setup");
    assert_eq!(g.acting_seats(&s), [Seat(1), Seat(2)]);
    let shown = names(&g, &s.display);
    let pref = format!("SELECT {}, {}", shown[5], shown[4]);
    let r = run(&g, &s, &[(1, &pref), (2, "SELECT Nowhere")]);
    assert_eq!(r.state.phase, Phase::Play);
    assert!(names(&g, &r.state.players[0].hand).contains(&shown[5]));
    assert!(r.defaulted.contains(&Seat(2)) && r.nmr.is_empty(), "HR 16: an unknown card is no NMR");
}

#[test]
fn a_round_turn_plays_one_turn_of_every_player() {
    let g = game();
    let mut s = table(&g, 3);
    s.turn_size = TurnSize::Round;
    assert_eq!(g.acting_seats(&s).len(), 3);
    let r = run(&g, &s, &[(1, "DRAW DECK"), (2, "DRAW DECK 2"), (3, "DRAW DECK TO LIMIT")]);
    let hands: Vec<usize> = r.state.players.iter().map(|p| p.hand.len()).collect();
    assert_eq!(hands, [1, 2, 5]);
    assert_eq!(r.state.turns_taken, s.turns_taken + 3);
    assert!(r.actions.iter().all(|(_, a, d)| !d || *a == Action::EndTurn));
}

#[test]
fn standing_pick_up_orders_and_conditional_lines_are_never_public() {
    let g = game();
    let text = "SELECT Richmond\nTAKE DISCARD: any Level 3\nIF HAND HAS Level 1 THEN DRAW DECK\nDRAW DECK 2";
    let sheet = parse_sheet(&g, text, None).0;
    let notes: Vec<crate::engine::LineNote> =
        (1..=4).map(|line| crate::engine::LineNote { line, executed: true, note: "done".into() }).collect();
    // RULING P1: what a played line did is on the table; pick-up orders and conditions are not.
    let public = g.public_lines(&sheet, &notes);
    assert_eq!(public.into_iter().collect::<Vec<_>>(), vec![1, 4]);
    assert!(g.public_lines(&sheet, &notes[..1]).into_iter().eq([1]), "a line not played stays hidden");
}
