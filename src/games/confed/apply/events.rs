//! Event chits (RT 7.0-7.15): whether a drawn event is enacted, the voluntary choice made
//! before the rolls (7.3, 7.6, 7.14), the Congestion and War Progress rolls, then the event
//! with the choices it asks for; and the answers to every choice task (what a choice may be aimed
//! at is in `targets`).

use super::super::Confed;
use super::super::board::{self, name, segment_name};
use super::super::chits::{self, train_name};
use super::super::setup::d6;
use super::super::state::{Action, Chit, ChoiceKind, State, Task, Then};
use super::moves::DisableLoad;
use super::new_train;
use crate::engine::{Event, GameRng, Seat};

fn say(ev: &mut Vec<Event>, text: impl Into<String>) {
    ev.push(Event::public(text.into()));
}

/// RULING F25: Bad Rails re-rolls give up after this many.
const MAX_REROLLS: usize = 20;

impl Confed {
    fn case(&self, k: usize) -> &str {
        self.data.tables.events.get(k).map(|e| e.case.as_str()).unwrap_or("")
    }

    fn event_index(&self, case: &str) -> usize {
        self.data.tables.events.iter().position(|e| e.case == case).unwrap_or(0)
    }

    /// RT 7.0: a drawn event. The train's activation ends after it (RT 5.1.2).
    pub(in super::super) fn draw_event(
        &self,
        s: &mut State,
        k: usize,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let seat = s.active();
        let vds = board::vds_occupied(d, s);
        let mut k = k;
        if self.case(k) == "7.12" && s.through_freight {
            ev.push(Event::public(
                "RT 6.8: after the Through-Freight Law a Railroad Convention is a Trains Seizure",
            ));
            k = self.event_index("7.14");
        }
        s.tasks.push(Task::Then(Then::EndActivation));
        let voluntary = match self.case(k) {
            "7.3" => Some((ChoiceKind::DepotConstruction, self.depot_sites(s))),
            "7.6" => Some((ChoiceKind::DivertIron, self.iron_lines(s, seat))),
            "7.14" => Some((ChoiceKind::Seizure, self.seizable(s, seat))),
            _ => None,
        };
        let enacted = match self.case(k) {
            "7.1" | "7.7" => vds >= 2,
            "7.2" => !self.bridges(s, |_| true).is_empty(),
            "7.13" => s.player(seat).is_some_and(|p| p.trains.iter().any(|t| t.station().is_some())),
            "7.15" => !self.raid_options(s).is_empty(),
            _ => true,
        };
        match voluntary {
            Some((_, options)) if options.is_empty() => {
                ev.push(Event::public(format!(
                    "RT 7.0: {}: nothing it could do; discarded without effect",
                    chits::event_name(d, k)
                )));
            }
            Some((kind, options)) => s.tasks.insert(0, Task::Choose { seat, kind, options, optional: true }),
            None if !enacted => ev.push(Event::public(format!(
                "RT 7.0: {} is not enacted (its condition does not hold) and is discarded",
                chits::event_name(d, k)
            ))),
            None => self.enact_with_rolls(s, k, None, rng, ev),
        }
    }

    /// RT 7.0 / 5.5 / 5.9: an enacted event rolls Congestion (once per Player Turn) and War
    /// Progress before it applies.
    fn enact_with_rolls(
        &self,
        s: &mut State,
        k: usize,
        choice: Option<usize>,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        ev.push(Event::public(format!("RT 7.0: {} is enacted", chits::event_name(&self.data, k))));
        self.congestion_roll(s, rng, ev);
        self.war_roll(s, Then::Enact { event: k, choice }, rng, ev);
    }

