//! A train's steps (RT 5.3-5.6): the cost of each adjacent station with and without the line
//! usage fee, stacking (a full station is passed through, never ended in: RULING F21), the
//! "expeditious" Troops on a cheapest route (RULING F18), paying the fee to the line's owner,
//! and Collisions! when passing through (RT 7.4).

use super::super::Confed;
use super::super::board::{self, name};
use super::super::chits::{self, train_name};
use super::super::movement::{self, Mover, Position};
use super::super::setup::d6;
use super::super::state::{FeePaid, Place, Stage, State, Train};
use crate::engine::{Event, GameRng, Seat};
use std::cell::OnceCell;

/// One step a train may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepOption {
    /// The station entered.
    pub to: usize,
    /// The fee is paid for `line`.
    pub fee: bool,
    /// Movement points spent.
    pub cost: u32,
    /// The line the segment is travelled as.
    pub line: u8,
}

impl Confed {
    /// The cheapest way into `to` over each segment and line, for a mover. At equal cost the
    /// first found wins: a shared segment lists its lines by number, so the lower-numbered line
    /// is travelled and its owner paid (RULING F63).
    fn best_into<B: Position>(
        &self,
        b: &B,
        prev: Option<u8>,
        at: usize,
        to: usize,
        mover: &Mover,
    ) -> Option<(u32, u8)> {
        let d = &self.data;
        let mut best: Option<(u32, u8)> = None;
        for &seg in d.map.segments_at(at) {
            let Some(x) = d.map.segments.get(seg).filter(|x| x.other(at) == Some(to)) else { continue };
            for &line in &x.owners {
                if let Some(c) = movement::step_cost(&d.map, b, mover, seg, to, line, prev)
                    && best.is_none_or(|(bc, _)| c < bc)
                {
                    best = Some((c, line));
                }
            }
        }
        best
    }

