//! Checks and converts the board side of the data: trains and phases (`trains.toml`), tiles
//! (`tiles.toml`) and the map (`map.toml`), and that every home base is a city on the map.
//! The geometry (sides clockwise from the north-east, rotation clockwise) is described in
//! `rules/1835/README.md`.

use super::{DataError, raw};
use std::collections::BTreeSet;

fn fail<T>(file: &'static str, entry: impl Into<String>, msg: impl Into<String>) -> Result<T, DataError> {
    Err(DataError { file, entry: entry.into(), msg: msg.into() })
}

/// A train type, in the order the bank sells them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrainType {
    pub name: String,
    pub cities: u8,
    pub towns: u8,
    pub count: u8,
    pub price: i64,
    pub rusts_on: Option<String>,
    pub starts_phase: Option<String>,
}

/// A phase (or step of a real phase).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phase {
    pub id: String,
    pub real: u8,
    pub tiles: Vec<String>,
    pub operating_rounds: u8,
    pub major_yellow_lays: u8,
    pub offboard_step: u8,
    pub train_trading: bool,
    pub limit_major: u8,
    pub limit_minor: u8,
    pub limit_prussian: u8,
    pub events: Vec<String>,
}

/// A town, city or off-board area on a tile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop {
    /// "town", "city" or "offboard".
    pub kind: String,
    pub value: i64,
    pub slots: u8,
    pub exits: Vec<u8>,
    /// A river crossed inside the city (the brown Hamburg tile, HR 3), if any.
    pub ferry: Option<Ferry>,
}

/// A ferry inside a city: its exits split into two banks; a run that crosses from one bank to
/// the other pays `toll` less for the city (HR 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ferry {
    /// The exits (unrotated tile sides) on each bank.
    pub banks: [Vec<u8>; 2],
    pub toll: i64,
}

impl Ferry {
    /// The bank (0 or 1) an unrotated tile side lies on.
    pub fn bank_of(&self, side: u8) -> u8 {
        u8::from(!self.banks[0].contains(&side))
    }
}

/// A tile of the manifest (count > 0) or a pre-printed map tile (count 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    pub id: String,
    pub name: String,
    pub colour: String,
    pub count: u8,
    pub label: Option<String>,
    pub stops: Vec<Stop>,
    pub track: Vec<[u8; 2]>,
    pub upgrades: Vec<String>,
    /// The only rotation the tile may be laid in, where the map fixes it (the brown Hamburg:
    /// its Elbe lies as printed; RULINGS K42).
    pub orientation: Option<u8>,
}

impl Tile {
    /// Number of cities on the tile.
    pub fn cities(&self) -> usize {
        self.stops.iter().filter(|s| s.kind == "city").count()
    }
}

/// A hex of the map. `row` is the letter (A = 0), `col` the printed column number. Build costs,
/// homes and side numbering follow RULING K16.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hex {
    pub at: String,
    pub row: u8,
    pub col: u8,
    pub name: String,
    pub tile: String,
    pub rotation: u8,
    pub cost: i64,
    pub terrain: Option<String>,
    pub label: Option<String>,
    pub offboard: Option<[i64; 3]>,
    pub group: Option<String>,
}

/// (row, column) offsets of the neighbour across each side, 0 = NE clockwise.
pub const NEIGHBOUR_OFFSETS: [(i8, i8); 6] = [(-1, 1), (0, 2), (1, 1), (1, -1), (0, -2), (-1, -1)];

/// Parses a coordinate like "E19" into (row from 0, column).
pub fn parse_coord(at: &str) -> Option<(u8, u8)> {
    let mut chars = at.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let col: u8 = chars.as_str().parse().ok()?;
    Some((letter as u8 - b'A', col))
}

/// The coordinate across `side` (0 = NE, clockwise) from a hex, whether or not it is on the map.
pub fn neighbour(at: &str, side: u8) -> Option<String> {
    let (row, col) = parse_coord(at)?;
    let (dr, dc) = NEIGHBOUR_OFFSETS.get(usize::from(side))?;
    let row = row.checked_add_signed(*dr)?;
    let col = col.checked_add_signed(*dc)?;
    (row < 26 && col > 0).then(|| format!("{}{col}", char::from(b'A' + row)))
}

const COLOURS: [&str; 3] = ["yellow", "green", "brown"];
const PRE_COLOURS: [&str; 5] = ["white", "fixed", "yellow", "green", "red"];
const LABELS: [&str; 4] = ["Y", "XX", "B", "HH"];
const EVENTS: [&str; 4] =
    ["prussian_may_form", "prussian_must_form", "prussian_forced_exchange", "close_privates"];

