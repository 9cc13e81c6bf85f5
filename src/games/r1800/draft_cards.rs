//! The admin cards played in the development draft (FACTS §5.1): *Accelerate Development*, at
//! the start of the draft, puts its players' picks before everyone else's; *Policy Initiative*,
//! at a player's pick, gives that player a second pick, after which one card from the deck joins
//! the offer. RULINGS E69 and E70 say when each is asked for.

use super::R1800;
use super::state::*;
use crate::engine::{Event, GameRng, Illegal};

impl R1800 {
    /// Rounds step 2 begins. RULING E69: the seats holding admin cards (hand sizes are public)
    /// are asked in turn order whether they play Accelerate Development; with none, the picks
    /// begin at once.
    pub(super) fn open_draft(&self, s: &mut State) {
        let order = s.turn_order();
        let to_ask: Vec<u8> =
            order.iter().copied().filter(|&i| !s.players[usize::from(i)].admin.is_empty()).collect();
        s.stage = if to_ask.is_empty() {
            Stage::Draft { to_pick: order }
        } else {
            Stage::Call { to_ask, early: Vec::new() }
        };
    }

    /// One answer in the call before the draft: Accelerate Development played, or not (`Skip`).
    pub(super) fn call_step(
        &self,
        s: &mut State,
        a: &Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal> {
        let Stage::Call { to_ask, .. } = &s.stage else { return Err(Illegal("no call is under way".into())) };
        let seat = usize::from(*to_ask.first().ok_or_else(|| Illegal("nobody is asked".into()))?);
        match a {
            Action::Admin { card, option, target } => self.play_admin(s, seat, *card, *option, target, rng),
            Action::Skip => {
                self.next_call(s);
                Ok(Vec::new())
            }
            _ => Err(Illegal(
                "now play Accelerate Development to pick first in the draft, or do not (DECLINE ACCELERATE)"
                    .into(),
            )),
        }
    }

    /// Accelerate Development's effect: the seat picks before every seat that did not play one.
    pub(super) fn accelerate(&self, s: &mut State, seat: usize) -> Vec<Event> {
        if let Stage::Call { early, .. } = &mut s.stage {
            early.push(seat as u8);
        }
        self.next_call(s);
        vec![Event::public(format!("{} will pick early in the draft.", self.power_name(s, seat)))]
    }

    /// The seat asked has answered: the next one, or the picks (those who accelerated first, in
    /// turn order, then the others in turn order).
    fn next_call(&self, s: &mut State) {
        let order = s.turn_order();
        let Stage::Call { to_ask, early } = &mut s.stage else { return };
        if !to_ask.is_empty() {
            to_ask.remove(0);
        }
        if to_ask.is_empty() {
            let mut to_pick = std::mem::take(early);
            let rest: Vec<u8> = order.into_iter().filter(|x| !to_pick.contains(x)).collect();
            to_pick.extend(rest);
            s.stage = Stage::Draft { to_pick };
        }
    }

    /// Policy Initiative's effect. RULING E70: the seat makes two picks in a row, now.
    pub(super) fn initiative(&self, s: &mut State, seat: usize) -> Vec<Event> {
        if let Stage::Draft { to_pick } = &mut s.stage {
            to_pick.insert(0, seat as u8);
        }
        s.initiative = Some(seat as u8);
        vec![Event::public(format!("{} picks twice in this draft.", self.power_name(s, seat)))]
    }

    /// A seat has picked or passed: its place in the order is used; after the second pick of a
    /// Policy Initiative one card from the deck joins the offer (FACTS §5.1: "pick two cards,
    /// then one card from the deck is added to the pool").
    pub(super) fn picked(&self, s: &mut State, seat: u8, rng: &mut GameRng) -> Vec<Event> {
        let mut ev = Vec::new();
        if let Stage::Draft { to_pick } = &mut s.stage
            && let Some(i) = to_pick.iter().position(|x| *x == seat)
        {
            to_pick.remove(i);
        }
        let again = matches!(&s.stage, Stage::Draft { to_pick } if to_pick.contains(&seat));
        if s.initiative == Some(seat) && !again {
            s.initiative = None;
            if let Some(c) = self.draw_dev(s, rng) {
                s.offer.push(c);
                ev.push(Event::public(format!("{} joins the draft.", self.data().dev_name(c))));
            }
        }
        ev
    }
}
