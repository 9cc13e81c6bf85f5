//! The order language: parsing with readable errors, the normalised form (round-trip property
//! test), and answering decisions from a sheet — stock rounds (HR 18, 19, 20), the Prussian's
//! questions, the echo — also through the generic PBEM turn loop. Operating rounds (HR 16, 17,
//! 12, 14) are in `tests_orders_or`; the table-driven PBEM situations in `tests_pbem`.

use super::state::Round;
use super::tests::*;
use super::*;
use crate::adjudication::run_turn;
use crate::engine::prelude::*;
use crate::engine::{LineNote, OrderSheet, Seat};
use crate::orders::parse_sheet;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};
use std::collections::BTreeMap;

pub(super) fn parsed(g: &R1835, line: &str) -> String {
    g.parse_order(line).map(|o| o.to_string()).unwrap_or_else(|e| format!("error: {e}"))
}

pub(super) fn sheet(g: &R1835, text: &str) -> OrderSheet<Order> {
    let (sheet, echo) = parse_sheet(g, text, None);
    assert_eq!(echo.errors, 0, "{:?}", echo.lines);
    sheet
}

#[test]
fn orders_parse_into_canonical_form() {
    let g = engine();
    assert_eq!(parsed(&g, "BUY 1 BY IPO"), "BUY 1 BY IPO");
    assert_eq!(parsed(&g, "buy m2"), "BUY M2");
    assert_eq!(parsed(&g, "Buy 20% MSE"), "BUY MS 20%");
    assert_eq!(parsed(&g, "buy 1 wte pool 10%"), "BUY 1 WT POOL 10%");
    assert_eq!(parsed(&g, "buy pfb"), "BUY PfB");
    assert_eq!(parsed(&g, "SELL 2 SX"), "SELL 2 SX");
    assert_eq!(parsed(&g, "sell 1 bad 20%"), "SELL 1 BA 20%");
    assert_eq!(parsed(&g, "sell sx"), "SELL 1 SX");
    assert_eq!(parsed(&g, "sell 2sx alone"), "SELL 2 SX ALONE");
    assert_eq!(parsed(&g, "nationalise BY from seat 3"), "NATIONALISE BY FROM 3");
    assert_eq!(parsed(&g, "pass"), "PASS");
    assert_eq!(parsed(&g, "BUY M2 ELSE BUY M3 ELSE PASS"), "BUY M2 ELSE BUY M3 ELSE PASS");
    assert_eq!(parsed(&g, "by: lay 201 o15 rotation 2"), "BY: LAY 201 O15 ROTATION 2");
    assert_eq!(parsed(&g, "BY: LAY toward Berlin"), "BY: LAY TOWARD E19");
    assert_eq!(
        parsed(&g, "BY: lay 201 München rot 2 towards berlin"),
        "BY: LAY 201 O15 ROTATION 2 TOWARD E19"
    );
    assert_eq!(parsed(&g, "BY: run e19-f20.1 / g3-g5"), "BY: RUN E19-F20.1, G3-G5");
    assert_eq!(parsed(&g, "bay: buy train 4+4 from sax for 1"), "BY: BUY TRAIN 4+4 FROM SX PRICE 1");
    assert_eq!(parsed(&g, "M2: dividend split"), "M2: SPLIT");
    assert_eq!(parsed(&g, "intent BY: track toward Berlin"), "INTENT BY: TOWARD E19");
    assert_eq!(parsed(&g, "one round"), "ONE ROUND");
    assert_eq!(parsed(&g, "form prussian"), "FORM PR");
    assert_eq!(parsed(&g, "keep m3"), "KEEP M3");
    assert_eq!(
        parsed(&g, "if available by ipo then buy 1 by ipo else if price sx>=90 then buy 1 sx else pass"),
        "IF AVAILABLE BY IPO THEN BUY 1 BY IPO ELSE IF PRICE SX >= 90 THEN BUY 1 SX ELSE PASS"
    );
    assert_eq!(
        parsed(&g, "IF NOT floated BA and (cash>=300 or phase 3) THEN (BUY 1 BA ELSE BUY 1 WT)"),
        "IF (NOT FLOATED BA) AND (CASH >= 300 OR PHASE = 3) THEN (BUY 1 BA ELSE BUY 1 WT)"
    );
}

