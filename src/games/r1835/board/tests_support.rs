//! Test support: dense late-game boards built at random from the real map and tiles (every
//! buildable hex upgraded along its tile family, each tile turned to lead onto the map, cities
//! filled with tokens). The benchmark's fixtures are such boards.

use super::graph::{End, Graph};
use super::state::BoardState;
use crate::games::r1835::data::{Data, neighbour};

/// A small deterministic generator (xorshift), for test boards only.
pub(super) struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

pub(super) const COMPANIES: [&str; 8] = ["BY", "SX", "BA", "WT", "HE", "PR", "MS", "OL"];

/// A board where every buildable hex carries a tile `depth` steps up its family (brown where the
/// family has one when `depth` is 3), and cities' circles are filled with tokens at random.
pub(super) fn dense_board(d: &Data, seed: u64, depth: usize) -> BoardState {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut b = BoardState::default();
    for hex in &d.hexes {
        let Some(pre) = d.preprinted_tile(&hex.tile) else { continue };
        let mut id = None;
        let mut ups = pre.upgrades.clone();
        for _ in 0..depth {
            if ups.is_empty() {
                break;
            }
            let next = ups[rng.below(ups.len())].clone();
            ups = d.tiles.iter().find(|t| t.id == next).map(|t| t.upgrades.clone()).unwrap_or_default();
            id = Some(next);
        }
        let Some(id) = id else { continue };
        let Some(t) = d.tiles.iter().find(|t| t.id == id) else { continue };
        let ends: Vec<u8> =
            t.stops.iter().flat_map(|s| s.exits.clone()).chain(t.track.iter().flatten().copied()).collect();
        let score = |r: u8| -> i32 {
            ends.iter()
                .map(|e| {
                    let side = (e + r) % 6;
                    let Some(n) = neighbour(&hex.at, side).and_then(|n| d.hex(&n)) else { return -10 };
                    let barrier = d
                        .barriers
                        .iter()
                        .any(|[x, y]| (x == &hex.at && y == &n.at) || (y == &hex.at && x == &n.at));
                    let printed = d.preprinted_tile(&n.tile);
                    let fixed = printed.is_some_and(|p| ["fixed", "red"].contains(&p.colour.as_str()));
                    let open = printed.is_some_and(|p| {
                        let back = (side + 3 + 6 - n.rotation % 6) % 6;
                        p.stops.iter().any(|s| s.exits.contains(&back))
                            || p.track.iter().flatten().any(|x| *x == back)
                    });
                    if barrier || (fixed && !open) { -10 } else { 1 }
                })
                .sum()
        };
        let top = (0..6).map(score).max().unwrap_or(0);
        let best: Vec<u8> = (0..6).filter(|r| score(*r) == top).collect();
        let rot = best[rng.below(best.len())];
        b.lay(d, &hex.at, &id, rot).expect("a tile of the family");
    }
    for hex in &d.hexes {
        let Some((_, t, _)) = b.tile_at(d, &hex.at) else { continue };
        for (i, s) in t.stops.iter().enumerate().filter(|(_, s)| s.kind == "city") {
            for _ in 0..s.slots {
                if rng.below(10) < 6 {
                    let c = COMPANIES[rng.below(COMPANIES.len())];
                    let stop = u8::try_from(i).unwrap_or(0);
                    let bank = s.ferry.as_ref().map_or(0, |_| u8::try_from(rng.below(2)).unwrap_or(0));
                    // A company already there, or a full city: the circle stays empty.
                    let _ = b.place_token(d, &hex.at, stop, c, bank);
                }
            }
        }
    }
    b
}

/// A random walk over the graph from one of the company's stations, as a list of stops: a route
/// that may or may not be legal.
pub(super) fn random_walk(g: &Graph, company: &str, rng: &mut Rng, steps: usize) -> Vec<u16> {
    let starts: Vec<u16> = (0..g.stops.len())
        .filter(|i| g.stops[*i].has_token(company))
        .filter_map(|i| u16::try_from(i).ok())
        .collect();
    if starts.is_empty() {
        return Vec::new();
    }
    let mut at = End::Stop(starts[rng.below(starts.len())]);
    let mut stops = vec![];
    if let End::Stop(s) = at {
        stops.push(s);
    }
    let mut via: Option<u32> = None;
    for _ in 0..steps {
        let list = match at {
            End::Stop(s) => &g.at_stop[usize::from(s)],
            End::Side(x) => &g.at_side[usize::from(x)],
        };
        let next: Vec<u32> = list
            .iter()
            .copied()
            .filter(|p| {
                Some(*p) != via
                    && via.is_none_or(|v| {
                        !matches!(at, End::Side(_)) || g.paths[v as usize].hex != g.paths[*p as usize].hex
                    })
            })
            .collect();
        if next.is_empty() {
            break;
        }
        let p = next[rng.below(next.len())];
        at = g.paths[p as usize].other(at);
        via = Some(p);
        if let End::Stop(s) = at {
            stops.push(s);
        }
    }
    stops
}
