//! The War (RT 5.9): the War Progress roll and its results, the cancel window of the Generals
//! (RT 6.1, 6.3, 6.5; RULING F22), Union occupation (trains destroyed, loads discarded, the end
//! at the eighth Victory Depot: RULING F20), the Congestion Table (RT 5.5), and disabled
//! trains sent to the Raleigh Repair Box along a traced path (RT 5.8, RULING F23).

use super::super::Confed;
use super::super::board::{self, name};
use super::super::chits::train_name;
use super::super::data::WarResult;
use super::super::setup::d6;
use super::super::state::{Abandoned, Chit, ChoiceKind, Place, State, Task, Then};
use super::moves::DisableLoad;
use crate::engine::{Event, GameRng, Seat};

/// RULING F25: a "roll again" loop gives up after this many rolls (no station taken).
const MAX_REROLLS: usize = 20;

impl Confed {
    /// RT 5.9.1: roll 2d6 on the War Progress Table, then go on with `then`.
    pub(in super::super) fn war_roll(
        &self,
        s: &mut State,
        then: Then,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let column = board::vds_occupied(d, s).min(7);
        let mut front: Vec<Task> = Vec::new();
        for attempt in 0..MAX_REROLLS {
            let (a, b) = (d6(rng), d6(rng));
            let roll = (a + b) as usize;
            let result = d
                .tables
                .war_progress
                .get(roll - 2)
                .and_then(|r| r.get(column))
                .cloned()
                .unwrap_or(WarResult::Nothing);
            let head =
                format!("RT 5.9.1: War Progress roll {a}+{b}={roll} with {column} Victory Depots taken");
            match result {
                WarResult::Station(x) if s.occupied.contains(&x) => {
                    ev.push(Event::public(format!("{head}: {} (already occupied: roll again)", name(d, x))));
                    if attempt + 1 == MAX_REROLLS {
                        ev.push(Event::public("RULING F25: after 20 rolls no station is taken"));
                    }
                    continue;
                }
                WarResult::Station(x) => {
                    ev.push(Event::public(format!("{head}: the Union advances on {}", name(d, x))));
                    front.extend(self.cancel_window(s, x));
                    front.push(Task::Occupy { station: x });
                }
                WarResult::Choice | WarResult::ChoiceV => {
                    let v = result == WarResult::ChoiceV;
                    let options = self.choice_stations(s, v);
                    if options.is_empty() {
                        ev.push(Event::public(format!(
                            "{head}: Choice, but no station qualifies (RULING F25): none taken"
                        )));
                    } else {
                        ev.push(Event::public(format!(
                            "{head}: Choice{}: {} picks a station within 2 of the Union",
                            if v { " (V)" } else { "" },
                            s.active()
                        )));
                        front.push(Task::Choose {
                            seat: s.active(),
                            kind: ChoiceKind::Occupy,
                            options,
                            optional: false,
                        });
                    }
                }
                WarResult::Nothing => ev.push(Event::public(format!("{head}: no station taken"))),
            }
            break;
        }
        front.push(Task::Then(then));
        s.tasks.splice(0..0, front);
    }

    /// RT 5.9.1 Choice: unoccupied stations within 2 stations of a Union marker (Victory
    /// Depots only for Choice (V)).
    fn choice_stations(&self, s: &State, victory: bool) -> Vec<usize> {
        let d = &self.data;
        let dist = board::union_distance(d, s);
        (0..d.map.stations.len())
            .filter(|i| !s.occupied.contains(i))
            .filter(|i| dist.get(*i).copied().flatten().is_some_and(|x| x <= 2))
            .filter(|i| {
                victory
                    || d.map
                        .stations
                        .get(*i)
                        .is_some_and(|x| x.kind != super::super::data::StationKind::VictoryDepot)
            })
            .collect()
    }

    /// RULING F22: every seat in turn from the active player may cancel with a General.
    pub(in super::super) fn cancel_window(&self, s: &State, station: usize) -> Vec<Task> {
        s.seats_from(s.active()).into_iter().map(|seat| Task::Cancel { seat, station }).collect()
    }

