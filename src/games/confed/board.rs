//! What the rules read off the position: the movement board of a train, station distances
//! from the Union (RULING F15), depots and stacking, usable segments, the War's count of
//! Victory Depots, and the paths the rules trace (Raleigh, Strasburg, a load's delivery).

use super::data::{Data, SegmentKind, StationKind};
use super::movement::{Board, Mover, Position};
use super::state::{State, Train};
use crate::engine::Seat;
use std::collections::VecDeque;

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

/// The movement board as `mover` sees it, read off the state in place (nothing is copied):
/// what one step's check needs. [`board`] builds the same as sets for whole-map searches.
#[derive(Debug, Clone, Copy)]
pub struct Live<'s> {
    s: &'s State,
    mover: Option<(Seat, u8)>,
}

/// The live view of the board for `mover` (see [`Live`]).
pub fn live(s: &State, mover: Option<(Seat, u8)>) -> Live<'_> {
    Live { s, mover }
}

impl Position for Live<'_> {
    fn occupied(&self, station: usize) -> bool {
        self.s.occupied.contains(&station)
    }
    fn congested(&self, station: usize) -> bool {
        self.s.congested.contains(&station)
    }
    fn trains(&self, station: usize) -> u32 {
        let mut n = 0;
        for (i, p) in self.s.players.iter().enumerate() {
            for t in &p.trains {
                if t.station() == Some(station) && self.mover != Some((Seat::from_index(i), t.id)) {
                    n += 1;
                }
            }
        }
        n
    }
    fn bad_rails(&self, line: u8) -> bool {
        self.s.bad_rails.contains(&line)
    }
    fn blocked(&self, segment: usize) -> bool {
        self.s.bridges_out.contains(&segment) || self.s.ripped.contains_key(&segment)
    }
    fn built(&self, segment: usize) -> bool {
        self.s.built.contains(&segment)
    }
}

/// Who moves: the seat's lines, the fees paid, light or loaded (RT 5.6.1; the Through-Freight
/// Law makes every line free, RT 6.8).
pub fn mover(s: &State, seat: Seat, train: &Train) -> Mover {
    Mover {
        owned: s.player(seat).map(|p| p.rrcs.iter().copied().collect()).unwrap_or_default(),
        fee_paid: train.fee_paid.iter().copied().collect(),
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

/// The network as the searches see it now, as flags by index (worked out once per search, so
/// that a search reads arrays rather than the position's sets at every segment it crosses).
#[derive(Debug)]
struct Net {
    /// The segment exists (unbuilt ones only once built).
    exists: Vec<bool>,
    /// The segment exists and carries no Bridge Disruption or Ripped Up! marker.
    usable: Vec<bool>,
    /// The Union occupies the station.
    occupied: Vec<bool>,
}

impl Net {
    fn of(d: &Data, s: &State) -> Net {
        let mut exists: Vec<bool> =
            d.map.segments.iter().map(|x| !matches!(x.kind, SegmentKind::Unbuilt { .. })).collect();
        for &g in &s.built {
            if let Some(x) = exists.get_mut(g) {
                *x = true;
            }
        }
        let mut usable = exists.clone();
        for g in s.bridges_out.iter().chain(s.ripped.keys()) {
            if let Some(x) = usable.get_mut(*g) {
                *x = false;
            }
        }
        let mut occupied = vec![false; d.map.stations.len()];
        for &o in &s.occupied {
            if let Some(x) = occupied.get_mut(o) {
                *x = true;
            }
        }
        Net { exists, usable, occupied }
    }

    /// The segments `flags` allows out of `at`, with the station at their other end.
    fn out<'a>(&'a self, d: &'a Data, flags: &'a [bool], at: usize) -> impl Iterator<Item = usize> + 'a {
        d.map
            .segments_at(at)
            .iter()
            .filter(|g| flags.get(**g).copied().unwrap_or(false))
            .filter_map(move |g| d.map.segments.get(*g).and_then(|x| x.other(at)))
    }
}