#[test]
fn house_rule_20_accepts_the_house_rules_own_notation_1wte_and_2mse() {
    let g = engine();
    assert_eq!(parsed(&g, "BUY 1Wte"), "BUY 1 WT");
    assert_eq!(parsed(&g, "buy 2MSE"), "BUY 2 MS");
    assert_eq!(parsed(&g, "BUY 2 MSE IPO"), "BUY 2 MS IPO");
}

#[test]
fn bad_orders_get_readable_errors() {
    let g = engine();
    for (line, want) in [
        ("BUY", "a company or item"),
        ("SELL 2 M2", "only share certificates can be sold, not M2"),
        ("BUY 1 XY IPO", "unknown company or item 'XY'"),
        ("BUY 1 BY 15%", "'15%' is not a certificate size"),
        ("FLY", "unknown order 'FLY'"),
        ("PASS NOW", "unexpected 'NOW'"),
        ("NATIONALISE BY", "the seat to buy from"),
        ("SELL 1 SX POOL", "sales always go to the pool"),
        ("LAY 201 O15", "is an operating order: name the company first"),
        ("BY: LAY 201 Q99", "unknown hex 'Q99'"),
        ("BY: LAY 999 O15", "unknown tile '999'"),
        ("BY: BUY 1 SX", "is not an order for BY"),
        ("BY: LAY 201 O15 ROTATION 7", "a rotation 0-5"),
        ("IF FLOATED BA BUY 1 BA", "THEN expected"),
        ("IF PRICE BY 100 THEN PASS", "a comparison"),
        ("BY: BUY TRAIN 7", "unknown train '7'"),
        ("(BUY 1 BA", ") expected"),
    ] {
        let got = parsed(&g, line);
        assert!(got.starts_with("error: ") && got.contains(want), "{line}: {got}");
    }
}

#[test]
fn a_parse_error_names_its_line_in_the_echo() {
    let g = engine();
    let (_, echo) = parse_sheet(&g, "BUY 1 BY\n\nBUY 1 QQ", None);
    assert_eq!(echo.errors, 1);
    let bad = echo.lines.iter().find(|l| l.error.is_some()).expect("an error line");
    assert_eq!(bad.line, 3);
}

