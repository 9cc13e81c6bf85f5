//! Buying, the strict order, limits, rusting, phases and their events (FACTS §7.6, §8; HR 9),
//! plus the fixtures the other train tests share: the four-player sold packet (seat 1 presides
//! BY, seat 2 SX through LD) moved into operating round 1.1.

use super::super::R1835;
use super::super::actions::{Action, Refusal};
use super::super::holdings::{Holder, pay};
use super::super::state::{Entity, PrussianMoment, Round, State};
use super::super::tests::{act, co, engine, fresh_stock_round, sold_packet};
use crate::engine::Event;
use serde_json::json;

/// The sold packet in operating round 1.1 with `e` operating.
pub(crate) fn operating(g: &R1835, e: Entity) -> State {
    let mut s = sold_packet(g, json!({}));
    s.round = Round::Operating { set: 1, n: 1, of: 1 };
    s.or.queue = vec![e];
    s
}

pub(crate) fn major(g: &R1835, id: &str) -> Entity {
    Entity::Major(u8::try_from(co(g, id)).unwrap_or(0))
}

/// Sets a company's treasury, the difference coming from (or going to) the bank.
pub(crate) fn fund(s: &mut State, e: Entity, amount: i64) {
    let Entity::Major(c) = e else { return };
    let have = s.majors[usize::from(c)].cash;
    pay(s, Holder::Bank, Holder::Major(usize::from(c)), amount - have);
}

/// Moves the bank on: every train before the type `next` counts as bought and is out of the
/// game (as rusted), and the phase is `phase`.
pub(crate) fn bank_at(g: &R1835, s: &mut State, next: &str, phase: &str) {
    let t = g.train_type(next).unwrap_or(0);
    for (i, x) in g.data().trains.iter().enumerate().take(t) {
        let left = x.count - s.depot.sold_of(i);
        s.depot.add_sold(i, left);
        s.depot.rusted += u32::from(left);
    }
    s.phase = u8::try_from(g.data().phases.iter().position(|p| p.id == phase).unwrap_or(0)).unwrap_or(0);
}

/// BY operating with `cash` in its treasury, the bank at the type `next`, in phase `phase`.
pub(crate) fn by_at(g: &R1835, cash: i64, next: &str, phase: &str) -> (Entity, State) {
    let by = major(g, "BY");
    let mut s = operating(g, by);
    fund(&mut s, by, cash);
    bank_at(g, &mut s, next, phase);
    (by, s)
}

/// Gives a company trains, taken from the rusted heap as far as it goes (the unit tests look at
/// one rule each; the property tests keep the count of 33).
pub(crate) fn give(s: &mut State, e: Entity, trains: &[&str]) {
    let list = match e {
        Entity::Major(c) => &mut s.majors[usize::from(c)].trains,
        Entity::Minor(m) => &mut s.minors[usize::from(m)].trains,
    };
    list.extend(trains.iter().map(|x| x.to_string()));
    s.depot.rusted = s.depot.rusted.saturating_sub(u32::try_from(trains.len()).unwrap_or(0));
}

pub(super) fn buy(
    g: &R1835,
    s: &mut State,
    e: Entity,
    train: &str,
    from: &str,
    price: i64,
) -> Result<Vec<Event>, Refusal> {
    let mut ev = Vec::new();
    g.buy_train(s, e, train, from, price, &mut ev).map(|_| ev)
}

/// Asserts a refusal whose reason contains `says`.
pub(super) fn refused<T: std::fmt::Debug>(r: Result<T, Refusal>, says: &str) {
    match r {
        Err(Refusal::Illegal(why)) => {
            assert!(why.contains(says), "refusal \"{why}\" does not say \"{says}\"")
        }
        other => panic!("expected a refusal saying \"{says}\", got {other:?}"),
    }
}

#[test]
fn trains_leave_the_bank_in_strict_order() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    fund(&mut s, by, 5000);
    refused(buy(&g, &mut s, by, "2+2", "bank", 120), "the next is a 2-train");
    refused(buy(&g, &mut s, by, "2", "bank", 70), "printed price, 80 M");
    for _ in 0..4 {
        buy(&g, &mut s, by, "2", "bank", 80).expect("a 2-train");
    }
    assert_eq!(s.depot.sold_of(0), 4);
    assert_eq!(g.bank_left(&s), 29);
    bank_at(&g, &mut s, "2+2", "1");
    s.majors[co(&g, "BY")].trains.clear();
    s.depot.rusted += 4;
    refused(buy(&g, &mut s, by, "3", "bank", 180), "the next is a 2+2-train");
    buy(&g, &mut s, by, "2+2", "bank", 120).expect("the 2+2 comes after the last 2");
}

#[test]
fn a_company_at_its_train_limit_may_not_buy() {
    let g = engine();
    let (by, mut s) = by_at(&g, 5000, "4", "2");
    give(&mut s, by, &["2", "2", "3", "3"]);
    // The 4 would rust both 2-trains, but a company at its limit may not buy at all (RR §24.1).
    refused(buy(&g, &mut s, by, "4", "bank", 360), "may not buy another");
    assert_eq!(s.majors[co(&g, "BY")].trains.len(), 4);
}

