//! Stock-round purchases and sales (FACTS §6): buying one certificate from the IPO or the pool,
//! selling to the pool with the 50 % pool limit and the price drop (FACTS §5.2), and
//! nationalisation. Each `check_*` says whether an action is legal without changing anything;
//! the matching function carries it out.

use super::R1835;
use super::actions::{Refusal, Source, illegal, pct};
use super::holdings::{Holder, pay, value};
use super::options::{NoSalesIn, PresidencySwap};
use super::state::{Loc, Round, State};
use crate::engine::Event;

/// Holding needed to nationalise: more than half, 55 % as in Rails (FACTS §6; RULING K9, which
/// also reads HR 21's "reaching 60 %" as the same holding in 10 % companies).
const NATIONALISE_AT: u32 = 55;

/// How a checked sale will be carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalePlan {
    /// The player who takes the presidency from the seller first, if any.
    pub challenger: Option<u8>,
    /// Price per 10 % paid to the seller.
    pub unit_price: i64,
    /// Whether the marker drops a row after this sale.
    pub drops: bool,
}

impl R1835 {
    fn stock_phase(&self, s: &State) -> Result<(), Refusal> {
        if !matches!(s.round, Round::Stock { .. }) {
            return illegal("that is an action of a stock round");
        }
        if s.packet_open() {
            return illegal(
                "while the start packet is on sale a turn is buying one of its items or passing (RULING K2)",
            );
        }
        Ok(())
    }

    /// The company with this id, as an index.
    pub(crate) fn company(&self, id: &str) -> Result<usize, Refusal> {
        self.data
            .major_index(id)
            .ok_or_else(|| Refusal::Illegal(format!("there is no share company \"{id}\"")))
    }

    /// One purchase per turn, not a company sold this round, within the certificate limit.
    fn may_buy(&self, s: &State, p: u8, co: usize) -> Result<(), Refusal> {
        if s.sr.turn.bought {
            return illegal("you have already bought a certificate this turn");
        }
        if s.sr.sold.get(usize::from(p)).is_some_and(|bits| bits & (1 << co) != 0) {
            return illegal(format!(
                "you sold {} this stock round and may not buy it again in it",
                self.data.majors[co].id
            ));
        }
        let (count, limit) = (self.cert_count(s, p), self.cert_limit(s, p));
        if count + 1 > limit {
            return illegal(format!(
                "that would take you over your certificate limit ({count} of {limit} held)"
            ));
        }
        Ok(())
    }

    /// What 100 % of company `co` is worth when its certificates change hands: the market price
    /// under its marker, or its par before the marker is placed (pool purchases, sales and
    /// nationalisations all price from it).
    fn market_or_par(&self, s: &State, co: usize) -> i64 {
        s.majors[co].price.map(|sp| self.data.market.price(sp)).unwrap_or(self.data.majors[co].par)
    }

    /// A legal share purchase: the certificate's index and its price.
    pub(crate) fn check_buy_share(
        &self,
        s: &State,
        p: u8,
        co: usize,
        from: Source,
        percent: u8,
    ) -> Result<(usize, i64), Refusal> {
        self.stock_phase(s)?;
        self.may_buy(s, p, co)?;
        let (m, c) = (&self.data.majors[co], &s.majors[co]);
        let (idx, price) = match from {
            Source::Ipo => {
                self.ipo_open(s, co).map_err(Refusal::Illegal)?;
                let Some(top) = self.ipo_top(s, co) else {
                    return illegal(format!("{} has no certificate left in the IPO", m.id));
                };
                let cert = c.certs[top];
                if cert.percent != percent {
                    if !c.certs.iter().any(|x| x.at == Loc::Ipo && x.percent == percent) {
                        return illegal(format!(
                            "{} has no {} certificate left in the IPO",
                            m.id,
                            pct(percent)
                        ));
                    }
                    let what = if cert.director { "director's certificate" } else { "certificate" };
                    return illegal(format!(
                        "the next {} certificate in the IPO is the {} {what}: the IPO sells its certificates in order (RULING K5)",
                        m.id,
                        pct(cert.percent)
                    ));
                }
                (top, value(m.par, percent))
            }
            Source::Pool => {
                let Some(i) = c.certs.iter().position(|x| x.at == Loc::Pool && x.percent == percent) else {
                    return illegal(format!(
                        "the bank pool holds no {} certificate of {}",
                        pct(percent),
                        m.id
                    ));
                };
                let price = self.market_or_par(s, co);
                (i, value(price, percent))
            }
        };
        let cash = s.players[usize::from(p)].cash;
        if cash < price {
            return illegal(format!(
                "the {} certificate of {} costs {price} M and you have {cash} M",
                pct(percent),
                m.id
            ));
        }
        Ok((idx, price))
    }

