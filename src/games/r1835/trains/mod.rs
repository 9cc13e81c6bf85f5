//! Trains in the operating round's trains step (FACTS §7.6, §8, §13; HR 9): buying from the
//! bank, the pool or another company, discarding over the limit, the compulsory train with the
//! president's money, emergency sales and bankruptcy. The step machine (`operate/`) calls the
//! methods here for the operating entity. Files by role: `depot` (what the bank and the pool
//! hold, per-entity views), `phase` (a purchase's consequences: rusting, phases, limits,
//! privates closing, Prussian moments), `emergency` (the compulsory train's money), `trade`
//! (trains between companies: the price, the two directors' agreement, offers and answers).
//! Rulings K36-K40, K75.

mod depot;
mod emergency;
mod phase;
mod trade;

#[cfg(test)]
mod proptests;
#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_emergency;
#[cfg(test)]
mod tests_prussian;
#[cfg(test)]
mod tests_trade;

use super::R1835;
use super::actions::{Action, Refusal, illegal};
use super::holdings::{Holder, pay};
use super::state::{Entity, Round, State};
use crate::engine::Event;
use depot::{cash_of, holder_of, id_of, trains_mut, trains_of};

/// Where a checked purchase takes its train from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    /// The next train of the bank, of this type.
    Bank(usize),
    /// The pool's train at this position.
    Pool(usize),
    /// Another entity's train at this position.
    Company(Entity, usize),
}

/// A checked purchase: where from, at what price, what the president adds (HR 9) and whether
/// the president goes bankrupt over it (RULING K39).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Purchase {
    source: Source,
    price: i64,
    president_adds: i64,
    bankrupt: bool,
}

impl R1835 {
    /// Only the operating entity acts in its trains step (FACTS §7.6).
    fn operating(&self, s: &State, e: Entity) -> Result<(), Refusal> {
        if !matches!(s.round, Round::Operating { .. }) || s.or.queue.first() != Some(&e) {
            return illegal(format!("{} is not the company operating now", id_of(s, e)));
        }
        Ok(())
    }

    /// Whether the entity may buy `train` from `from` at `price`, and how it is paid.
    fn check_buy_train(
        &self,
        s: &State,
        e: Entity,
        train: &str,
        from: &str,
        price: i64,
    ) -> Result<Purchase, Refusal> {
        self.operating(s, e)?;
        self.check_room(s, e)?;
        let Some(t) = self.train_type(train) else {
            return illegal(format!("there is no \"{train}\" train"));
        };
        let printed = self.data.trains[t].price;
        let fixed = |source: Source| -> Result<Purchase, Refusal> {
            if price != printed {
                return illegal(format!(
                    "a {train}-train from the {from} costs its printed price, {printed} M"
                ));
            }
            self.pay_plan(s, e, source, printed)
        };
        match from {
            "bank" => match self.bank_next(s) {
                Some(next) if next == t => fixed(Source::Bank(t)),
                Some(next) => illegal(format!(
                    "the bank sells its trains in order: the next is a {}-train (FACTS §7.6)",
                    self.data.trains[next].name
                )),
                None => illegal("the bank has no trains left"),
            },
            "pool" => match s.depot.pool.iter().position(|x| x == train) {
                Some(i) => fixed(Source::Pool(i)),
                None => illegal(format!("the pool holds no {train}-train")),
            },
            other => {
                let Some(seller) = self.entity_by_id(other).filter(|x| *x != e) else {
                    return illegal(format!(
                        "\"{other}\" is neither \"bank\", \"pool\" nor another company's id"
                    ));
                };
                self.check_trade(s, e, seller, train, price, false)
            }
        }
    }

    /// A company at its train limit may not buy, even a train that would rust others (FACTS
    /// §7.6, RR §24.1).
    fn check_room(&self, s: &State, e: Entity) -> Result<(), Refusal> {
        let (held, limit) = (trains_of(s, e).len(), self.train_limit(s, e));
        if held >= limit {
            return illegal(format!(
                "{} holds {held} train(s) and its limit in phase {} is {limit}: it may not buy another, even one that would rust trains (FACTS §7.6, RR §24.1)",
                id_of(s, e),
                self.phase_id(s)
            ));
        }
        Ok(())
    }