#[test]
fn the_first_4_rusts_every_2_train() {
    let g = engine();
    let (by, sx, m1) = (major(&g, "BY"), major(&g, "SX"), Entity::Minor(0));
    let mut s = operating(&g, by);
    fund(&mut s, by, 1000);
    bank_at(&g, &mut s, "4", "2");
    give(&mut s, by, &["2", "3"]);
    give(&mut s, sx, &["2", "2", "2+2"]);
    give(&mut s, m1, &["2"]);
    s.depot.pool.push("2".into());
    s.depot.rusted -= 1;
    let (money, rusted) = (s.money(), s.depot.rusted);
    let ev = buy(&g, &mut s, by, "4", "bank", 360).expect("the first 4");
    let all: Vec<&String> =
        s.majors.iter().flat_map(|c| &c.trains).chain(s.minors.iter().flat_map(|m| &m.trains)).collect();
    assert!(!all.iter().any(|x| *x == "2") && !s.depot.pool.contains(&"2".to_string()));
    assert_eq!(s.depot.rusted, rusted + 5);
    assert_eq!(s.majors[co(&g, "SX")].trains, vec!["2+2".to_string()]);
    assert_eq!(g.phase_id(&s), "2.3");
    assert_eq!(s.prussian_due, vec![PrussianMoment::MayForm]);
    assert_eq!(s.money(), money);
    assert!(ev.iter().any(|e| e.public.contains("rusts every 2-train")), "{ev:?}");
}

#[test]
fn house_rule_9_works_out_each_purchase_before_the_next() {
    let g = engine();
    let (by, mut s) = by_at(&g, 2000, "4", "2");
    give(&mut s, by, &["3", "3+3", "3"]);
    buy(&g, &mut s, by, "4", "bank", 360).expect("the first 4");
    // The 4 started phase 2.3 at once: the limit is 3 now, and BY holds 4 trains.
    assert_eq!(g.train_limit(&s, by), 3);
    refused(buy(&g, &mut s, by, "4", "bank", 360), "may not buy another");
    assert!(g.check_trains_done(&s, by).is_err());
    let mut legal = Vec::new();
    g.legal_trains(&s, by, &mut legal);
    assert!(legal.iter().all(|a| matches!(a, Action::DiscardTrain { .. })) && legal.len() == 3, "{legal:?}");
    let mut ev = Vec::new();
    g.discard_train(&mut s, by, "3", &mut ev).expect("over the limit");
    assert_eq!(s.depot.pool, vec!["3".to_string()]);
    assert!(g.check_trains_done(&s, by).is_ok());
}

#[test]
fn limits_lowering_push_the_least_valuable_surplus_trains_of_other_companies_to_the_pool() {
    let g = engine();
    let (by, sx, m1) = (major(&g, "BY"), major(&g, "SX"), Entity::Minor(0));
    let mut s = operating(&g, by);
    fund(&mut s, by, 2000);
    bank_at(&g, &mut s, "4", "2");
    give(&mut s, sx, &["3+3", "3", "3+3", "3"]);
    give(&mut s, m1, &["3", "3+3"]);
    let money = s.money();
    buy(&g, &mut s, by, "4", "bank", 360).expect("the first 4");
    assert_eq!(s.majors[co(&g, "SX")].trains, vec!["3+3", "3+3", "3"]);
    assert_eq!(s.minors[0].trains, vec!["3+3"]);
    assert_eq!(s.depot.pool, vec!["3", "3"]);
    assert_eq!(s.money(), money, "surplus trains go without compensation");
}

#[test]
fn discarding_a_train_within_the_limit_is_refused() {
    let g = engine();
    let by = major(&g, "BY");
    let mut s = operating(&g, by);
    give(&mut s, by, &["2"]);
    let mut ev = Vec::new();
    assert!(g.discard_train(&mut s, by, "2", &mut ev).is_err());
    assert!(s.depot.pool.is_empty());
}

#[test]
fn the_first_5_closes_every_private() {
    let g = engine();
    let (by, mut s) = by_at(&g, 2000, "5", "2.4");
    give(&mut s, by, &["4"]);
    buy(&g, &mut s, by, "5", "bank", 500).expect("the first 5");
    assert_eq!(g.phase_id(&s), "3");
    for (i, p) in s.privates.iter().enumerate() {
        // BB and HB close by their exchange into the Prussian, which the first 5 forces.
        let exchanged = ["BB", "HB"].contains(&g.data().privates[i].id.as_str());
        assert_eq!(p.closed, !exchanged, "{}", p.id);
    }
    assert!(s.prussian_due.contains(&PrussianMoment::ForcedExchange));
    assert_eq!(g.train_limit(&s, by), 2);
}

