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

use super::graph::Graph;
use crate::games::r1835::data::TrainType;

mod walk;

pub use walk::{Prune, enumerate, enumerate_pruned, enumerate_table};

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
