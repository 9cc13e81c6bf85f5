//! What an event or special event may be aimed at (RT 6.6, 7.1, 7.3, 7.9, 7.14, 7.15): the
//! bridges, segments, stations, lines and trains a choice task offers. The events themselves
//! are in `events`.

use super::super::Confed;
use super::super::board;
use super::super::chits;
use super::super::data::SegmentKind;
use super::super::movement::{Mover, step_cost};
use super::super::state::State;
use crate::engine::Seat;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

impl Confed {
    /// Bridged segments that exist and are not yet disrupted, passing `keep`.
    pub(super) fn bridges(&self, s: &State, keep: impl Fn(usize) -> bool) -> Vec<usize> {
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
    pub(super) fn rippable(&self, s: &State, seg: usize) -> bool {
        let d = &self.data;
        board::exists(d, s, seg)
            && d.map
                .segments
                .get(seg)
                .is_some_and(|x| matches!(x.kind, SegmentKind::Rail | SegmentKind::Unbuilt { .. }))
    }

    /// RT 7.3: any non-Depot station not occupied.
    pub(super) fn depot_sites(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        (0..d.map.stations.len()).filter(|i| !board::is_depot(d, s, *i) && !s.occupied.contains(i)).collect()
    }

    /// RT 7.1 / RULING F26: a line may get Bad Rails if it has none and none of its Load
    /// Stations (Depots included) is occupied.
    pub(super) fn bad_rails_eligible(&self, s: &State, line: u8) -> bool {
        let d = &self.data;
        let Some(l) = d.map.line(line) else { return false };
        !s.bad_rails.contains(&line)
            && !l.stations.iter().any(|st| s.occupied.contains(st) && board::is_load_station(d, s, *st))
    }

    /// RT 7.9: bridges (code `seg*2`) or rail segments (`seg*2+1`) touching the sabotage area.
    pub(super) fn sabotage_options(&self, s: &State) -> Vec<usize> {
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
    pub(super) fn raid_options(&self, s: &State) -> Vec<usize> {
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
    pub(super) fn seizable(&self, s: &State, seat: Seat) -> Vec<usize> {
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

    /// RT 6.6: segments the others may rip up: not within 2 stations of a Depot or Load
    /// Station unless leading to a dead end, not cut off by the Union, and not ripped up
    /// already ("3 line segments must be ripped up": three segments, one marker each; RULING F64).
    pub(in super::super) fn treasure_options(&self, s: &State) -> Vec<usize> {
        let d = &self.data;
        let reach = board::reachable(d, s, board::raleigh(d), false);
        let near_load = |st: usize| {
            board::stations_within(d, s, st, 2).iter().any(|(x, _)| board::is_load_station(d, s, *x))
        };
        let dead_end =
            |st: usize| d.map.segments_at(st).iter().filter(|g| board::exists(d, s, **g)).count() == 1;
        (0..d.map.segments.len())
            .filter(|g| self.rippable(s, *g) && !s.ripped.contains_key(g))
            .filter(|g| {
                d.map.segments.get(*g).is_some_and(|x| {
                    (reach.contains(&x.a) || reach.contains(&x.b))
                        && (dead_end(x.a) || dead_end(x.b) || (!near_load(x.a) && !near_load(x.b)))
                })
            })
            .collect()
    }
}
