//! Issue 34: decisions stated in advance — the Line Usage Fee per train, per line or within a
//! budget (RT 5.6, RULING F83), and `TAKE` conditional on the drawn chit (RT 5.1.2, RULING F84).

use super::orders_tests::sheet;
use super::proptests::game;
use super::state::{Action, FeePaid, Stage, State};
use super::tests::{apply, on_foreign_line, put, st, started};
use crate::engine::Seat;
use crate::engine::prelude::*;

/// The step the sheet orders into Jonesboro, and the notes the answer made.
fn step(s: &State, lines: &[&str]) -> (Option<Action>, Vec<String>) {
    let mut all = vec!["MOVE 1 Jonesboro"];
    all.extend(lines);
    let a = game().answer_from(s, &mut sheet(&all));
    (a.action, a.notes.into_iter().map(|n| format!("line {}: {}", n.line, n.note)).collect())
}

fn jonesboro(fee: bool) -> Option<Action> {
    Some(Action::Step { to: st("Jonesboro"), fee })
}

#[test]
fn rule_5_6_a_fee_line_for_one_train_pays_only_for_that_train() {
    let s = on_foreign_line();
    assert_eq!(step(&s, &["PAY FEES FOR 2"]).0, jonesboro(false), "train 2's line does not pay for train 1");
    let (a, notes) = step(&s, &["PAY FEES FOR 1"]);
    assert_eq!(a, jonesboro(true));
    assert!(notes.contains(&"line 2: paid the line usage fee (into Jonesboro)".to_string()), "{notes:?}");
}

#[test]
fn rule_5_6_a_fee_line_for_one_line_pays_only_on_that_line() {
    let s = on_foreign_line();
    assert_eq!(step(&s, &["PAY FEES ON 11"]).0, jonesboro(false));
    assert_eq!(step(&s, &["PAY FEES ON 12"]).0, jonesboro(true));
}

#[test]
fn rule_5_6_a_fee_budget_pays_no_fee_beyond_it_counting_the_fees_paid_this_turn() {
    let g = game();
    let mut s = on_foreign_line();
    assert_eq!(step(&s, &["PAY FEES UP TO 100"]).0, jonesboro(false), "$200 does not fit in $100");
    assert_eq!(step(&s, &["PAY FEES UP TO 300"]).0, jonesboro(true));
    s.fees_paid.push(FeePaid { train: 2, line: 11, amount: 200 });
    assert_eq!(step(&s, &["PAY FEES UP TO 300"]).0, jonesboro(false), "$200 of the $300 are spent");
    assert_eq!(
        step(&s, &["PAY FEES FOR 1 UP TO 300"]).0,
        jonesboro(true),
        "a budget for train 1 counts train 1's fees only"
    );
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: true });
    assert_eq!(s.fees_paid.last(), Some(&FeePaid { train: 1, line: 12, amount: 200 }), "the fee is counted");
}

#[test]
fn rule_5_6_pay_no_fees_on_a_line_stands_before_a_wider_pay_fees() {
    let s = on_foreign_line();
    assert_eq!(step(&s, &["PAY NO FEES ON 12", "PAY FEES"]).0, jonesboro(false));
    assert_eq!(step(&s, &["PAY NO FEES ON 11", "PAY FEES"]).0, jonesboro(true));
}

#[test]
fn the_fees_paid_are_forgotten_when_the_next_player_turn_begins() {
    let g = game();
    let mut s = started(2);
    s.fees_paid.push(FeePaid { train: 1, line: 12, amount: 200 });
    apply(g, &mut s, Action::StartMoving);
    assert!(s.fees_paid.is_empty(), "{:?}", s.stage);
}

#[test]
fn the_echo_shows_which_fee_a_fee_line_answers() {
    let mut s = on_foreign_line();
    s.players[0].rrcs.insert(11);
    let sh = sheet(&["PAY FEES FOR 1 ON 12 UP TO 400", "PAY NO FEES ON 11", "PAY FEES FOR 4"]);
    let e: Vec<String> = game().advise_sheet(&s, Seat(1), &sh.orders).into_iter().flatten().collect();
    assert!(
        e[0].contains("for the line usage fee (RT 5.6): pay the line usage fee for train 1 on RRC #12, at most $400 this Player Turn"),
        "{}",
        e[0]
    );
    assert!(e[1].contains("you own RRC #11: no fee is due on it"), "{}", e[1]);
    assert!(e[2].contains("you have no train 4"), "{}", e[2]);
}

/// Seat 1's train 1 at Memphis has drawn load `drawn`; the display holds loads 2 and 3.
fn drawn(drawn: u32) -> State {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Memphis", None);
    s.display = vec![2, 3];
    s.stage = Stage::ChooseLoad { train: 1, drawn };
    s
}

