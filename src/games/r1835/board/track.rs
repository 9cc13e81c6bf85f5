//! Tile-lay legality (FACTS §7.4, §11, §12; HR 7; RULINGS K27–K29): whether a company may lay
//! a tile on a hex with a rotation, what it costs, and every legal lay of a company. Pure: the
//! number of lays per turn, the treasury and private powers' turns are the caller's business
//! (`Lay::upgrade` and `Connection` tell it what it needs).

use super::graph::Graph;
use super::reach::reach;
use super::state::BoardState;
use crate::games::r1835::data::{Data, Phase, Tile, neighbour};
use std::collections::BTreeSet;

/// A legal lay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lay {
    pub hex: String,
    pub tile: String,
    pub rotation: u8,
    /// Terrain cost paid from the treasury (the first build on the hex only).
    pub cost: i64,
    /// Whether the lay replaces a tile with track or a stop (an upgrade) rather than building
    /// on an empty hex: phase 1 allows majors two new yellow tiles but no upgrade (FACTS §7.4).
    pub upgrade: bool,
}

/// Whether the new track must connect to the company's stations: a private's free tile
/// (OBB, PfB) is laid without a connection (FACTS §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connection {
    Required,
    Waived,
}

/// Why a lay is refused, naming the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayError {
    #[error("{0} is not a hex of the map")]
    UnknownHex(String),
    #[error("there is no tile {0} in the manifest")]
    UnknownTile(String),
    #[error("rotation {0} is not 0 to 5")]
    BadRotation(u8),
    #[error("{0} takes no tile: its track is printed on the map (or it is an off-board area)")]
    NotBuildable(String),
    #[error("{colour} tiles may not be laid in phase {phase}")]
    ColourNotYet { colour: String, phase: String },
    #[error("tile {tile} may not replace tile {on} on {hex} (colour order and the upgrade chart)")]
    NotAnUpgrade { hex: String, on: String, tile: String },
    #[error("{hex} takes only {wanted} tiles; tile {tile} is {has}")]
    WrongLabel { hex: String, tile: String, wanted: String, has: String },
    #[error("all tiles {0} are on the board")]
    NoneLeft(String),
    #[error("tile {tile} in rotation {rotation} does not keep all track of {hex}")]
    TrackLost { hex: String, tile: String, rotation: u8 },
    #[error("the track of {hex} would lead off the map or across water on its {side} side")]
    OffMap { hex: String, side: &'static str },
    #[error("the track of {hex} would run into a blank side of the printed hex {into} (house rule 7)")]
    BlankPrintedSide { hex: String, into: String },
    #[error("{company} cannot trace track from its stations to the new track on {hex}")]
    NotConnected { company: String, hex: String },
}

/// Side names for players (README "Geometry").
const SIDE_NAMES: [&str; 6] = ["north-east", "east", "south-east", "south-west", "west", "north-west"];
const ORDER: [&str; 4] = ["white", "yellow", "green", "brown"];

fn turn(s: u8, r: u8) -> u8 {
    (s + r) % 6
}

/// Checks one lay (hex, tile, rotation) and returns it with its cost (RR §18).
pub fn check_lay(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    company: &str,
    (at, tile, rotation): (&str, &str, u8),
    connection: Connection,
) -> Result<Lay, LayError> {
    let (hex, old, old_rot) = board.tile_at(data, at).ok_or_else(|| LayError::UnknownHex(at.into()))?;
    let new = data.tiles.iter().find(|t| t.id == tile).ok_or_else(|| LayError::UnknownTile(tile.into()))?;
    if rotation > 5 {
        return Err(LayError::BadRotation(rotation));
    }
    if !ORDER.contains(&old.colour.as_str()) || old.upgrades.is_empty() {
        return Err(LayError::NotBuildable(at.into()));
    }
    if !phase.tiles.contains(&new.colour) {
        return Err(LayError::ColourNotYet { colour: new.colour.clone(), phase: phase.id.clone() });
    }
    let rank = |c: &str| ORDER.iter().position(|x| *x == c);
    if !old.upgrades.contains(&new.id) || rank(&new.colour) <= rank(&old.colour) {
        return Err(LayError::NotAnUpgrade { hex: at.into(), on: old.id.clone(), tile: tile.into() });
    }
    // The city family of the hex stays (RR §18.6): Y, XX, B and HH hexes take their own tiles.
    if hex.label != new.label {
        let name = |l: &Option<String>| l.clone().unwrap_or_else(|| "plain".into());
        return Err(LayError::WrongLabel {
            hex: at.into(),
            tile: tile.into(),
            wanted: name(&hex.label),
            has: name(&new.label),
        });
    }
    let in_use = board.tiles.values().filter(|l| l.tile == new.id).count();
    if in_use >= usize::from(new.count) {
        return Err(LayError::NoneLeft(tile.into()));
    }
    if !keeps_track(old, old_rot, new, rotation) {
        return Err(LayError::TrackLost { hex: at.into(), tile: tile.into(), rotation });
    }
    check_edges(data, board, at, new, rotation)?;
    let upgrade = board.tiles.contains_key(at) || old.colour != "white";
    let lay = Lay {
        hex: at.into(),
        tile: tile.into(),
        rotation,
        cost: if upgrade { 0 } else { hex.cost },
        upgrade,
    };
    if connection == Connection::Required && !connected(data, board, phase, company, &lay) {
        return Err(LayError::NotConnected { company: company.into(), hex: at.into() });
    }
    Ok(lay)
}

