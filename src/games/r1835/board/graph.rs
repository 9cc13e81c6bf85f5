//! The track graph of a board in a phase: every stop (town, city, off-board) with its value and
//! tokens, and every track path — inside one hex, from a side to a side or from a side to a stop
//! — joined across hex sides. Routes are walks over this graph (`route`, `revenue`).
//!
//! A side leads nowhere (a dead end) at the map edge, across the water barrier west of Hamburg,
//! and where the neighbouring hex has no track on that side — so track may end at a blank edge
//! of a tile but never runs into a blank side of a printed map hex (HR 7). An off-board area
//! worth nothing in the phase (Elsass-Lothringen outside phase 2) has no track: it cannot be
//! reached (FACTS §10).

use super::state::BoardState;
use crate::games::r1835::data::{Data, Phase, neighbour};
use std::collections::{BTreeMap, HashMap};

/// What kind of stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopKind {
    Town,
    City,
    Offboard,
}

/// A stop of the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopNode {
    pub hex: String,
    /// Index in the tile's `stops`.
    pub index: u8,
    pub kind: StopKind,
    /// Value in this phase (off-boards by phase, FACTS §10).
    pub value: i64,
    pub slots: u8,
    /// Tokens: (company, bank).
    pub tokens: Vec<(String, u8)>,
    /// The ferry toll of a city split by a river (HR 3).
    pub ferry_toll: Option<i64>,
    /// Stops sharing a number here may not both be visited by one route: the cities of Berlin,
    /// the hexes of one off-board area (FACTS §10, RULINGS K23).
    pub exclusive: Option<u16>,
    /// An off-board area worth nothing in this phase: no track leads there.
    pub closed: bool,
}

impl StopNode {
    /// A "large" stop for N+N trains: cities and off-boards. Schwerin and Oldenburg are cities
    /// worth 10 and so count as large (HR 4).
    pub fn large(&self) -> bool {
        self.kind != StopKind::Town
    }
    /// Whether the company has a token here.
    pub fn has_token(&self, company: &str) -> bool {
        self.tokens.iter().any(|(c, _)| c == company)
    }
    /// A route of this company may pass through (not only start or end here): not an off-board,
    /// and not a city whose circles are all filled by other companies (FACTS §10; HR 3 for
    /// Hamburg: a company with a station there may always run through across the ferry).
    pub fn passable(&self, company: &str) -> bool {
        match self.kind {
            StopKind::Town => true,
            StopKind::Offboard => false,
            StopKind::City => self.has_token(company) || self.tokens.len() < usize::from(self.slots),
        }
    }
    /// `hex` or `hex.n` (n from 1) when the hex has several stops.
    pub fn label(&self, several: bool) -> String {
        if several { format!("{}.{}", self.hex, self.index + 1) } else { self.hex.clone() }
    }
}

/// One end of a track path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    Stop(u16),
    /// A hex side, shared by the two hexes it separates.
    Side(u16),
}

/// A track path inside one hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Path {
    pub hex: u16,
    pub a: End,
    pub b: End,
    /// For a path into a city with a ferry: the bank of its exit (HR 3).
    pub bank: u8,
}

impl Path {
    /// The other end.
    pub fn other(&self, from: End) -> End {
        if self.a == from { self.b } else { self.a }
    }
}

/// The track graph.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub stops: Vec<StopNode>,
    pub paths: Vec<Path>,
    /// Paths at each stop.
    pub at_stop: Vec<Vec<u32>>,
    /// Paths at each side.
    pub at_side: Vec<Vec<u32>>,
    /// Hex coordinates by index.
    pub hexes: Vec<String>,
}

