//! The moves a player's cards allow, checked and carried out: commerce off a Financial
//! Institution and migrating pops in the turn, pops moved by a policy and regiments marching at
//! its end, and the end of the turn itself.

use super::R1800;
use super::apply::{Done, no};
use super::board;
use super::data::{DevType, When, Where};
use super::state::*;
use crate::engine::{Event, GameRng};

impl R1800 {
    /// Whether 1 commerce may go from Financial Institution `from` to card `to` now (FACTS §4.3;
    /// RULING E66: once a turn for each Financial Institution, onto a card with a free C square).
    pub(super) fn can_shift(&self, s: &State, seat: usize, from: usize, to: usize) -> Result<(), String> {
        let d = self.data();
        let cards = &s.players[seat].cards;
        let (Some(a), Some(b)) = (cards.get(from), cards.get(to)) else {
            return Err("you have no such card".into());
        };
        let (ca, cb) = (&d.dev[usize::from(a.card)], &d.dev[usize::from(b.card)]);
        if ca.hold_effect != Some(super::data::HoldEffect::Financial) {
            return Err(format!("{} is not a Financial Institution", ca.name));
        }
        if a.used {
            return Err(format!("commerce was taken off this {} this turn already", ca.name));
        }
        if a.res[C] == 0 {
            return Err(format!("{} holds no commerce", ca.name));
        }
        if from == to || b.covered || b.res[C] >= cb.slots[C] {
            return Err(format!("{} has no free C square", cb.name));
        }
        Ok(())
    }

    pub(super) fn shift(&self, s: &mut State, seat: usize, from: usize, to: usize) -> Done {
        self.can_shift(s, seat, from, to).map_err(no)?;
        let cards = &mut s.players[seat].cards;
        cards[from].res[C] -= 1;
        cards[from].used = true;
        cards[to].res[C] += 1;
        let d = self.data();
        let (a, b) = (d.dev_name(cards[from].card), d.dev_name(cards[to].card));
        Ok(vec![Event::public(format!("{} moves 1 C from {a} to {b}.", self.power_name(s, seat)))])
    }

    pub(super) fn migrate(&self, s: &mut State, seat: usize, from: u16, to: u16) -> Done {
        let d = self.data();
        let ok = matches!(s.stage, Stage::Turn { migrated: false, .. })
            && super::setup::event_is(s, d, super::data::GlobalEvent::Migration)
            && self.pop_move_ok(s, seat, from, to, Where::Controlled, Where::Controlled, false);
        if !ok {
            return Err(no("Migration allows one pop of yours to move to an adjacent province with room"));
        }
        self.move_pop(s, seat, from, to);
        if let Stage::Turn { migrated, .. } = &mut s.stage {
            *migrated = true;
        }
        Ok(vec![Event::public(format!(
            "{} moves a pop from {} to {}.",
            self.power_name(s, seat),
            d.province_name(from),
            d.province_name(to)
        ))])
    }

