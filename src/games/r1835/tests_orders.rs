//! The order language: parsing with readable errors, canonical printing, and answering
//! decisions from a sheet (lines in sequence, HR 18 pairing, HR 19 no substitution, the pass
//! default), also through the generic PBEM turn loop.

use super::orders::Alt;
use super::state::Round;
use super::tests::*;
use super::*;
use crate::adjudication::run_turn;
use crate::engine::{Game, OrderSheet, Seat};
use crate::orders::parse_sheet;
use serde_json::{Value, json};
use std::collections::BTreeMap;

fn parsed(g: &R1835, line: &str) -> String {
    g.parse_order(line).map(|o| o.to_string()).unwrap_or_else(|e| format!("error: {e}"))
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
    assert_eq!(parsed(&g, "nationalise BY from seat 3"), "NATIONALISE BY FROM 3");
    assert_eq!(parsed(&g, "pass"), "PASS");
    assert_eq!(parsed(&g, "BUY M2 ELSE BUY M3 ELSE PASS"), "BUY M2 ELSE BUY M3 ELSE PASS");
    let o = g.parse_order("BUY 1 SX IPO").unwrap();
    assert_eq!(
        o.alts,
        vec![Alt::Buy { count: Some(1), name: "SX".into(), from: Some(Source::Ipo), percent: None }]
    );
}

#[test]
fn bad_orders_get_readable_errors() {
    let g = engine();
    assert!(parsed(&g, "BUY").contains("BUY needs a company or item"));
    assert!(parsed(&g, "SELL 2 M2").contains("only share certificates can be sold, not M2"));
    assert!(parsed(&g, "BUY 1 XY IPO").contains("unknown company or item 'XY'"));
    assert!(parsed(&g, "BUY 1 BY 15%").contains("'15%' is not a certificate size"));
    assert!(parsed(&g, "FLY").contains("unknown order 'FLY'"));
    assert!(parsed(&g, "PASS NOW").contains("PASS takes nothing after it"));
    assert!(parsed(&g, "NATIONALISE BY").contains("NATIONALISE needs the seat"));
    assert!(parsed(&g, "SELL 1 SX POOL").contains("sales always go to the pool"));
}

fn sheet(g: &R1835, text: &str) -> OrderSheet<Order> {
    parse_sheet(g, text, None).0
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
    assert_eq!(r.state.closed.last().map(|c| c.round.as_str()), Some("SR1"));
    assert!(r.notes[&Seat(4)].iter().all(|n| n.executed));
}

#[test]
fn a_sell_goes_with_the_following_buy_and_ends_the_turn_after_it() {
    let g = engine();
    let mut s = sold_packet(&g, Value::Null);
    fresh_stock_round(&g, &mut s, 2, 1);
    operated(&mut s);
    s.players[0].cash = 500;
    let mut sh = sheet(&g, "SELL 1 BY\nBUY 1 SX IPO\nBUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(sell("BY", 1, 10)));
    act(&g, &mut s, sell("BY", 1, 10));
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(ipo("SX", 10)));
    act(&g, &mut s, ipo("SX", 10));
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass), "HR 18: the turn ends after its purchase");
    assert_eq!(sh.used, vec![true, true, false], "the second BUY waits for the next turn");
}

#[test]
fn a_buy_that_cannot_be_carried_out_is_not_replaced() {
    let g = engine();
    let mut s = sold_packet(&g, Value::Null);
    fresh_stock_round(&g, &mut s, 2, 1);
    s.players[0].cash = 500;
    let mut sh = sheet(&g, "BUY 1 BA IPO\nBUY 1 SX IPO");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass), "HR 19: no substitution");
    assert!(!a.notes[0].executed);
    assert!(a.notes[0].note.contains("BA's shares are not on sale yet"), "{}", a.notes[0].note);
    assert!(a.notes[0].note.contains("no substitution (HR 19)"));
    assert_eq!(sh.used, vec![true, false]);
}

#[test]
fn alternatives_and_ambiguity_are_resolved_per_position() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, "BUY M3 ELSE BUY M1");
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(item("M1")));
    assert!(a.notes[0].note.contains("not BUY M3: M3 is not on sale yet"), "{}", a.notes[0].note);
    let mut sh = sheet(&g, "BUY 1 BY IPO");
    let a = g.answer(&s, &d, &mut sh);
    assert!(a.notes[0].note.contains("buy an item by its name"), "{}", a.notes[0].note);
    act(&g, &mut s, Action::Pass);
}

#[test]
fn without_orders_the_default_is_a_pass_and_the_seat_is_nmr() {
    let g = engine();
    let s = game(&g, 4, json!({}));
    let d = g.next_decision(&s).unwrap();
    let mut empty = sheet(&g, "");
    assert_eq!(g.answer(&s, &d, &mut empty).action, None);
    assert_eq!(g.default_action(&s, &d), Some(Action::Pass));
    let mut used_up = sheet(&g, "PASS");
    used_up.used[0] = true;
    assert_eq!(g.answer(&s, &d, &mut used_up).action, Some(Action::Pass), "orders used up: pass, not NMR");
}

#[test]
fn every_line_of_the_sheet_played_is_public_in_an_open_information_game() {
    let g = engine();
    let sheet = parse_sheet(&g, "BUY M2 ELSE PASS\n\nSELL 1 SX\nPASS", None).0;
    // RULING P2: nothing in 1835 is hidden, so the whole sheet played is published.
    assert_eq!(g.public_lines(&sheet, &[]).into_iter().collect::<Vec<_>>(), vec![1, 3, 4]);
}
