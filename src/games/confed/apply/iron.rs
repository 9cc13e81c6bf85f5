//! Divert Iron Shipment (RT 7.6, RULING F62, which replaces the immediate repair of RULING F27):
//! the event stands as a diversion until the player's train "abandons" a picked-up Iron load in a
//! station of his Bad Rails line; a shipment another player's train carries on his lines may be
//! seized for it first.

use super::super::Confed;
use super::super::board::name;
use super::super::chits::{self, train_name};
use super::super::state::{Abandoned, ChoiceKind, Diversion, State, Task};
use crate::engine::{Event, Seat};

impl Confed {
    fn is_iron(&self, n: u32) -> bool {
        chits::goods(&self.data, n) == "Iron"
    }

    /// RT 7.6: the seat's Bad Rails lines, if there is an Iron load it could divert: showing
    /// on the display, abandoned on the map (and not seized by another seat), undertaken by
    /// one of its trains, or carried by another seat's train on one of its lines.
    pub(super) fn iron_lines(&self, s: &State, seat: Seat) -> Vec<usize> {
        let Some(p) = s.player(seat) else { return Vec::new() };
        let any_iron = s.display.iter().any(|n| self.is_iron(*n))
            || s.abandoned.iter().any(|a| self.is_iron(a.chit) && a.reserved.is_none_or(|r| r == seat))
            || p.trains.iter().any(|t| t.load.as_ref().is_some_and(|c| self.is_iron(c.chit)))
            || !self.iron_seizable(s, seat).is_empty();
        if !any_iron {
            return Vec::new();
        }
        p.rrcs.iter().filter(|l| s.bad_rails.contains(l)).map(|l| usize::from(*l)).collect()
    }

    /// RT 7.6, second way: other seats' trains carrying (having picked up) an Iron load in a
    /// station of one of the seat's lines (code `owner seat index * 16 + train id`).
    fn iron_seizable(&self, s: &State, seat: Seat) -> Vec<usize> {
        let d = &self.data;
        let Some(me) = s.player(seat) else { return Vec::new() };
        let mut v = Vec::new();
        for (i, p) in s.players.iter().enumerate().filter(|(i, _)| *i != seat.index()) {
            for t in &p.trains {
                let carrying = t.load.as_ref().is_some_and(|c| c.picked && self.is_iron(c.chit));
                let on_mine = t
                    .station()
                    .and_then(|x| d.map.stations.get(x))
                    .is_some_and(|st| st.lines.iter().any(|l| me.rrcs.contains(l)));
                if carrying && on_mine {
                    v.push(i * 16 + usize::from(t.id));
                }
            }
        }
        v
    }

    /// RT 7.6 enacted for `line`: the diversion stands until carried out; the seat may first
    /// seize a shipment another train carries on its lines (the returned choice, voluntary).
    pub(super) fn divert_iron(
        &self,
        s: &mut State,
        seat: Seat,
        line: u8,
        ev: &mut Vec<Event>,
    ) -> Option<Task> {
        s.diversions.push(Diversion { seat, line, seized: None });
        ev.push(Event::public(format!(
            "RT 7.6: {seat} will repair RRC #{line}: its Bad Rails go when one of {seat}'s trains \
             abandons a picked-up Iron load in a station of that line ($300 tariff)"
        )));
        let options = self.iron_seizable(s, seat);
        (!options.is_empty()).then_some(Task::Choose {
            seat,
            kind: ChoiceKind::IronSeizure,
            options,
            optional: true,
        })
    }

    /// RT 7.6: the shipment is abandoned at once where the train stands, with no payment and
    /// no tariff for its owner; only the seizing seat may take it up, and diverts it free.
    pub(super) fn seize_iron(&self, s: &mut State, seat: Seat, code: usize, ev: &mut Vec<Event>) {
        let (owner, id) = (Seat::from_index(code / 16), (code % 16) as u8);
        let Some(t) = s.train(owner, id) else { return };
        let (Some(c), Some(at)) = (t.load.clone(), t.station()) else { return };
        self.clear_load(s, owner, id);
        s.abandoned.push(Abandoned { chit: c.chit, at, dropoff: c.dropoff, reserved: Some(seat) });
        if let Some(v) = s.diversions.iter_mut().rev().find(|v| v.seat == seat) {
            v.seized = Some(c.chit);
        }
        ev.push(Event::public(format!(
            "RT 7.6: {seat} seizes the {} of {owner}'s {}: it lies at {} for {seat} alone (no tariff)",
            chits::label(&self.data, c.chit),
            train_name(id),
            name(&self.data, at)
        )));
    }

    /// The diversion a picked-up `chit` abandoned by `seat`'s train at `at` carries out: one
    /// of the seat's, for a line with Bad Rails through `at`, the chit being Iron.
    pub(super) fn diversion_at(&self, s: &State, seat: Seat, chit: u32, at: usize) -> Option<usize> {
        if !self.is_iron(chit) {
            return None;
        }
        s.diversions.iter().position(|v| {
            v.seat == seat
                && s.bad_rails.contains(&v.line)
                && self.data.map.line(v.line).is_some_and(|l| l.stations.contains(&at))
        })
    }

    /// Abandoning the load of `seat`'s `train` now would carry out a diversion.
    pub(in super::super) fn diverts_here(&self, s: &State, seat: Seat, train: u8) -> bool {
        s.train(seat, train).is_some_and(|t| {
            let (Some(c), Some(at)) = (t.load.as_ref(), t.station()) else { return false };
            c.picked && self.diversion_at(s, seat, c.chit, at).is_some()
        })
    }

    /// RT 7.6: the Iron load is "delivered" to the Bad Rails line: the Bad Rails go, the chit
    /// leaves play, and the seat pays the $300 tariff (none for a seized shipment).
    pub(super) fn carry_out_diversion(
        &self,
        s: &mut State,
        k: usize,
        chit: u32,
        at: usize,
        ev: &mut Vec<Event>,
    ) {
        let v = s.diversions.remove(k);
        s.bad_rails.remove(&v.line);
        self.discard(s, chit);
        let paid = if v.seized == Some(chit) {
            0
        } else {
            self.charge(s, v.seat, self.data.tables.costs.penalty_tariff)
        };
        ev.push(Event::public(format!(
            "RT 7.6: {} diverts {} at {}: the Bad Rails of RRC #{} are repaired (tariff ${paid})",
            v.seat,
            chits::label(&self.data, chit),
            name(&self.data, at),
            v.line
        )));
        self.lapse_diversions(s);
    }

    /// Diversions whose line lost its Bad Rails otherwise (RT 6.6) lapse; a seized shipment
    /// no diversion waits for any more may be taken up by anyone.
    pub(super) fn lapse_diversions(&self, s: &mut State) {
        let bad = s.bad_rails.clone();
        s.diversions.retain(|v| bad.contains(&v.line));
        let held: Vec<(Seat, u32)> =
            s.diversions.iter().filter_map(|v| v.seized.map(|c| (v.seat, c))).collect();
        for a in s.abandoned.iter_mut() {
            if a.reserved.is_some_and(|r| !held.contains(&(r, a.chit))) {
                a.reserved = None;
            }
        }
    }
}
