//! Tile-lay legality (FACTS §7.4, §11, §12; HR 7; RULINGS K27–K29): whether a company may lay
//! a tile on a hex with a rotation, what it costs, and every legal lay of a company. Pure: the
//! number of lays per turn, the treasury and private powers' turns are the caller's business
//! (`Lay::upgrade` and `Connection` tell it what it needs).

use super::access::{Access, home_hex};
use super::graph::Graph;
use super::reach::reach;
use super::state::BoardState;
use crate::games::r1835::data::{Data, Hex, Phase, Tile, neighbour};
use std::collections::BTreeSet;

/// A legal lay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lay {
    pub hex: String,
    pub tile: String,
    pub rotation: u8,
    /// The hex's printed build cost, paid from the treasury by the first lay on the hex only
    /// (an empty hex's first tile or a pre-printed tile's first upgrade).
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
    #[error("{0} has no tile-laying power")]
    NoTilePower(String),
    #[error("the {private} lays its free tile only on {hexes}")]
    WrongPrivateHex { private: String, hexes: String },
    #[error("the {private} lays only {colour} tiles")]
    WrongPrivateColour { private: String, colour: String },
    #[error("tile {tile} lies only in rotation {rotation}, as the map shows it")]
    FixedOrientation { tile: String, rotation: u8 },
    #[error("{company} cannot trace track from its stations to the new track on {hex}")]
    NotConnected { company: String, hex: String },
}

/// Side names for players (README "Geometry").
const SIDE_NAMES: [&str; 6] = ["north-east", "east", "south-east", "south-west", "west", "north-west"];
const ORDER: [&str; 4] = ["white", "yellow", "green", "brown"];

fn turn(s: u8, r: u8) -> u8 {
    (s + r) % 6
}

/// The part of a lay that does not depend on the rotation: the hex, what lies there, the new
/// tile.
#[derive(Debug, Clone, Copy)]
pub struct Site<'d> {
    pub hex: &'d Hex,
    pub old: &'d Tile,
    pub old_rot: u8,
    pub new: &'d Tile,
}

/// Checks what a tile may replace on a hex, whatever its rotation: a buildable hex, the phase's
/// colours, the upgrade chart one colour up, the hex's label, the manifest (FACTS §7.4, §11).
pub fn check_tile<'d>(
    data: &'d Data,
    board: &BoardState,
    phase: &Phase,
    at: &str,
    tile: &str,
) -> Result<Site<'d>, LayError> {
    let (hex, old, old_rot) = board.tile_at(data, at).ok_or_else(|| LayError::UnknownHex(at.into()))?;
    let new = data.tiles.iter().find(|t| t.id == tile).ok_or_else(|| LayError::UnknownTile(tile.into()))?;
    // A laid tile without upgrades (a final tile) is refused below as no upgrade.
    if !ORDER.contains(&old.colour.as_str()) || (old.upgrades.is_empty() && !board.tiles.contains_key(at)) {
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
    Ok(Site { hex, old, old_rot, new })
}

/// Checks a rotation of a tile on its site: the tile's fixed orientation (RULINGS K42), old
/// track kept, no track off the map or into a blank printed side; gives the lay and its terrain
/// cost (RR §18).
pub fn check_rotation(data: &Data, board: &BoardState, site: &Site, rotation: u8) -> Result<Lay, LayError> {
    let (at, tile) = (site.hex.at.as_str(), site.new.id.as_str());
    if rotation > 5 {
        return Err(LayError::BadRotation(rotation));
    }
    if let Some(fixed) = site.new.orientation.filter(|o| *o != rotation) {
        return Err(LayError::FixedOrientation { tile: tile.into(), rotation: fixed });
    }
    if !keeps_track(site.old, site.old_rot, site.new, rotation) {
        return Err(LayError::TrackLost { hex: at.into(), tile: tile.into(), rotation });
    }
    check_edges(data, board, at, site.new, rotation)?;
    let laid_before = board.tiles.contains_key(at);
    let upgrade = laid_before || site.old.colour != "white";
    // The printed cost is paid the first time a tile is laid on the hex, the first upgrade of a
    // pre-printed yellow or green tile included (Hamburg, Frankfurt, the XX cities; RR §18.4;
    // RULING K90), and never again.
    Ok(Lay {
        hex: at.into(),
        tile: tile.into(),
        rotation,
        cost: if laid_before { 0 } else { site.hex.cost },
        upgrade,
    })
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
    let site = check_tile(data, board, phase, at, tile)?;
    let lay = check_rotation(data, board, &site, rotation)?;
    if connection == Connection::Required {
        let ok = match Access::of(data, board, phase, company) {
            Some(access) => access.allows(at, &exits(site.new, rotation)),
            None => connected_after(data, board, phase, company, &lay),
        };
        if !ok {
            return Err(LayError::NotConnected { company: company.into(), hex: at.into() });
        }
    }
    Ok(lay)
}

