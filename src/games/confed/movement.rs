//! Rail movement (RT 5.3-5.5): the movement-point cost of moving a train along a path of
//! stations, with every modifier that depends on the map and the position, and the cheapest
//! path between two stations for "shortest to <station>" orders (Dijkstra).
//!
//! Pure: the caller passes the position ([`Position`]: an owned [`Board`], or the live game
//! state through `board::live`) and who moves ([`Mover`]). Costs that come from
//! actions rather than the path (picking up, dropping off, abandoning a load: +1 MP each, RT
//! 5.3.3) are added by the engine with [`ACTION_MP`].

use super::data::{Map, SegmentKind};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

/// +1 MP to pick up, drop off or abandon a load at a station (RT 5.3.3).
pub const ACTION_MP: u32 = 1;

/// The state of the map that movement depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Board {
    /// Union-occupied stations: never entered (RT 5.9.2).
    pub occupied: BTreeSet<usize>,
    /// Stations with a Congested marker: +2 MP to enter (RT 5.5).
    pub congested: BTreeSet<usize>,
    /// Trains present per station (other than the mover): +1 MP each to enter (RT 5.4.2).
    pub trains: BTreeMap<usize, u32>,
    /// Lines with Bad Rails: +1 MP per station entered on them (RT 7.1).
    pub bad_rails: BTreeSet<u8>,
    /// Segments with a Bridge Disruption or Ripped Up! marker: impassable (RT 5.3).
    pub blocked: BTreeSet<usize>,
    /// Unbuilt segments completed by their construction event (RT 7.10, 7.11).
    pub built: BTreeSet<usize>,
}

/// What movement reads off the position. [`Board`] holds it as sets (tests, path searches that
/// cross the whole map); the game's own state answers it in place (`board::live`), so that
/// checking one step builds nothing.
pub trait Position {
    /// The Union occupies the station (RT 5.9.2).
    fn occupied(&self, station: usize) -> bool;
    /// The station has a Congested marker (RT 5.5).
    fn congested(&self, station: usize) -> bool;
    /// Trains in the station other than the mover (RT 5.4.2).
    fn trains(&self, station: usize) -> u32;
    /// The line has Bad Rails (RT 7.1).
    fn bad_rails(&self, line: u8) -> bool;
    /// The segment has a Bridge Disruption or Ripped Up! marker (RT 5.3).
    fn blocked(&self, segment: usize) -> bool;
    /// The unbuilt segment has been completed (RT 7.10, 7.11).
    fn built(&self, segment: usize) -> bool;
}

impl Position for Board {
    fn occupied(&self, station: usize) -> bool {
        self.occupied.contains(&station)
    }
    fn congested(&self, station: usize) -> bool {
        self.congested.contains(&station)
    }
    fn trains(&self, station: usize) -> u32 {
        self.trains.get(&station).copied().unwrap_or(0)
    }
    fn bad_rails(&self, line: u8) -> bool {
        self.bad_rails.contains(&line)
    }
    fn blocked(&self, segment: usize) -> bool {
        self.blocked.contains(&segment)
    }
    fn built(&self, segment: usize) -> bool {
        self.built.contains(&segment)
    }
}

/// A set of RRC line numbers (the game has 24; numbers 0 to 63 fit), as bits: a mover is
/// copied for every step considered, so it holds no heap data.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Lines(u64);

impl Lines {
    /// The line is in the set.
    pub fn contains(&self, line: &u8) -> bool {
        *line < 64 && self.0 & (1u64 << line) != 0
    }

    /// Adds a line (numbers above 63 cannot be held: the data has lines 1 to 24).
    pub fn insert(&mut self, line: u8) {
        if line < 64 {
            self.0 |= 1u64 << line;
        }
    }
}

impl FromIterator<u8> for Lines {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut set = Lines::default();
        set.extend(iter);
        set
    }
}

impl Extend<u8> for Lines {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for line in iter {
            self.insert(line);
        }
    }
}

