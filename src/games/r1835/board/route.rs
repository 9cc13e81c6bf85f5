//! Routes: walks over the track graph from stop to stop, their value, and the enumeration of
//! every legal route of a company (FACTS §10).
//!
//! A route is legal when it follows continuous track, visits at least two stops, includes a stop
//! with the company's token, counts every stop it passes (none skipped), visits no stop twice and
//! only one city of Berlin (or one hex of an off-board area), passes through no off-board and no
//! city filled by other companies (those only as an end), uses no track path twice and crosses
//! no hex side twice (RULINGS K20), and fits its train: an N-train counts N stops, towns
//! included; an N+N-train N large stops (cities, off-boards) and N towns (HR 4 via the data:
//! Schwerin and Oldenburg are cities).

use super::graph::{End, Graph};
use crate::games::r1835::data::TrainType;

/// A set of track paths (or sides, or stops) as bits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bits(Vec<u64>);

impl Bits {
    /// An empty set for `n` elements.
    pub fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64).max(1)])
    }
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    pub fn set(&mut self, i: usize, on: bool) {
        let bit = 1u64 << (i % 64);
        if on { self.0[i / 64] |= bit } else { self.0[i / 64] &= !bit }
    }
    /// The set as 64-bit words (element `i` is bit `i % 64` of word `i / 64`).
    pub fn words(&self) -> &[u64] {
        &self.0
    }
    /// No element in common with a set given as words.
    pub fn disjoint(&self, other: &[u64]) -> bool {
        self.0.iter().zip(other).all(|(a, b)| a & b == 0)
    }
    /// Adds (or, with `on = false`, removes) every element of a set given as words.
    pub fn merge(&mut self, other: &[u64], on: bool) {
        for (a, b) in self.0.iter_mut().zip(other) {
            if on { *a |= b } else { *a &= !b }
        }
    }
}

/// A route: its stops in travel order, the track paths in travel order, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub stops: Vec<u16>,
    pub paths: Vec<u32>,
    pub value: i64,
    /// Large stops (cities, off-boards) and towns.
    pub large: u8,
    pub small: u8,
    /// The paths as a set, to test that trains share no track.
    pub track: Bits,
}

impl Route {
    /// Whether a train may run this route (FACTS §10, RR §20.2).
    pub fn fits(&self, train: &TrainType) -> bool {
        fits(train, self.large, self.small)
    }
    /// The stops as players name them, joined by dashes (`A11-C11-D8`).
    pub fn describe(&self, g: &Graph) -> String {
        self.stops.iter().map(|s| g.stop_label(*s)).collect::<Vec<_>>().join("-")
    }
}

/// Whether `large` large stops and `small` towns fit a train: N-trains count towns as stops,
/// N+N-trains count N large stops and N towns.
pub fn fits(train: &TrainType, large: u8, small: u8) -> bool {
    if train.towns > 0 {
        large <= train.cities && small <= train.towns
    } else {
        large + small <= train.cities
    }
}

/// The value of one visit of a stop, given the paths by which the route arrives and leaves.
/// HR 3 (brown Hamburg): 10 less when the run crosses the Elbe by the ferry — when it arrives
/// on one bank and leaves by the other; at an end of the run, when the company has a station
/// there but none on the bank the run leaves (or arrives) by. A company without a station in
/// Hamburg that ends its run there needs no ferry (RULINGS K22).
pub fn stop_value(g: &Graph, company: &str, stop: u16, arrive: Option<u32>, leave: Option<u32>) -> i64 {
    let s = &g.stops[usize::from(stop)];
    let Some(toll) = s.ferry_toll else { return s.value };
    let bank = |p: u32| g.paths[p as usize].bank;
    let crosses = match (arrive, leave) {
        (Some(a), Some(b)) => bank(a) != bank(b),
        (Some(p), None) | (None, Some(p)) => {
            s.has_token(company) && !s.tokens.iter().any(|(c, b)| c == company && *b == bank(p))
        }
        (None, None) => false,
    };
    if crosses { s.value - toll } else { s.value }
}

/// The value of a whole route from its stops and the path index at which each is reached.
pub fn route_value(g: &Graph, company: &str, stops: &[(u16, usize)], paths: &[u32]) -> i64 {
    stops
        .iter()
        .map(|(s, at)| {
            let arrive = at.checked_sub(1).map(|i| paths[i]);
            stop_value(g, company, *s, arrive, paths.get(*at).copied())
        })
        .sum()
}

/// The largest capacity over a set of trains: large stops, towns, all stops.
#[derive(Debug, Clone, Copy)]
struct Limits {
    large: u8,
    small: u8,
    total: u8,
}