    /// How a train from the bank or the pool is paid: by the treasury, else (the compulsory
    /// train only) with the president's cash (HR 9, RULING K37), else by a bankrupt president.
    fn pay_plan(&self, s: &State, e: Entity, source: Source, price: i64) -> Result<Purchase, Refusal> {
        let (id, cash) = (id_of(s, e), cash_of(s, e));
        let ok =
            |president_adds: i64, bankrupt: bool| Ok(Purchase { source, price, president_adds, bankrupt });
        if cash >= price {
            return ok(0, false);
        }
        if !self.must_buy(s, e) {
            return illegal(format!(
                "{id} has {cash} M and the train costs {price} M; a president adds personal cash only when a share company without a train must buy one (HR 9)"
            ));
        }
        if self.cheapest_available(s).is_some_and(|c| price > c) {
            return illegal(format!(
                "{id} cannot pay for this train itself; with the president's help only the cheapest train in the bank or the pool may be bought (RULING K37)"
            ));
        }
        let Some(p) = self.controller(s, e) else { return illegal(format!("{id} has no president")) };
        let own = s.players.get(usize::from(p)).map(|x| x.cash).unwrap_or(0);
        if cash + own >= price {
            return ok(price - cash, false);
        }
        let mut sales = Vec::new();
        self.emergency_sales(s, e, &mut sales);
        if !sales.is_empty() {
            return illegal(format!(
                "{id} has {cash} M and you have {own} M for a {price} M train: sell shares first (FACTS §13)"
            ));
        }
        ok(own, true)
    }

    /// Buys a train for the operating entity in its trains step.
    pub(crate) fn buy_train(
        &self,
        s: &mut State,
        e: Entity,
        train: &str,
        from: &str,
        price: i64,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let plan = self.check_buy_train(s, e, train, from, price)?;
        self.carry_out(s, e, train, plan, ev);
        Ok(())
    }

    /// Carries out a checked purchase: the train and the money move, then its consequences.
    fn carry_out(&self, s: &mut State, e: Entity, train: &str, plan: Purchase, ev: &mut Vec<Event>) {
        let price = plan.price;
        let (id, buyer) = (id_of(s, e), holder_of(e));
        let president = self.controller(s, e);
        let mut text = match plan.source {
            Source::Bank(t) => {
                s.depot.add_sold(t, 1);
                format!("{id} buys a {train}-train from the bank for {price} M")
            }
            Source::Pool(i) => {
                s.depot.pool.remove(i);
                format!("{id} buys a {train}-train from the pool for {price} M")
            }
            Source::Company(seller, i) => {
                if let Some(trains) = trains_mut(s, seller) {
                    trains.remove(i);
                }
                pay(s, buyer, holder_of(seller), price);
                format!("{id} buys a {train}-train from {} for {price} M", id_of(s, seller))
            }
        };
        if !matches!(plan.source, Source::Company(..)) {
            // With the president's help the treasury gives everything it has (RR §25.1).
            let own = if plan.president_adds > 0 || plan.bankrupt { cash_of(s, e) } else { price };
            pay(s, buyer, Holder::Bank, own);
            if let Some(p) = president.filter(|_| plan.president_adds > 0) {
                pay(s, Holder::Player(p), Holder::Bank, plan.president_adds);
                text.push_str(&format!(
                    "; seat {} adds {} M for the compulsory train (HR 9)",
                    p + 1,
                    plan.president_adds
                ));
            }
        }
        if let Some(trains) = trains_mut(s, e) {
            trains.push(train.to_string());
        }
        ev.push(Event::public(text));
        if let Source::Bank(t) = plan.source {
            self.after_bank_purchase(s, t, e, ev);
        }
        self.close_ld_with_sx(s, e, ev);
        if let Some(p) = president.filter(|_| plan.bankrupt) {
            self.go_bankrupt(s, e, p, ev);
        }
    }

    /// Discards a train of the operating entity to the pool: only over the limit (RULING K38).
    pub(crate) fn discard_train(
        &self,
        s: &mut State,
        e: Entity,
        train: &str,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.operating(s, e)?;
        let id = id_of(s, e);
        if self.excess(s, e) == 0 {
            return illegal(format!(
                "{id} is within its train limit; trains go to the pool only from over the limit (RULING K38)"
            ));
        }
        if !self.to_pool(s, e, train) {
            return illegal(format!("{id} has no {train}-train"));
        }
        ev.push(Event::public(format!("{id} puts its {train}-train into the pool (over the train limit)")));
        Ok(())
    }

