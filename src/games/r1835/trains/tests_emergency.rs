//! The compulsory train, the president's cash, emergency sales, bankruptcy and the defaults of
//! a seat that sent no orders (FACTS §7.6, §13; HR 9; RULINGS K37, K39, K40).

use super::super::actions::Action;
use super::super::holdings::{Holder, pay};
use super::super::state::{Loc, Round, State};
use super::super::tests::{co, engine};
use super::tests::{bank_at, buy, fund, give, major, operating, refused};
use crate::engine::Seat;
use crate::engine::prelude::*;

/// Sets seat `p`'s (0-based) cash, the difference from or to the bank.
fn purse(s: &mut State, p: u8, amount: i64) {
    let have = s.players[usize::from(p)].cash;
    pay(s, Holder::Bank, Holder::Player(p), amount - have);
}

#[test]
fn a_share_company_without_a_train_may_not_end_its_turn_while_bank_or_pool_has_one() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    refused(g.check_trains_done(&s, by), "must buy one");
    give(&mut s, by, &["2"]);
    assert!(g.check_trains_done(&s, by).is_ok());
    s.majors[co(&g, "BY")].trains.clear();
    s.depot.rusted += 1;
    bank_at(&g, &mut s, "6+6", "3.3");
    let left = 4 - s.depot.sold_of(9);
    s.depot.add_sold(9, left);
    s.depot.rusted += u32::from(left);
    assert!(g.check_trains_done(&s, by).is_ok(), "nothing left in bank or pool: nothing to buy");
}

#[test]
fn house_rule_9_lets_the_director_pay_only_for_a_forced_train_from_bank_or_pool() {
    let g = engine();
    let (by, sx) = (major(&g, "BY"), major(&g, "SX"));
    let mut s = operating(&g, by);
    // A company that has a train gets no help.
    give(&mut s, by, &["2"]);
    fund(&mut s, by, 50);
    purse(&mut s, 0, 500);
    refused(buy(&g, &mut s, by, "2", "bank", 80), "HR 9");
    // Without a train it must buy: the president adds exactly the difference.
    s.majors[co(&g, "BY")].trains.clear();
    s.depot.rusted += 1;
    let money = s.money();
    buy(&g, &mut s, by, "2", "bank", 80).expect("the compulsory train");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.players[0].cash), (0, 470));
    assert_eq!(s.money(), money);
    // Never for a train from another company, even one the same player runs.
    s.majors[co(&g, "BY")].trains.clear();
    s.depot.rusted += 1;
    for c in s.majors[co(&g, "SX")].certs.iter_mut().filter(|c| c.director) {
        c.at = Loc::Player(0);
    }
    bank_at(&g, &mut s, "3", "2");
    give(&mut s, sx, &["2+2"]);
    refused(buy(&g, &mut s, by, "2+2", "SX", 1), "treasury only");
}

#[test]
fn ruling_k37_the_president_helps_only_with_the_cheapest_train_in_bank_or_pool() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    bank_at(&g, &mut s, "3", "2");
    s.depot.pool.push("2+2".into());
    s.depot.rusted -= 1;
    fund(&mut s, by, 100);
    purse(&mut s, 0, 500);
    refused(buy(&g, &mut s, by, "3", "bank", 180), "RULING K37");
    buy(&g, &mut s, by, "2+2", "pool", 120).expect("the cheapest, from the pool");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.players[0].cash), (0, 480));
    assert!(s.depot.pool.is_empty());
}