    /// What every step of a train needs, worked out once per listing or check.
    fn step_ctx<'s>(&self, s: &'s State, seat: Seat, id: u8) -> Option<StepCtx<'s>> {
        let d = &self.data;
        let t = s.train(seat, id)?;
        let at = t.station()?;
        // RT 5.1, 5.1.6, 5.1.7: an empty train carries on only by undertaking a new load; it
        // moves light with no contract only once the pile is empty (RULING F12).
        if t.load.is_none() && !s.pile.is_empty() {
            return None;
        }
        // RT 5.2 (RULING F18): Troops move on a cheapest route in MP to their pickup, then
        // their dropoff.
        let troops_target = t
            .load
            .as_ref()
            .filter(|c| chits::is_troops(d, c.chit))
            .map(|c| if c.picked { c.dropoff } else { c.pickup });
        Some(StepCtx {
            train: t,
            at,
            base: board::mover(s, seat, t),
            fee: chits::line_fee(d, t.load.as_ref().map(|c| c.chit)),
            money: s.player(seat).map(|p| p.money).unwrap_or(0),
            troops: troops_target,
            best: Default::default(),
            board: board::live(s, Some((seat, id))),
        })
    }

    /// RT 5.2 (RULING F18 amended, issue 34): a step of Troops is "expeditious" when it starts
    /// a cheapest route in MP from the train's station to its target (congestion, traffic,
    /// crossings and line changes counted), for the mover as it stands (`paid`: with every
    /// line's fee paid, for a step that pays the fee). A target that cannot be reached asks
    /// nothing (RT 5.1.8 applies); at the target no step is expeditious.
    fn expeditious(&self, c: &StepCtx, opt: &StepOption, paid: bool) -> bool {
        let Some(target) = c.troops else { return true };
        if c.at == target {
            return false;
        }
        let map = &self.data.map;
        let mut mover = c.base;
        if paid {
            mover.fee_paid.extend(1..64);
        }
        let cell = &c.best[usize::from(paid)];
        let best = *cell.get_or_init(|| {
            movement::cheapest_path(map, &c.board, &mover, c.train.line, c.at, target).map(|r| r.cost)
        });
        let Some(best) = best else { return true };
        let rest = if opt.to == target {
            Some(0)
        } else {
            movement::cheapest_path(map, &c.board, &mover, Some(opt.line), opt.to, target).map(|r| r.cost)
        };
        rest.is_some_and(|r| opt.cost + r == best)
    }

    /// RT 5.4.1 (RULING F21 amended, issue 34): a train may pass through a station holding its
    /// stacking limit but not end its movement there, so it enters one only if it can still
    /// move on from it with the MP left.
    fn moves_on_from(&self, s: &State, seat: Seat, id: u8, mp: u32, opt: &StepOption) -> bool {
        self.moves_on_after(s, seat, id, mp.saturating_sub(opt.cost), |t| {
            t.at = Place::Station(opt.to);
            if opt.fee {
                t.fee_paid.insert(opt.line);
            }
            t.fee_paid.retain(|l| *l == opt.line);
            t.line = Some(opt.line);
        })
    }

    /// Whether the train, changed by `change` and with `mp` left, has a step to take.
    pub(in super::super) fn moves_on_after(
        &self,
        s: &State,
        seat: Seat,
        id: u8,
        mp: u32,
        change: impl FnOnce(&mut Train),
    ) -> bool {
        if mp == 0 {
            return false;
        }
        let mut next = s.clone();
        match next.train_mut(seat, id) {
            Some(t) => change(t),
            None => return false,
        }
        !self.steps(&next, seat, id, mp).is_empty()
    }

    /// The steps into the adjacent station `to` (without and with the fee; `to` must be
    /// adjacent: the caller takes it from the segments at the train's station).
    fn steps_into(&self, s: &State, seat: Seat, c: &StepCtx, to: usize, mp: u32) -> [Option<StepOption>; 2] {
        let d = &self.data;
        let mut out = self.costed_steps_into(s, seat, c, to, mp);
        let full = s.trains_at(to) >= board::stack_limit(d, s, to);
        for (k, slot) in out.iter_mut().enumerate() {
            let keep = slot.as_ref().is_some_and(|o| {
                self.expeditious(c, o, k == 1) && (!full || self.moves_on_from(s, seat, c.train.id, mp, o))
            });
            if !keep {
                *slot = None;
            }
        }
        out
    }

    /// The steps into `to` by cost and fee alone (before Troops and stacking are asked).
    fn costed_steps_into(
        &self,
        s: &State,
        seat: Seat,
        c: &StepCtx,
        to: usize,
        mp: u32,
    ) -> [Option<StepOption>; 2] {
        let d = &self.data;
        let mut out = [None, None];
        let plain = self.best_into(&c.board, c.train.line, c.at, to, &c.base);
        if let Some((cost, line)) = plain.filter(|(cost, _)| *cost <= mp) {
            out[0] = Some(StepOption { to, fee: false, cost, line });
        }
        if c.base.light || c.money < c.fee {
            return out;
        }
        // With the fee: the cheapest foreign line, if paying makes the step cheaper.
        let mut paid = c.base;
        for &seg2 in d.map.segments_at(c.at) {
            let Some(x) = d.map.segments.get(seg2).filter(|x| x.other(c.at) == Some(to)) else { continue };
            for &l in &x.owners {
                if !c.base.owned.contains(&l) && s.owner_of(l) != Some(seat) {
                    paid.fee_paid.insert(l);
                }
            }
        }
        if let Some((cost, line)) = self.best_into(&c.board, c.train.line, c.at, to, &paid) {
            let cheaper = plain.is_none_or(|(p, _)| cost < p);
            if cheaper && cost <= mp && !c.base.fee_paid.contains(&line) && !c.base.owned.contains(&line) {
                out[1] = Some(StepOption { to, fee: true, cost, line });
            }
        }
        out
    }

    /// Every step the train may take now with `mp` left.
    pub(in super::super) fn steps(&self, s: &State, seat: Seat, id: u8, mp: u32) -> Vec<StepOption> {
        self.steps_where(s, seat, id, mp, |_| true)
    }

    /// The steps of [`Confed::steps`] into the neighbours `into` keeps, in the same order.
    pub(in super::super) fn steps_where(
        &self,
        s: &State,
        seat: Seat,
        id: u8,
        mp: u32,
        into: impl Fn(usize) -> bool,
    ) -> Vec<StepOption> {
        let d = &self.data;
        let Some(c) = self.step_ctx(s, seat, id) else { return Vec::new() };
        let mut out = Vec::new();
        let mut seen = Vec::new();
        for &seg in d.map.segments_at(c.at) {
            let Some(to) = d.map.segments.get(seg).and_then(|x| x.other(c.at)) else { continue };
            if !seen.contains(&to) {
                seen.push(to);
                if into(to) {
                    out.extend(self.steps_into(s, seat, &c, to, mp).into_iter().flatten());
                }
            }
        }
        out
    }

    /// The one step into `to` (with the fee or without) the train may take now, if any: the
    /// same as finding it in [`Confed::steps`], without listing the other neighbours.
    pub(in super::super) fn step_option(
        &self,
        s: &State,
        seat: Seat,
        id: u8,
        mp: u32,
        to: usize,
        fee: bool,
    ) -> Option<StepOption> {
        let d = &self.data;
        let c = self.step_ctx(s, seat, id)?;
        let adjacent = d
            .map
            .segments_at(c.at)
            .iter()
            .any(|g| d.map.segments.get(*g).and_then(|x| x.other(c.at)) == Some(to));
        if !adjacent {
            return None;
        }
        self.steps_into(s, seat, &c, to, mp)[usize::from(fee)]
    }

    /// RT 5.3: the train enters an adjacent station, as [`Confed::step_option`] allowed it.
    pub(in super::super) fn step(
        &self,
        s: &mut State,
        seat: Seat,
        opt: StepOption,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let Stage::Move { train } = s.stage else { return };
        let StepOption { to, fee, .. } = opt;
        let Some(at) = s.train(seat, train).and_then(|t| t.station()) else { return };
        // RT 7.4: passing through a station holding another train after a Collisions! chit.
        if s.collisions > 0 && s.moved_in && s.trains_at(at) > 1 && self.collide(s, seat, train, at, rng, ev)
        {
            return;
        }
        if fee {
            let amount =
                chits::line_fee(d, s.train(seat, train).and_then(|t| t.load.as_ref()).map(|c| c.chit));
            let paid = s.player(seat).map(|p| p.money.min(amount)).unwrap_or(0);
            if let Some(p) = s.player_mut(seat) {
                p.money -= paid;
            }
            s.fees_paid.push(FeePaid { train, line: opt.line, amount: paid });
            match s.owner_of(opt.line) {
                Some(owner) => {
                    if let Some(p) = s.player_mut(owner) {
                        p.money += paid;
                    }
                    ev.push(Event::public(format!(
                        "RT 5.6: {seat} pays {owner} the ${paid} fee for RRC #{}",
                        opt.line
                    )));
                }
                None => {
                    s.bank_in += u64::from(paid);
                    ev.push(Event::public(format!(
                        "RT 5.6: {seat} pays the bank the ${paid} fee for RRC #{}",
                        opt.line
                    )));
                }
            }
        }
        s.mp = s.mp.saturating_sub(opt.cost);
        s.moved_in = true;
        if let Some(t) = s.train_mut(seat, train) {
            t.at = Place::Station(to);
            if fee {
                t.fee_paid.insert(opt.line);
            }
            t.fee_paid.retain(|l| *l == opt.line); // RT 5.6.2: until it leaves that line
            t.line = Some(opt.line);
        }
        ev.push(Event::public(format!(
            "{seat}'s {} moves {} to {} on RRC #{} ({} MP, {} left)",
            train_name(train),
            name(d, at),
            name(d, to),
            opt.line,
            opt.cost,
            s.mp
        )));
    }

    /// RT 7.4 (RULING F24): each owner rolls one die for his train; a train whose roll
    /// matches the moving train's collides with it. Returns whether the mover collided.
    fn collide(
        &self,
        s: &mut State,
        seat: Seat,
        train: u8,
        at: usize,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) -> bool {
        s.collisions -= 1;
        let mover_roll = d6(rng);
        let mut hit = Vec::new();
        let mut words = vec![format!("{seat}'s {} rolls {mover_roll}", train_name(train))];
        for (i, p) in s.players.iter().enumerate() {
            for t in p.trains.iter().filter(|t| t.station() == Some(at)) {
                let owner = Seat::from_index(i);
                if owner == seat && t.id == train {
                    continue;
                }
                let r = d6(rng);
                words.push(format!("{owner}'s {} rolls {r}", train_name(t.id)));
                if r == mover_roll {
                    hit.push((owner, t.id));
                }
            }
        }
        let collided = !hit.is_empty();
        ev.push(Event::public(format!(
            "RT 7.4 Collisions! at {}: {}; {}",
            name(&self.data, at),
            words.join(", "),
            if collided { "collision" } else { "no collision" }
        )));
        if collided {
            hit.push((seat, train));
            for (owner, id) in hit {
                self.disable(s, owner, id, DisableLoad::Discard, ev);
            }
        }
        collided
    }
}

/// The parts of a train's position every one of its steps reads.
struct StepCtx<'s> {
    train: &'s Train,
    at: usize,
    base: Mover,
    fee: u32,
    money: u32,
    /// The station Troops make for (RT 5.2), if the train carries Troops.
    troops: Option<usize>,
    /// The Troops' cheapest cost to their target, without and with the fees, once worked out.
    best: [OnceCell<Option<u32>>; 2],
    board: board::Live<'s>,
}

/// What happens to the load of a train that is disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisableLoad {
    /// RT 7.4: discarded, the owner pays the tariff if it carried one.
    Discard,
    /// RT 7.13, 7.15: abandoned in its station, with the tariff.
    Abandon,
}
