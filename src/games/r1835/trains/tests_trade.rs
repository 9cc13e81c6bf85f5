//! Trains between companies of two players (FACTS §7.6 "at any agreed price"; RULINGS K36,
//! K75): the offer and its answer, what each checks, who sees the price, and the option
//! `foreign_train_trades` that takes a recorded purchase as agreed.

use super::super::R1835;
use super::super::actions::Action;
use super::super::options::ForeignTrainTrades;
use super::super::state::{Entity, State};
use super::super::tests::{co, engine};
use super::tests::{bank_at, buy, fund, give, major, operating, refused};
use crate::engine::prelude::*;
use crate::engine::{Event, Seat, Viewer};

/// BY (seat 1) operating in phase 2 with 500 M; SX (seat 2) holds a 2-train.
fn offer_position(g: &R1835) -> (Entity, Entity, State) {
    let (by, sx) = (major(g, "BY"), major(g, "SX"));
    let mut s = operating(g, by);
    fund(&mut s, by, 500);
    bank_at(g, &mut s, "3", "2");
    give(&mut s, sx, &["2"]);
    (by, sx, s)
}

fn offer(price: i64) -> Action {
    Action::OfferTrain { company: "BY".into(), train: "2".into(), from: "SX".into(), price }
}

fn answer(accept: bool) -> Action {
    Action::AnswerTrainOffer { company: "SX".into(), accept }
}

fn apply(g: &R1835, s: &mut State, a: &Action) -> Result<Vec<Event>, String> {
    g.apply_action(s, a).map_err(|e| e.0)
}

#[test]
fn ruling_k75_an_accepted_offer_moves_the_train_and_the_price_and_nothing_else() {
    let g = engine();
    let (_, _, mut s) = offer_position(&g);
    let money = s.money();
    apply(&g, &mut s, &offer(150)).expect("an offer in the trains step");
    assert_eq!(g.next_decision(&s).map(|d| d.seat), Some(Seat(2)), "SX's director answers next");
    assert_eq!(g.legal_actions(&s), vec![answer(true), answer(false)]);
    let ev = apply(&g, &mut s, &answer(true)).expect("the seller accepts");
    assert!(ev.iter().any(|e| e.public.contains("BY buys a 2-train from SX for 150 M")), "{ev:?}");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.majors[co(&g, "SX")].cash), (350, 150));
    assert_eq!(s.majors[co(&g, "BY")].trains, vec!["2"]);
    assert!(s.majors[co(&g, "SX")].trains.is_empty());
    assert_eq!(s.money(), money, "the ledger is conserved");
    assert_eq!(s.or.turn.offer, None);
    assert_eq!(g.next_decision(&s).map(|d| d.seat), Some(Seat(1)), "BY's turn goes on");
}

#[test]
fn ruling_k75_a_declined_offer_changes_no_holding_and_is_not_made_again() {
    let g = engine();
    let (_, _, mut s) = offer_position(&g);
    let before = (s.majors[co(&g, "BY")].cash, s.majors[co(&g, "SX")].trains.clone(), s.money());
    apply(&g, &mut s, &offer(150)).expect("an offer");
    let ev = apply(&g, &mut s, &answer(false)).expect("the seller declines");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.majors[co(&g, "SX")].trains.clone(), s.money()), before);
    assert!(ev[0].public.contains("SX keeps its 2-train"), "{ev:?}");
    assert!(apply(&g, &mut s, &offer(150)).is_err_and(|e| e.contains("has declined 150 M")));
    apply(&g, &mut s, &offer(160)).expect("another price may be offered");
}

#[test]
fn ruling_k75_an_offer_must_be_a_trade_that_could_be_carried_out_at_once() {
    let g = engine();
    let (by, _, mut s) = offer_position(&g);
    let mut early = s.clone();
    bank_at(&g, &mut early, "2", "1");
    refused(g.check_offer(&early, by, "2", "SX", 100), "only from phase 2 on");
    refused(g.check_offer(&s, by, "2", "SX", 0), "at least 1 M");
    refused(g.check_offer(&s, by, "2", "SX", 501), "treasury only (HR 9)");
    refused(g.check_offer(&s, by, "3", "SX", 100), "SX has no 3-train");
    give(&mut s, by, &["3", "3", "3", "3"]);
    refused(g.check_offer(&s, by, "2", "SX", 100), "its limit in phase 2 is 4");
}

