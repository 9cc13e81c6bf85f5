//! Undertaking and handling loads (RT 3.7, 5.1-5.2, 5.7): the starting loads, drawing, the
//! Troops, choosing among the display and abandoned loads, designating stations, the discard
//! of 5.1.4, the War Progress roll for war-materiel, and pick-up, drop-off and abandonment.

use super::super::Confed;
use super::super::board::{self, name};
use super::super::chits::{self, is_troops, train_name};
use super::super::setup::d6;
use super::super::state::{Abandoned, Action, Chit, Contract, Stage, State, Then};
use crate::engine::{Event, GameRng, Seat};

impl Confed {
    /// RT 3.7: a seat selects a starting load for its next train without one (RULING F34: no
    /// War Progress roll, no void by occupation at set-up).
    pub(in super::super) fn select_start_load(
        &self,
        s: &mut State,
        seat: Seat,
        n: u32,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        s.offer.retain(|x| *x != n);
        let Some(train) =
            s.player(seat).and_then(|p| p.trains.iter().find(|t| t.load.is_none())).map(|t| t.id)
        else {
            return;
        };
        let pickup = chits::load(d, n).map(|l| l.pickup).unwrap_or(0);
        ev.push(Event::public(format!(
            "RT 3.7: {seat} selects {} for {}",
            chits::label(d, n),
            train_name(train)
        )));
        let options = self.dropoff_options(s, n, pickup);
        self.set_contract(s, seat, train, n, pickup, options.first().copied().unwrap_or(pickup));
        if options.len() > 1 {
            s.stage = Stage::Dropoff { train, chit: n, pickup, options, setup: true };
        } else {
            self.after_start_load(s, rng, ev);
        }
    }

    fn set_contract(&self, s: &mut State, seat: Seat, train: u8, chit: u32, pickup: usize, dropoff: usize) {
        if let Some(t) = s.train_mut(seat, train) {
            t.load = Some(Contract { chit, pickup, dropoff, picked: false });
        }
    }

    /// The setup stage after a starting load is fully designated.
    fn after_start_load(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        if s.players.iter().all(|p| p.trains.iter().all(|t| t.load.is_some())) {
            self.finish_setup(s, rng, ev);
        } else {
            s.stage = Stage::SelectLoads;
        }
    }

    /// RT 5.1.1-5.1.3, 5.2: the undertaking actions.
    pub(in super::super) fn undertake(
        &self,
        s: &mut State,
        seat: Seat,
        a: &Action,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let train = match &s.stage {
            Stage::Undertake { train }
            | Stage::ChooseLoad { train, .. }
            | Stage::Dropoff { train, .. }
            | Stage::TroopsPickup { train, .. }
            | Stage::Move { train } => *train,
            _ => return,
        };
        match a {
            Action::Draw => {
                if let Some(n) = self.shown_troops(s) {
                    // RT 5.1.1: the Troops on the display must be undertaken; refill it,
                    // putting back any event drawn meanwhile.
                    s.display.retain(|x| *x != n);
                    self.refill_display(s, rng);
                    ev.push(Event::public(format!(
                        "RT 5.1.1: {seat} must undertake the displayed {}",
                        chits::label(d, n)
                    )));
                    self.troops(s, train, n, ev);
                    return;
                }
                match s.pile.pop() {
                    Some(Chit::Event(k)) => {
                        ev.push(Event::public(format!("RT 5.1.2: {seat} draws {}", chits::event_name(d, k))));
                        s.discarded.push(Chit::Event(k));
                        self.draw_event(s, k, rng, ev);
                    }
                    Some(Chit::Load(n)) if is_troops(d, n) => {
                        ev.push(Event::public(format!(
                            "RT 5.1.2: {seat} draws a Troops chit: it must be undertaken"
                        )));
                        self.troops(s, train, n, ev);
                    }
                    Some(Chit::Load(n)) => {
                        ev.push(Event::public(format!("RT 5.1.2: {seat} draws {}", chits::label(d, n))));
                        s.stage = Stage::ChooseLoad { train, drawn: n };
                    }
                    None => {}
                }
            }
            Action::TakeDrawn => {
                if let Stage::ChooseLoad { drawn, .. } = s.stage {
                    self.designate_load(s, seat, train, drawn, None, rng, ev);
                }
            }
            Action::TakeDisplay(n) => {
                if let Stage::ChooseLoad { drawn, .. } = s.stage {
                    if let Some(slot) = s.display.iter_mut().find(|x| **x == *n) {
                        *slot = drawn;
                    }
                } else {
                    s.display.retain(|x| x != n);
                }
                self.designate_load(s, seat, train, *n, None, rng, ev);
            }
            Action::TakeAbandoned(n) => {
                let Some(i) = s.abandoned.iter().position(|x| x.chit == *n) else { return };
                let ab = s.abandoned.remove(i);
                self.designate_load(s, seat, train, *n, Some((ab.at, ab.dropoff)), rng, ev);
            }
            Action::MoveLight => {
                ev.push(Event::public(format!(
                    "RULING F12: nothing to undertake; {} moves light",
                    train_name(train)
                )));
                s.stage = Stage::Move { train };
            }
            Action::Designate(x) => match s.stage.clone() {
                Stage::TroopsPickup { chit, .. } => {
                    let options = self.dropoff_options(s, chit, *x);
                    ev.push(Event::public(format!(
                        "RT 5.2.1: the Troops will be picked up at {}",
                        name(d, *x)
                    )));
                    if options.is_empty() {
                        self.void_load(
                            s,
                            train,
                            chit,
                            "no station qualifies as the Troops' dropoff",
                            rng,
                            ev,
                        );
                    } else {
                        s.stage = Stage::Dropoff { train, chit, pickup: *x, options, setup: false };
                    }
                }
                Stage::Dropoff { chit, pickup, setup, .. } => {
                    ev.push(Event::public(format!(
                        "RT 5.1.3: {} will be delivered to {}",
                        chits::label(d, chit),
                        name(d, *x)
                    )));
                    if setup {
                        self.set_contract(s, seat, train, chit, pickup, *x);
                        self.after_start_load(s, rng, ev);
                    } else {
                        self.finalize(s, seat, train, chit, pickup, *x, rng, ev);
                    }
                }
                _ => {}
            },
            _ => {}
        }
    }

