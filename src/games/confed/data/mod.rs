//! The Confederate Rails components as data: loading and checking the TOML files of
//! `rules/confederate_rails/` into the engine's types. Every file is embedded at build time; a
//! broken file is a [`DataError`] naming the file and the entry
//! (`rules/confederate_rails/map.toml: line 7: ...`).
//!
//! `raw` holds the file shapes, `check` the map (`textual` its checks against the rules text), `tables` the loads, tables and set-up.
//! Most of the content is a reconstruction (FACTS §3): each file says `reconstructed = true`, and
//! the real components can replace them with no code change as long as the counts of the rules
//! text hold (they are checked here; RULING F9).

mod check;
mod raw;
mod tables;
#[cfg(test)]
mod tests;
mod textual;

pub use raw::{
    CostsRaw as Costs, EventRaw as EventKind, SetupRaw as Setup, SpecialEventRaw as SpecialKind, Troops,
};
pub use tables::{Dropoff, Load, LoadKind, Tables, WarResult};

use std::collections::{BTreeMap, BTreeSet};

/// A data file could not be loaded: which file, which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules/confederate_rails/{file}: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct DataError {
    /// The file name inside `rules/confederate_rails/`.
    pub file: &'static str,
    /// The entry at fault (`line 7`, `load 12`, `station "Corinth"`), or empty for the whole file.
    pub entry: String,
    /// What is wrong, in words.
    pub msg: String,
}

impl DataError {
    pub(crate) fn new(file: &'static str, entry: impl Into<String>, msg: impl Into<String>) -> Self {
        DataError { file, entry: entry.into(), msg: msg.into() }
    }
}

/// The map's file, as errors name it.
const MAP_FILE: &str = "map.toml";

/// A fault of `map.toml` (found by `check` or, against the rules text, by `textual`).
fn map_error(entry: impl Into<String>, msg: impl Into<String>) -> DataError {
    DataError::new(MAP_FILE, entry, msg)
}

/// The counts the rules text fixes; the loader refuses files that break them.
pub mod counts {
    /// RT 2.1.1: 24 numbered RRC lines.
    pub const LINES: usize = 24;
    /// RT 2.1.2: 8 Victory Depots.
    pub const VICTORY_DEPOTS: usize = 8;
    /// RT 2.1.1: six Ferries.
    pub const FERRIES: usize = 6;
    /// RT 2.1.1: five Overland Transfers.
    pub const OVERLAND: usize = 5;
    /// RT 2.1.1: two Unbuilt Rail Line segments.
    pub const UNBUILT: usize = 2;
    /// RT 2.1.3: four Union Army Entry Points.
    pub const ENTRY_POINTS: usize = 4;
    /// RT 5.5: 36 stations carry the congestion icon.
    pub const CONGESTION_STATIONS: usize = 36;
    /// RT 5.9.1: 10 stations carry the Federal shield.
    pub const SHIELD_STATIONS: usize = 10;
    /// RT 3.7 with 2.3.1: 89 load chits (16 Troops + 7 Blockade Runners + 66 in the draw pile).
    pub const LOADS: usize = 89;
    /// RT 3.7 / 5.2: 16 Troops chits.
    pub const TROOPS: usize = 16;
    /// RT 3.7 / 5.7: 7 blue-italic Blockade Runner chits.
    pub const BLOCKADE_RUNNERS: usize = 7;
    /// RT 2.3.1: 36 red-text loads, the Troops among them.
    pub const RED: usize = 36;
    /// RT 2.3.1: 5 black-text war-materiel loads (Shoes, Railwheels, Machinery ×3).
    pub const BLACK_WAR: usize = 5;
    /// RT 3.7: 28 Event chits (7.1-7.15).
    pub const EVENT_CHITS: u32 = 28;
    /// RT 6.0-6.8: 12 Special Event counters.
    pub const SPECIAL_COUNTERS: u32 = 12;
    /// RT 5.9.1 / 5.5: 2d6 tables have a row per total 2..=12.
    pub const TABLE_ROWS: usize = 11;
}

/// What a station is (RT 2.1.2). Every Depot is a Load Station; a Victory Depot is a Depot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StationKind {
    /// A round station.
    Plain,
    /// A square station: loads are picked up and dropped off here.
    LoadStation,
    /// A hexagon: a Load Station where Troops are picked up; stacks 3 trains.
    Depot,
    /// A highlighted Depot whose fall measures the Union's progress.
    VictoryDepot,
}

impl StationKind {
    /// Depots (Victory Depots included) stack 3 trains, other stations 2 (RT 5.4.1).
    pub fn is_depot(self) -> bool {
        matches!(self, StationKind::Depot | StationKind::VictoryDepot)
    }
}

/// One station of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Station {
    /// The name, with a state suffix where names repeat (`Jackson (MS)`).
    pub name: String,
    /// Plain, Load Station, Depot or Victory Depot.
    pub kind: StationKind,
    /// The RRC lines it lies on; two or more make it a Shared Station.
    pub lines: BTreeSet<u8>,
    /// It carries the congestion icon (RT 5.5).
    pub congestion: bool,
    /// It carries the Federal shield (RT 5.9.1).
    pub shield: bool,
    /// It lies in the partisan sabotage area (RT 7.9).
    pub sabotage: bool,
}

