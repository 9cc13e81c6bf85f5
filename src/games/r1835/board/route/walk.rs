//! The depth-first walk that enumerates a company's routes (FACTS §10) into a `RouteTable`:
//! from each token city, a first half of the route and, at each of its stops, a second half
//! from the same city. With a floor and the hop bound (`Prune`), walks that cannot reach the
//! floor are cut (RULINGS K25).

use super::{Bits, Limits, Route, RouteTable, fits, route_value};
use crate::games::r1835::board::graph::{End, Graph, Hops};
use crate::games::r1835::data::TrainType;

/// One direction of a walk from the starting token.
#[derive(Debug, Clone, Default)]
struct Half {
    paths: Vec<u32>,
    /// Stops reached, with the number of paths walked when reached.
    stops: Vec<(u16, usize)>,
}

struct Search<'g> {
    g: &'g Graph,
    company: &'g str,
    trains: &'g [TrainType],
    limits: Limits,
    start: u16,
    used_paths: Bits,
    used_sides: Bits,
    visited: Bits,
    exclusive: Vec<u16>,
    large: u8,
    small: u8,
    /// The stops visited, each at its full value (no ferry toll): at least the route's value.
    raw: i64,
    first: Half,
    second: Half,
    /// The stops of the route being recorded, with their path index (reused).
    visits: Vec<(u16, usize)>,
    /// The paths of the route being recorded (reused).
    route: Vec<u32>,
    prune: Prune<'g>,
    out: RouteTable,
}

/// What a route search keeps: routes worth at least `floor`, and with `hops` it cuts every walk
/// that cannot reach the floor any more (RULINGS K25). With `raise` the floor rises above each
/// route kept, so the last route kept is a best one. `forbidden` paths are taken by other
/// trains: no route uses them.
#[derive(Debug, Clone, Copy)]
pub struct Prune<'a> {
    pub hops: Option<&'a Hops>,
    pub floor: i64,
    pub raise: bool,
    pub forbidden: Option<&'a Bits>,
}

impl Prune<'_> {
    /// Every route, nothing cut.
    pub const ALL: Prune<'static> = Prune { hops: None, floor: i64::MIN, raise: false, forbidden: None };
}

/// Every legal route of a company that fits at least one of its trains (each once, in one
/// direction). Routes are found from the company's token cities, each route from the first
/// token city it contains.
pub fn enumerate(g: &Graph, company: &str, trains: &[TrainType]) -> Vec<Route> {
    let table = enumerate_table(g, company, trains);
    (0..table.len()).map(|i| table.route(i)).collect()
}

/// `enumerate` into a compact table.
pub fn enumerate_table(g: &Graph, company: &str, trains: &[TrainType]) -> RouteTable {
    enumerate_pruned(g, company, trains, Prune::ALL)
}

/// The routes of a company that fit one of `trains` and that `prune` keeps.
pub fn enumerate_pruned(g: &Graph, company: &str, trains: &[TrainType], prune: Prune<'_>) -> RouteTable {
    let used_paths = prune.forbidden.cloned().unwrap_or_else(|| Bits::new(g.paths.len()));
    let words = used_paths.0.len();
    let mut s = Search {
        g,
        company,
        trains,
        limits: Limits::of(trains),
        start: 0,
        used_paths,
        used_sides: Bits::new(g.at_side.len()),
        visited: Bits::new(g.stops.len()),
        exclusive: Vec::new(),
        large: 0,
        small: 0,
        raw: 0,
        first: Half::default(),
        second: Half::default(),
        visits: Vec::new(),
        route: Vec::new(),
        prune,
        out: RouteTable { words, ..RouteTable::default() },
    };
    let starts: Vec<u16> = (0..g.stops.len())
        .filter(|i| g.stops[*i].has_token(company) && !g.at_stop[*i].is_empty())
        .filter_map(|i| u16::try_from(i).ok())
        .collect();
    for t in starts {
        s.start = t;
        if s.enter(t) {
            if s.promising(&[t]) {
                s.walk(End::Stop(t), None, false);
            }
            s.leave(t);
        }
    }
    s.out
}