    /// RT 5.1.1: the display is refilled from the pile; events drawn now go back at random.
    fn refill_display(&self, s: &mut State, rng: &mut GameRng) {
        let mut put_back = Vec::new();
        while let Some(c) = s.pile.pop() {
            match c {
                Chit::Load(n) => {
                    s.display.push(n);
                    break;
                }
                e => put_back.push(e),
            }
        }
        for e in put_back {
            let at = rng.below(s.pile.len() as u64 + 1) as usize;
            s.pile.insert(at, e);
        }
    }

    /// RT 5.2.1: the player designates the Troops' pickup Depot (RULING F17 for ties).
    fn troops(&self, s: &mut State, train: u8, chit: u32, ev: &mut Vec<Event>) {
        let d = &self.data;
        let dist = board::union_distance(d, s);
        let far = |i: usize| dist.get(i).copied().flatten().unwrap_or(u32::MAX);
        let depots: Vec<usize> = (0..d.map.stations.len())
            .filter(|i| board::is_depot(d, s, *i) && !s.occupied.contains(i))
            .collect();
        let mut options: Vec<usize> =
            depots.iter().copied().filter(|i| far(*i) >= d.troops.pickup_min_distance).collect();
        if options.is_empty() {
            let best = depots.iter().map(|i| far(*i)).max().unwrap_or(0);
            options = depots.into_iter().filter(|i| far(*i) == best).collect();
            ev.push(Event::public(
                "RT 5.2.1: no Depot is 6 stations from the Union: the farthest are offered",
            ));
        }
        s.stage = Stage::TroopsPickup { train, chit, options };
    }

    /// RT 5.1.3: a load is chosen; its dropoff is designated now if there is a choice.
    #[allow(clippy::too_many_arguments)]
    fn designate_load(
        &self,
        s: &mut State,
        seat: Seat,
        train: u8,
        chit: u32,
        abandoned: Option<(usize, usize)>,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        ev.push(Event::public(format!(
            "RT 5.1.3: {seat} undertakes {} with {}",
            chits::label(d, chit),
            train_name(train)
        )));
        if let Some((at, dropoff)) = abandoned {
            self.finalize(s, seat, train, chit, at, dropoff, rng, ev);
            return;
        }
        let pickup = chits::load(d, chit).map(|l| l.pickup).unwrap_or(0);
        let options = self.dropoff_options(s, chit, pickup);
        match options.as_slice() {
            [] => self.void_load(s, train, chit, "no dropoff station can be designated", rng, ev),
            [only] => self.finalize(s, seat, train, chit, pickup, *only, rng, ev),
            _ => s.stage = Stage::Dropoff { train, chit, pickup, options, setup: false },
        }
    }

    /// RT 5.1.4: the load is discarded; it counts as drawn and the train's movement is over.
    fn void_load(
        &self,
        s: &mut State,
        _train: u8,
        chit: u32,
        why: &str,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        self.discard(s, chit);
        ev.push(Event::public(format!(
            "RT 5.1.4: {} is discarded ({why}); the activation ends",
            chits::label(&self.data, chit)
        )));
        self.next_train(s, rng, ev);
    }