/// Who moves, and what the train carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mover {
    /// The mover's RRC lines.
    pub owned: Lines,
    /// Lines whose usage fee this train has paid and not yet left (RT 5.6.2).
    pub fee_paid: Lines,
    /// The train carries no load: no fee is needed for the 1-MP base (RT 5.6.1).
    pub light: bool,
}

/// Why a move is refused, in words a player can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// A path needs a start and at least one more station.
    #[error("a move names at least two stations")]
    TooShort,
    /// Two consecutive stations are not joined by a segment.
    #[error("{0} and {1} are not joined by a line")]
    NotAdjacent(String, String),
    /// Every segment between two stations is unusable.
    #[error("the line from {0} to {1} cannot be used: {2}")]
    Impassable(String, String, &'static str),
    /// The station is Union-occupied.
    #[error("{0} is occupied by the Union and may not be entered (RT 5.9.2)")]
    Occupied(String),
}

/// One station entered: on which line, at what cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The station entered.
    pub station: usize,
    /// The segment used.
    pub segment: usize,
    /// The line the segment was travelled as.
    pub line: u8,
    /// Movement points spent entering it.
    pub cost: u32,
}

/// A costed route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The station the train starts in.
    pub start: usize,
    /// The stations entered, in order.
    pub steps: Vec<Step>,
    /// The total movement points.
    pub cost: u32,
}

impl Route {
    /// The station names, start first.
    pub fn names<'m>(&self, map: &'m Map) -> Vec<&'m str> {
        std::iter::once(self.start)
            .chain(self.steps.iter().map(|s| s.station))
            .map(|i| map.stations.get(i).map(|s| s.name.as_str()).unwrap_or("?"))
            .collect()
    }
}

fn why_blocked<B: Position + ?Sized>(map: &Map, board: &B, seg: usize) -> Option<&'static str> {
    let s = map.segments.get(seg)?;
    if matches!(s.kind, SegmentKind::Unbuilt { .. }) && !board.built(seg) {
        Some("it is not built yet (RT 2.1.1)")
    } else if board.blocked(seg) {
        Some("it is disrupted or ripped up (RT 5.3)")
    } else {
        None
    }
}

/// The cost of entering `to` over segment `seg` travelled as `line`, coming from a segment of
/// `prev_line` (None at the start of a move: RULING F5). None if the step is not allowed.
pub fn step_cost<B: Position + ?Sized>(
    map: &Map,
    board: &B,
    mover: &Mover,
    seg: usize,
    to: usize,
    line: u8,
    prev_line: Option<u8>,
) -> Option<u32> {
    if why_blocked(map, board, seg).is_some() || board.occupied(to) {
        return None;
    }
    let s = map.segments.get(seg)?;
    let station = map.stations.get(to)?;
    if !s.owners.contains(&line) {
        return None;
    }
    // RT 5.3.3 / 5.6: 1 MP on own line, with the fee paid, or travelling light; 2 MP otherwise;
    // ferries and overland transfers belong to their line like rail (RULING F8).
    // RT 5.3.3 note: a station shared with one of the mover's lines counts as his (RULING F4).
    let own = mover.owned.contains(&line)
        || mover.fee_paid.contains(&line)
        || station.lines.iter().any(|l| mover.owned.contains(l));
    let mut cost = if own || mover.light { 1 } else { 2 };
    // RT 5.3.3: +1 for a ferry, +2 for an overland transfer; RULING F1: the Cape Fear ferry
    // of the 5.3.4 example +2 (the map data says so).
    cost += s.crossing_mp;
    if board.congested(to) {
        cost += 2; // RT 5.5
    }
    if board.bad_rails(line) {
        cost += 1; // RT 7.1
    }
    cost += board.trains(to); // RT 5.4.2, RULING F7.
    // RT 5.3.4: entering a station wholly of another RRC than the one just travelled (RULING F2)
    if prev_line.is_some_and(|p| !station.lines.contains(&p)) {
        cost += 1;
    }
    Some(cost)
}