    /// The event takes effect.
    pub(in super::super) fn enact(
        &self,
        s: &mut State,
        k: usize,
        choice: Option<usize>,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let seat = s.active();
        let mut front = Vec::new();
        match self.case(k) {
            "7.1" => {
                let mut words = Vec::new();
                let mut hit = None;
                for _ in 0..MAX_REROLLS {
                    let dice: Vec<u32> = (0..4).map(|_| d6(rng)).collect();
                    let line = dice.iter().sum::<u32>() as u8;
                    words.push(format!("{dice:?}={line}"));
                    if self.bad_rails_eligible(s, line) {
                        hit = Some(line);
                        break;
                    }
                }
                match hit {
                    Some(l) => {
                        s.bad_rails.insert(l);
                        say(
                            ev,
                            format!("RT 7.1 Bad Rails: rolls {}: RRC #{l} has Bad Rails", words.join(", ")),
                        );
                    }
                    None => say(
                        ev,
                        format!(
                            "RT 7.1 Bad Rails: rolls {}: no line qualifies (RULING F25)",
                            words.join(", ")
                        ),
                    ),
                }
            }
            "7.2" => front.push(Task::Choose {
                seat,
                kind: ChoiceKind::BridgeCollapse,
                options: self.bridges(s, |_| true),
                optional: false,
            }),
            "7.3" => {
                if let Some(x) = choice {
                    s.new_depots.insert(x);
                    say(ev, format!("RT 7.3: {} is now a Depot", name(d, x)));
                }
            }
            "7.4" => {
                s.collisions += 1;
                say(ev, "RT 7.4: the next train passing through an occupied station may collide");
            }
            "7.5" => {
                s.embargo = true;
                say(ev, "RT 7.5: cotton payouts are halved");
            }
            "7.6" => {
                if let Some(l) = choice {
                    front.extend(self.divert_iron(s, seat, l as u8, ev));
                }
            }
            "7.7" => front.extend(self.wear_and_tear(s, ev)),
            "7.8" => {
                s.blockade += 1;
                say(ev, format!("RT 7.8: Blockade Runner rolls now get +{}", s.blockade));
            }
            "7.9" => front.push(Task::Choose {
                seat,
                kind: ChoiceKind::Sabotage,
                options: self.sabotage_options(s),
                optional: false,
            }),
            "7.10" | "7.11" => {
                let ends = d.tables.events.get(k).and_then(|e| e.completes.clone());
                if let Some([a, b]) = ends
                    && let (Some(a), Some(b)) = (d.map.station(&a), d.map.station(&b))
                {
                    s.built.extend(d.map.segments_between(a, b));
                    say(
                        ev,
                        format!(
                            "RT {}: the {}-{} segment is now usable",
                            self.case(k),
                            name(d, a),
                            name(d, b)
                        ),
                    );
                }
            }
            "7.12" => {
                s.embargo = false;
                s.conventions += 1;
                say(
                    ev,
                    format!(
                        "RT 7.12: payouts (except Passengers) are now +${}; no Cotton Embargo",
                        100 * s.conventions
                    ),
                );
            }
            "7.13" => {
                let mine: Vec<(u8, bool)> = s
                    .player(seat)
                    .map(|p| {
                        p.trains
                            .iter()
                            .filter(|t| t.station().is_some())
                            .map(|t| (t.id, t.load.as_ref().is_some_and(|c| c.picked)))
                            .collect()
                    })
                    .unwrap_or_default();
                let empty: Vec<usize> =
                    mine.iter().filter(|(_, l)| !l).map(|(i, _)| usize::from(*i)).collect();
                let options = if empty.is_empty() {
                    mine.iter().map(|(i, _)| usize::from(*i)).collect()
                } else {
                    empty
                };
                front.push(Task::Choose { seat, kind: ChoiceKind::BreakDown, options, optional: false });
            }
            "7.14" => {
                if let Some(code) = choice {
                    self.seize(s, seat, code, ev);
                }
            }
            "7.15" => front.push(Task::Choose {
                seat,
                kind: ChoiceKind::Raid,
                options: self.raid_options(s),
                optional: false,
            }),
            _ => {}
        }
        s.tasks.splice(0..0, front);
    }

    /// The answer to a choice task.
    pub(in super::super) fn answer_choice(
        &self,
        s: &mut State,
        seat: Seat,
        a: &Action,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let Some(Task::Choose { kind, .. }) = s.tasks.first().cloned() else { return };
        s.tasks.remove(0);
        let Action::Choose(x) = *a else {
            ev.push(Event::public(format!("{seat} declines ({kind:?})")));
            return;
        };
        match kind {
            ChoiceKind::Occupy => {
                ev.push(Event::public(format!("RT 5.9.1: {seat} chooses {} for the Union", name(d, x))));
                let mut front = self.cancel_window(s, x);
                front.push(Task::Occupy { station: x });
                s.tasks.splice(0..0, front);
            }
            ChoiceKind::BridgeCollapse => {
                s.bridges_out.insert(x);
                ev.push(Event::public(format!("RT 7.2: the bridge {} collapses", segment_name(d, x))));
            }
            ChoiceKind::DepotConstruction => {
                self.enact_with_rolls(s, self.event_index("7.3"), Some(x), rng, ev)
            }
            ChoiceKind::DivertIron => self.enact_with_rolls(s, self.event_index("7.6"), Some(x), rng, ev),
            ChoiceKind::Seizure => self.enact_with_rolls(s, self.event_index("7.14"), Some(x), rng, ev),
            ChoiceKind::Sabotage | ChoiceKind::Raid => {
                let sabotage = kind == ChoiceKind::Sabotage;
                if sabotage && x % 2 == 0 {
                    s.bridges_out.insert(x / 2);
                    ev.push(Event::public(format!(
                        "RT 7.9: partisans blow the bridge {}",
                        segment_name(d, x / 2)
                    )));
                } else if sabotage || x % 2 == 0 {
                    *s.ripped.entry(x / 2).or_insert(0) += 1;
                    let case = if sabotage { "7.9" } else { "7.15" };
                    ev.push(Event::public(format!("RT {case}: {} is ripped up", segment_name(d, x / 2))));
                } else {
                    let code = x / 2;
                    let (owner, id) = (Seat::from_index(code / 16), (code % 16) as u8);
                    ev.push(Event::public(format!(
                        "RT 7.15: Union cavalry disable {owner}'s {}",
                        train_name(id)
                    )));
                    self.disable(s, owner, id, DisableLoad::Abandon, ev);
                }
            }
            ChoiceKind::BreakDown => {
                ev.push(Event::public(format!("RT 7.13: {seat}'s {} breaks down", train_name(x as u8))));
                self.disable(s, seat, x as u8, DisableLoad::Abandon, ev);
            }
            ChoiceKind::IronSeizure => self.seize_iron(s, seat, x, ev),
            ChoiceKind::WearAndTear => {
                self.scrap(s, seat, x as u8, ev);
                if let Some(t) = self.settle_wear(s, seat, ev) {
                    s.tasks.insert(0, t);
                }
            }
            ChoiceKind::TreasureHunt => {
                *s.ripped.entry(x).or_insert(0) += 1;
                ev.push(Event::public(format!("RT 6.6: {seat} rips up {}", segment_name(d, x))));
                // RULING F64: the next players choose among the segments not yet ripped up.
                for t in s.tasks.iter_mut() {
                    if let Task::Choose { kind: ChoiceKind::TreasureHunt, options, .. } = t {
                        options.retain(|g| *g != x);
                    }
                }
            }
        }
    }