fn take(s: &State, line: &str) -> Option<Action> {
    game().answer_from(s, &mut sheet(&[line])).action
}

#[test]
fn rule_5_1_2_take_drawn_if_keeps_the_drawn_load_only_when_it_passes_the_test() {
    let d = game().data();
    let s = drawn(1);
    let pays = super::chits::payout(d, &s, 1);
    assert_eq!(take(&s, &format!("TAKE DRAWN IF PAYOUT > {pays}")), None, "the line waits: the default");
    assert_eq!(take(&s, &format!("TAKE DRAWN IF PAYOUT >= {pays}")), Some(Action::TakeDrawn));
    assert_eq!(take(&s, "TAKE DRAWN IF GOODS cotton AND TO Charleston"), Some(Action::TakeDrawn));
    assert_eq!(take(&s, "TAKE DRAWN IF NOT GOODS Cotton"), None);
    assert_eq!(take(&s, "TAKE DRAWN IF WAR"), None, "load 1 is civilian");
}

#[test]
fn rule_5_1_2_a_displayed_load_is_taken_instead_only_if_the_drawn_one_is_what_the_line_names() {
    let s = drawn(1);
    assert_eq!(take(&s, "TAKE 3 IF DRAWN GOODS Cotton"), Some(Action::TakeDisplay(3)));
    assert_eq!(take(&s, "TAKE 3 IF DRAWN TO Richmond"), None, "load 1 goes to Charleston");
    assert_eq!(take(&s, "TAKE 3 IF DRAWN FROM Memphis AND PAYOUT < 100"), None);
}

#[test]
fn a_take_test_reads_back_and_the_echo_checks_its_goods_and_stations() {
    let g = game();
    for line in ["TAKE DRAWN IF GOODS Cotton AND NOT TO Richmond", "TAKE 17 IF DRAWN PAYOUT < 600 AND WAR"] {
        assert_eq!(g.parse_order(line).expect(line).to_string(), line);
    }
    assert!(g.parse_order("TAKE DRAWN IF it is nice").is_err());
    let sh = sheet(&["TAKE DRAWN IF GOODS Coton AND TO Richmnd"]);
    let e: Vec<String> = g.advise_sheet(&drawn(1), Seat(1), &sh.orders).into_iter().flatten().collect();
    assert!(e[0].contains("answers the decision now"), "{}", e[0]);
    assert!(e[0].contains("no load carries \"Coton\" (did you mean Cotton?)"), "{}", e[0]);
    assert!(e[0].contains("did you mean Richmond?"), "{}", e[0]);
}

#[test]
fn rule_5_1_2_a_take_line_for_a_named_train_answers_only_the_choice_made_for_that_train() {
    let s = drawn(1);
    assert_eq!(take(&s, "TAKE DRAWN FOR 1 IF GOODS Cotton"), Some(Action::TakeDrawn));
    assert_eq!(take(&s, "TAKE DRAWN FOR 2 IF GOODS Cotton"), None, "the load is drawn for train 1");
    assert_eq!(take(&s, "TAKE 3 FOR 1 IF DRAWN GOODS Cotton"), Some(Action::TakeDisplay(3)));
    assert_eq!(take(&s, "TAKE 3 FOR 2 IF DRAWN GOODS Cotton"), None);
    let lines = ["TAKE 3 FOR 2 IF DRAWN GOODS Cotton", "TAKE DRAWN FOR 1 IF GOODS Cotton"];
    let a = game().answer_from(&s, &mut sheet(&lines));
    assert_eq!(a.action, Some(Action::TakeDrawn), "the line for train 2 is left for its own draw");
}

#[test]
fn a_take_line_for_a_train_reads_back_and_the_echo_names_the_train_and_checks_it() {
    let g = game();
    for line in ["TAKE DRAWN FOR 2 IF WAR", "TAKE 17 FOR E IF DRAWN GOODS Cotton"] {
        assert_eq!(g.parse_order(line).expect(line).to_string(), line);
    }
    assert!(g.parse_order("TAKE DRAWN FOR IF WAR").is_err());
    let sh = sheet(&["TAKE DRAWN FOR 1 IF WAR", "TAKE 3 FOR 4 IF DRAWN WAR"]);
    let e: Vec<String> = g.advise_sheet(&drawn(1), Seat(1), &sh.orders).into_iter().flatten().collect();
    assert!(e[0].contains("answers the decision now: for train 1"), "{}", e[0]);
    assert!(e[1].contains("for the load drawn for train 4: load 3 of the display instead"), "{}", e[1]);
    assert!(e[1].contains("you have no train 4"), "{}", e[1]);
}