/// How a segment is crossed (RT 2.1.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentKind {
    /// Ordinary track.
    Rail,
    /// A ferry across a major river.
    Ferry,
    /// Freight hauled overland where no line was built.
    Overland,
    /// Not there until the named construction event completes it.
    Unbuilt {
        /// The event case, `7.10` or `7.11`.
        event: String,
    },
}

/// A segment between two adjacent stations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// One end (station index).
    pub a: usize,
    /// The other end.
    pub b: usize,
    /// The lines owning it: one, or two for a shared segment (RT 2.3.3).
    pub owners: Vec<u8>,
    /// Rail, ferry, overland transfer or unbuilt.
    pub kind: SegmentKind,
    /// A bridge may be disrupted (RT 2.1.1, 2.3.3).
    pub bridge: bool,
    /// The movement points crossing it adds (RT 5.3.3): a ferry +1, an overland transfer +2,
    /// unless `map.toml` says otherwise for it (the Cape Fear ferry +2, RT 5.3.4: RULING F1).
    pub crossing_mp: u32,
}

impl Segment {
    /// The station at the other end from `from`, if `from` is an end.
    pub fn other(&self, from: usize) -> Option<usize> {
        if self.a == from {
            Some(self.b)
        } else if self.b == from {
            Some(self.a)
        } else {
            None
        }
    }
}

/// One railroad company's line (RT 2.1.1, 2.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// 1..=24.
    pub number: u8,
    /// The short name.
    pub abbr: String,
    /// The full name where the text gives one.
    pub name: Option<String>,
    /// The states it runs through.
    pub states: Vec<String>,
    /// Its stations, each once, in the order first drawn.
    pub stations: Vec<usize>,
}

/// A Union Army Entry Point: a permanent Union-occupied marker (RT 2.1.3, 5.9.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// Illinois, Indiana, Ohio or Maryland.
    pub name: String,
    /// The station its entry line joins.
    pub joins: usize,
    /// The line it sits on.
    pub line: u8,
}

/// The checked map.
#[derive(Debug, Clone)]
pub struct Map {
    /// The file says its content is a reconstruction.
    pub reconstructed: bool,
    /// All stations; a station's index is its id.
    pub stations: Vec<Station>,
    /// All segments; a segment's index is its id.
    pub segments: Vec<Segment>,
    /// The 24 lines, by number order.
    pub lines: Vec<Line>,
    /// The four entry points.
    pub entries: Vec<EntryPoint>,
    /// The station holding the Raleigh Repair Box (RT 5.8).
    pub repair_box: usize,
    by_name: BTreeMap<String, usize>,
    adjacency: Vec<Vec<usize>>,
}

impl Map {
    /// The id of the station with this exact name.
    pub fn station(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The id of the station with this name: exact, then ignoring case and surrounding spaces.
    pub fn find_station(&self, name: &str) -> Option<usize> {
        self.station(name)
            .or_else(|| self.stations.iter().position(|s| s.name.eq_ignore_ascii_case(name.trim())))
    }

    /// The ids of the segments touching a station.
    pub fn segments_at(&self, station: usize) -> &[usize] {
        self.adjacency.get(station).map(Vec::as_slice).unwrap_or(&[])
    }

    /// The segments joining two stations (two for a parallel pair).
    pub fn segments_between(&self, a: usize, b: usize) -> Vec<usize> {
        self.segments_at(a)
            .iter()
            .copied()
            .filter(|s| self.segments.get(*s).and_then(|seg| seg.other(a)) == Some(b))
            .collect()
    }

    /// The line with this number.
    pub fn line(&self, number: u8) -> Option<&Line> {
        self.lines.iter().find(|l| l.number == number)
    }
}

/// The texts of the data files.
#[derive(Debug, Clone)]
pub struct Files {
    /// `map.toml`.
    pub map: String,
    /// `loads.toml`.
    pub loads: String,
    /// `tables.toml`.
    pub tables: String,
}

impl Files {
    /// The files shipped in `rules/confederate_rails/`, embedded at build time.
    pub fn standard() -> Files {
        Files {
            map: include_str!("../../../../rules/confederate_rails/map.toml").into(),
            loads: include_str!("../../../../rules/confederate_rails/loads.toml").into(),
            tables: include_str!("../../../../rules/confederate_rails/tables.toml").into(),
        }
    }
}

/// All components, checked.
#[derive(Debug, Clone)]
pub struct Data {
    /// The map.
    pub map: Map,
    /// The 73 table loads (the Troops are in `troops`).
    pub loads: Vec<Load>,
    /// The Troops chits.
    pub troops: Troops,
    /// `loads.toml` says it is a reconstruction.
    pub loads_reconstructed: bool,
    /// Tables, costs, set-up, events and specials.
    pub tables: Tables,
}

impl Data {
    /// Load and check the shipped files.
    pub fn standard() -> Result<Data, DataError> {
        Data::load(&Files::standard())
    }

    /// Load and check the given file texts.
    pub fn load(files: &Files) -> Result<Data, DataError> {
        let map = check::map(&files.map)?;
        let (loads, troops, loads_reconstructed) = tables::loads(&files.loads, &map)?;
        let tables = tables::tables(&files.tables, &map)?;
        Ok(Data { map, loads, troops, loads_reconstructed, tables })
    }
}

pub(crate) fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| DataError::new(file, "", e.to_string()))
}