/// The cost of moving along `path` (station ids, start first), choosing for each step the
/// cheapest of its segments and lines (RULING F3). `start_line` is the line the train arrived on, if any.
pub fn path_cost<B: Position + ?Sized>(
    map: &Map,
    board: &B,
    mover: &Mover,
    start_line: Option<u8>,
    path: &[usize],
) -> Result<Route, MoveError> {
    let name = |i: usize| map.stations.get(i).map(|s| s.name.clone()).unwrap_or_default();
    let (&start, rest) = path.split_first().ok_or(MoveError::TooShort)?;
    if rest.is_empty() {
        return Err(MoveError::TooShort);
    }
    // Best route so far per line travelled last: a tiny dynamic programme over the path.
    let mut best: BTreeMap<Option<u8>, Route> = BTreeMap::new();
    best.insert(start_line, Route { start, steps: Vec::new(), cost: 0 });
    let mut at = start;
    for &to in rest {
        if board.occupied(to) {
            return Err(MoveError::Occupied(name(to)));
        }
        let segs = map.segments_between(at, to);
        if segs.is_empty() {
            return Err(MoveError::NotAdjacent(name(at), name(to)));
        }
        let mut next: BTreeMap<Option<u8>, Route> = BTreeMap::new();
        for (prev, route) in &best {
            for &seg in &segs {
                for &line in map.segments.get(seg).map(|s| s.owners.as_slice()).unwrap_or(&[]) {
                    if let Some(c) = step_cost(map, board, mover, seg, to, line, *prev) {
                        let cost = route.cost + c;
                        if next.get(&Some(line)).is_none_or(|r| cost < r.cost) {
                            let mut r = route.clone();
                            r.steps.push(Step { station: to, segment: seg, line, cost: c });
                            r.cost = cost;
                            next.insert(Some(line), r);
                        }
                    }
                }
            }
        }
        if next.is_empty() {
            let why = segs.iter().find_map(|s| why_blocked(map, board, *s)).unwrap_or("no usable line");
            return Err(MoveError::Impassable(name(at), name(to), why));
        }
        best = next;
        at = to;
    }
    best.into_values().min_by_key(|r| r.cost).ok_or(MoveError::TooShort)
}

/// The cheapest route from `from` to `to` in movement points (Dijkstra over station and line
/// last travelled), or None if `to` cannot be reached. Ties go to the route found first, which
/// is deterministic (RULING F6).
pub fn cheapest_path<B: Position + ?Sized>(
    map: &Map,
    board: &B,
    mover: &Mover,
    start_line: Option<u8>,
    from: usize,
    to: usize,
) -> Option<Route> {
    if from == to || board.occupied(to) {
        return None;
    }
    type State = (usize, Option<u8>);
    let mut dist: BTreeMap<State, u32> = BTreeMap::new();
    let mut back: BTreeMap<State, (State, Step)> = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    dist.insert((from, start_line), 0);
    heap.push(Reverse((0u32, from, start_line)));
    while let Some(Reverse((d, at, line))) = heap.pop() {
        if dist.get(&(at, line)).is_some_and(|best| d > *best) {
            continue;
        }
        if at == to {
            let mut steps = Vec::new();
            let mut state = (at, line);
            while let Some((prev, step)) = back.get(&state) {
                steps.push(*step);
                state = *prev;
            }
            steps.reverse();
            return Some(Route { start: from, steps, cost: d });
        }
        for &seg in map.segments_at(at) {
            let Some(s) = map.segments.get(seg) else { continue };
            let Some(next) = s.other(at) else { continue };
            for &l in &s.owners {
                let Some(c) = step_cost(map, board, mover, seg, next, l, line) else { continue };
                let state = (next, Some(l));
                let nd = d + c;
                if dist.get(&state).is_none_or(|old| nd < *old) {
                    dist.insert(state, nd);
                    back.insert(state, ((at, line), Step { station: next, segment: seg, line: l, cost: c }));
                    heap.push(Reverse((nd, next, Some(l))));
                }
            }
        }
    }
    None
}