    /// RT 5.1.4: the contract stands unless the Union blocks it; war-materiel rolls for the War.
    #[allow(clippy::too_many_arguments)]
    fn finalize(
        &self,
        s: &mut State,
        seat: Seat,
        train: u8,
        chit: u32,
        pickup: usize,
        dropoff: usize,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let at = s.train(seat, train).and_then(|t| t.station()).unwrap_or(pickup);
        if s.occupied.contains(&pickup)
            || s.occupied.contains(&dropoff)
            || !board::reaches(d, s, at, pickup, false)
            || !board::reaches(d, s, pickup, dropoff, false)
        {
            self.void_load(
                s,
                train,
                chit,
                "its pickup or dropoff is occupied or cut off by the Union",
                rng,
                ev,
            );
            return;
        }
        self.set_contract(s, seat, train, chit, pickup, dropoff);
        // RULING F39: before the War (Extended Game) nothing rolls on the War Progress Table.
        if chits::is_war(d, chit) && !s.pre_war {
            ev.push(Event::public(format!(
                "RT 5.1.4: {} is war-materiel: roll on the War Progress Table",
                chits::label(d, chit)
            )));
            self.war_roll(s, Then::Move { train }, rng, ev);
        } else {
            s.stage = Stage::Move { train };
        }
    }

    /// Pick-up, drop-off, abandonment and the Depot drop of 5.1.8 (+1 MP each, RT 5.3.3).
    pub(in super::super) fn load_action(
        &self,
        s: &mut State,
        seat: Seat,
        a: &Action,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let Stage::Move { train } = s.stage else { return };
        let Some(t) = s.train(seat, train) else { return };
        let (Some(c), Some(at)) = (t.load.clone(), t.station()) else { return };
        s.mp = s.mp.saturating_sub(super::super::movement::ACTION_MP);
        let label = chits::label(d, c.chit);
        match a {
            Action::PickUp => {
                if chits::is_blockade(d, c.chit) {
                    // RT 5.7: 1d6 + Blockade Increase chits; 6 or more: seized.
                    let roll = d6(rng);
                    let total = roll + s.blockade;
                    if total >= 6 {
                        // RULING F37: the MP is spent; the empty train may undertake again.
                        self.clear_load(s, seat, train);
                        self.discard(s, c.chit);
                        ev.push(Event::public(format!("RT 5.7: blockade roll {roll} + {} = {total}: {label} was seized by Union warships", s.blockade)));
                        return;
                    }
                    ev.push(Event::public(format!(
                        "RT 5.7: blockade roll {roll} + {} = {total}: {label} ran the blockade",
                        s.blockade
                    )));
                }
                if let Some(t) = s.train_mut(seat, train) {
                    if let Some(l) = t.load.as_mut() {
                        l.picked = true;
                    }
                    t.fee_paid.clear(); // RT 5.6.2: a fee is chosen again once loaded
                }
                ev.push(Event::public(format!(
                    "RT 5.1.5: {} picks up {label} at {}",
                    train_name(train),
                    name(d, at)
                )));
            }
            Action::DropOff => {
                let pay = chits::payout(d, s, c.chit);
                self.clear_load(s, seat, train);
                self.discard(s, c.chit);
                self.pay_out(s, seat, pay);
                ev.push(Event::public(format!(
                    "RT 5.1.6: {seat} delivers {label} at {}: payout ${pay}",
                    name(d, at)
                )));
            }
            Action::DepotDrop => {
                self.clear_load(s, seat, train);
                self.discard(s, c.chit);
                ev.push(Event::public(format!(
                    "RT 5.1.8: {seat} leaves the undeliverable {label} at the Depot {}: no payout, no tariff",
                    name(d, at)
                )));
            }
            _ => {
                // RT 7.6 (RULING F62): abandoned on the Bad Rails line of a Divert Iron Shipment.
                if let Some(k) = self.diversion_at(s, seat, c.chit, at).filter(|_| c.picked) {
                    self.clear_load(s, seat, train);
                    self.carry_out_diversion(s, k, c.chit, at, ev);
                    return;
                }
                let tariff = self.charge(s, seat, d.tables.costs.penalty_tariff);
                self.clear_load(s, seat, train);
                if c.picked && !self.stranded(s, c.dropoff, at) {
                    s.abandoned.push(Abandoned { chit: c.chit, at, dropoff: c.dropoff, reserved: None });
                    ev.push(Event::public(format!(
                        "RT 5.1.7: {seat} abandons {label} at {} (tariff ${tariff})",
                        name(d, at)
                    )));
                } else {
                    self.discard(s, c.chit);
                    ev.push(Event::public(format!("RT 5.1.7/5.1.8, RULING F13: {seat} gives up {label} (tariff ${tariff}); it leaves play")));
                }
            }
        }
    }

    pub(in super::super) fn clear_load(&self, s: &mut State, seat: Seat, train: u8) {
        if let Some(t) = s.train_mut(seat, train) {
            t.load = None;
        }
    }
}
