//! A train's steps (RT 5.3-5.6): the cost of each adjacent station with and without the line
//! usage fee, stacking as an entry limit (RULING F21), the "expeditious" Troops (RULING F18),
//! paying the fee to the line's owner, and Collisions! when passing through (RT 7.4).

use super::super::Confed;
use super::super::board::{self, name};
use super::super::chits::{self, train_name};
use super::super::movement::{self, Board, Mover};
use super::super::setup::d6;
use super::super::state::{Place, Stage, State};
use crate::engine::{Event, GameRng, Seat};

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
    /// The cheapest way into `to` over each segment and line, for a mover.
    fn best_into(
        &self,
        b: &Board,
        prev: Option<u8>,
        at: usize,
        to: usize,
        mover: &Mover,
    ) -> Option<(u32, u8)> {
        let d = &self.data;
        let mut best: Option<(u32, u8)> = None;
        for seg in d.map.segments_between(at, to) {
            for &line in d.map.segments.get(seg).map(|x| x.owners.as_slice()).unwrap_or(&[]) {
                if let Some(c) = movement::step_cost(&d.map, b, mover, seg, to, line, prev)
                    && best.is_none_or(|(bc, _)| c < bc)
                {
                    best = Some((c, line));
                }
            }
        }
        best
    }

    /// Every step the train may take now with `mp` left.
    pub(in super::super) fn steps(&self, s: &State, seat: Seat, id: u8, mp: u32) -> Vec<StepOption> {
        let d = &self.data;
        let Some(t) = s.train(seat, id) else { return Vec::new() };
        let Some(at) = t.station() else { return Vec::new() };
        let base = board::mover(s, seat, t);
        let fee = chits::line_fee(d, t.load.as_ref().map(|c| c.chit));
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        // RULING F18: Troops move expeditiously: every step brings them a station closer.
        let troops_target = t
            .load
            .as_ref()
            .filter(|c| chits::is_troops(d, c.chit))
            .map(|c| if c.picked { c.dropoff } else { c.pickup });
        let hops = troops_target.map(|target| board::usable_hops(d, s, target));
        // The board is built once per listing, not per neighbour.
        let b = board::board(s, Some((seat, id)));
        let mut out = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for &seg in d.map.segments_at(at) {
            let Some(to) = d.map.segments.get(seg).and_then(|x| x.other(at)) else { continue };
            if !seen.insert(to) || s.trains_at(to) >= board::stack_limit(d, s, to) {
                continue;
            }
            if let Some(h) = &hops {
                let (here, there) =
                    (h.get(at).copied().unwrap_or(u32::MAX), h.get(to).copied().unwrap_or(u32::MAX));
                if there >= here {
                    continue;
                }
            }
            let plain = self.best_into(&b, t.line, at, to, &base);
            if let Some((cost, line)) = plain.filter(|(c, _)| *c <= mp) {
                out.push(StepOption { to, fee: false, cost, line });
            }
            if base.light || money < fee {
                continue;
            }
            // With the fee: the cheapest foreign line, if paying makes the step cheaper.
            let mut paid = base.clone();
            for seg2 in d.map.segments_between(at, to) {
                for &l in d.map.segments.get(seg2).map(|x| x.owners.as_slice()).unwrap_or(&[]) {
                    if !base.owned.contains(&l) && s.owner_of(l) != Some(seat) {
                        paid.fee_paid.insert(l);
                    }
                }
            }
            if let Some((cost, line)) = self.best_into(&b, t.line, at, to, &paid) {
                let cheaper = plain.is_none_or(|(c, _)| cost < c);
                if cheaper && cost <= mp && !base.fee_paid.contains(&line) && !base.owned.contains(&line) {
                    out.push(StepOption { to, fee: true, cost, line });
                }
            }
        }
        out
    }

    /// RT 5.3: the train enters an adjacent station.
    pub(in super::super) fn step(
        &self,
        s: &mut State,
        seat: Seat,
        to: usize,
        fee: bool,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let Stage::Move { train } = s.stage else { return };
        let Some(opt) = self.steps(s, seat, train, s.mp).into_iter().find(|o| o.to == to && o.fee == fee)
        else {
            return;
        };
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

/// What happens to the load of a train that is disabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisableLoad {
    /// RT 7.4: discarded, the owner pays the tariff if it carried one.
    Discard,
    /// RT 7.13, 7.15: abandoned in its station, with the tariff.
    Abandon,
}
