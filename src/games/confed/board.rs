//! What the rules read off the position: the movement board of a train, station distances
//! from the Union (RULING F15), depots and stacking, usable segments, the War's count of
//! Victory Depots, and the paths the rules trace (Raleigh, Strasburg, a load's delivery).

use super::data::{Data, SegmentKind, StationKind};
use super::movement::{Board, Mover};
use super::state::{State, Train};
use crate::engine::Seat;
use std::collections::{BTreeSet, VecDeque};

/// The movement board as `mover_train` sees it (its own counter not counted as traffic).
pub fn board(s: &State, mover: Option<(Seat, u8)>) -> Board {
    let mut b = Board {
        occupied: s.occupied.clone(),
        congested: s.congested.clone(),
        bad_rails: s.bad_rails.clone(),
        blocked: s.bridges_out.iter().copied().chain(s.ripped.keys().copied()).collect(),
        built: s.built.clone(),
        ..Board::default()
    };
    for (i, p) in s.players.iter().enumerate() {
        for t in &p.trains {
            if mover == Some((Seat::from_index(i), t.id)) {
                continue;
            }
            if let Some(st) = t.station() {
                *b.trains.entry(st).or_insert(0) += 1;
            }
        }
    }
    b
}

/// Who moves: the seat's lines, the fees paid, light or loaded (RT 5.6.1; the Through-Freight
/// Law makes every line free, RT 6.8).
pub fn mover(s: &State, seat: Seat, train: &Train) -> Mover {
    Mover {
        owned: s.player(seat).map(|p| p.rrcs.clone()).unwrap_or_default(),
        fee_paid: train.fee_paid.clone(),
        light: s.through_freight || train.load.as_ref().is_none_or(|c| !c.picked),
    }
}

/// A segment exists for counting stations and tracing paths (unbuilt only once built).
pub fn exists(d: &Data, s: &State, seg: usize) -> bool {
    d.map
        .segments
        .get(seg)
        .is_some_and(|x| !matches!(x.kind, SegmentKind::Unbuilt { .. }) || s.built.contains(&seg))
}

/// A segment can be travelled now (exists, no disruption, no Ripped Up! marker).
pub fn usable(d: &Data, s: &State, seg: usize) -> bool {
    exists(d, s, seg) && !s.bridges_out.contains(&seg) && !s.ripped.contains_key(&seg)
}