    /// Buys a share certificate (checked first). IPO money goes to a floated company, before
    /// floating (and for the unformed Prussian) to the bank; pool money to the bank.
    pub(crate) fn buy_share(
        &self,
        s: &mut State,
        p: u8,
        co: usize,
        from: Source,
        percent: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let (idx, price) = self.check_buy_share(s, p, co, from, percent)?;
        let to = if from == Source::Ipo && s.majors[co].floated { Holder::Major(co) } else { Holder::Bank };
        pay(s, Holder::Player(p), to, price);
        s.majors[co].certs[idx].at = Loc::Player(p);
        let director = s.majors[co].certs[idx].director;
        if director {
            self.open_company(s, co);
        }
        let what = if director { "the director's certificate" } else { "a certificate" };
        ev.push(Event::public(format!(
            "seat {} buys {what} of {} ({}) from the {from} for {price} M",
            p + 1,
            self.data.majors[co].id,
            pct(percent)
        )));
        self.settle_presidency(s, co, ev);
        self.check_float(s, co, ev);
        self.record_purchase(s, p, &self.data.majors[co].id);
        Ok(())
    }

    /// Whether a sale is legal and how it will go (FACTS §6, §5.2; RULINGS K6, K7).
    pub(crate) fn sale_plan(
        &self,
        s: &State,
        p: u8,
        co: usize,
        count: u8,
        percent: u8,
    ) -> Result<SalePlan, Refusal> {
        self.stock_phase(s)?;
        // RULING K17: by default nobody sells in stock round 1.
        if s.options.no_sales_in == NoSalesIn::FirstStockRound && s.round == (Round::Stock { n: 1 }) {
            return illegal("nobody may sell in the first stock round (FACTS §6)");
        }
        self.plan_sale(s, p, co, count, percent, true)
    }

    /// The sale rules shared by stock rounds and emergency sales in an operating round (FACTS
    /// §13): `stock_round` says whether the turn's earlier sales (same-price option) count.
    pub(crate) fn plan_sale(
        &self,
        s: &State,
        p: u8,
        co: usize,
        count: u8,
        percent: u8,
        stock_round: bool,
    ) -> Result<SalePlan, Refusal> {
        let (m, c) = (&self.data.majors[co], &s.majors[co]);
        if count == 0 {
            return illegal("sell at least one certificate");
        }
        if m.prussian && !c.floated {
            // RULING K15.
            return illegal("the Prussian's shares cannot be sold before it has formed");
        }
        // FACTS §2.3: PR's shares may be sold as soon as PR has formed (RDL 2.3, RR §10.3), operated
        // or not; every other company's once it has operated.
        if !c.operated && !m.prussian {
            return illegal(format!("{} has not operated yet; its shares can be sold once it has", m.id));
        }
        let total = u32::from(count) * u32::from(percent);
        let pool = self.pool_percent(s, co);
        if pool + total > u32::from(self.data.pool_limit) {
            return illegal(format!(
                "the bank pool may hold at most {} % of {} and already holds {pool} % (RULING K6)",
                self.data.pool_limit, m.id
            ));
        }
        let held = self.percent_of(s, co, p);
        if held < total {
            return illegal(format!("you hold only {held} % of {}", m.id));
        }
        let ordinary = |holder: u8| {
            c.certs
                .iter()
                .filter(|x| x.at == Loc::Player(holder) && !x.director && x.percent == percent)
                .count()
        };
        let mut available = ordinary(p);
        let mut challenger = None;
        if self.president(s, co) == Some(p)
            && let Some(q) = self.challenger(s, co, p, held - total)
        {
            // RULING K94: a game following Rails sells the director's part of the sale out of the
            // new president's certificates; where that cannot be done, as the rules do it.
            let style = s.options.presidency_swap;
            if style == PresidencySwap::SingleSharesFirst
                && self.rails_dump(s, co, (p, q), count, percent).is_some()
            {
                available = usize::from(count);
                challenger = Some(q);
            } else if let Some(picks) = self.swap_picks(s, co, q, m.director_percent(), style) {
                available += picks.iter().filter(|i| c.certs[**i].percent == percent).count();
                challenger = Some(q);
            }
        }
        if available < usize::from(count) {
            if self.president(s, co) == Some(p)
                && challenger.is_none()
                && ordinary(p) * usize::from(percent) < total as usize
            {
                return illegal(format!(
                    "you may not sell the director's certificate of {}: no other player holds enough to take over",
                    m.id
                ));
            }
            return illegal(format!(
                "you hold only {available} {} certificate(s) of {} that can be sold",
                pct(percent),
                m.id
            ));
        }
        let market = self.market_or_par(s, co);
        let earlier =
            s.sr.turn
                .sales
                .iter()
                .find(|(x, _)| stock_round && usize::from(*x) == co)
                .map(|(_, price)| *price);
        let plan = match earlier {
            Some(price) if s.options.separate_sales_same_price => {
                SalePlan { challenger, unit_price: price, drops: false }
            }
            _ => SalePlan { challenger, unit_price: market, drops: true },
        };
        Ok(plan)
    }