    /// Whether the entity may end its turn as far as trains go (FACTS §7.6 compulsory train).
    pub(crate) fn check_trains_done(&self, s: &State, e: Entity) -> Result<(), Refusal> {
        let id = id_of(s, e);
        let excess = self.excess(s, e);
        if excess > 0 {
            return illegal(format!(
                "{id} holds {} trains, over its limit of {}: put {excess} into the pool first (RULING K38)",
                trains_of(s, e).len(),
                self.train_limit(s, e)
            ));
        }
        if self.must_buy(s, e) {
            let gap = self.emergency_gap(s, e);
            let how = if gap > 0 {
                format!("; {gap} M is missing even with the president's cash")
            } else {
                String::new()
            };
            return illegal(format!(
                "{id} has no train and must buy one while the bank or the pool has one (FACTS §7.6){how}"
            ));
        }
        Ok(())
    }

    /// The legal train actions of the entity in its trains step (must match what buy/discard
    /// accept). Trades between companies are listed at 1 M and at the printed price (every
    /// price in between is accepted as well): as purchases where the buyer may buy at once, as
    /// offers where the seller's director must agree (RULING K75).
    pub(crate) fn legal_trains(&self, s: &State, e: Entity, out: &mut Vec<Action>) {
        if self.operating(s, e).is_err() {
            return;
        }
        let company = id_of(s, e);
        if self.excess(s, e) > 0 {
            let mut names: Vec<&String> = trains_of(s, e).iter().collect();
            names.sort();
            names.dedup();
            out.extend(
                names
                    .into_iter()
                    .map(|t| Action::DiscardTrain { company: company.clone(), train: t.clone() }),
            );
            return;
        }
        let mut offers: Vec<(String, String, i64)> = Vec::new();
        if let Some(t) = self.bank_next(s) {
            offers.push((self.data.trains[t].name.clone(), "bank".into(), self.data.trains[t].price));
        }
        for x in &s.depot.pool {
            offers.push((x.clone(), "pool".into(), self.train_price(x)));
        }
        let sellers = (0..s.majors.len())
            .filter_map(|c| u8::try_from(c).ok().map(Entity::Major))
            .chain((0..s.minors.len()).filter_map(|m| u8::try_from(m).ok().map(Entity::Minor)))
            .filter(|x| *x != e);
        for seller in sellers {
            for x in trains_of(s, seller) {
                for price in [1, self.train_price(x)] {
                    offers.push((x.clone(), id_of(s, seller), price));
                }
            }
        }
        offers.sort();
        offers.dedup();
        for (train, from, price) in offers {
            if self.check_buy_train(s, e, &train, &from, price).is_ok() {
                out.push(Action::BuyTrain { company: company.clone(), train, from, price });
            } else if self.check_offer(s, e, &train, &from, price).is_ok() {
                out.push(Action::OfferTrain { company: company.clone(), train, from, price });
            }
        }
        self.emergency_sales(s, e, out);
    }

    /// What a seat that sent no orders does in the trains step (None: end the turn). RULING
    /// K40: discard the least valuable surplus train; buy the compulsory train (the cheapest in
    /// the bank or the pool, the bank's first at equal price), selling shares for it where
    /// needed; otherwise buy nothing.
    pub(crate) fn default_trains(&self, s: &State, e: Entity) -> Option<Action> {
        let company = id_of(s, e);
        if self.excess(s, e) > 0 {
            let worst = trains_of(s, e).iter().min_by_key(|x| self.train_rank(x))?;
            return Some(Action::DiscardTrain { company, train: worst.clone() });
        }
        if !self.must_buy(s, e) {
            return None;
        }
        if let Some(sale) = self.default_sale(s, e) {
            return Some(sale);
        }
        let bank = self
            .bank_next(s)
            .map(|t| (self.data.trains[t].price, 0, self.data.trains[t].name.clone(), "bank"));
        let pool = s.depot.pool.iter().map(|x| (self.train_price(x), 1, x.clone(), "pool"));
        let (price, _, train, from) = bank.into_iter().chain(pool).min()?;
        let from = from.to_string();
        self.check_buy_train(s, e, &train, &from, price).ok()?;
        Some(Action::BuyTrain { company, train, from, price })
    }
}
