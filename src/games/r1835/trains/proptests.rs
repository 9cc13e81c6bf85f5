//! Property tests over random sequences of train actions (any company operating in turn, each
//! picking one of its listed legal actions or its default, revenue paid in between): every
//! listed action is accepted, a refused one changes nothing, money is conserved (`State::money`)
//! and so are the 33 trains (bank + pool + companies + rusted), only the operating company
//! is ever left over its limit (RULING K38), and a company that may not end its turn always has
//! a legal action.

use super::super::R1835;
use super::super::actions::{Action, Refusal, illegal};
use super::super::holdings::{Holder, pay};
use super::super::state::{Entity, Loc, Round, State};
use super::super::tests::{engine, sold_packet};
use crate::engine::Event;
use proptest::prelude::*;
use serde_json::json;

/// The sold packet in an operating round with every share company but the Prussian presided
/// (directors handed round the table), some treasury each and cash for the players.
fn start(g: &R1835, cash: i64) -> State {
    let mut s = sold_packet(g, json!({}));
    s.round = Round::Operating { set: 1, n: 1, of: 1 };
    for co in 0..s.majors.len() {
        if g.data().majors[co].prussian {
            continue;
        }
        let seat = u8::try_from(co % 4).unwrap_or(0);
        for c in s.majors[co].certs.iter_mut().filter(|c| c.director && c.at == Loc::Ipo) {
            c.at = Loc::Player(seat);
        }
        s.majors[co].operated = true;
        if s.majors[co].price.is_none() {
            s.majors[co].price = Some(g.data().majors[co].start_space);
        }
        pay(&mut s, Holder::Bank, Holder::Major(co), cash);
    }
    for m in 0..s.minors.len() {
        pay(&mut s, Holder::Bank, Holder::Minor(m), cash / 2);
    }
    s
}

/// The entities that can operate: presided share companies and owned minors.
fn operators(g: &R1835, s: &State) -> Vec<Entity> {
    let majors = (0..s.majors.len()).filter(|c| g.president(s, *c).is_some()).map(|c| Entity::Major(c as u8));
    let minors = (0..s.minors.len()).filter(|m| s.minors[*m].owner.is_some()).map(|m| Entity::Minor(m as u8));
    majors.chain(minors).collect()
}

/// Applies a train action; an offer for another player's train is answered `accept` (RULING K75).
fn apply(g: &R1835, s: &mut State, e: Entity, a: &Action, accept: bool) -> Result<Vec<Event>, Refusal> {
    let mut ev = Vec::new();
    match a {
        Action::BuyTrain { train, from, price, .. } => g.buy_train(s, e, train, from, *price, &mut ev),
        Action::OfferTrain { train, from, price, .. } => g
            .offer_train(s, e, train, from, *price, &mut ev)
            .and_then(|()| g.answer_train_offer(s, from, accept, &mut ev).map(|_| ())),
        Action::DiscardTrain { train, .. } => g.discard_train(s, e, train, &mut ev),
        Action::Sell { company, count, percent } => {
            g.emergency_sell(s, e, company, *count, *percent, &mut ev)
        }
        _ => illegal("not a train action"),
    }
    .map(|_| ev)
}

/// One random walk: `steps` of (operator, action pick, revenue paid first). A company keeps
/// operating until it may end its turn; it is never stuck. Whether a seller's director accepts
/// an offer for its train is `accepts(pick)`; without it no offer is made (RULING K75).
fn walk(
    g: &R1835,
    cash: i64,
    steps: &[(u8, u16, u8)],
    accepts: Option<fn(u16) -> bool>,
) -> Result<State, String> {
    let mut s = start(g, cash);
    let money = s.money();
    for (i, (who, pick, revenue)) in steps.iter().enumerate() {
        // The operating company's turn ends only when its trains are in order (FACTS §7.6).
        let e = match s.or.queue.first().copied() {
            Some(e) if g.check_trains_done(&s, e).is_err() => e,
            _ => {
                let ops = operators(g, &s);
                let Some(e) = ops.get(usize::from(*who) % ops.len().max(1)).copied() else { return Ok(s) };
                e
            }
        };
        s.or.queue = vec![e];
        if let Entity::Major(c) = e {
            pay(&mut s, Holder::Bank, Holder::Major(usize::from(c)), i64::from(*revenue) * 2);
        }
        let mut legal = Vec::new();
        g.legal_trains(&s, e, &mut legal);
        legal.retain(|a| accepts.is_some() || !matches!(a, Action::OfferTrain { .. }));
        let chosen = match (pick % 4, g.default_trains(&s, e)) {
            (0, Some(d)) => Some(d),
            _ => legal.get(usize::from(*pick) % legal.len().max(1)).cloned(),
        };
        let Some(a) = chosen else {
            if g.check_trains_done(&s, e).is_err() {
                return Err(format!("step {i}: {e:?} can neither act nor end its turn"));
            }
            continue;
        };
        // A tampered price is refused and changes nothing.
        if let Action::BuyTrain { company, train, from, price } = &a {
            let before = s.clone();
            let wrong = Action::BuyTrain {
                company: company.clone(),
                train: train.clone(),
                from: from.clone(),
                price: -price,
            };
            if apply(g, &mut s, e, &wrong, true).is_ok() || s != before {
                return Err(format!("step {i}: a negative price was accepted or changed the state"));
            }
        }
        apply(g, &mut s, e, &a, accepts.is_some_and(|f| f(*pick)))
            .map_err(|r| format!("step {i}: listed {a:?} refused: {r}"))?;
        if s.money() != money {
            return Err(format!("step {i}: money {} after {a:?}, not {money}", s.money()));
        }
        if g.trains_accounted(&s) != 33 {
            return Err(format!("step {i}: {} trains accounted after {a:?}", g.trains_accounted(&s)));
        }
        if let Some(x) = operators(g, &s).into_iter().find(|x| *x != e && g.excess(&s, *x) > 0) {
            return Err(format!("step {i}: {x:?} left over its limit after {a:?}"));
        }
        if s.round == Round::Over {
            return Ok(s);
        }
    }
    Ok(s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_train_purchases_conserve_money_and_the_33_trains(
        cash in 0i64..400,
        steps in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u8>()), 1..160),
    ) {
        let g = engine();
        let end = walk(&g, cash, &steps, Some(|pick| (pick / 4) % 2 == 0));
        prop_assert!(end.is_ok(), "{:?}", end.err());
    }
}

#[test]
fn a_long_walk_reaches_the_last_phase() {
    let g = engine();
    let steps: Vec<(u8, u16, u8)> =
        (0..400u16).map(|i| ((i % 13) as u8, i.wrapping_mul(7) | 1, 200)).collect();
    // Without offers between players' companies, as the walk was made (the bank's trains move
    // the phases on; offers are the random walks' part).
    let end = walk(&g, 300, &steps, None);
    assert_eq!(end.as_ref().map(|s| usize::from(s.phase)), Ok(g.data().phases.len() - 1));
}
