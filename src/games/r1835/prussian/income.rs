//! HR 10's "no double benefit" (FACTS §9, RR §15.5): a Prussian formed in an operating round
//! after M2 operated sits the round out; a paper exchanged in an operating round after it paid
//! brings its owner no Prussian dividend in that round; a Prussian that may operate is slotted
//! into the running round. Rulings K47, K48.

use super::super::R1835;
use super::super::data::Paper;
use super::super::state::{Entity, Round, State};

impl R1835 {
    /// Formation now happens after M2 operated in this operating round: it is mid-round and M2
    /// is not waiting in the queue (the first of the queue is operating now) (HR 10).
    pub(super) fn m2_operated_this_or(&self, s: &State, m2: usize) -> bool {
        let me = Entity::Minor(u8::try_from(m2).unwrap_or(u8::MAX));
        s.prussian.mid_or
            && matches!(s.round, Round::Operating { .. })
            && !s.or.queue.iter().skip(1).any(|e| *e == me)
    }

    /// Records that the owner's new certificate earns no Prussian dividend this round when the
    /// paper already paid in it: BB and HB always (privates pay at the start of the round), a
    /// minor if it paid (HR 10; RULING K48).
    pub(super) fn withhold_if_paid(&self, s: &mut State, paper: Paper, owner: u8, percent: u8) {
        if !s.prussian.mid_or || !matches!(s.round, Round::Operating { .. }) {
            return;
        }
        let paid = match paper {
            Paper::Private(_) => true,
            Paper::Minor(m) => u8::try_from(m).is_ok_and(|m| s.prussian.paid.contains(&m)),
        };
        if paid {
            s.prussian.withheld.push((owner, percent));
        }
    }

    /// The dividend step notes a minor that paid income in this operating round (HR 10).
    pub(crate) fn prussian_note_paid(&self, s: &mut State, minor: u8) {
        if !s.prussian.paid.contains(&minor) {
            s.prussian.paid.push(minor);
        }
    }

    /// The percentage of the Prussian held by seat `p` that earns no Prussian dividend in this
    /// operating round; that part of the dividend stays in the bank (HR 10; RULING K48).
    pub(crate) fn prussian_withheld(&self, s: &State, p: u8) -> u32 {
        s.prussian.withheld.iter().filter(|(q, _)| *q == p).map(|(_, x)| u32::from(*x)).sum()
    }

    /// A Prussian formed during an operating round that may operate in it joins the queue
    /// before the first major still to operate with a lower price (its marker arrives last, so
    /// one at the same price goes first) (FACTS §9; RULING K47). An empty queue is the round
    /// machinery's to build.
    pub(super) fn slot_into_round(&self, s: &mut State) {
        let pr = self.pr();
        let me = Entity::Major(u8::try_from(pr).unwrap_or(u8::MAX));
        if !matches!(s.round, Round::Operating { .. })
            || !self.prussian_operates_this_or(s)
            || s.or.queue.is_empty()
            || s.or.queue.contains(&me)
        {
            return;
        }
        let price = |c: usize| s.majors.get(c).and_then(|x| x.price).map(|sp| self.data.market.price(sp));
        let mine = price(pr);
        let start = usize::from(s.prussian.mid_or);
        let at = (start..s.or.queue.len())
            .find(|i| matches!(s.or.queue.get(*i), Some(Entity::Major(c)) if price(usize::from(*c)) < mine))
            .unwrap_or(s.or.queue.len());
        s.or.queue.insert(at, me);
    }
}
