//! Event chits (RT 7.0-7.15): whether a drawn event is enacted, the voluntary choice made
//! before the rolls (7.3, 7.6, 7.14), the Congestion and War Progress rolls, then the event
//! with the choices it asks for; and the answers to every choice task.

use super::super::Confed;
use super::super::board::{self, name, segment_name};
use super::super::chits::{self, train_name};
use super::super::data::SegmentKind;
use super::super::movement::{Mover, step_cost};
use super::super::setup::d6;
use super::super::state::{Action, Chit, ChoiceKind, State, Task, Then};
use super::moves::DisableLoad;
use super::new_train;
use crate::engine::{Event, GameRng, Seat};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
            "7.7" => self.wear_and_tear(s, ev),
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
            ChoiceKind::TreasureHunt => {
                *s.ripped.entry(x).or_insert(0) += 1;
                ev.push(Event::public(format!("RT 6.6: {seat} rips up {}", segment_name(d, x))));
            }
        }
    }

    /// Bridged segments that exist and are not yet disrupted, passing `keep`.
    fn bridges(&self, s: &State, keep: impl Fn(usize) -> bool) -> Vec<usize> {
        let d = &self.data;
        (0..d.map.segments.len())
            .filter(|g| {
                d.map.segments.get(*g).is_some_and(|x| x.bridge)
                    && board::exists(d, s, *g)
                    && !s.bridges_out.contains(g)
            })
            .filter(|g| keep(*g))
            .collect()
    }

    /// Segments a Ripped Up! marker may go on (not ferries or overland transfers, RT 2.3.3).
    fn rippable(&self, s: &State, seg: usize) -> bool {
        let d = &self.data;
        board::exists(d, s, seg)
            && d.map
                .segments
                .get(seg)
                .is_some_and(|x| matches!(x.kind, SegmentKind::Rail | SegmentKind::Unbuilt { .. }))
    }

    /// RT 7.3: any non-Depot station not occupied.
    fn depot_sites(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        (0..d.map.stations.len()).filter(|i| !board::is_depot(d, s, *i) && !s.occupied.contains(i)).collect()
    }

    /// RT 7.1 / RULING F26: a line may get Bad Rails if it has none and none of its Load
    /// Stations (Depots included) is occupied.
    fn bad_rails_eligible(&self, s: &State, line: u8) -> bool {
        let d = &self.data;
        let Some(l) = d.map.line(line) else { return false };
        !s.bad_rails.contains(&line)
            && !l.stations.iter().any(|st| s.occupied.contains(st) && board::is_load_station(d, s, *st))
    }

    /// RT 7.7: every player pays $300 per train in play; unpaid trains leave the game
    /// (RULING F16: the highest-numbered first when money runs short).
    fn wear_and_tear(&self, s: &mut State, ev: &mut Vec<Event>) {
        let cost = self.data.tables.costs.wear_and_tear;
        for seat in s.seats_from(s.active()) {
            let mut ids: Vec<u8> =
                s.player(seat).map(|p| p.trains.iter().map(|t| t.id).collect()).unwrap_or_default();
            ids.sort_unstable();
            let mut lost = Vec::new();
            for id in ids {
                if s.player(seat).is_some_and(|p| p.money >= cost) {
                    self.charge(s, seat, cost);
                } else {
                    if let Some(n) = s.train(seat, id).and_then(|t| t.load.as_ref()).map(|c| c.chit) {
                        s.discarded.push(Chit::Load(n));
                    }
                    if let Some(p) = s.player_mut(seat) {
                        p.trains.retain(|t| t.id != id);
                    }
                    lost.push(train_name(id));
                }
            }
            ev.push(Event::public(format!(
                "RT 7.7: {seat} pays for its trains{}",
                if lost.is_empty() { String::new() } else { format!("; loses {}", lost.join(", ")) }
            )));
        }
    }

    /// RT 7.9: bridges (code `seg*2`) or rail segments (`seg*2+1`) touching the sabotage area.
    fn sabotage_options(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        let touches = |g: usize| {
            d.map.segments.get(g).is_some_and(|x| {
                [x.a, x.b].iter().any(|st| d.map.stations.get(*st).is_some_and(|y| y.sabotage))
            })
        };
        let mut v: Vec<usize> = self.bridges(s, touches).into_iter().map(|g| g * 2).collect();
        v.extend(
            (0..d.map.segments.len()).filter(|g| touches(*g) && self.rippable(s, *g)).map(|g| g * 2 + 1),
        );
        v
    }

    /// RT 7.15 (RULING F15): movement points from the Union for an unloaded train, ignoring
    /// traffic and line changes; segments adjoining a station within 4 MP (code `seg*2`) and
    /// trains within 4 MP (code `(seat*16+id)*2+1`).
    fn raid_options(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        let mut b = board::board(s, None);
        b.trains.clear();
        let mover = Mover { light: true, ..Mover::default() };
        let mut dist = vec![u32::MAX; d.map.stations.len()];
        let mut heap = BinaryHeap::new();
        for &o in &s.occupied {
            dist[o] = 0;
            heap.push(Reverse((0u32, o)));
        }
        for e in &d.map.entries {
            if dist.get(e.joins).is_some_and(|x| *x > 1) && !s.occupied.contains(&e.joins) {
                dist[e.joins] = 1;
                heap.push(Reverse((1, e.joins)));
            }
        }
        while let Some(Reverse((k, at))) = heap.pop() {
            if dist.get(at).is_some_and(|x| k > *x) || k >= 4 {
                continue;
            }
            for &seg in d.map.segments_at(at) {
                let Some(x) = d.map.segments.get(seg) else { continue };
                let Some(to) = x.other(at) else { continue };
                let c =
                    x.owners.iter().filter_map(|l| step_cost(&d.map, &b, &mover, seg, to, *l, None)).min();
                if let Some(c) = c
                    && k + c < dist.get(to).copied().unwrap_or(0)
                {
                    dist[to] = k + c;
                    heap.push(Reverse((k + c, to)));
                }
            }
        }
        let near = |st: usize| dist.get(st).is_some_and(|x| *x <= 4);
        let mut v: Vec<usize> = (0..d.map.segments.len())
            .filter(|g| {
                self.rippable(s, *g) && d.map.segments.get(*g).is_some_and(|x| near(x.a) || near(x.b))
            })
            .map(|g| g * 2)
            .collect();
        for (i, p) in s.players.iter().enumerate() {
            for t in &p.trains {
                if t.station().is_some_and(near) {
                    v.push((i * 16 + usize::from(t.id)) * 2 + 1);
                }
            }
        }
        v
    }

    /// RT 7.14: other seats' trains on the seat's lines, not carrying war-materiel, not in a
    /// Shared Station of their owner's lines (code `seat*16+id`); only with the E train free.
    fn seizable(&self, s: &State, seat: Seat) -> Vec<usize> {
        let d = &self.data;
        let Some(me) = s.player(seat) else { return Vec::new() };
        if !me.e_available {
            return Vec::new();
        }
        let mut v = Vec::new();
        for (i, p) in s.players.iter().enumerate() {
            if i == seat.index() {
                continue;
            }
            for t in &p.trains {
                let Some(st) = t.station().and_then(|x| d.map.stations.get(x)) else { continue };
                let on_mine = st.lines.iter().any(|l| me.rrcs.contains(l));
                let haven = st.lines.len() > 1 && st.lines.iter().any(|l| p.rrcs.contains(l));
                let war = t.load.as_ref().is_some_and(|c| c.picked && chits::is_war(d, c.chit));
                if on_mine && !haven && !war {
                    v.push(i * 16 + usize::from(t.id));
                }
            }
        }
        v
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

    /// RT 6.6: segments the others may rip up: not within 2 stations of a Depot or Load
    /// Station unless leading to a dead end, and not cut off by the Union.
    pub(in super::super) fn treasure_options(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        let reach = board::reachable(d, s, board::raleigh(d), false);
        let near_load = |st: usize| {
            board::stations_within(d, s, st, 2).iter().any(|(x, _)| board::is_load_station(d, s, *x))
        };
        let dead_end =
            |st: usize| d.map.segments_at(st).iter().filter(|g| board::exists(d, s, **g)).count() == 1;
        (0..d.map.segments.len())
            .filter(|g| self.rippable(s, *g))
            .filter(|g| {
                d.map.segments.get(*g).is_some_and(|x| {
                    (reach.contains(&x.a) || reach.contains(&x.b))
                        && (dead_end(x.a) || dead_end(x.b) || (!near_load(x.a) && !near_load(x.b)))
                })
            })
            .collect()
    }
}