impl Graph {
    /// Builds the graph of a board in a phase.
    ///
    /// Issue 38 (the storm's engine time): hexes and sides are looked up by index — a side's key
    /// is (map index, side), the lesser of its two hexes' — where a search of the map by name for
    /// every hex and side made two thirds of a silent turn's time. Sides are numbered in the
    /// order first met, as before, so the graph is the same.
    pub fn build(data: &Data, board: &BoardState, phase: &Phase) -> Graph {
        let mut g = Graph::default();
        let mut index: HashMap<&str, u16> = HashMap::with_capacity(data.hexes.len());
        for (i, hex) in data.hexes.iter().enumerate() {
            index.entry(hex.at.as_str()).or_insert(u16::try_from(i).unwrap_or(u16::MAX));
        }
        // The side id of (map index, side), u16::MAX while not met yet.
        let mut sides: Vec<u16> = vec![u16::MAX; data.hexes.len() * 6];
        let mut exclusive: BTreeMap<String, u16> = BTreeMap::new();
        let barrier =
            |a: &str, b: &str| data.barriers.iter().any(|[x, y]| (x == a && y == b) || (x == b && y == a));
        let mut side_id = |g: &mut Graph, here: u16, at: &str, side: u8| -> u16 {
            let across =
                neighbour(at, side).filter(|n| !barrier(at, n)).and_then(|n| index.get(n.as_str()).copied());
            let (h, side) = match across {
                Some(n) => std::cmp::min((here, side), (n, (side + 3) % 6)),
                None => (here, side),
            };
            let slot = &mut sides[usize::from(h) * 6 + usize::from(side)];
            if *slot == u16::MAX {
                *slot = u16::try_from(g.at_side.len()).unwrap_or(u16::MAX);
                g.at_side.push(Vec::new());
            }
            *slot
        };
        for (here, hex) in data.hexes.iter().enumerate() {
            let Some((tile, rot)) = board.tile_on(data, hex) else { continue };
            let here = u16::try_from(here).unwrap_or(u16::MAX);
            let h = u16::try_from(g.hexes.len()).unwrap_or(u16::MAX);
            g.hexes.push(hex.at.clone());
            for (i, s) in tile.stops.iter().enumerate() {
                let kind = match s.kind.as_str() {
                    "town" => StopKind::Town,
                    "city" => StopKind::City,
                    _ => StopKind::Offboard,
                };
                let value = match (kind, hex.offboard) {
                    // FACTS §10: off-board values by phase.
                    (StopKind::Offboard, Some(v)) => v[usize::from(phase.offboard_step.clamp(1, 3) - 1)],
                    _ => s.value,
                };
                let group = match (&hex.group, hex.label.as_deref()) {
                    (Some(group), _) => Some(group.clone()),
                    (None, Some("B")) if tile.cities() > 1 => Some(hex.at.clone()),
                    _ => None,
                };
                let next = u16::try_from(exclusive.len()).unwrap_or(u16::MAX);
                let index = u8::try_from(i).unwrap_or(u8::MAX);
                let stop = u16::try_from(g.stops.len()).unwrap_or(u16::MAX);
                let closed = kind == StopKind::Offboard && value == 0;
                g.stops.push(StopNode {
                    hex: hex.at.clone(),
                    index,
                    kind,
                    value,
                    slots: s.slots,
                    tokens: board.tokens_at(&hex.at, index).map(|t| (t.company.clone(), t.bank)).collect(),
                    ferry_toll: s.ferry.as_ref().map(|f| f.toll),
                    exclusive: group.map(|k| *exclusive.entry(k).or_insert(next)),
                    closed,
                });
                g.at_stop.push(Vec::new());
                if closed {
                    continue;
                }
                for e in &s.exits {
                    let side = side_id(&mut g, here, &hex.at, (e + rot) % 6);
                    let bank = s.ferry.as_ref().map(|f| f.bank_of(*e)).unwrap_or(0);
                    g.add(Path { hex: h, a: End::Stop(stop), b: End::Side(side), bank });
                }
            }
            for [a, b] in &tile.track {
                let a = side_id(&mut g, here, &hex.at, (a + rot) % 6);
                let b = side_id(&mut g, here, &hex.at, (b + rot) % 6);
                g.add(Path { hex: h, a: End::Side(a), b: End::Side(b), bank: 0 });
            }
        }
        g
    }

    fn add(&mut self, p: Path) {
        let id = u32::try_from(self.paths.len()).unwrap_or(u32::MAX);
        for end in [p.a, p.b] {
            match end {
                End::Stop(s) => self.at_stop[usize::from(s)].push(id),
                End::Side(s) => self.at_side[usize::from(s)].push(id),
            }
        }
        self.paths.push(p);
    }