impl Search<'_> {
    fn half(&mut self, second: bool) -> &mut Half {
        if second { &mut self.second } else { &mut self.first }
    }

    /// Marks a stop visited if the route may visit it; false if it may not.
    fn enter(&mut self, stop: u16) -> bool {
        let n = &self.g.stops[usize::from(stop)];
        let (large, small) =
            if n.large() { (self.large + 1, self.small) } else { (self.large, self.small + 1) };
        // A token city before the start: the route is found from that city instead.
        let earlier_token = stop < self.start && n.has_token(self.company);
        if self.visited.get(usize::from(stop))
            || earlier_token
            || n.exclusive.is_some_and(|x| self.exclusive.contains(&x))
            || !self.limits.allows(large, small)
        {
            return false;
        }
        self.visited.set(usize::from(stop), true);
        self.exclusive.extend(n.exclusive);
        (self.large, self.small) = (large, small);
        self.raw += n.value;
        true
    }

    fn leave(&mut self, stop: u16) {
        let n = &self.g.stops[usize::from(stop)];
        self.visited.set(usize::from(stop), false);
        if n.exclusive.is_some() {
            self.exclusive.pop();
        }
        if n.large() {
            self.large -= 1
        } else {
            self.small -= 1
        }
        self.raw -= n.value;
    }

    /// Whether a longer route, going on from `ends`, may still be worth the floor: the stops
    /// visited at full value plus the best stops not visited that are near enough to an end
    /// (within as many hops as the trains have stops left) and that the trains have room for.
    /// Never less than any such route is worth, so a walk cut here loses no route the floor
    /// keeps (RULINGS K25).
    fn promising(&self, ends: &[u16]) -> bool {
        let Some(hops) = self.prune.hops else { return true };
        let left = self.limits.total.saturating_sub(self.large + self.small);
        if left == 0 || ends.is_empty() {
            return false;
        }
        let (mut large, mut small) =
            (self.limits.large.saturating_sub(self.large), self.limits.small.saturating_sub(self.small));
        let (mut sum, mut room, mut groups) = (self.raw, left, 0u64);
        for &s in &hops.by_value {
            if sum >= self.prune.floor || room == 0 {
                break;
            }
            let n = &self.g.stops[usize::from(s)];
            let slot = if n.large() { &mut large } else { &mut small };
            if *slot == 0
                || self.visited.get(usize::from(s))
                || !ends.iter().any(|e| hops.between(*e, s) <= left)
                || n.exclusive
                    .is_some_and(|x| self.exclusive.contains(&x) || (x < 64 && groups >> x & 1 == 1))
            {
                continue;
            }
            *slot -= 1;
            room -= 1;
            sum += n.value;
            groups |= n.exclusive.filter(|x| *x < 64).map_or(0, |x| 1 << x);
        }
        sum >= self.prune.floor
    }

    /// Walks on from `at`, reached by path `via` (None at the start of a half).
    fn walk(&mut self, at: End, via: Option<u32>, second: bool) {
        let g = self.g;
        let list = match at {
            End::Stop(s) => &g.at_stop[usize::from(s)],
            End::Side(x) => &g.at_side[usize::from(x)],
        };
        for &p in list {
            let path = &g.paths[p as usize];
            if self.used_paths.get(p as usize) {
                continue;
            }
            match (at, via) {
                // At a side the route crosses into the other hex.
                (End::Side(_), Some(v)) if g.paths[v as usize].hex == path.hex => continue,
                // The second half leaves the start by a path of higher number than the first.
                (End::Stop(_), None) if second && self.first.paths.first().is_some_and(|f| p <= *f) => {
                    continue;
                }
                _ => {}
            }
            self.used_paths.set(p as usize, true);
            self.half(second).paths.push(p);
            match path.other(at) {
                End::Side(x) if !self.used_sides.get(usize::from(x)) => {
                    self.used_sides.set(usize::from(x), true);
                    self.walk(End::Side(x), Some(p), second);
                    self.used_sides.set(usize::from(x), false);
                }
                End::Side(_) => {}
                End::Stop(t) => {
                    if self.enter(t) {
                        let len = self.half(second).paths.len();
                        self.half(second).stops.push((t, len));
                        self.emit();
                        let on = g.stops[usize::from(t)].passable(self.company);
                        if second {
                            if on && self.promising(&[t]) {
                                self.walk(End::Stop(t), Some(p), true);
                            }
                        } else {
                            if self.promising(&[self.start]) {
                                self.walk(End::Stop(self.start), None, true);
                            }
                            if on && self.promising(&[t, self.start]) {
                                self.walk(End::Stop(t), Some(p), false);
                            }
                        }
                        self.half(second).stops.pop();
                        self.leave(t);
                    }
                }
            }
            self.half(second).paths.pop();
            self.used_paths.set(p as usize, false);
        }
    }

    /// Records the current route if it fits a train and is worth the floor: the second half
    /// reversed, the start, the first half. Its track is the set of paths in use but the
    /// forbidden ones.
    fn emit(&mut self) {
        if self.raw < self.prune.floor || !self.trains.iter().any(|t| fits(t, self.large, self.small)) {
            return;
        }
        let (a, b) = (&self.first, &self.second);
        self.route.clear();
        self.route.extend(b.paths.iter().rev().chain(&a.paths));
        let nb = b.paths.len();
        self.visits.clear();
        self.visits.extend(b.stops.iter().rev().map(|(s, at)| (*s, nb - at)));
        self.visits.push((self.start, nb));
        self.visits.extend(a.stops.iter().map(|(s, at)| (*s, nb + at)));
        let value = route_value(self.g, self.company, &self.visits, &self.route);
        if value < self.prune.floor {
            return;
        }
        if self.prune.raise {
            self.prune.floor = value.saturating_add(1);
        }
        let out = &mut self.out;
        out.values.push(value);
        out.paths.extend_from_slice(&self.route);
        out.path_end.push(out.paths.len());
        out.stops.extend(self.visits.iter().map(|(s, _)| *s));
        out.stop_end.push(out.stops.len());
        out.counts.push((self.large, self.small));
        let forbidden = self.prune.forbidden.map(Bits::words).unwrap_or_default();
        out.track
            .extend(self.used_paths.0.iter().enumerate().map(|(i, w)| w & !forbidden.get(i).unwrap_or(&0)));
    }
}