/// `trains.toml`.
pub fn trains(t: raw::TrainsFile) -> Result<(Vec<TrainType>, Vec<Phase>), DataError> {
    const F: &str = "trains.toml";
    let mut phases: Vec<Phase> = Vec::new();
    for p in t.phase {
        let entry = format!("phase \"{}\"", p.id);
        if phases.iter().any(|q| q.id == p.id) {
            return fail(F, entry, "id used twice");
        }
        if let Some(c) = p.tiles.iter().find(|c| !COLOURS.contains(&c.as_str())) {
            return fail(F, entry, format!("unknown tile colour \"{c}\""));
        }
        if let Some(e) = p.events.iter().find(|e| !EVENTS.contains(&e.as_str())) {
            return fail(F, entry, format!("unknown event \"{e}\"; known: {}", EVENTS.join(", ")));
        }
        if !(1..=3).contains(&p.real) || !(1..=3).contains(&p.offboard_step) || p.operating_rounds == 0 {
            return fail(F, entry, "real and offboard_step must be 1 to 3, operating_rounds positive");
        }
        phases.push(Phase {
            id: p.id,
            real: p.real,
            tiles: p.tiles,
            operating_rounds: p.operating_rounds,
            major_yellow_lays: p.major_yellow_lays,
            offboard_step: p.offboard_step,
            train_trading: p.train_trading,
            limit_major: p.limits.major,
            limit_minor: p.limits.minor,
            limit_prussian: p.limits.prussian,
            events: p.events,
        });
    }
    let names: BTreeSet<&str> = t.train.iter().map(|x| x.name.as_str()).collect();
    if names.len() != t.train.len() {
        return fail(F, "train", "a train name is used twice");
    }
    let mut out = Vec::new();
    for x in &t.train {
        let entry = format!("train \"{}\"", x.name);
        if x.count == 0 || x.price <= 0 || x.cities == 0 {
            return fail(F, entry, "count, price and cities must be positive");
        }
        if let Some(r) = x.rusts_on.as_deref().filter(|r| !names.contains(r)) {
            return fail(F, entry, format!("rusts_on names unknown train \"{r}\""));
        }
        if let Some(p) = x.starts_phase.as_deref().filter(|p| !phases.iter().any(|q| q.id == *p)) {
            return fail(F, entry, format!("starts_phase names unknown phase \"{p}\""));
        }
        out.push(TrainType {
            name: x.name.clone(),
            cities: x.cities,
            towns: x.towns,
            count: x.count,
            price: x.price,
            rusts_on: x.rusts_on.clone(),
            starts_phase: x.starts_phase.clone(),
        });
    }
    if out.first().and_then(|x| x.starts_phase.as_deref()) != phases.first().map(|p| p.id.as_str()) {
        return fail(F, "train", "the first train must start the first phase");
    }
    Ok((out, phases))
}

fn tile(x: raw::TileRaw, file: &'static str, preprinted: bool) -> Result<Tile, DataError> {
    let entry = format!("{} \"{}\"", if preprinted { "preprinted" } else { "tile" }, x.id);
    let colours: &[&str] = if preprinted { &PRE_COLOURS } else { &COLOURS };
    if !colours.contains(&x.colour.as_str()) {
        return fail(file, entry, format!("colour \"{}\" unknown; known: {}", x.colour, colours.join(", ")));
    }
    let count = match (preprinted, x.count) {
        (false, Some(n)) if n > 0 => n,
        (true, None) => 0,
        _ => return fail(file, entry, "manifest tiles need a positive count; pre-printed tiles none"),
    };
    if let Some(l) = x.label.as_deref().filter(|l| !LABELS.contains(l)) {
        return fail(file, entry, format!("label \"{l}\" unknown"));
    }
    let mut stops = Vec::new();
    for (i, s) in x.stops.into_iter().enumerate() {
        let ok_kind = ["town", "city", "offboard"].contains(&s.kind.as_str());
        if !ok_kind || s.exits.iter().any(|e| *e > 5) || (s.kind == "city" && s.slots == 0) || s.value < 0 {
            return fail(
                file,
                format!("{entry} stops[{i}]"),
                "kind town/city/offboard, sides 0-5, cities need slots",
            );
        }
        let ferry = match s.ferry {
            None => None,
            Some(f) => {
                let mut both: Vec<u8> = f.banks.iter().flatten().copied().collect();
                both.sort_unstable();
                let mut exits = s.exits.clone();
                exits.sort_unstable();
                if s.kind != "city" || both != exits || f.banks.iter().any(Vec::is_empty) || f.toll <= 0 {
                    return fail(
                        file,
                        format!("{entry} stops[{i}]"),
                        "a ferry belongs to a city; its two banks must split the exits, its toll be positive",
                    );
                }
                Some(Ferry { banks: f.banks, toll: f.toll })
            }
        };
        stops.push(Stop { kind: s.kind, value: s.value, slots: s.slots, exits: s.exits, ferry });
    }
    if x.track.iter().flatten().any(|e| *e > 5) {
        return fail(file, entry, "track sides must be 0 to 5");
    }
    if x.orientation.is_some_and(|o| o > 5 || preprinted) {
        return fail(file, entry, "orientation must be 0 to 5, and only manifest tiles take one");
    }
    Ok(Tile {
        name: x.name.unwrap_or_else(|| x.id.clone()),
        id: x.id,
        colour: x.colour,
        count,
        label: x.label,
        stops,
        track: x.track,
        upgrades: x.upgrades,
        orientation: x.orientation,
    })
}