/// Every legal lay of a company on the board in a phase, hex by hex in map order.
pub fn legal_lays(data: &Data, board: &BoardState, phase: &Phase, company: &str) -> Vec<Lay> {
    // Only hexes next to track the company reaches can be connected: the full test
    // (`connected`) runs for those alone.
    let g = Graph::build(data, board, phase);
    let near: BTreeSet<String> = reach(&g, company)
        .sides
        .iter()
        .map(|(_, from)| &g.hexes[usize::from(*from)])
        .flat_map(|h| (0..6).filter_map(|s| neighbour(h, s)).chain([h.clone()]))
        .chain(
            board
                .tokens
                .iter()
                .filter(|(_, ts)| ts.iter().any(|t| t.company == company))
                .map(|(h, _)| h.clone()),
        )
        .chain(home_hex(data, company))
        .collect();
    let mut out = Vec::new();
    for hex in data.hexes.iter().filter(|h| near.contains(&h.at)) {
        let Some((_, old, _)) = board.tile_at(data, &hex.at) else { continue };
        for id in &old.upgrades {
            for rotation in 0..6 {
                let lay =
                    check_lay(data, board, phase, company, (&hex.at, id, rotation), Connection::Required);
                if let Ok(lay) = lay {
                    // Symmetric tiles give the same track in several rotations: keep one.
                    if !out.iter().any(|l: &Lay| same_track(data, l, &lay)) {
                        out.push(lay);
                    }
                }
            }
        }
    }
    out
}

/// Every old path, under the old rotation, is a path of the new tile under the new one; towns
/// stay towns and cities cities (RR §18.6, RDL 5.4; RULINGS K29).
pub fn keeps_track(old: &Tile, old_rot: u8, new: &Tile, rot: u8) -> bool {
    let pair = |a: u8, b: u8| (a.min(b), a.max(b));
    let new_track: Vec<(u8, u8)> =
        new.track.iter().map(|[a, b]| pair(turn(*a, rot), turn(*b, rot))).collect();
    let plain =
        old.track.iter().all(|[a, b]| new_track.contains(&pair(turn(*a, old_rot), turn(*b, old_rot))));
    let stops = old.stops.iter().all(|s| {
        new.stops.iter().any(|n| {
            n.kind == s.kind
                && s.exits.iter().all(|e| n.exits.iter().any(|x| turn(*x, rot) == turn(*e, old_rot)))
        })
    });
    // Berlin's two yellow cities become one green city (tile 209), so the number of cities
    // may fall; the upgrade chart says which tiles may follow which.
    plain && stops
}

/// The sides a tile's track leads to, on the map.
fn exits(tile: &Tile, rot: u8) -> Vec<u8> {
    let mut out: Vec<u8> = tile
        .stops
        .iter()
        .flat_map(|s| s.exits.iter())
        .chain(tile.track.iter().flatten())
        .map(|e| turn(*e, rot))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// No track off the map or across water; none into a blank side of a printed (fixed or
/// off-board) hex, while a blank edge of a laid tile is fine (HR 7, RR §18.7; RULINGS K29).
fn check_edges(data: &Data, board: &BoardState, at: &str, new: &Tile, rot: u8) -> Result<(), LayError> {
    for side in exits(new, rot) {
        let off = || LayError::OffMap { hex: at.into(), side: SIDE_NAMES[usize::from(side)] };
        let n = neighbour(at, side).filter(|n| data.hex(n).is_some()).ok_or_else(off)?;
        if data.barriers.iter().any(|[x, y]| (x == at && *y == n) || (y == at && *x == n)) {
            return Err(off());
        }
        let Some((_, there, there_rot)) = board.tile_at(data, &n) else { continue };
        if ["fixed", "red"].contains(&there.colour.as_str())
            && !exits(there, there_rot).contains(&((side + 3) % 6))
        {
            return Err(LayError::BlankPrintedSide { hex: at.into(), into: n });
        }
    }
    Ok(())
}

/// The new track continues track the company traces from a station, or lies in a hex with one
/// of its stations (RR §18.3), or in its home hex before its first station (HR 8). An upgrade
/// needs the same and nothing more: it need not add a new usable path (RULINGS K27).
fn connected(data: &Data, board: &BoardState, phase: &Phase, company: &str, lay: &Lay) -> bool {
    if board.tokens.get(&lay.hex).into_iter().flatten().any(|t| t.company == company) {
        return true;
    }
    let has_token = board.tokens.values().flatten().any(|t| t.company == company);
    if !has_token && home_hex(data, company).is_some_and(|h| h == lay.hex) {
        return true;
    }
    let mut after = board.clone();
    if after.lay(data, &lay.hex, &lay.tile, lay.rotation).is_err() {
        return false;
    }
    let g = Graph::build(data, &after, phase);
    let Some(h) = g.hexes.iter().position(|x| *x == lay.hex) else { return false };
    let h = u16::try_from(h).unwrap_or(u16::MAX);
    let r = reach(&g, company);
    g.paths.iter().filter(|p| p.hex == h).flat_map(|p| [p.a, p.b]).any(|end| match end {
        super::graph::End::Side(x) => r.side_from_outside(x, h),
        super::graph::End::Stop(_) => false,
    })
}

/// The home hex of a share company or minor.
fn home_hex(data: &Data, company: &str) -> Option<String> {
    let majors = data.majors.iter().map(|m| (&m.id, &m.home));
    majors.chain(data.minors.iter().map(|m| (&m.id, &m.home))).find(|m| m.0 == company).map(|m| m.1.clone())
}

/// Two lays put the same track on the same hex (a symmetric tile in two rotations).
fn same_track(data: &Data, a: &Lay, b: &Lay) -> bool {
    if a.hex != b.hex || a.tile != b.tile {
        return false;
    }
    let Some(t) = data.tiles.iter().find(|t| t.id == a.tile) else { return false };
    keeps_track(t, a.rotation, t, b.rotation) && keeps_track(t, b.rotation, t, a.rotation)
}
