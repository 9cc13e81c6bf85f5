//! The dividend step (FACTS §10, §5.2; RULING K33): a share company pays its revenue out — per
//! certificate its percentage of the revenue, the pool's part to the treasury, the IPO's and
//! reserved certificates' nothing, the Prussian's 5 % papers half a 10 % one — or withholds it
//! all into the treasury; a minor splits it 50/50 between owner and treasury. Payout moves the
//! price right (up at the end of the row), withholding left (down at the start); no revenue is
//! a withholding. Money comes from the bank.

use crate::engine::Event;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{DividendKind, Refusal, illegal};
use crate::games::r1835::holdings::{Holder, pay};
use crate::games::r1835::state::{Entity, Loc, State, Step};
use std::collections::BTreeMap;

impl R1835 {
    /// Decides the operating entity's dividend in its dividend step.
    pub(crate) fn dividend(
        &self,
        s: &mut State,
        e: Entity,
        kind: DividendKind,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.advance_to(s, Step::Dividend, ev)?;
        let id = self.entity_id(s, e);
        let revenue = s.or.turn.revenue.unwrap_or(0);
        let payout = match (e, kind) {
            (_, _) if revenue == 0 => false,
            (Entity::Minor(_), DividendKind::Split) => true,
            (Entity::Minor(_), _) => {
                return illegal(format!(
                    "{id} is a minor: it always splits its revenue 50/50 (send \"split\")"
                ));
            }
            (Entity::Major(_), DividendKind::Split) => {
                return illegal(format!(
                    "{id} pays out or withholds its whole revenue; only minors split (FACTS §10)"
                ));
            }
            (Entity::Major(_), k) => k == DividendKind::Payout,
        };
        self.settle_dividend(s, e, payout, ev);
        s.or.turn.step = Step::Trains;
        Ok(())
    }

    /// Pays out (minors: splits) or withholds the turn's revenue and moves the price.
    pub(crate) fn settle_dividend(&self, s: &mut State, e: Entity, payout: bool, ev: &mut Vec<Event>) {
        let id = self.entity_id(s, e);
        let revenue = s.or.turn.revenue.unwrap_or(0);
        let payout = payout && revenue > 0;
        let text = match e {
            Entity::Minor(m) => {
                let owner = s.minors.get(usize::from(m)).and_then(|x| x.owner);
                let half = if payout { revenue / 2 } else { 0 };
                if let Some(p) = owner.filter(|_| payout) {
                    pay(s, Holder::Bank, Holder::Player(p), half);
                    if half > 0 {
                        // HR 10: this paper has paid in this operating round.
                        self.prussian_note_paid(s, m);
                    }
                }
                let kept = if owner.is_some() { revenue - half } else { revenue };
                pay(s, Holder::Bank, Holder::Minor(usize::from(m)), kept);
                match owner.filter(|_| payout) {
                    Some(p) => format!(
                        "{id} splits {revenue} M: {half} M to seat {}, {kept} M to its treasury",
                        p + 1
                    ),
                    None => format!("{id} keeps its {revenue} M revenue"),
                }
            }
            Entity::Major(c) => self.settle_major(s, usize::from(c), revenue, payout),
        };
        self.note_bank(s);
        ev.push(Event::public(text));
    }

    /// A share company's payout or withholding, and its price move.
    fn settle_major(&self, s: &mut State, co: usize, revenue: i64, payout: bool) -> String {
        let id = s.majors[co].id.clone();
        let mut text = if payout {
            // Per holder: revenue x percent held / 100, rounded down (a 5 % paper is half a
            // 10 % one; RULING K33).
            let mut players: BTreeMap<u8, i64> = BTreeMap::new();
            let mut pool_percent = 0;
            for cert in &s.majors[co].certs {
                let percent = i64::from(cert.percent);
                match cert.at {
                    Loc::Player(p) => *players.entry(p).or_default() += percent,
                    Loc::Pool => pool_percent += percent,
                    Loc::Ipo | Loc::Reserved | Loc::Packet => {}
                }
            }
            let pool = revenue * pool_percent / 100;
            let mut paid = Vec::new();
            for (p, percent) in players {
                // HR 10 (RULING K48): Prussian percentages whose paper already paid in this
                // operating round earn nothing; that part stays in the bank.
                let withheld =
                    if self.data.majors[co].prussian { i64::from(self.prussian_withheld(s, p)) } else { 0 };
                let amount = revenue * (percent - withheld).max(0) / 100;
                pay(s, Holder::Bank, Holder::Player(p), amount);
                paid.push(format!("seat {} {amount} M", p + 1));
            }
            pay(s, Holder::Bank, Holder::Major(co), pool);
            if pool > 0 {
                paid.push(format!("the pool's {pool} M to {id}"));
            }
            format!("{id} pays out {revenue} M ({} M per 10 %): {}", revenue / 10, paid.join(", "))
        } else {
            pay(s, Holder::Bank, Holder::Major(co), revenue);
            format!("{id} withholds {revenue} M")
        };
        if let Some(space) = s.majors[co].price {
            let to = if payout { self.data.market.right(space) } else { self.data.market.left(space) };
            if to != space {
                s.stamp += 1;
                s.majors[co].price = Some(to);
                s.majors[co].stamp = s.stamp;
                text.push_str(&format!("; its price moves to {} ({to})", self.data.market.price(to)));
            }
        }
        text
    }
}
