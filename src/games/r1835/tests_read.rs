//! Reading a player's sheet as the GM would (issue 33): HR 17 B from the order itself and from
//! the new track's open ends, HR 6 (the rules' step order before the sheet's line order), HR 20
//! in the player's own words, the echo judging each line after the lines before it, and the
//! report's notes under the event their action caused.

use super::state::{Entity, Step};
use super::tests::*;
use super::tests_orders::{parsed, second_stock_round, sheet};
use super::*;
use crate::adjudication::run_turn;
use crate::engine::prelude::*;
use crate::engine::{OrderSheet, Seat};
use crate::orders::parse_sheet;
use serde_json::Value;
use std::collections::BTreeMap;

#[test]
fn house_rule_20_is_understood_in_the_players_own_words() {
    let g = engine();
    for (said, meant) in [
        ("I will buy only the 20% MSE certificate", "BUY MS 20%"),
        ("I will buy only the 20% MSE certificate.", "BUY MS 20%"),
        ("Buy 20% MSE", "BUY MS 20%"),
        ("buy the 20 % MSE certificate", "BUY MS 20%"),
        ("buy only the 20 percent MSE certificate", "BUY MS 20%"),
        ("I'll buy 2 MSE certificates", "BUY 2 MS"),
        ("I want to buy one Wte", "BUY 1 WT"),
        ("buy a 10% BY share from the pool", "BUY 1 BY POOL 10%"),
        ("I will buy 2MSE", "BUY 2 MS"),
    ] {
        assert_eq!(parsed(&g, said), meant, "{said}");
    }
    // A size the game does not print is still refused, in words.
    let e = g.parse_order("buy the 30% MSE certificate").unwrap_err();
    assert!(e.0.contains("30%"), "{}", e.0);
}

#[test]
fn the_echo_judges_a_buy_after_the_sale_written_before_it() {
    let g = engine();
    let mut s = second_stock_round(&g);
    // Seat 1 holds BY; with 50 M it cannot pay for a 10 % SX certificate without selling first.
    s.players[0].cash = 50;
    let echo = |text: &str| parse_sheet(&g, text, Some((&s, Seat(1)))).1;
    let alone = echo("BUY 1 SX");
    let why = alone.lines[0].advice.clone().unwrap_or_default();
    assert!(why.contains("not possible") && why.contains("you have 50 M"), "{why}");
    assert!(!why.contains("20 %"), "the reason is the cash, not a size nobody sells: {why}");
    let paired = echo("SELL 1 BY\nBUY 1 SX");
    let after = paired.lines[1].advice.clone().unwrap_or_default();
    assert!(after.contains("now: BUY 1 SX can be carried out"), "{after}");
}

#[test]
fn the_echo_judges_a_second_purchase_at_the_seats_next_turn_with_the_certificates_left() {
    let g = engine();
    let mut s = second_stock_round(&g);
    let sx = g.data.major_index("SX").expect("SX");
    // One SX certificate is left in the IPO: the second purchase finds it gone.
    let mut left = 1;
    for c in s.majors[sx].certs.iter_mut().filter(|c| c.at == state::Loc::Ipo && !c.director) {
        if left == 0 {
            c.at = state::Loc::Pool;
        } else {
            left -= 1;
        }
    }
    let echo = parse_sheet(&g, "BUY 1 SX IPO\nBUY 1 SX IPO", Some((&s, Seat(1)))).1;
    let first = echo.lines[0].advice.clone().unwrap_or_default();
    let second = echo.lines[1].advice.clone().unwrap_or_default();
    assert!(first.contains("can be carried out"), "{first}");
    assert!(second.contains("not possible"), "the first purchase took the last one: {second}");
    assert!(!second.contains("already bought"), "judged at the seat's next turn: {second}");
}

#[test]
fn a_seats_note_stands_under_its_own_purchase_not_under_the_next_seat_skipped() {
    let g = engine();
    let mut s = game(&g, 4, Value::Null);
    // Seat 2 cannot pay for any start-packet item: seat 1's purchase is followed by its skip.
    s.players[1].cash = 0;
    let sheets: BTreeMap<Seat, OrderSheet<Order>> = BTreeMap::from([(Seat(1), sheet(&g, "BUY NF"))]);
    let r = run_turn(&g, &s, 0, 0, sheets).expect("a turn");
    let at = r.anchors[&Seat(1)][0];
    let bought = r.events.iter().position(|e| e.public.starts_with("seat 1 buys")).expect("seat 1 buys");
    assert!(
        r.events.iter().skip(bought).any(|e| e.public.contains("seat 2 cannot buy")),
        "the skip follows the purchase: {:?}",
        r.events
    );
    assert_eq!(at, bought + 1, "the note stands right under seat 1's purchase: {:?}", r.events);
}

/// M1 operating in OR1 with a 2-train.
fn m1_operating(g: &R1835) -> State {
    let mut s = sold_packet(g, Value::Null);
    while matches!(s.round, state::Round::Stock { .. }) {
        act(g, &mut s, Action::Pass);
    }
    s.minors[0].trains.push("2".into());
    s
}

#[test]
fn house_rule_6_the_rules_step_order_outranks_the_sheets_line_order() {
    let g = engine();
    let mut s = m1_operating(&g);
    let mut sh = sheet(&g, "M1: BUY TRAIN 2\nM1: RUN BEST");
    while s.or.turn.step != Step::Run {
        act(&g, &mut s, Action::Pass);
    }
    let d = g.next_decision(&s).expect("a decision");
    let a = g.answer(&s, &d, &mut sh);
    assert!(matches!(a.action, Some(Action::Run { .. })), "{a:?}");
    let run = a.notes.iter().find(|n| n.line == 2).expect("the RUN line's note");
    assert!(run.executed && !run.note.contains("too late"), "{run:?}");
    assert_eq!(sh.used, vec![false, true], "the train line waits for the train step");
}

#[test]
fn house_rule_17b_measures_toward_the_target_from_the_new_tracks_open_ends() {
    let g = engine();
    let s = m1_operating(&g);
    let e = Entity::Minor(0);
    let ranked = g.lay_candidates(&s, e, Some("E19"));
    // Of two rotations on one hex, the one whose new track points at Berlin is nearer.
    let by_hex = |hex: &str| -> Vec<(u8, Option<u32>)> {
        ranked
            .iter()
            .filter_map(|c| match &c.action {
                Action::LayTile { hex: h, rotation, .. } if h == hex => Some((*rotation, c.distance)),
                _ => None,
            })
            .collect()
    };
    let first = match &ranked[0].action {
        Action::LayTile { hex, .. } => hex.clone(),
        other => panic!("{other:?}"),
    };
    let on_first = by_hex(&first);
    assert!(on_first.len() >= 2, "several rotations on {first}: {on_first:?}");
    assert!(
        on_first.iter().any(|(_, d)| *d != on_first[0].1),
        "rotations on one hex no longer tie: {on_first:?}"
    );
}
