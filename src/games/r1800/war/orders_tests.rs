//! Tests of the standing war orders: reading them (line-numbered errors) and picking each war
//! action from them (RULING E59).

use super::orders::Response;
use super::testboard::*;
use super::*;
use crate::engine::{Answer, GameRng, OrderSheet};

const ORDER: [PowerId; 2] = [PRUSSIA, FRANCE];

fn sheet(b: &TestBoard, text: &str) -> OrderSheet<WarStandingOrder> {
    OrderSheet::new(parse_war_orders(b, text).expect("the orders read"))
}

fn at_war(b: &TestBoard) -> WarState {
    let mut w = WarState::default();
    let d = Declaration { declarer: PRUSSIA, target: FRANCE, cause: WarCause::Conquest };
    declare_war(b, &mut w, d, &ORDER).unwrap();
    begin_war(b, &mut w, &ORDER).unwrap();
    w
}

fn act(b: &mut TestBoard, w: &mut WarState, power: PowerId, deed: WarDeed) {
    apply_war_action(b, w, &WarAction { power, deed }, &mut GameRng::for_action(7, 1)).expect("legal");
}

#[test]
fn war_orders_are_read_in_any_case_with_an_optional_war_keyword() {
    let b = TestBoard::new();
    let text = "war move hesse to RHEINLAND\n\n# a comment\nCONSCRIPT IN Saxony\nPLAY expert maneuver ON Champagne\n\
                PLAY Strategic Repositioning Hesse TO Berlin, Saxony TO Pommerania\nPLAY Naval Support Normandie TO London\n\
                WHEN ATTACKED AT Saxony CONSCRIPT\nWHEN ATTACKED PLAY Superior Tactics\nPASS";
    let orders = parse_war_orders(&b, text).unwrap();
    let lines: Vec<usize> = orders.iter().map(|o| o.line).collect();
    assert_eq!(lines, [1, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!(
        orders[0].order,
        WarStandingOrder::Now(WarDeed::Move { from: at("Hesse"), to: at("Rheinland") })
    );
    assert_eq!(
        orders[2].order,
        WarStandingOrder::Now(WarDeed::Play {
            card: EXPERT,
            with: CardUse::Bonus { at: Some(at("Champagne")) }
        })
    );
    let moves = vec![(at("Hesse"), at("Berlin")), (at("Saxony"), at("Pommerania"))];
    assert_eq!(
        orders[3].order,
        WarStandingOrder::Now(WarDeed::Play { card: REPOSITIONING, with: CardUse::Repositioning { moves } })
    );
    let sea = CardUse::SeaMove { from: at("Normandie"), to: at("London") };
    assert_eq!(orders[4].order, WarStandingOrder::Now(WarDeed::Play { card: NAVAL_SUPPORT, with: sea }));
    assert_eq!(
        orders[5].order,
        WarStandingOrder::WhenAttacked { at: Some(at("Saxony")), response: Response::Conscript }
    );
    assert_eq!(
        orders[6].order,
        WarStandingOrder::WhenAttacked { at: None, response: Response::Play(TACTICS) }
    );
}

#[test]
fn unreadable_war_orders_are_reported_by_line_number_with_a_reason() {
    let b = TestBoard::new();
    let errors = parse_war_orders(
        &b,
        "MOVE Hesse TO Atlantis\nPASS\nPLAY Expert Maneuver\nPLAY Grand Strategy\nCHARGE",
    )
    .expect_err("three bad lines");
    let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 4, "{said:?}");
    assert_eq!(said[0], "line 1: \"Atlantis\" is not a province");
    assert_eq!(said[1], "line 3: Expert Maneuver names a province: PLAY Expert Maneuver ON <province>");
    assert!(
        said[2].starts_with("line 4: \"Grand Strategy\" is not a military card (Superior Tactics,"),
        "{said:?}"
    );
    assert!(said[3].starts_with("line 5: \"CHARGE\" is not a war order"), "{said:?}");
}

#[test]
fn repositioning_is_no_answer_to_an_attack() {
    let b = TestBoard::new();
    let e = parse_war_line(&b, "WHEN ATTACKED PLAY Strategic Repositioning").unwrap_err();
    assert!(e.0.contains("not an answer to an attack"), "{e}");
}

#[test]
fn orders_are_carried_out_in_the_order_written_skipping_what_cannot_be_done() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Hesse");
    let w = at_war(&b);
    let mut s = sheet(&b, "MOVE Saxony TO Bohemia\nMOVE Hesse TO Rheinland\nCONSCRIPT Berlin");
    let a = answer_war(&b, &w, PRUSSIA, &mut s);
    assert_eq!(
        a.action,
        Some(WarAction { power: PRUSSIA, deed: WarDeed::Move { from: at("Hesse"), to: at("Rheinland") } })
    );
    assert_eq!(a.notes.len(), 2);
    assert!(!a.notes[0].executed && a.notes[0].note.contains("no regiment in Saxony"), "{:?}", a.notes);
    assert!(a.notes[1].executed && a.notes[1].line == 2);
    assert_eq!(s.used, [true, true, false]);
}