    /// RT 5.9.2: the Union takes a station.
    pub(in super::super) fn occupy(&self, s: &mut State, station: usize, ev: &mut Vec<Event>) {
        let d = &self.data;
        s.occupied.insert(station); // RULING F30: the markers never run out
        s.congested.remove(&station);
        let mut lost = Vec::new();
        for (i, p) in s.players.iter_mut().enumerate() {
            let seat = Seat::from_index(i);
            p.trains.retain(|t| {
                if t.station() == Some(station) {
                    lost.push((seat, t.id, t.load.as_ref().map(|c| c.chit)));
                    false
                } else {
                    true
                }
            });
        }
        let mut words = vec![format!("RT 5.9.2: the Union occupies {}", name(d, station))];
        for (seat, id, load) in lost {
            if let Some(n) = load {
                s.discarded.push(Chit::Load(n));
            }
            words.push(format!("{seat}'s {} is destroyed there", train_name(id)));
        }
        let (gone, kept): (Vec<Abandoned>, Vec<Abandoned>) =
            s.abandoned.drain(..).partition(|a| a.at == station);
        s.abandoned = kept;
        s.discarded.extend(gone.iter().map(|a| Chit::Load(a.chit)));
        let vds = board::vds_occupied(d, s);
        words.push(format!("{vds} Victory Depots are now occupied"));
        ev.push(Event::public(words.join("; ")));
        // RULING F20 (FACTS Q2): the eighth Victory Depot ends the game at once.
        if vds >= super::super::data::counts::VICTORY_DEPOTS {
            s.ended = Some("the Union holds all 8 Victory Depots (RULING F20)".into());
        }
    }

    /// RT 5.5: once per Player Turn, before an enacted event: the old markers go, the rolled
    /// row's stations are congested (an occupied one is skipped).
    pub(in super::super) fn congestion_roll(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        if s.congestion_rolled {
            return;
        }
        s.congestion_rolled = true;
        let d = &self.data;
        let (a, b) = (d6(rng), d6(rng));
        let row = d.tables.congestion.get((a + b) as usize - 2).cloned().unwrap_or_default();
        s.congested = row.iter().copied().filter(|x| !s.occupied.contains(x)).collect();
        let names: Vec<&str> = s.congested.iter().map(|x| name(d, *x)).collect();
        ev.push(Event::public(format!(
            "RT 5.5: Congestion roll {a}+{b}={}: congested {}",
            a + b,
            names.join(", ")
        )));
    }

    /// RT 5.8: a disabled train goes to the Raleigh Repair Box if a path to Raleigh avoiding
    /// the Union can be traced (RULING F23: only occupation blocks it), else it is destroyed.
    pub(in super::super) fn disable(
        &self,
        s: &mut State,
        seat: Seat,
        id: u8,
        load: DisableLoad,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let Some(t) = s.train(seat, id).cloned() else { return };
        let Some(at) = t.station() else { return };
        if let Some(c) = &t.load {
            let tariff = if c.picked || load == DisableLoad::Discard {
                self.charge(s, seat, d.tables.costs.penalty_tariff)
            } else {
                0
            };
            if load == DisableLoad::Abandon && c.picked {
                s.abandoned.push(Abandoned { chit: c.chit, at, dropoff: c.dropoff, reserved: None });
                ev.push(Event::public(format!(
                    "{seat} abandons its load at {} (tariff ${tariff})",
                    name(d, at)
                )));
            } else {
                s.discarded.push(Chit::Load(c.chit));
                ev.push(Event::public(format!("{seat}'s load is lost (tariff ${tariff})")));
            }
        }
        let raleigh = board::raleigh(d);
        let traced = !s.occupied.contains(&raleigh) && board::reaches(d, s, at, raleigh, false);
        if let Some(p) = s.player_mut(seat) {
            if traced {
                if let Some(t) = p.trains.iter_mut().find(|t| t.id == id) {
                    t.at = Place::RepairBox;
                    t.load = None;
                    t.line = None;
                    t.fee_paid.clear();
                }
            } else {
                p.trains.retain(|t| t.id != id);
            }
        }
        ev.push(Event::public(if traced {
            format!("RT 5.8: {seat}'s {} goes to the Raleigh Repair Box", train_name(id))
        } else {
            format!("RT 5.8: {seat}'s {} cannot reach Raleigh and is destroyed", train_name(id))
        }));
    }
}
