//! For HR 17: a company's legal lays ranked so that an impossible ordered lay can be replaced —
//! each with the optimal revenue the company's trains would earn this turn after it, and its
//! progress toward a named hex (RULINGS K31); "same for stations": legal station placements
//! ranked the same way (RULINGS K44).

use super::graph::Graph;
use super::lay::revenue_with_tile;
use super::revenue::optimal;
use super::state::BoardState;
use super::stations::{TokenLay, Via, legal_tokens, map_distance};
use super::track::{Lay, exits, legal_lays};
use crate::games::r1835::data::{Data, Phase, TrainType, neighbour};
use std::collections::{BTreeMap, VecDeque};

/// A legal lay with what it is worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub lay: Lay,
    /// The optimal revenue this turn with the tile laid.
    pub revenue: i64,
    /// Hexes still to build from the new track's open ends to the named hex (0 = the lay is on
    /// it); `None` when no hex was named or no open end leads toward it.
    pub distance: Option<u32>,
}

/// Hexes that may carry new track: on the map, not a fixed hex or an off-board.
fn buildable(data: &Data, board: &BoardState, at: &str) -> bool {
    board.tile_at(data, at).is_some_and(|(_, t, _)| !["fixed", "red"].contains(&t.colour.as_str()))
}

/// Distance from every buildable hex to `target`, stepping across buildable hexes and never
/// across the water barrier (track distance along possible track).
fn distances(data: &Data, board: &BoardState, target: &str) -> BTreeMap<String, u32> {
    let mut seen = BTreeMap::from([(target.to_string(), 0)]);
    let mut queue = VecDeque::from([target.to_string()]);
    while let Some(at) = queue.pop_front() {
        let d = seen[&at];
        for n in (0..6).filter_map(|s| neighbour(&at, s)) {
            let barrier = data.barriers.iter().any(|[x, y]| (*x == at && *y == n) || (*y == at && *x == n));
            if !barrier && !seen.contains_key(&n) && buildable(data, board, &n) {
                seen.insert(n.clone(), d + 1);
                queue.push_back(n);
            }
        }
    }
    seen
}

/// The sides of the map a lay's new track leads to: the tile's exits the hex did not have before
/// (all of them when the lay only adds track through old exits, e.g. a city upgrade).
pub fn new_exits(data: &Data, board: &BoardState, lay: &Lay) -> Vec<u8> {
    let Some(new) = data.tiles.iter().find(|t| t.id == lay.tile) else { return Vec::new() };
    let all = exits(new, lay.rotation);
    let old = board.tile_at(data, &lay.hex).map(|(_, t, r)| exits(t, r)).unwrap_or_default();
    let fresh: Vec<u8> = all.iter().copied().filter(|e| !old.contains(e)).collect();
    if fresh.is_empty() { all } else { fresh }
}

/// Hexes still to build from a lay's new track to the target (issue 33, HR 17 B): 0 on the target,
/// else one more than the distance from the hex each new open end leads into, the nearest end
/// counting — so a track pointing away from the target is farther than one pointing at it.
fn open_end_distance(
    data: &Data,
    board: &BoardState,
    lay: &Lay,
    dist: &BTreeMap<String, u32>,
) -> Option<u32> {
    if dist.get(&lay.hex) == Some(&0) {
        return Some(0);
    }
    new_exits(data, board, lay)
        .into_iter()
        .filter_map(|side| {
            let n = neighbour(&lay.hex, side)?;
            let barrier =
                data.barriers.iter().any(|[x, y]| (*x == lay.hex && *y == n) || (*y == lay.hex && *x == n));
            if barrier { None } else { dist.get(&n).map(|d| d + 1) }
        })
        .min()
}

/// Legal lays, best first: highest revenue this turn, then nearest to `toward`, then map order
/// (RULINGS K31).
pub fn ranked_lays(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    trains: &[TrainType],
    toward: Option<&str>,
) -> Vec<Candidate> {
    let dist = toward.map(|t| distances(data, board, t));
    let mut out: Vec<Candidate> = legal_lays(data, board, phase, company)
        .into_iter()
        .filter_map(|lay| {
            let revenue =
                revenue_with_tile(data, board, phase, company, trains, (&lay.hex, &lay.tile, lay.rotation))
                    .ok()?
                    .revenue;
            let distance = dist.as_ref().and_then(|d| open_end_distance(data, board, &lay, d));
            Some(Candidate { lay, revenue, distance })
        })
        .collect();
    out.sort_by_key(|c| (std::cmp::Reverse(c.revenue), c.distance.unwrap_or(u32::MAX)));
    out
}

/// A legal station placement with what it is worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenCandidate {
    pub token: TokenLay,
    /// The optimal revenue this turn with the station placed.
    pub revenue: i64,
    /// Hexes from the station to the named hex, inside the map; `None` when no hex was named.
    pub distance: Option<u32>,
}

/// Legal placements of one kind (`via`), best first: highest revenue this turn, then nearest to
/// `toward`, then cheapest, then map order (RULINGS K44).
pub fn ranked_tokens(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    trains: &[TrainType],
    via: Via,
    toward: Option<&str>,
) -> Vec<TokenCandidate> {
    let mut out: Vec<TokenCandidate> = legal_tokens(data, board, phase, company, via)
        .into_iter()
        .filter_map(|token| {
            let mut after = board.clone();
            after.place_token(data, &token.hex, token.stop, company, token.bank).ok()?;
            let revenue = optimal(&Graph::build(data, &after, phase), company, trains).revenue;
            let distance = toward.and_then(|t| map_distance(data, &token.hex, t));
            Some(TokenCandidate { token, revenue, distance })
        })
        .collect();
    out.sort_by_key(|c| (std::cmp::Reverse(c.revenue), c.distance.unwrap_or(u32::MAX), c.token.cost));
    out
}
