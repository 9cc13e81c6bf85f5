//! Where a company may build (FACTS §7.4, RR §18.3; HR 8; RULINGS K27, K28): the hex sides its
//! track reaches from outside a hex, the hexes of its stations and its home hex before its first
//! station. Computed once from the board as it is, so that every candidate lay is judged without
//! building the board again.
//!
//! Why the board before the lay suffices: a walk that reaches the new tile enters its hex for
//! the first time across one of its sides, along track outside that hex, which the lay does not
//! change; and the new tile keeps every old path (K29), so nothing reached before is lost.

use super::graph::{End, Graph};
use super::reach::reach;
use super::state::BoardState;
use crate::games::r1835::data::{Data, Phase, neighbour};
use std::collections::{BTreeMap, BTreeSet};

/// A company's access to the board.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// (hex, map side): track the company reaches leads to this side of the hex from the
    /// neighbouring hex.
    pub open: BTreeSet<(String, u8)>,
    /// Hexes holding one of its stations, or its home hex while it has none (HR 8).
    pub own: BTreeSet<String>,
}

impl Access {
    /// The access of `company` on `board` in `phase`; `None` when the track graph's hex sides
    /// cannot be told apart (see `side_names`).
    pub fn of(data: &Data, board: &BoardState, phase: &Phase, company: &str) -> Option<Access> {
        let g = Graph::build(data, board, phase);
        let names = side_names(data, board, &g)?;
        let mut access = Access::default();
        for (side, from) in &reach(&g, company).sides {
            let Some(s) = names.get(&(*side, *from)) else { continue };
            let Some(hex) = g.hexes.get(usize::from(*from)) else { continue };
            if let Some(n) = neighbour(hex, *s) {
                access.open.insert((n, (s + 3) % 6));
            }
        }
        access.own = board
            .tokens
            .iter()
            .filter(|(_, ts)| ts.iter().any(|t| t.company == company))
            .map(|(h, _)| h.clone())
            .collect();
        if access.own.is_empty() {
            access.own.extend(home_hex(data, company));
        }
        Some(access)
    }

    /// Hexes a new tile may be connected on: those with an open side, and the own hexes.
    pub fn hexes(&self) -> BTreeSet<&str> {
        self.open.iter().map(|(h, _)| h.as_str()).chain(self.own.iter().map(String::as_str)).collect()
    }

    /// Whether a tile on `at` with track to the given map sides is connected: the hex is one of
    /// the company's own, or one of the sides is open to it (RULINGS K27).
    pub fn allows(&self, at: &str, exits: &[u8]) -> bool {
        self.own.contains(at) || exits.iter().any(|s| self.open.contains(&(at.to_string(), *s)))
    }
}

/// The home hex of a share company or minor.
pub fn home_hex(data: &Data, company: &str) -> Option<String> {
    let majors = data.majors.iter().map(|m| (&m.id, &m.home));
    majors.chain(data.minors.iter().map(|m| (&m.id, &m.home))).find(|m| m.0 == company).map(|m| m.1.clone())
}

/// For each (graph side, hex) where a path of the hex ends, the map side of that hex. The graph
/// adds a hex's paths in the order of its tile (each stop's exits, then the plain track; a
/// closed off-board adds none), so the n-th path of a hex is the n-th entry of that list. A hex
/// whose path count differs from its tile's gives `None` rather than a guess.
pub fn side_names(data: &Data, board: &BoardState, g: &Graph) -> Option<BTreeMap<(u16, u16), u8>> {
    let mut by_hex: Vec<Vec<usize>> = vec![Vec::new(); g.hexes.len()];
    for (i, p) in g.paths.iter().enumerate() {
        by_hex.get_mut(usize::from(p.hex))?.push(i);
    }
    let mut names = BTreeMap::new();
    for (h, paths) in by_hex.iter().enumerate() {
        let hex = u16::try_from(h).ok()?;
        let (_, tile, rot) = board.tile_at(data, g.hexes.get(h)?)?;
        let closed =
            |i: usize| g.stops.iter().any(|s| s.hex == g.hexes[h] && usize::from(s.index) == i && s.closed);
        let mut expected: Vec<(Option<u8>, u8)> = Vec::new();
        for (_, s) in tile.stops.iter().enumerate().filter(|(i, _)| !closed(*i)) {
            expected.extend(s.exits.iter().map(|e| (None, (e + rot) % 6)));
        }
        expected.extend(tile.track.iter().map(|[a, b]| (Some((a + rot) % 6), (b + rot) % 6)));
        if expected.len() != paths.len() {
            return None;
        }
        for (&p, (a, b)) in paths.iter().zip(expected) {
            let path = g.paths.get(p)?;
            for (end, side) in [(path.a, a), (path.b, Some(b))] {
                if let (End::Side(x), Some(side)) = (end, side)
                    && *names.entry((x, hex)).or_insert(side) != side
                {
                    return None;
                }
            }
        }
    }
    Some(names)
}