    /// RT 7.7: every player pays $300 per train in play; a train not paid for leaves the game.
    /// A player who can pay for some of his trains but not all chooses which he does not pay for
    /// (issue 34), one at a time: the choices are returned, in seat order from the active player.
    fn wear_and_tear(&self, s: &mut State, ev: &mut Vec<Event>) -> Vec<Task> {
        s.seats_from(s.active()).into_iter().filter_map(|seat| self.settle_wear(s, seat, ev)).collect()
    }

    /// RT 7.7 for one seat: pays for all its trains if it can, loses them all if it can pay for
    /// none (RULING F16: never below $0), else asks which train it does not pay for (the
    /// highest-numbered first, RULING F16, for a seat without an order: F35).
    fn settle_wear(&self, s: &mut State, seat: Seat, ev: &mut Vec<Event>) -> Option<Task> {
        let cost = self.data.tables.costs.wear_and_tear;
        let mut ids: Vec<u8> =
            s.player(seat).map(|p| p.trains.iter().map(|t| t.id).collect()).unwrap_or_default();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        let all = cost * ids.len() as u32;
        if money >= all {
            self.charge(s, seat, all);
            say(ev, format!("RT 7.7: {seat} pays ${all} for its {} train(s)", ids.len()));
            return None;
        }
        if money >= cost {
            let options = ids.iter().map(|i| usize::from(*i)).collect();
            return Some(Task::Choose { seat, kind: ChoiceKind::WearAndTear, options, optional: false });
        }
        for id in ids {
            self.scrap(s, seat, id, ev);
        }
        None
    }

    /// RT 7.7: a train not paid for is removed from the game, its load discarded.
    fn scrap(&self, s: &mut State, seat: Seat, id: u8, ev: &mut Vec<Event>) {
        if let Some(n) = s.train(seat, id).and_then(|t| t.load.as_ref()).map(|c| c.chit) {
            s.discarded.push(Chit::Load(n));
        }
        if let Some(p) = s.player_mut(seat) {
            p.trains.retain(|t| t.id != id);
        }
        say(ev, format!("RT 7.7: {seat} does not pay for its {}: it leaves the game", train_name(id)));
    }

    /// RT 7.14: the train is replaced by the seizing player's E train; its load leaves play.
    fn seize(&self, s: &mut State, seat: Seat, code: usize, ev: &mut Vec<Event>) {
        let (owner, id) = (Seat::from_index(code / 16), (code % 16) as u8);
        let Some(t) = s.train(owner, id).cloned() else { return };
        let Some(at) = t.station() else { return };
        if let Some(c) = &t.load {
            s.discarded.push(Chit::Load(c.chit));
        }
        if let Some(p) = s.player_mut(owner) {
            p.trains.retain(|x| x.id != id);
        }
        if let Some(p) = s.player_mut(seat) {
            p.e_available = false;
            p.trains.push(new_train(super::super::state::E_TRAIN, at));
        }
        ev.push(Event::public(format!(
            "RT 7.14: {seat} seizes {owner}'s {} at {}; it becomes {seat}'s train E",
            train_name(id),
            name(&self.data, at)
        )));
    }
}
