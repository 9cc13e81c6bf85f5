//! Issue 34: the echo judges each line after the lines before it on the sheet (the contract's
//! `Orders::advise_sheet`, as 1835's): money already spent, a train already activated or moved
//! elsewhere, a dropoff already designated.

use super::orders_tests::sheet;
use super::proptests::game;
use super::state::{Contract, State};
use super::tests::{put, st, started};
use crate::engine::Seat;
use crate::engine::prelude::*;

fn echo(s: &State, lines: &[&str]) -> Vec<String> {
    let sh = sheet(lines);
    game().advise_sheet(s, Seat(1), &sh.orders).into_iter().map(Option::unwrap_or_default).collect()
}

/// Seat 1 with trains 1 and 2 at Griffin and Atlanta, owning line #12, and $`money`.
fn seat_1(money: u32) -> State {
    let mut s = started(2);
    s.players[0].rrcs.insert(12);
    s.players[0].money = money;
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    put(&mut s, Seat(1), 2, "Atlanta", Some(12));
    s
}

#[test]
fn the_echo_flags_a_line_that_spends_money_the_lines_before_it_already_spent() {
    let e = echo(&seat_1(400), &["ACTIVATE 1 2", "PAY 100 TO 2", "CLEAR Griffin, Jonesboro"]);
    assert!(!e[0].contains("needs"), "$200 of $400: {}", e[0]);
    assert!(!e[1].contains("needs"), "$100 of the $200 left: {}", e[1]);
    assert!(
        e[2].contains("needs $200, but after lines 1, 2 you will have $100 before any payout"),
        "{}",
        e[2]
    );
}

#[test]
fn the_echo_flags_a_train_activated_twice() {
    let e = echo(&seat_1(2500), &["ACTIVATE 1", "ACTIVATE ALL", "ACTIVATE 1 2"]);
    assert!(!e[1].contains("already"), "ALL activates what line 1 left: {}", e[1]);
    assert!(e[2].contains("your train 1 is activated already by line 1"), "{}", e[2]);
    assert!(e[2].contains("your train 2 is activated already by line 2"), "{}", e[2]);
}

#[test]
fn the_echo_flags_a_move_from_where_an_earlier_line_no_longer_leaves_the_train() {
    let s = seat_1(2500);
    let e = echo(
        &s,
        &[
            "ACTIVATE 1 2",
            "MOVE 1 Jonesboro, East Point, Atlanta",
            "MOVE 1 Jonesboro, Griffin",
            "MOVE 2 Jonesboro",
        ],
    );
    assert!(!e[1].contains("not next to it"), "{}", e[1]);
    assert!(
        e[2].contains("line 2 leaves your train 1 at Atlanta, and Jonesboro is not next to it"),
        "{}",
        e[2]
    );
    assert!(e[3].contains("your train 2 stands at Atlanta, and Jonesboro is not next to it"), "{}", e[3]);
    let e = echo(&s, &["MOVE 1 Jonesboro", "MOVE 1 East Point", "ACTIVATE 1"]);
    assert!(!e[1].contains("not next to it"), "it goes on from Jonesboro: {}", e[1]);
    assert!(!e[0].contains("activates"), "line 3 activates it: {}", e[0]);
    let e = echo(&s, &["MOVE 2 East Point"]);
    assert!(e[0].contains("no line of this sheet activates your train 2"), "{}", e[0]);
}

#[test]
fn the_echo_flags_a_second_dropoff_for_the_same_load() {
    let e = echo(&seat_1(2500), &["DELIVER 4 TO Charleston", "DELIVER 4 TO Savannah"]);
    assert!(!e[0].contains("already"), "{}", e[0]);
    assert!(e[1].contains("load 4's dropoff is designated by line 1 already"), "{}", e[1]);
}

#[test]
fn rule_5_1_6_a_line_short_of_money_is_told_what_an_earlier_delivery_would_pay_and_that_it_is_not_certain() {
    let mut s = seat_1(100);
    let load = Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Atlanta"), picked: true };
    s.train_mut(Seat(1), 1).expect("train 1").load = Some(load);
    let pays = super::chits::payout(game().data(), &s, 1);
    let e = echo(&s, &["ACTIVATE 1", "MOVE 1 Jonesboro, East Point, Atlanta", "CLEAR Griffin, Jonesboro"]);
    assert!(e[2].contains("needs $200, but after line 1 you will have $0 before any payout"), "{}", e[2]);
    assert!(e[2].contains(&format!("(load 1 by line 2, ${pays}) would bring it to ${pays}")), "{}", e[2]);
    assert!(e[2].contains("the echo cannot know whether the trains get there"), "{}", e[2]);
    let e = echo(&s, &["ACTIVATE 1", "MOVE 1 Jonesboro", "CLEAR Griffin, Jonesboro"]);
    assert!(!e[2].contains("deliveries"), "the move stops short of Atlanta: {}", e[2]);
    let e = echo(&s, &["ACTIVATE 1", "CLEAR Griffin, Jonesboro", "MOVE 1 Jonesboro, East Point, Atlanta"]);
    assert!(e[1].contains("needs $200, but after line 1 you will have $0 before any payout"), "{}", e[1]);
    assert!(!e[1].contains("deliveries"), "the delivery comes after: {}", e[1]);
}