/// Order texts built from the language's pieces in random combinations, in players' spellings.
fn text() -> impl Strategy<Value = String> {
    let cmd = prop::sample::select(vec![
        "PASS",
        "buy 1 by ipo",
        "BUY 2MSE",
        "buy 1Wte pool",
        "BUY 20% MS",
        "BUY M2",
        "SELL 2 SX",
        "sell 1 bad 20% alone",
        "SELL 1 SX AFTER",
        "SELL 3 HE ANYWAY",
        "NATIONALISE BY FROM seat 3 10%",
        "LAY 201 O15 ROTATION 2",
        "lay 8 g5 toward Berlin",
        "LAY BEST",
        "LAY TOWARD München",
        "TOKEN H16",
        "TOKEN G5 CITY 2",
        "STATION BEST",
        "token towards e19",
        "RUN BEST",
        "RUN E19-F20.1, G3-G5",
        "PAY",
        "WITHHOLD",
        "DIVIDEND SPLIT",
        "BUY TRAIN 3",
        "buy train 4+4 from sax for 1",
        "BUY TRAIN 2 FROM POOL",
        "DISCARD 2",
        "FORM PR",
        "DECLINE PR",
        "EXCHANGE M1",
        "KEEP HB",
    ]);
    let cond = prop::sample::select(vec![
        "AVAILABLE BY IPO",
        "available ms pool 5%",
        "FLOATED BA",
        "formed PR",
        "TRAIN 4 AVAILABLE",
        "TRAIN 2 RUSTED",
        "PRICE BY >= 100",
        "price sx<90",
        "CASH >= 300",
        "CASH BY > 80",
        "CAN LAY 201 O15 ROTATION 2",
        "BOUGHT MS",
        "SEAT 2 BOUGHT BY",
        "PHASE >= 3",
        "phase 4",
    ]);
    let c2 = (cond.clone(), cond.clone(), 0..4u8).prop_map(|(a, b, k)| match k {
        0 => a.to_string(),
        1 => format!("NOT {a}"),
        2 => format!("{a} AND {b}"),
        _ => format!("({a} OR {b})"),
    });
    let plan = cmd.prop_map(str::to_string).prop_recursive(3, 12, 3, move |inner| {
        (inner.clone(), inner, c2.clone(), 0..4u8).prop_map(|(a, b, c, k)| match k {
            0 => format!("{a} ELSE {b}"),
            1 => format!("IF {c} THEN {a} ELSE {b}"),
            2 => format!("IF {c} THEN ({a})"),
            _ => format!("({a}) ELSE {b}"),
        })
    });
    let company = prop::sample::select(vec!["", "", "BY: ", "m2: ", "Bay: "]);
    (company, plan, 0..12u8).prop_map(|(c, p, k)| match k {
        0 => format!("INTENT BY: track toward {}", if p.len() % 2 == 0 { "Berlin" } else { "o15" }),
        1 => "one round".to_string(),
        _ => format!("{c}{p}"),
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn any_order_text_the_parser_accepts_reparses_from_its_normal_form_to_the_same_order(t in text()) {
        let g = shared().expect("the standard engine");
        if let Ok(order) = g.parse_order(&t) {
            let normal = order.to_string();
            let again = g.parse_order(&normal);
            prop_assert_eq!(again.as_ref().ok(), Some(&order), "{} → {} → {:?}", t, normal, again);
        }
    }
}

#[test]
fn the_round_trip_generator_reaches_contingencies_and_operating_orders() {
    // The property test above is only worth something if accepted texts are common enough.
    let g = engine();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = text();
    let accepted = (0..3000)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .filter(|t| g.parse_order(&t.current()).is_ok())
        .count();
    assert!(accepted >= 30, "only {accepted} of 3000 generated texts parse");
    for t in [
        "IF NOT FLOATED BY THEN BUY 2 SX ELSE PASS",
        "BY: IF CAN LAY 201 O15 THEN LAY 201 O15 ROTATION 2 ELSE RUN BEST",
    ] {
        let o = g.parse_order(t).expect(t);
        assert_eq!(g.parse_order(&o.to_string()).as_ref(), Ok(&o));
    }
}

#[test]
fn a_whole_start_packet_round_is_played_from_sealed_orders() {
    let g = engine();
    let s = standard(&g, 4, json!({"rounds_per_turn": 1}));
    let mut sheets = BTreeMap::new();
    sheets.insert(Seat(1), sheet(&g, "BUY NF\nBUY BY\nBUY OBB"));
    sheets.insert(Seat(2), sheet(&g, "BUY LD\nBUY M4\nBUY M5"));
    sheets.insert(Seat(3), sheet(&g, "BUY M2\nBUY M3\nBUY PFB"));
    sheets.insert(Seat(4), sheet(&g, "BUY M1\nBUY BB\nBUY HB\nBUY M6"));
    let r = run_turn(&g, &s, 0, 0, sheets).expect("turn");
    assert!(!r.state.packet_open());
    assert_eq!(r.state.round, Round::Operating { set: 1, n: 1, of: 1 });
    assert!(r.nmr.is_empty(), "everyone gave orders: {:?}", r.nmr);
    assert!(r.notes[&Seat(4)].iter().all(|n| n.executed));
}

/// A stock round after the packet, BY and SX operated, seat 1 to act with 500 M.
pub(super) fn second_stock_round(g: &R1835) -> State {
    let mut s = sold_packet(g, Value::Null);
    fresh_stock_round(g, &mut s, 2, 1);
    operated(&mut s);
    s.players[0].cash = 500;
    s
}

#[test]
fn house_rule_18_a_sell_goes_with_the_following_buy_and_the_turn_ends_after_it() {
    let g = engine();
    let mut s = second_stock_round(&g);
    let mut sh = sheet(&g, "SELL 1 BY\nBUY 1 SX IPO\nBUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    assert_eq!(g.answer(&s, &d, &mut sh).action, Some(sell("BY", 1, 10)));
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(g.answer(&s, &d, &mut sh).action, Some(ipo("SX", 10)));
    act(&g, &mut s, ipo("SX", 10));
    assert_eq!(
        g.answer(&s, &d, &mut sh).action,
        Some(Action::Pass),
        "HR 18: the turn ends after its purchase"
    );
    assert_eq!(sh.used, vec![true, true, false], "the second BUY waits for the next turn");
}

#[test]
fn house_rule_18_a_sale_whose_buy_cannot_follow_sells_nothing_and_the_turn_is_a_pass() {
    let g = engine();
    let s = second_stock_round(&g);
    let mut sh = sheet(&g, "SELL 1 BY\nBUY 1 BA IPO\nBUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass));
    assert!(a.notes[0].note.contains("line 2 cannot be carried out after it"), "{}", a.notes[0].note);
    assert!(a.notes[0].note.contains("RULINGS K57"), "{}", a.notes[0].note);
    assert_eq!(sh.used, vec![true, true, false]);
}

#[test]
fn house_rule_18_sell_after_buying_anyway_and_alone_are_written_out() {
    let g = engine();
    let d = |s: &State| g.next_decision(s).unwrap();
    // AFTER: buy first, then sell in the same turn.
    let mut s = second_stock_round(&g);
    let mut sh = sheet(&g, "BUY 1 SX IPO\nSELL 1 BY AFTER\nBUY 1 SX IPO");
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(ipo("SX", 10)));
    act(&g, &mut s, ipo("SX", 10));
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(sell("BY", 1, 10)));
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(Action::Pass));
    // ANYWAY: the sale stands although the purchase fails.
    let s = second_stock_round(&g);
    let mut sh = sheet(&g, "SELL 1 BY ANYWAY\nBUY 1 BA IPO");
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(sell("BY", 1, 10)));
    // ALONE: a sale turn of its own; the BUY waits.
    let mut s = second_stock_round(&g);
    let mut sh = sheet(&g, "SELL 1 BY ALONE\nBUY 1 SX IPO");
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(sell("BY", 1, 10)));
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(g.answer(&s, &d(&s), &mut sh).action, Some(Action::Pass));
    assert_eq!(sh.used, vec![true, false]);
}