    /// Sells to the pool (checked first): presidency first, then the certificates, the money
    /// from the bank at the price before the drop, then one row down (FACTS §5.2).
    pub(crate) fn sell(
        &self,
        s: &mut State,
        p: u8,
        co: usize,
        count: u8,
        percent: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let plan = self.sale_plan(s, p, co, count, percent)?;
        self.carry_out_sale(s, p, co, count, percent, plan, true, ev);
        Ok(())
    }

    /// Carries out a planned sale; in a stock round it is remembered for the turn and the round.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn carry_out_sale(
        &self,
        s: &mut State,
        p: u8,
        co: usize,
        count: u8,
        percent: u8,
        plan: SalePlan,
        stock_round: bool,
        ev: &mut Vec<Event>,
    ) {
        // RULING K94: Rails' certificates when the game follows Rails' choices, else K10's swap
        // and then the sale.
        let rails = plan
            .challenger
            .filter(|_| s.options.presidency_swap == PresidencySwap::SingleSharesFirst)
            .and_then(|q| self.rails_dump(s, co, (p, q), count, percent).map(|d| (q, d)));
        if let Some((q, dump)) = rails {
            ev.push(self.carry_out_dump(s, co, (p, q), &dump));
        } else {
            if let Some(q) = plan.challenger {
                ev.extend(self.swap_presidency(s, co, (p, q), s.options.presidency_swap));
            }
            for _ in 0..count {
                self.move_cert(s, co, Loc::Player(p), Loc::Pool, |c| !c.director && c.percent == percent);
            }
        }
        let amount = plan.unit_price * i64::from(count) * i64::from(percent) / 10;
        pay(s, Holder::Bank, Holder::Player(p), amount);
        self.note_bank(s);
        let id = self.data.majors[co].id.clone();
        let mut text = format!("seat {} sells {count} × {} of {id} for {amount} M", p + 1, pct(percent));
        if plan.drops {
            if let Some(space) = s.majors[co].price {
                let down = self.data.market.down(space);
                if down != space {
                    s.stamp += 1;
                    s.majors[co].price = Some(down);
                    s.majors[co].stamp = s.stamp;
                    text.push_str(&format!("; {id} drops to {} ({down})", self.data.market.price(down)));
                } else {
                    text.push_str(&format!(
                        "; {id} stays at {} (bottom of its column)",
                        self.data.market.price(space)
                    ));
                }
            }
            if stock_round {
                s.sr.turn.sales.push((u8::try_from(co).unwrap_or(0), plan.unit_price));
            }
        } else {
            text.push_str(" at the price of its first sale this turn (separate_sales_same_price)");
        }
        ev.push(Event::public(text));
        if let Some(bits) = s.sr.sold.get_mut(usize::from(p)).filter(|_| stock_round) {
            *bits |= 1 << co;
        }
        self.settle_presidency(s, co, ev);
    }

    /// A legal nationalisation (FACTS §6, RULING K9): the certificate's index and the price.
    pub(crate) fn check_nationalise(
        &self,
        s: &State,
        p: u8,
        co: usize,
        victim: u8,
        percent: u8,
    ) -> Result<(usize, i64), Refusal> {
        self.stock_phase(s)?;
        self.may_buy(s, p, co)?;
        let (m, c) = (&self.data.majors[co], &s.majors[co]);
        if !c.floated {
            return illegal(format!("{} has not floated", m.id));
        }
        let mine = self.percent_of(s, co, p);
        if mine < NATIONALISE_AT {
            return illegal(format!(
                "nationalising {} needs {NATIONALISE_AT} % of it; you hold {mine} %",
                m.id
            ));
        }
        if victim == p || victim >= s.n() {
            return illegal("name another player to buy the certificate from");
        }
        let Some(idx) =
            c.certs.iter().position(|x| x.at == Loc::Player(victim) && !x.director && x.percent == percent)
        else {
            return illegal(format!("seat {} holds no {} certificate of {}", victim + 1, pct(percent), m.id));
        };
        let market = self.market_or_par(s, co);
        // 150 % of the certificate's value, rounded up to whole marks.
        let price = (3 * market * i64::from(percent) + 19) / 20;
        let cash = s.players[usize::from(p)].cash;
        if cash < price {
            return illegal(format!("nationalising that certificate costs {price} M and you have {cash} M"));
        }
        Ok((idx, price))
    }

    /// Nationalises one certificate (checked first): it moves to the buyer, the money to its
    /// former holder. It is the turn's purchase.
    pub(crate) fn nationalise(
        &self,
        s: &mut State,
        p: u8,
        co: usize,
        victim: u8,
        percent: u8,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        let (idx, price) = self.check_nationalise(s, p, co, victim, percent)?;
        pay(s, Holder::Player(p), Holder::Player(victim), price);
        s.majors[co].certs[idx].at = Loc::Player(p);
        ev.push(Event::public(format!(
            "seat {} nationalises a {} certificate of {} from seat {} for {price} M",
            p + 1,
            pct(percent),
            self.data.majors[co].id,
            victim + 1
        )));
        self.record_purchase(s, p, &self.data.majors[co].id);
        Ok(())
    }
}
