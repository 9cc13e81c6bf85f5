//! The compulsory train and emergency money (FACTS §7.6, §13; HR 9): a share company without a
//! train must buy one while the bank or the pool has one; when its treasury is short the
//! president adds the difference from personal cash (RULING K37: only for the cheapest train
//! in the bank or the pool), sells shares when that is not enough, and goes bankrupt when even
//! that is not enough (RULING K39).

use super::super::R1835;
use super::super::actions::{Action, Refusal, illegal, pct};
use super::super::holdings::value;
use super::super::state::{Entity, Loc, Round, State};
use super::super::stock::SalePlan;
use super::depot::{cash_of, id_of, trains_of};
use crate::engine::Event;

/// Certificate sizes a sale may name.
const SIZES: [u8; 3] = [5, 10, 20];

impl R1835 {
    /// The price of the cheapest train in the bank or the pool, if there is one.
    pub(crate) fn cheapest_available(&self, s: &State) -> Option<i64> {
        let bank = self.bank_next(s).and_then(|t| self.data.trains.get(t)).map(|t| t.price);
        let pool = s.depot.pool.iter().map(|x| self.train_price(x)).min();
        bank.into_iter().chain(pool).min()
    }

    /// A share company without a train must buy one while the bank or the pool has one (FACTS
    /// §7.6, RDL 9.2, RR §23.3). Minors need not.
    pub(crate) fn must_buy(&self, s: &State, e: Entity) -> bool {
        matches!(e, Entity::Major(_)) && trains_of(s, e).is_empty() && self.cheapest_available(s).is_some()
    }

    /// What the president still has to find for the compulsory train after the treasury and
    /// personal cash (0 when there is no emergency).
    pub(crate) fn emergency_gap(&self, s: &State, e: Entity) -> i64 {
        let Some(cheapest) = self.cheapest_available(s).filter(|_| self.must_buy(s, e)) else { return 0 };
        let president = self.controller(s, e).and_then(|p| s.players.get(usize::from(p))).map(|p| p.cash);
        (cheapest - cash_of(s, e) - president.unwrap_or(0)).max(0)
    }

    /// A legal emergency sale by the president of the operating entity (FACTS §13): the seller
    /// and the plan. The ordinary selling rules apply (pool limit, operated companies); the
    /// president may not lose the presidency of the company in trouble, nor sell more than
    /// needed (RULING K39).
    pub(crate) fn check_emergency_sell(
        &self,
        s: &State,
        e: Entity,
        co: usize,
        count: u8,
        percent: u8,
    ) -> Result<(u8, SalePlan), Refusal> {
        self.operating(s, e)?;
        let gap = self.emergency_gap(s, e);
        if gap == 0 {
            return illegal(
                "in an operating round shares are sold only to raise the money for a compulsory train the president cannot otherwise pay (FACTS §13)",
            );
        }
        let Some(p) = self.controller(s, e) else { return illegal("the company has no president") };
        let plan = self.plan_sale(s, p, co, count, percent, false)?;
        if e == Entity::Major(u8::try_from(co).unwrap_or(u8::MAX)) && plan.challenger.is_some() {
            return illegal(format!(
                "that sale would cost you the presidency of {}, the company that needs the train (FACTS §13)",
                id_of(s, e)
            ));
        }
        let fewer = value(plan.unit_price, percent) * i64::from(count.saturating_sub(1));
        if fewer >= gap {
            return illegal(format!(
                "sell no more than needed: {gap} M is missing and {} certificate(s) of {} already raise {fewer} M (RULING K39)",
                count - 1,
                pct(percent)
            ));
        }
        Ok((p, plan))
    }

    /// Sells shares of the president of the operating entity to raise money for its compulsory
    /// train (checked first). The sale drops the price as a stock-round sale does.
    pub(crate) fn emergency_sell(
        &self,
        s: &mut State,
        e: Entity,
        company: &str,
        count: u8,
        percent: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let co = self.company(company)?;
        let (p, plan) = self.check_emergency_sell(s, e, co, count, percent)?;
        self.carry_out_sale(s, p, co, count, percent, plan, false, ev);
        ev.push(Event::public(format!(
            "(an emergency sale to pay for {}'s compulsory train, FACTS §13)",
            id_of(s, e)
        )));
        Ok(())
    }

    /// The legal emergency sales of the operating entity's president.
    pub(crate) fn emergency_sales(&self, s: &State, e: Entity, out: &mut Vec<Action>) {
        if self.emergency_gap(s, e) == 0 {
            return;
        }
        let Some(p) = self.controller(s, e) else { return };
        for co in 0..s.majors.len() {
            let held = self.percent_of(s, co, p);
            for percent in SIZES.into_iter().filter(|x| u32::from(*x) <= held) {
                let max = u8::try_from(held / u32::from(percent)).unwrap_or(0);
                for count in 1..=max {
                    if self.check_emergency_sell(s, e, co, count, percent).is_ok() {
                        out.push(Action::Sell { company: self.data.majors[co].id.clone(), count, percent });
                    }
                }
            }
        }
    }

    /// The default emergency sale (RULING K40): one certificate, of another company before the
    /// one in trouble, the most valuable first, then data order.
    pub(super) fn default_sale(&self, s: &State, e: Entity) -> Option<Action> {
        let mut sales = Vec::new();
        self.emergency_sales(s, e, &mut sales);
        sales.into_iter().filter(|a| matches!(a, Action::Sell { count: 1, .. })).min_by_key(|a| {
            let Action::Sell { company, percent, .. } = a else { return (true, 0, 0) };
            let co = self.data.major_index(company).unwrap_or(usize::MAX);
            let own = e == Entity::Major(u8::try_from(co).unwrap_or(u8::MAX));
            let price =
                s.majors.get(co).and_then(|c| c.price).map(|sp| self.data.market.price(sp)).unwrap_or(0);
            (own, -value(price, *percent), co)
        })
    }

    /// The president cannot pay for the compulsory train (RULING K39): the personal cash went
    /// into it, the bank pays the rest, every certificate the player still holds goes to the
    /// pool, and the game ends with the final ranking.
    pub(super) fn go_bankrupt(&self, s: &mut State, e: Entity, p: u8, ev: &mut Vec<Event>) {
        for c in &mut s.majors {
            for cert in c.certs.iter_mut().filter(|x| x.at == Loc::Player(p)) {
                cert.at = Loc::Pool;
            }
        }
        ev.push(Event::public(format!(
            "seat {} cannot pay for {}'s compulsory train even after selling what can be sold and is bankrupt: the bank pays the rest of the train, the player's certificates go to the bank pool, and the game ends (RULING K39)",
            p + 1,
            id_of(s, e)
        )));
        s.or.queue.clear();
        // The interrupted operating round still closes for the ledger (its money stands).
        s.closed.push(self.round_close(s));
        s.round = Round::Over;
    }
}