    /// The stop at `hex`, number `n` counted from 1 (`None` = the hex's only stop).
    pub fn find_stop(&self, hex: &str, n: Option<u8>) -> Option<u16> {
        let here: Vec<usize> = (0..self.stops.len()).filter(|i| self.stops[*i].hex == hex).collect();
        let i = match n {
            Some(n) => here.iter().copied().find(|i| self.stops[*i].index + 1 == n)?,
            None if here.len() == 1 => here[0],
            None => return None,
        };
        u16::try_from(i).ok()
    }

    /// A stop's name for players: `E19.2` where the hex has several stops, else `E19`.
    pub fn stop_label(&self, stop: u16) -> String {
        let s = &self.stops[usize::from(stop)];
        let several = self.stops.iter().filter(|t| t.hex == s.hex).count() > 1;
        s.label(several)
    }
}

/// How few stops a route needs to reach each stop from each other stop, for one company: the
/// bound by which the route search prunes (`route`, RULINGS K25). Two stops are one hop apart
/// when track joins them through hex sides alone; a route goes on from a stop only where the
/// company may pass through it. Track already used and the rule against crossing a side twice
/// are ignored, so the hops are never more than a real route needs.
#[derive(Debug, Clone)]
pub struct Hops {
    n: usize,
    /// `dist[a * n + b]`: hops from `a` to `b` (`u8::MAX`: unreachable).
    dist: Vec<u8>,
    /// Stops worth something, most valuable first.
    pub by_value: Vec<u16>,
}

impl Hops {
    /// The hops of a company's routes on a graph.
    pub fn new(g: &Graph, company: &str) -> Hops {
        let n = g.stops.len();
        let mut next: Vec<Vec<u16>> = vec![Vec::new(); n];
        let mut seen = vec![usize::MAX; g.at_side.len()];
        for (from, adj) in next.iter_mut().enumerate() {
            let mut sides: Vec<u16> = Vec::new();
            let mut step = |end: End, adj: &mut Vec<u16>, sides: &mut Vec<u16>| match end {
                End::Stop(t) if usize::from(t) != from && !adj.contains(&t) => adj.push(t),
                End::Side(x) if seen[usize::from(x)] != from => {
                    seen[usize::from(x)] = from;
                    sides.push(x);
                }
                _ => {}
            };
            for &p in &g.at_stop[from] {
                step(g.paths[p as usize].other(End::Stop(stop_id(from))), adj, &mut sides);
            }
            while let Some(x) = sides.pop() {
                for &p in &g.at_side[usize::from(x)] {
                    step(g.paths[p as usize].other(End::Side(x)), adj, &mut sides);
                }
            }
        }
        let mut dist = vec![u8::MAX; n * n];
        let mut queue = Vec::new();
        for a in 0..n {
            let row = &mut dist[a * n..(a + 1) * n];
            row[a] = 0;
            queue.clear();
            queue.push(a);
            let mut head = 0;
            while let Some(&u) = queue.get(head) {
                head += 1;
                if u != a && !g.stops[u].passable(company) {
                    continue;
                }
                for &t in &next[u] {
                    let t = usize::from(t);
                    if row[t] == u8::MAX {
                        row[t] = row[u].saturating_add(1);
                        queue.push(t);
                    }
                }
            }
        }
        let mut by_value: Vec<u16> = (0..n).filter(|i| g.stops[*i].value > 0).map(stop_id).collect();
        by_value.sort_by_key(|s| (std::cmp::Reverse(g.stops[usize::from(*s)].value), *s));
        Hops { n, dist, by_value }
    }

    /// Hops from stop `a` to stop `b`.
    pub fn between(&self, a: u16, b: u16) -> u8 {
        self.dist.get(usize::from(a) * self.n + usize::from(b)).copied().unwrap_or(u8::MAX)
    }
}

fn stop_id(i: usize) -> u16 {
    u16::try_from(i).unwrap_or(u16::MAX)
}