/// Every legal lay of a company on the board in a phase, hex by hex in map order (FACTS §7.4).
/// The company's access is found once; only hexes it opens are tried, each tile's colour, chart,
/// label and supply once, and each different track of the tile once (RULINGS K31).
pub fn legal_lays(data: &Data, board: &BoardState, phase: &Phase, company: &str) -> Vec<Lay> {
    let access = Access::of(data, board, phase, company);
    let near: BTreeSet<&str> = match &access {
        Some(a) => a.hexes(),
        None => data.hexes.iter().map(|h| h.at.as_str()).collect(),
    };
    let mut out = Vec::new();
    for hex in data.hexes.iter().filter(|h| near.contains(h.at.as_str())) {
        out.extend(lays_on(data, board, phase, &hex.at, |site, lay| match &access {
            Some(a) => a.allows(&lay.hex, &exits(site.new, lay.rotation)),
            None => connected_after(data, board, phase, company, lay),
        }));
    }
    out
}

/// The lays on one hex that `accept` takes, one per different track of each tile.
pub fn lays_on(
    data: &Data,
    board: &BoardState,
    phase: &Phase,
    at: &str,
    accept: impl Fn(&Site, &Lay) -> bool,
) -> Vec<Lay> {
    let Some((_, old, _)) = board.tile_at(data, at) else { return Vec::new() };
    let mut out = Vec::new();
    for id in &old.upgrades {
        let Ok(site) = check_tile(data, board, phase, at, id) else { continue };
        let mut tried: Vec<Track> = Vec::new();
        for rotation in 0..6 {
            // Symmetric tiles give the same track in several rotations: try it once.
            let track = track_of(site.new, rotation);
            if tried.contains(&track) {
                continue;
            }
            tried.push(track);
            if let Ok(lay) = check_rotation(data, board, &site, rotation)
                && accept(&site, &lay)
            {
                out.push(lay);
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
pub(crate) fn exits(tile: &Tile, rot: u8) -> Vec<u8> {
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

/// The lay-by-lay connection test, used only when the graph's hex sides cannot be named
/// (`Access::of` gives `None`): lay the tile on a copy of the board and walk it (RULINGS K27).
fn connected_after(data: &Data, board: &BoardState, phase: &Phase, company: &str, lay: &Lay) -> bool {
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

/// A tile's track in a rotation (`track_of`).
type Track = Vec<(u8, Vec<(u8, u8)>)>;

/// The track a tile puts on a hex in a rotation: each plain path (kind 0) and each stop (1 town,
/// 2 city, 3 off-board) with the map sides it joins and, for a ferry, the bank of each. Two
/// rotations with equal lists lay the same track.
fn track_of(tile: &Tile, rot: u8) -> Track {
    let mut out: Track = Vec::new();
    for [a, b] in &tile.track {
        let mut ends = vec![(turn(*a, rot), 0), (turn(*b, rot), 0)];
        ends.sort_unstable();
        out.push((0, ends));
    }
    for s in &tile.stops {
        let kind = match s.kind.as_str() {
            "town" => 1,
            "city" => 2,
            _ => 3,
        };
        let bank = |e: u8| s.ferry.as_ref().map_or(0, |f| f.bank_of(e));
        let mut ends: Vec<(u8, u8)> = s.exits.iter().map(|e| (turn(*e, rot), bank(*e))).collect();
        ends.sort_unstable();
        out.push((kind, ends));
    }
    out.sort_unstable();
    out
}