/// `tiles.toml`: the manifest and the pre-printed tiles.
pub fn tiles(t: raw::TilesFile) -> Result<(Vec<Tile>, Vec<Tile>), DataError> {
    const F: &str = "tiles.toml";
    let manifest = t.tile.into_iter().map(|x| tile(x, F, false)).collect::<Result<Vec<_>, _>>()?;
    let pre = t.preprinted.into_iter().map(|x| tile(x, F, true)).collect::<Result<Vec<_>, _>>()?;
    let mut ids = BTreeSet::new();
    for x in manifest.iter().chain(&pre) {
        if !ids.insert(x.id.as_str()) {
            return fail(F, format!("tile \"{}\"", x.id), "id used twice");
        }
    }
    for x in manifest.iter().chain(&pre) {
        if let Some(u) = x.upgrades.iter().find(|u| !manifest.iter().any(|m| m.id == **u)) {
            return fail(
                F,
                format!("tile \"{}\"", x.id),
                format!("upgrade \"{u}\" is not a tile of the manifest"),
            );
        }
    }
    Ok((manifest, pre))
}

/// `map.toml`: every hex, and the barriers.
pub fn map(m: raw::MapFile, pre: &[Tile]) -> Result<(Vec<Hex>, Vec<[String; 2]>), DataError> {
    const F: &str = "map.toml";
    let mut hexes: Vec<Hex> = Vec::new();
    for h in m.hexes {
        let entry = format!("hex \"{}\"", h.at);
        let Some((row, col)) = parse_coord(&h.at).filter(|(r, c)| (u16::from(*r) + u16::from(*c)) % 2 == 1)
        else {
            return fail(F, entry, "not a coordinate of the board (row A uses odd columns, B even, ...)");
        };
        if hexes.iter().any(|x| x.at == h.at) {
            return fail(F, entry, "listed twice");
        }
        let Some(t) = pre.iter().find(|t| t.id == h.tile) else {
            return fail(F, entry, format!("tile \"{}\" is not a pre-printed tile of tiles.toml", h.tile));
        };
        if h.rotation > 5 || h.cost < 0 {
            return fail(F, entry, "rotation must be 0 to 5 and cost not negative");
        }
        if let Some(x) = h.terrain.as_deref().filter(|x| !["river", "mountain"].contains(x)) {
            return fail(F, entry, format!("terrain \"{x}\" unknown"));
        }
        if let Some(l) = h.label.as_deref().filter(|l| !LABELS.contains(l)) {
            return fail(F, entry, format!("label \"{l}\" unknown"));
        }
        if (t.colour == "red") != h.offboard.is_some() {
            return fail(F, entry, "off-board values belong exactly to the red (off-board) hexes");
        }
        hexes.push(Hex {
            at: h.at,
            row,
            col,
            name: h.name.unwrap_or_default(),
            tile: h.tile,
            rotation: h.rotation,
            cost: h.cost,
            terrain: h.terrain,
            label: h.label,
            offboard: h.offboard,
            group: h.group,
        });
    }
    for [a, b] in &m.barriers {
        let adjacent = (0..6).any(|s| neighbour(a, s).as_deref() == Some(b.as_str()));
        if !adjacent || !hexes.iter().any(|x| x.at == *a) || !hexes.iter().any(|x| x.at == *b) {
            return fail(
                F,
                format!("barriers [\"{a}\", \"{b}\"]"),
                "must name two neighbouring hexes of the map",
            );
        }
    }
    Ok((hexes, m.barriers))
}

/// Every home base is a city of the map with the named station.
pub fn homes(d: &super::Data) -> Result<(), DataError> {
    const F: &str = "companies.toml";
    let homes = d
        .minors
        .iter()
        .map(|m| (format!("minor \"{}\"", m.id), &m.home, m.station))
        .chain(d.majors.iter().map(|m| (format!("major \"{}\"", m.id), &m.home, m.station)));
    for (entry, at, station) in homes {
        let Some(hex) = d.hex(at) else {
            return fail(F, entry, format!("home \"{at}\" is not a hex of map.toml"));
        };
        let cities = d.preprinted_tile(&hex.tile).map(|t| t.cities()).unwrap_or(0);
        if usize::from(station) > cities {
            return fail(F, entry, format!("home {at} has {cities} cities, no station {station}"));
        }
    }
    Ok(())
}