    /// Whether a pop of the seat may move `from` → `to` (adjacent, room in a countryside:
    /// rules, "no more than two pops"); `need_control` asks that both ends are controlled and of
    /// the kinds `a` and `b`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pop_move_ok(
        &self,
        s: &State,
        seat: usize,
        from: u16,
        to: u16,
        a: Where,
        b: Where,
        need_control: bool,
    ) -> bool {
        let d = self.data();
        let me = usize::from(s.players[seat].power);
        let (Some(pf), Some(pt)) = (d.provinces.get(usize::from(from)), d.provinces.get(usize::from(to)))
        else {
            return false;
        };
        let kind_ok = |w: Where, city: bool| match w {
            Where::Controlled => true,
            Where::City => city,
            Where::Countryside => !city,
        };
        let room =
            pt.is_city() || s.provinces[usize::from(to)].pops.iter().map(|n| u32::from(*n)).sum::<u32>() < 2;
        s.provinces[usize::from(from)].pops[me] > 0
            && d.adjacent(from, to)
            && room
            && kind_ok(a, pf.is_city())
            && kind_ok(b, pt.is_city())
            && (!need_control || (s.controls(seat, to) && (a != Where::Controlled || s.controls(seat, from))))
    }

    pub(super) fn move_pop(&self, s: &mut State, seat: usize, from: u16, to: u16) {
        let me = usize::from(s.players[seat].power);
        s.provinces[usize::from(from)].pops[me] -= 1;
        s.provinces[usize::from(to)].pops[me] += 1;
    }

    /// Whether the economic policy allows this end-of-turn pop move now (FACTS §4.1; RULING E35).
    pub(super) fn policy_move_ok(&self, s: &State, seat: usize, from: u16, to: u16) -> bool {
        let d = self.data();
        let Some(policy) = board::active_card(s, d, seat, DevType::Policy, 1) else { return false };
        let surplus = s.players[seat].surplus;
        // Command Economy's move is at the start of the turn (`start_move_ok`, RULING E22).
        policy.end_move.iter().any(|m| {
            let when = match m.when {
                When::Always => true,
                When::NoSurplus => !surplus,
                When::Surplus => surplus,
            };
            when && self.pop_move_ok(s, seat, from, to, m.from, m.to, true)
        })
    }

    /// Command Economy at the start of the turn, after its admin card (FACTS §4.1: "then may move
    /// 1 pop between adjacent provinces you control"; RULING E22): both ends controlled, room
    /// in a countryside.
    pub(super) fn start_move_ok(&self, s: &State, seat: usize, from: u16, to: u16) -> bool {
        self.pop_move_ok(s, seat, from, to, Where::Controlled, Where::Controlled, true)
    }

    /// Whether the infrastructure technology lets this regiment move now: at most `n` regiments a
    /// turn, each once, to an adjacent province you control (FACTS §4.2 Roads: "move 1 regiment
    /// from a province you control to an adjacent one you control"; Macadam Roads, Steam Engine,
    /// Automobile: "move ≤ n regiments"). `used` is the number of regiments moved this turn.
    pub(super) fn regiment_move_ok(&self, s: &State, seat: usize, from: u16, to: u16, used: u8) -> bool {
        let d = self.data();
        let me = s.players[seat].power;
        let own = s
            .provinces
            .get(usize::from(from))
            .is_some_and(|p| p.regiment.is_some_and(|r| r.owner == Some(me) && r.conscripted.is_none()));
        // A regiment that has moved this turn has used its move: n regiments, not n steps.
        // RULING E85: up to n regiments, each once and one step.
        let moved = matches!(&s.stage, Stage::Turn { marched, .. } if marched.contains(&from));
        if !own || moved {
            return false;
        }
        let allowed =
            board::active_card(s, d, seat, DevType::Technology, 3).map(|c| c.regiment_moves).unwrap_or(0);
        used < allowed
            && s.provinces.get(usize::from(to)).is_some_and(|p| p.regiment.is_none())
            && d.adjacent(from, to)
            && s.controls(seat, to)
    }

    pub(super) fn end_step(&self, s: &mut State, seat: u8, a: &Action, rng: &mut GameRng) -> Done {
        let d = self.data();
        let i = usize::from(seat);
        let name = self.power_name(s, i);
        let Stage::Turn { pop_moved, regiment_moves, .. } = s.stage.clone() else {
            return Err(no("it is not a turn"));
        };
        match *a {
            Action::MovePop { from, to } if !pop_moved && self.policy_move_ok(s, i, from, to) => {
                self.move_pop(s, i, from, to);
                if let Stage::Turn { pop_moved, .. } = &mut s.stage {
                    *pop_moved = true;
                }
                Ok(vec![Event::public(format!(
                    "{name} moves a pop from {} to {}.",
                    d.province_name(from),
                    d.province_name(to)
                ))])
            }
            Action::MoveRegiment { from, to } if self.regiment_move_ok(s, i, from, to, regiment_moves) => {
                let r = s.provinces[usize::from(from)].regiment.take();
                s.provinces[usize::from(to)].regiment = r;
                if let Stage::Turn { regiment_moves, marched, .. } = &mut s.stage {
                    *regiment_moves += 1;
                    marched.push(to);
                }
                Ok(vec![Event::public(format!(
                    "{name} moves a regiment from {} to {}.",
                    d.province_name(from),
                    d.province_name(to)
                ))])
            }
            Action::Declare(power) => self.declare(s, i, power),
            // RULING E99: an admin card between the end-of-turn moves.
            Action::Admin { card, option, ref target } => self.play_admin(s, i, card, option, target, rng),
            Action::EndTurn => Ok(self.end_turn(s, seat, rng)),
            _ => Err(no(
                "at the end of your turn you may only make the moves your cards allow, play an admin card, or end it",
            )),
        }
    }
}