#[test]
fn house_rule_19_makes_no_substitution() {
    let g = engine();
    let s = second_stock_round(&g);
    let mut sh = sheet(&g, "BUY 1 BA IPO\nBUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass), "HR 19: the turn counts as a pass");
    assert!(!a.notes[0].executed);
    assert!(a.notes[0].note.contains("BA's shares are not on sale yet"), "{}", a.notes[0].note);
    assert!(a.notes[0].note.contains("no substitution (HR 19)"));
    assert_eq!(sh.used, vec![true, false], "the SX line waits for the next turn");
}

#[test]
fn house_rule_19_the_players_own_contingency_is_used() {
    let g = engine();
    let s = second_stock_round(&g);
    let mut sh = sheet(&g, "BUY 1 BA IPO ELSE BUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(ipo("SX", 10)));
    assert!(a.notes[0].note.contains("alternative 2"), "{}", a.notes[0].note);
}

#[test]
fn house_rule_20_buy_2_mse_is_two_purchases_one_per_turn() {
    let g = engine();
    let mut s = second_stock_round(&g);
    let mut sh = sheet(&g, "BUY 2 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(ipo("SX", 10)));
    assert!(a.notes[0].note.contains("1 of 2"), "{}", a.notes[0].note);
    assert_eq!(sh.used, vec![false]);
    act(&g, &mut s, ipo("SX", 10));
    assert_eq!(g.answer(&s, &d, &mut sh).action, Some(Action::Pass), "one purchase per turn");
    act(&g, &mut s, Action::Pass);
    while to_act(&g, &s) != 1 {
        act(&g, &mut s, Action::Pass);
    }
    let d = g.next_decision(&s).unwrap();
    assert_eq!(g.answer(&s, &d, &mut sh).action, Some(ipo("SX", 10)), "the second purchase, next turn");
    assert_eq!(sh.used, vec![true]);
}

#[test]
fn a_condition_sees_a_purchase_made_earlier_in_the_round() {
    let g = engine();
    let mut s = second_stock_round(&g);
    act(&g, &mut s, ipo("SX", 10));
    act(&g, &mut s, Action::Pass);
    assert_eq!(to_act(&g, &s), 2);
    s.players[1].cash = 500;
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, "IF SEAT 1 BOUGHT SX THEN BUY 1 BY IPO ELSE BUY 1 SX IPO");
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(ipo("BY", 10)), "{:?}", a.notes);
    assert!(a.notes[0].note.contains("IF SEAT 1 BOUGHT SX: yes"), "{}", a.notes[0].note);
    let mut sh = sheet(&g, "IF BOUGHT BA THEN BUY 1 BY IPO");
    let a = g.answer(&s, &d, &mut sh);
    assert!(a.notes[0].note.contains("nothing ordered in this case"), "{:?}", a.notes);
}

#[test]
fn without_orders_the_default_is_a_pass_and_the_seat_is_nmr() {
    let g = engine();
    let s = game(&g, 4, json!({}));
    let d = g.next_decision(&s).unwrap();
    let mut empty = parse_sheet(&g, "", None).0;
    assert_eq!(g.answer(&s, &d, &mut empty).action, None);
    assert_eq!(g.default_action(&s), Some(Action::Pass));
    let mut used_up = sheet(&g, "PASS");
    used_up.used[0] = true;
    assert_eq!(g.answer(&s, &d, &mut used_up).action, Some(Action::Pass), "orders used up: pass, not NMR");
}

#[test]
fn the_echo_shows_what_a_line_would_do_now_and_which_branch_a_condition_takes() {
    let g = engine();
    let s = second_stock_round(&g);
    let advice = |line: &str| g.advise(&s, Seat(1), &g.parse_order(line).unwrap()).unwrap_or_default();
    assert!(
        advice("BUY 1 SX IPO").contains("now: BUY 1 SX IPO can be carried out"),
        "{}",
        advice("BUY 1 SX IPO")
    );
    let a = advice("IF FLOATED BA THEN BUY 1 BA ELSE BUY 1 SX");
    assert!(a.contains("IF FLOATED BA: no → BUY 1 SX"), "{a}");
    assert!(advice("BUY 1 BA").contains("now: not possible"), "{}", advice("BUY 1 BA"));
    assert!(advice("SELL 1 HE").contains("you hold no HE"));
    let a = advice("BY: IF TRAIN 2 RUSTED THEN WITHHOLD ELSE PAY");
    assert!(a.contains("when BY operates") && a.contains("IF TRAIN 2 RUSTED: no → PAY"), "{a}");
    assert!(advice("SX: RUN BEST").contains("you do not direct SX"));
    assert!(advice("ONE ROUND").contains("one-round turn"));
}

#[test]
fn lines_carried_out_are_public_but_unexecuted_lines_and_intentions_go_only_to_their_player() {
    let g = engine();
    let sheet = sheet(&g, "BUY M2 ELSE PASS\n\nSELL 1 SX\nINTENT BY: TOWARD E19\nPASS");
    let note = |line, executed| LineNote { line, executed, note: String::new() };
    // RULING K74 (issue 15: a player's own unexecuted lines go only to that player) and RULING
    // K63 (intentions are plans, not orders played): line 3 failed, line 4 is an intention.
    let notes = [note(1, true), note(3, false), note(4, true), note(5, true)];
    assert_eq!(g.public_lines(&sheet, &notes).into_iter().collect::<Vec<_>>(), vec![1, 5]);
    assert!(g.public_lines(&sheet, &[]).is_empty(), "a sheet never reached publishes nothing");
}