#[test]
fn orders_are_not_used_out_of_turn_and_nothing_left_gives_no_action() {
    let b = TestBoard::new();
    let w = at_war(&b);
    let mut s = sheet(&b, "PASS");
    assert_eq!(answer_war(&b, &w, FRANCE, &mut s).action, None);
    assert_eq!(s.used, [false]);
    assert!(answer_war(&b, &w, PRUSSIA, &mut s).action.is_some());
    assert_eq!(answer_war(&b, &w, PRUSSIA, &mut s).action, None, "each line is used once");
}

#[test]
fn when_attacked_a_card_is_played_on_the_battle() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.give(FRANCE, EXPERT);
    let mut w = at_war(&b);
    let mut s =
        sheet(&b, "WHEN ATTACKED AT Paris PLAY Expert Maneuver\nWHEN ATTACKED PLAY Expert Maneuver\nPASS");
    act(&mut b, &mut w, PRUSSIA, WarDeed::Pass);
    let before = answer_war(&b, &w, FRANCE, &mut s);
    assert_eq!(before.action.map(|a| a.deed), Some(WarDeed::Pass), "not attacked yet: the next plain order");
    act(&mut b, &mut w, FRANCE, WarDeed::Pass);
    act(&mut b, &mut w, PRUSSIA, WarDeed::Move { from: at("Rheinland"), to: at("Champagne") });
    let a = answer_war(&b, &w, FRANCE, &mut s);
    let want = WarDeed::Play { card: EXPERT, with: CardUse::Bonus { at: Some(at("Champagne")) } };
    assert_eq!(a.action.map(|a| a.deed), Some(want));
    assert_eq!(a.notes[0].line, 2);
    assert!(!s.used[0], "the answer about Paris still waits");
}

/// Prussia attacks France's regiment in Champagne from Rheinland; France's answer from `orders`.
fn france_attacked_in_champagne(orders: &str) -> (Answer<WarAction>, OrderSheet<WarStandingOrder>) {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    let mut w = at_war(&b);
    let mut s = sheet(&b, orders);
    act(&mut b, &mut w, PRUSSIA, WarDeed::Move { from: at("Rheinland"), to: at("Champagne") });
    (answer_war(&b, &w, FRANCE, &mut s), s)
}

#[test]
fn when_attacked_a_conscript_is_raised_where_it_supports_the_battle() {
    let (a, _) = france_attacked_in_champagne("WHEN ATTACKED CONSCRIPT");
    assert_eq!(a.action.map(|a| a.deed), Some(WarDeed::Conscript { at: at("Paris") }));
}

#[test]
fn an_answer_that_cannot_be_given_is_used_up_with_its_reason() {
    let (a, s) = france_attacked_in_champagne("WHEN ATTACKED PLAY Magnificent Maneuver");
    assert_eq!(a.action, None);
    assert!(!a.notes[0].executed && a.notes[0].note.contains("Champagne"), "{:?}", a.notes);
    assert_eq!(s.used, [true]);
}