#[test]
fn lds_closes_when_sx_buys_its_first_train() {
    let g = engine();
    let (by, sx) = (major(&g, "BY"), major(&g, "SX"));
    let ld = g.data().private_index("LD").unwrap_or(0);
    let mut s = operating(&g, by);
    fund(&mut s, by, 1000);
    buy(&g, &mut s, by, "2", "bank", 80).expect("BY's train");
    assert!(!s.privates[ld].closed, "another company's train leaves LD open");
    s.or.queue = vec![sx];
    fund(&mut s, sx, 100);
    buy(&g, &mut s, sx, "2", "bank", 80).expect("SX's first train");
    assert!(s.privates[ld].closed);
}

#[test]
fn buying_between_companies_needs_phase_2_and_at_least_1_m() {
    let g = engine();
    let (by, sx) = (major(&g, "BY"), major(&g, "SX"));
    let mut s = operating(&g, by);
    // Seat 1 presides both: the SX director's certificate moves to seat 1.
    for c in s.majors[co(&g, "SX")].certs.iter_mut().filter(|c| c.director) {
        c.at = super::super::state::Loc::Player(0);
    }
    fund(&mut s, by, 500);
    give(&mut s, sx, &["2", "2"]);
    refused(buy(&g, &mut s, by, "2", "SX", 10), "only from phase 2 on");
    bank_at(&g, &mut s, "3", "2");
    refused(buy(&g, &mut s, by, "2", "SX", 0), "at least 1 M");
    refused(buy(&g, &mut s, by, "2", "SX", 501), "treasury only");
    let money = s.money();
    buy(&g, &mut s, by, "2", "SX", 1).expect("any price of at least 1");
    assert_eq!((s.majors[co(&g, "BY")].cash, s.majors[co(&g, "SX")].cash), (499, 1));
    assert_eq!(s.majors[co(&g, "SX")].trains.len(), 1);
    assert_eq!(s.money(), money);
}

#[test]
fn ruling_k36_a_train_of_another_players_company_is_not_bought_without_its_directors_agreement() {
    let g = engine();
    let (by, sx) = (major(&g, "BY"), major(&g, "SX"));
    let mut s = operating(&g, by);
    fund(&mut s, by, 500);
    bank_at(&g, &mut s, "3", "2");
    give(&mut s, sx, &["2"]);
    refused(buy(&g, &mut s, by, "2", "SX", 50), "RULINGS K36, K75");
}

#[test]
fn a_minor_without_a_train_may_end_its_turn() {
    let g = engine();
    let s = operating(&g, Entity::Minor(0));
    assert!(g.check_trains_done(&s, Entity::Minor(0)).is_ok());
    assert_eq!(g.default_trains(&s, Entity::Minor(0)), None);
}

#[test]
fn the_prussian_keeps_three_trains_where_a_share_company_keeps_two() {
    let g = engine();
    let (by, pr) = (major(&g, "BY"), major(&g, "PR"));
    let mut s = operating(&g, by);
    bank_at(&g, &mut s, "5", "2.4");
    give(&mut s, by, &["4", "4+4", "3+3"]);
    give(&mut s, pr, &["4", "3+3", "3", "4"]);
    fund(&mut s, by, 1000);
    s.majors[co(&g, "BY")].trains.pop();
    buy(&g, &mut s, by, "5", "bank", 500).expect("the first 5");
    assert_eq!(g.train_limit(&s, pr), 3);
    assert_eq!(s.majors[co(&g, "PR")].trains, vec!["4", "3+3", "4"]);
    assert_eq!(s.majors[co(&g, "BY")].trains.len(), 3, "the buyer's president chooses what goes");
}

#[test]
fn a_state_saved_before_the_trains_step_existed_loads_with_a_full_bank() {
    let g = engine();
    let s = operating(&g, major(&g, "BY"));
    let mut saved = serde_json::to_value(&s).expect("a state serializes");
    if let Some(o) = saved.as_object_mut() {
        o.remove("depot");
        o.remove("prussian_due");
    }
    let back: State = serde_json::from_value(saved).expect("an old state loads");
    assert_eq!(back.depot, super::super::state::Depot::default());
    assert!(back.prussian_due.is_empty());
    assert_eq!((g.bank_left(&back), g.trains_accounted(&back)), (33, 33));
}

#[test]
fn the_first_3_brings_two_operating_rounds_per_set_after_the_next_stock_round() {
    let g = engine();
    let (by, mut s) = by_at(&g, 1000, "3", "1");
    buy(&g, &mut s, by, "3", "bank", 180).expect("the first 3");
    assert_eq!(g.phase_id(&s), "2");
    assert_eq!(s.round, Round::Operating { set: 1, n: 1, of: 1 }, "the running set keeps its count");
    fresh_stock_round(&g, &mut s, 2, 1);
    for _ in 0..4 {
        act(&g, &mut s, Action::Pass);
    }
    assert_eq!(s.round, Round::Operating { set: 2, n: 1, of: 2 });
}