/// Distance in stations from the nearest Union marker, entry points included (RT 5.9.1 note;
/// RULING F15: counted along every existing segment, occupied stations too). None: unreachable.
pub fn union_distance(d: &Data, s: &State) -> Vec<Option<u32>> {
    let n = d.map.stations.len();
    let mut dist = vec![None; n];
    let mut queue = VecDeque::new();
    for &o in &s.occupied {
        if let Some(x) = dist.get_mut(o) {
            *x = Some(0);
            queue.push_back(o);
        }
    }
    for e in &d.map.entries {
        if dist.get(e.joins).copied().flatten().is_none_or(|x| x > 1) {
            if let Some(x) = dist.get_mut(e.joins) {
                *x = Some(1);
            }
            queue.push_back(e.joins);
        }
    }
    // A 0/1-source BFS: entry-joined stations start at 1, so process in distance order.
    let mut order: Vec<usize> = queue.drain(..).collect();
    order.sort_by_key(|i| dist.get(*i).copied().flatten().unwrap_or(u32::MAX));
    queue.extend(order);
    while let Some(at) = queue.pop_front() {
        let here = dist.get(at).copied().flatten().unwrap_or(0);
        for &seg in d.map.segments_at(at) {
            if !exists(d, s, seg) {
                continue;
            }
            let Some(next) = d.map.segments.get(seg).and_then(|x| x.other(at)) else { continue };
            if dist.get(next).copied().flatten().is_none_or(|x| x > here + 1) {
                if let Some(x) = dist.get_mut(next) {
                    *x = Some(here + 1);
                }
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Stations counted from one station (RULING F15), at most `limit` away.
pub fn stations_within(d: &Data, s: &State, from: usize, limit: u32) -> Vec<(usize, u32)> {
    let mut seen = vec![u32::MAX; d.map.stations.len()];
    let mut out = Vec::new();
    let mut queue = VecDeque::from([(from, 0u32)]);
    if let Some(x) = seen.get_mut(from) {
        *x = 0;
    }
    while let Some((at, k)) = queue.pop_front() {
        out.push((at, k));
        if k == limit {
            continue;
        }
        for &seg in d.map.segments_at(at) {
            if !exists(d, s, seg) {
                continue;
            }
            let Some(next) = d.map.segments.get(seg).and_then(|x| x.other(at)) else { continue };
            if seen.get(next).is_some_and(|v| *v > k + 1) {
                seen[next] = k + 1;
                queue.push_back((next, k + 1));
            }
        }
    }
    out
}

/// A station is a Depot (printed or built by RT 7.3).
pub fn is_depot(d: &Data, s: &State, station: usize) -> bool {
    s.new_depots.contains(&station) || d.map.stations.get(station).is_some_and(|x| x.kind.is_depot())
}

/// A station is a Load Station (Depots included, RT 2.1.2).
pub fn is_load_station(d: &Data, s: &State, station: usize) -> bool {
    is_depot(d, s, station) || d.map.stations.get(station).is_some_and(|x| x.kind == StationKind::LoadStation)
}

/// How many trains may end in a station (RT 5.4.1).
pub fn stack_limit(d: &Data, s: &State, station: usize) -> usize {
    let c = &d.tables.costs;
    (if is_depot(d, s, station) { c.stack_depot } else { c.stack_other }) as usize
}

/// Victory Depots the Union occupies (RT 5.9.1).
pub fn vds_occupied(d: &Data, s: &State) -> usize {
    s.occupied
        .iter()
        .filter(|o| d.map.stations.get(**o).is_some_and(|x| x.kind == StationKind::VictoryDepot))
        .count()
}

/// Stations reachable from `from` without entering a Union-occupied station, along segments
/// that exist and (if `usable_only`) are not disrupted or ripped up.
pub fn reachable(d: &Data, s: &State, from: usize, usable_only: bool) -> BTreeSet<usize> {
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        for &seg in d.map.segments_at(at) {
            let ok = if usable_only { usable(d, s, seg) } else { exists(d, s, seg) };
            if !ok {
                continue;
            }
            let Some(next) = d.map.segments.get(seg).and_then(|x| x.other(at)) else { continue };
            if !s.occupied.contains(&next) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

/// Station-count distances from `from` along usable segments avoiding the Union (the
/// "expeditious" Troops test, RULING F18).
pub fn usable_hops(d: &Data, s: &State, from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; d.map.stations.len()];
    let mut queue = VecDeque::from([from]);
    if let Some(x) = dist.get_mut(from) {
        *x = 0;
    }
    while let Some(at) = queue.pop_front() {
        let here = dist.get(at).copied().unwrap_or(0);
        for &seg in d.map.segments_at(at) {
            if !usable(d, s, seg) {
                continue;
            }
            let Some(next) = d.map.segments.get(seg).and_then(|x| x.other(at)) else { continue };
            if !s.occupied.contains(&next) && dist.get(next).is_some_and(|v| *v == u32::MAX) {
                dist[next] = here + 1;
                queue.push_back(next);
            }
        }
    }
    dist
}

/// The station name (or "?").
pub fn name(d: &Data, station: usize) -> &str {
    d.map.stations.get(station).map(|s| s.name.as_str()).unwrap_or("?")
}

/// A segment as "A–B".
pub fn segment_name(d: &Data, seg: usize) -> String {
    d.map
        .segments
        .get(seg)
        .map(|x| format!("{}-{}", name(d, x.a), name(d, x.b)))
        .unwrap_or_else(|| "?".into())
}

/// The Raleigh station of the Repair Box (RT 2.1.4).
pub fn raleigh(d: &Data) -> usize {
    d.map.repair_box
}