/// Distance in stations from the nearest Union marker, entry points included (RT 5.9.1 note;
/// RULING F15: counted along every existing segment, occupied stations too). None: unreachable.
pub fn union_distance(d: &Data, s: &State) -> Vec<Option<u32>> {
    let n = d.map.stations.len();
    let net = Net::of(d, s);
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
        for next in net.out(d, &net.exists, at) {
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
    let net = Net::of(d, s);
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
        for next in net.out(d, &net.exists, at) {
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

/// Stations a search reached, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reached(Vec<bool>);

impl Reached {
    /// The search reached `station`.
    pub fn contains(&self, station: &usize) -> bool {
        self.0.get(*station).copied().unwrap_or(false)
    }
}

/// Stations reachable from `from` without entering a Union-occupied station, along segments
/// that exist and (if `usable_only`) are not disrupted or ripped up.
pub fn reachable(d: &Data, s: &State, from: usize, usable_only: bool) -> Reached {
    Reached(search(d, s, from, usable_only, None))
}

/// Whether `to` is [`reachable`] from `from` (the search stops when it gets there).
pub fn reaches(d: &Data, s: &State, from: usize, to: usize, usable_only: bool) -> bool {
    search(d, s, from, usable_only, Some(to)).get(to).copied().unwrap_or(false)
}

/// The breadth-first search behind [`reachable`] and [`reaches`]; stops once `stop` is seen.
fn search(d: &Data, s: &State, from: usize, usable_only: bool, stop: Option<usize>) -> Vec<bool> {
    let net = Net::of(d, s);
    let flags = if usable_only { &net.usable } else { &net.exists };
    let mut seen = vec![false; d.map.stations.len()];
    if let Some(x) = seen.get_mut(from) {
        *x = true;
    }
    let mut queue = VecDeque::from([from]);
    if stop == Some(from) {
        return seen;
    }
    while let Some(at) = queue.pop_front() {
        for next in net.out(d, flags, at) {
            if !net.occupied.get(next).copied().unwrap_or(true) && !seen[next] {
                seen[next] = true;
                if stop == Some(next) {
                    return seen;
                }
                queue.push_back(next);
            }
        }
    }
    seen
}

/// RT 6.7 (RULING F28): a train could still be moved into `station` "from the rest of the
/// Confederacy, unblocked by Union-occupied markers": a path avoiding the Union, over every
/// existing segment (disrupted or ripped up ones too), joins it to a Depot on another line.
pub fn open_to_confederacy(d: &Data, s: &State, station: usize) -> bool {
    let own = d.map.stations.get(station).map(|x| x.lines.clone()).unwrap_or_default();
    let reached = reachable(d, s, station, false);
    (0..d.map.stations.len()).any(|i| {
        reached.contains(&i)
            && is_depot(d, s, i)
            && d.map.stations.get(i).is_some_and(|x| !x.lines.is_subset(&own))
    })
}

/// Station-count distances from `from` along usable segments avoiding the Union (the
/// "expeditious" Troops test, RULING F18). u32::MAX: not reached.
///
/// With `until`, the search stops once that station has its distance: every distance found is
/// exact, and every station not found is at least as far as `until`, which is all a test of
/// "is this neighbour of `until` nearer to `from`" needs.
pub fn usable_hops(d: &Data, s: &State, from: usize, until: Option<usize>) -> Vec<u32> {
    let mut hops = Hops::new(d, s, from);
    match until {
        Some(x) => {
            hops.reach(d, x);
        }
        None => while hops.step(d) {},
    }
    hops.dist
}

/// A breadth-first search for [`usable_hops`] that goes only as far as asked, and can be
/// asked again for farther stations while the position it was started on stays the same.
#[derive(Debug)]
pub struct Hops {
    net: Net,
    dist: Vec<u32>,
    queue: VecDeque<usize>,
}

impl Hops {
    /// A search from `from` on the position `s`, nothing searched yet.
    pub fn new(d: &Data, s: &State, from: usize) -> Hops {
        let mut dist = vec![u32::MAX; d.map.stations.len()];
        if let Some(x) = dist.get_mut(from) {
            *x = 0;
        }
        Hops { net: Net::of(d, s), dist, queue: VecDeque::from([from]) }
    }

    /// The distance of `station` as found so far (u32::MAX: not found yet, or unreachable).
    pub fn found(&self, station: usize) -> u32 {
        self.dist.get(station).copied().unwrap_or(u32::MAX)
    }

    /// The distance of `station`, searching on until it is found or the search is done. Once
    /// it returns, every station nearer than `station` has its distance.
    pub fn reach(&mut self, d: &Data, station: usize) -> u32 {
        while self.found(station) == u32::MAX && self.step(d) {}
        self.found(station)
    }

    /// Searches on from the next station in the queue; false when the search is done.
    fn step(&mut self, d: &Data) -> bool {
        let Some(at) = self.queue.pop_front() else { return false };
        let here = self.found(at);
        for next in self.net.out(d, &self.net.usable, at) {
            if !self.net.occupied.get(next).copied().unwrap_or(true) && self.dist[next] == u32::MAX {
                self.dist[next] = here + 1;
                self.queue.push_back(next);
            }
        }
        true
    }
}

/// The station name (or "?").
pub fn name(d: &Data, station: usize) -> &str {
    d.map.stations.get(station).map(|s| s.name.as_str()).unwrap_or("?")
}

/// A segment as "A-B"; one of a parallel pair (RT 2.3.3: Hanover-Richmond) adds its line,
/// "Hanover-Richmond (#4)", so that either can be told apart.
pub fn segment_name(d: &Data, seg: usize) -> String {
    let Some(x) = d.map.segments.get(seg) else { return "?".into() };
    let pair = format!("{}-{}", name(d, x.a), name(d, x.b));
    match x.owners.as_slice() {
        [line] if d.map.segments_between(x.a, x.b).len() > 1 => format!("{pair} (#{line})"),
        _ => pair,
    }
}

/// The segments joining two stations named as on the map (case aside), all of them or, with
/// `line`, only that line's: the two Hanover-Richmond segments are told apart by their line
/// (RT 2.3.3).
pub fn segments_named(d: &Data, a: &str, b: &str, line: Option<u8>) -> Vec<usize> {
    let (Some(a), Some(b)) = (d.map.find_station(a), d.map.find_station(b)) else { return Vec::new() };
    d.map
        .segments_between(a, b)
        .into_iter()
        .filter(|g| line.is_none_or(|l| d.map.segments.get(*g).is_some_and(|x| x.owners.contains(&l))))
        .collect()
}

/// The Raleigh station of the Repair Box (RT 2.1.4).
pub fn raleigh(d: &Data) -> usize {
    d.map.repair_box
}

/// The line naming the segments cut by Bridge Disruptions and Ripped Up! markers, bridges first
/// (`Disrupted: Atlanta-Griffin (bridge out), …`); `None` when none is cut.
pub fn disrupted(d: &Data, s: &State) -> Option<String> {
    let cut: Vec<String> = s
        .bridges_out
        .iter()
        .map(|g| format!("{} (bridge out)", segment_name(d, *g)))
        .chain(s.ripped.iter().map(|(g, k)| format!("{} (ripped up x{k})", segment_name(d, *g))))
        .collect();
    (!cut.is_empty()).then(|| format!("Disrupted: {}", cut.join(", ")))
}