impl Limits {
    fn of(trains: &[TrainType]) -> Limits {
        let mut l = Limits { large: 0, small: 0, total: 0 };
        for t in trains {
            l.large = l.large.max(t.cities);
            l.small = l.small.max(if t.towns > 0 { t.towns } else { t.cities });
            l.total = l.total.max(t.cities + t.towns);
        }
        l
    }
    fn allows(&self, large: u8, small: u8) -> bool {
        large <= self.large && small <= self.small && large + small <= self.total
    }
}

/// One direction of a walk from the starting token.
#[derive(Debug, Clone, Default)]
struct Half {
    paths: Vec<u32>,
    /// Stops reached, with the number of paths walked when reached.
    stops: Vec<(u16, usize)>,
}

/// Every legal route of a company, stored compactly: per route its value, stop counts, track
/// (as bit words, `words` per route) and its paths and stops in flat arrays. Enumerating into
/// one table costs no allocation per route; `Route`s are made only for the routes asked for.
#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    words: usize,
    values: Vec<i64>,
    counts: Vec<(u8, u8)>,
    track: Vec<u64>,
    /// Route `i`'s paths are `paths[path_end[i - 1]..path_end[i]]`; stops alike.
    paths: Vec<u32>,
    path_end: Vec<usize>,
    stops: Vec<u16>,
    stop_end: Vec<usize>,
}

impl RouteTable {
    /// The number of routes.
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// Whether there is no route.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// Route `i`'s value.
    pub fn value(&self, i: usize) -> i64 {
        self.values[i]
    }
    /// Route `i`'s track paths as bit words.
    pub fn track(&self, i: usize) -> &[u64] {
        &self.track[i * self.words..(i + 1) * self.words]
    }
    /// Whether a train may run route `i`.
    pub fn fits(&self, i: usize, train: &TrainType) -> bool {
        let (large, small) = self.counts[i];
        fits(train, large, small)
    }
    /// Route `i` as a `Route`.
    pub fn route(&self, i: usize) -> Route {
        let from = |ends: &[usize]| i.checked_sub(1).map_or(0, |j| ends[j]);
        let (large, small) = self.counts[i];
        let track = Bits(self.track(i).to_vec());
        Route {
            stops: self.stops[from(&self.stop_end)..self.stop_end[i]].to_vec(),
            paths: self.paths[from(&self.path_end)..self.path_end[i]].to_vec(),
            value: self.values[i],
            large,
            small,
            track,
        }
    }
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
    first: Half,
    second: Half,
    /// The stops of the route being recorded, with their path index (reused).
    visits: Vec<(u16, usize)>,
    out: RouteTable,
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
    let used_paths = Bits::new(g.paths.len());
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
        first: Half::default(),
        second: Half::default(),
        visits: Vec::new(),
        out: RouteTable { words, ..RouteTable::default() },
    };
    let starts: Vec<u16> = (0..g.stops.len())
        .filter(|i| g.stops[*i].has_token(company) && !g.at_stop[*i].is_empty())
        .filter_map(|i| u16::try_from(i).ok())
        .collect();
    for t in starts {
        s.start = t;
        if s.enter(t) {
            s.walk(End::Stop(t), None, false);
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
        true
    }

    fn leave(&mut self, stop: u16) {
        let n = &self.g.stops[usize::from(stop)];
        self.visited.set(usize::from(stop), false);
        if n.exclusive.is_some() {
            self.exclusive.pop();
        }
        if n.large() { self.large -= 1 } else { self.small -= 1 }
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
                        if second {
                            if g.stops[usize::from(t)].passable(self.company) {
                                self.walk(End::Stop(t), Some(p), true);
                            }
                        } else {
                            self.walk(End::Stop(self.start), None, true);
                            if g.stops[usize::from(t)].passable(self.company) {
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

    /// Records the current route if it fits a train: the second half reversed, the start, the
    /// first half. Its track is the set of paths in use.
    fn emit(&mut self) {
        if !self.trains.iter().any(|t| fits(t, self.large, self.small)) {
            return;
        }
        let (a, b, out) = (&self.first, &self.second, &mut self.out);
        let from = out.paths.len();
        out.paths.extend(b.paths.iter().rev().chain(&a.paths));
        let nb = b.paths.len();
        self.visits.clear();
        self.visits.extend(b.stops.iter().rev().map(|(s, at)| (*s, nb - at)));
        self.visits.push((self.start, nb));
        self.visits.extend(a.stops.iter().map(|(s, at)| (*s, nb + at)));
        out.values.push(route_value(self.g, self.company, &self.visits, &out.paths[from..]));
        out.path_end.push(out.paths.len());
        out.stops.extend(self.visits.iter().map(|(s, _)| *s));
        out.stop_end.push(out.stops.len());
        out.counts.push((self.large, self.small));
        out.track.extend_from_slice(&self.used_paths.0);
    }
}