#[test]
fn ruling_k36_a_player_running_both_companies_buys_and_does_not_offer() {
    let g = engine();
    let (by, _, mut s) = offer_position(&g);
    for c in s.majors[co(&g, "SX")].certs.iter_mut().filter(|c| c.director) {
        c.at = super::super::state::Loc::Player(0);
    }
    refused(g.check_offer(&s, by, "2", "SX", 100), "the same director");
    buy(&g, &mut s, by, "2", "SX", 1).expect("one player's two companies need no agreement");
}

#[test]
fn ruling_k75_nothing_but_the_answer_is_taken_while_an_offer_waits() {
    let g = engine();
    let (_, _, mut s) = offer_position(&g);
    apply(&g, &mut s, &offer(150)).expect("an offer");
    assert!(apply(&g, &mut s, &Action::Pass).is_err_and(|e| e.contains("must first answer")));
    let other = Action::AnswerTrainOffer { company: "BA".into(), accept: true };
    assert!(apply(&g, &mut s, &other).is_err_and(|e| e.contains("is for SX's 2-train")));
    assert_eq!(g.default_action(&s), Some(answer(false)), "a silent director keeps the train");
}

#[test]
fn ruling_k75_only_the_two_directors_and_the_gm_see_the_price_of_an_offer() {
    let g = engine();
    let (_, _, mut s) = offer_position(&g);
    let ev = apply(&g, &mut s, &offer(150)).expect("an offer");
    let priced = |v: Viewer| g.view(&s, v)["operating"]["offer"]["price"].clone();
    assert_eq!(priced(Viewer::Seat(Seat(1))), 150);
    assert_eq!(priced(Viewer::Seat(Seat(2))), 150);
    assert_eq!(priced(Viewer::Gm), 150);
    assert!(priced(Viewer::Seat(Seat(3))).is_null() && priced(Viewer::Public).is_null());
    assert_eq!(g.describe(&s, Viewer::Seat(Seat(3))), g.describe(&s, Viewer::Public));
    assert!(!g.describe(&s, Viewer::Public).contains("offers 150"));
    assert!(g.describe(&s, Viewer::Seat(Seat(2))).contains("BY offers 150 M"));
    assert!(ev.iter().all(|e| !e.text_for(Viewer::Seat(Seat(3))).contains("150")), "{ev:?}");
    assert!(ev.iter().any(|e| e.text_for(Viewer::Seat(Seat(2))).contains("150")));
    let ev = apply(&g, &mut s, &answer(false)).expect("declined");
    assert!(ev.iter().all(|e| !e.text_for(Viewer::Public).contains("150")));
    assert!(ev.iter().any(|e| e.text_for(Viewer::Seat(Seat(1))).contains("your offer of 150 M")));
}

#[test]
fn the_rails_option_takes_a_recorded_purchase_from_another_players_company_as_agreed() {
    let g = engine();
    let (by, _, mut s) = offer_position(&g);
    s.options.foreign_train_trades = ForeignTrainTrades::Direct;
    let money = s.money();
    refused(buy(&g, &mut s, by, "2", "SX", 0), "at least 1 M");
    buy(&g, &mut s, by, "2", "SX", 120).expect("Rails records the agreed trade as one purchase");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.majors[co(&g, "SX")].cash), (380, 120));
    assert_eq!(s.money(), money);
}

#[test]
fn the_offers_listed_are_accepted_and_include_another_players_trains() {
    let g = engine();
    let (_, _, s) = offer_position(&g);
    let legal = g.legal_actions(&s);
    assert!(legal.contains(&offer(1)) && legal.contains(&offer(80)), "{legal:?}");
    for a in legal.iter().filter(|a| matches!(a, Action::OfferTrain { .. })) {
        apply(&g, &mut s.clone(), a).expect("a listed offer is accepted");
    }
}