#[test]
fn a_president_short_of_cash_sells_shares_no_more_than_needed() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    s.majors[co(&g, "BY")].operated = true;
    fund(&mut s, by, 0);
    purse(&mut s, 0, 0);
    refused(buy(&g, &mut s, by, "2", "bank", 80), "sell shares first");
    refused(g.check_trains_done(&s, by), "80 M is missing");
    let mut ev = Vec::new();
    refused(g.emergency_sell(&mut s, by, "BY", 2, 10, &mut ev), "no more than needed");
    assert_eq!(g.default_trains(&s, by), Some(Action::Sell { company: "BY".into(), count: 1, percent: 10 }));
    let (money, price) = (s.money(), s.majors[co(&g, "BY")].price);
    g.emergency_sell(&mut s, by, "BY", 1, 10, &mut ev).expect("an emergency sale");
    assert!(s.players[0].cash >= 80);
    assert_ne!(s.majors[co(&g, "BY")].price, price, "the sale drops the price");
    // Enough now: no further sale.
    refused(g.emergency_sell(&mut s, by, "BY", 1, 10, &mut ev), "only to raise the money");
    let cash = s.players[0].cash;
    buy(&g, &mut s, by, "2", "bank", 80).expect("the compulsory train");
    assert_eq!(s.players[0].cash, cash - 80);
    assert_eq!(s.money(), money);
}

#[test]
fn an_emergency_sale_may_not_cost_the_presidency_of_the_company_in_trouble() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    s.majors[co(&g, "BY")].operated = true;
    // Seat 3 gets 30 %: seat 1 (director 20 % + 20 %) would lose BY by selling 20 %.
    let ipo: Vec<usize> = s.majors[co(&g, "BY")]
        .certs
        .iter()
        .enumerate()
        .filter(|(_, c)| c.at == Loc::Ipo)
        .map(|(i, _)| i)
        .take(2)
        .collect();
    for i in ipo {
        s.majors[co(&g, "BY")].certs[i].at = Loc::Player(2);
    }
    fund(&mut s, by, 0);
    purse(&mut s, 0, 0);
    let mut ev = Vec::new();
    refused(g.emergency_sell(&mut s, by, "BY", 2, 10, &mut ev), "presidency");
}

#[test]
fn a_president_who_cannot_pay_goes_bankrupt_and_the_game_ends() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    // BY has not operated: its shares cannot be sold, and seat 1 holds nothing else.
    fund(&mut s, by, 10);
    purse(&mut s, 0, 30);
    let money = s.money();
    assert_eq!(
        g.default_trains(&s, by),
        Some(Action::BuyTrain { company: "BY".into(), train: "2".into(), from: "bank".into(), price: 80 })
    );
    let round = s.round.name();
    buy(&g, &mut s, by, "2", "bank", 80).expect("the purchase that bankrupts");
    assert_eq!(s.round, Round::Over);
    let closed: Vec<&str> = s.closed.iter().map(|c| c.round.as_str()).collect();
    assert_eq!(closed, vec![round.as_str()], "the interrupted round still closes for the ledger");
    assert_eq!(s.closed[0].players[0], 0, "with the bankrupt president's money as it ends");
    assert_eq!(s.majors[co(&g, "BY")].trains, vec!["2".to_string()]);
    assert_eq!((s.majors[co(&g, "BY")].cash, s.players[0].cash), (0, 0));
    assert!(s.majors.iter().all(|c| c.certs.iter().all(|x| x.at != Loc::Player(0))));
    assert_eq!(s.money(), money);
    let standings = g.standings(&s).expect("the final ranking");
    let last = standings.iter().max_by_key(|x| x.place).map(|x| (x.seat, x.score.clone()));
    assert_eq!(last, Some((Seat::from_index(0), "0 M".to_string())));
}

#[test]
fn a_seat_without_orders_buys_the_cheapest_compulsory_train_and_nothing_else() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    fund(&mut s, by, 500);
    let bank = Action::BuyTrain { company: "BY".into(), train: "2".into(), from: "bank".into(), price: 80 };
    assert_eq!(g.default_trains(&s, by), Some(bank));
    give(&mut s, by, &["2"]);
    assert_eq!(g.default_trains(&s, by), None, "a company with a train buys nothing by default");
    bank_at(&g, &mut s, "4", "2.3");
    give(&mut s, by, &["3+3", "3", "4"]);
    assert_eq!(
        g.default_trains(&s, by),
        Some(Action::DiscardTrain { company: "BY".into(), train: "2".into() }),
        "over the limit: the least valuable goes"
    );
}
