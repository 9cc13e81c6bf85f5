//! The shapes of the TOML files in `rules/confederate_rails/`, exactly as written, before any
//! checking. `check` turns them into the engine's types.

use serde::Deserialize;

/// `map.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default)]
    pub reconstructed: bool,
    pub line: Vec<LineRaw>,
    #[serde(default)]
    pub special: Vec<SpecialRaw>,
    #[serde(default)]
    pub parallel: Vec<[String; 2]>,
    #[serde(default)]
    pub bridges: Vec<[String; 2]>,
    pub victory_depots: Vec<String>,
    pub depots: Vec<String>,
    pub load_stations: Vec<String>,
    pub congestion: Vec<String>,
    pub shields: Vec<String>,
    pub entry: Vec<EntryRaw>,
    pub sabotage_area: Vec<String>,
    pub repair_box: String,
}

/// One RRC line.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRaw {
    pub number: u8,
    pub abbr: String,
    #[serde(default)]
    pub name: Option<String>,
    pub states: Vec<String>,
    pub paths: Vec<Vec<String>>,
}

/// A segment that is not plain rail.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialRaw {
    pub a: String,
    pub b: String,
    pub kind: String,
    #[serde(default)]
    pub event: Option<String>,
    /// The MP the crossing adds, where it is not the kind's (ferry 1, overland 2).
    #[serde(default)]
    pub mp: Option<u32>,
}

/// A Union Army Entry Point.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryRaw {
    pub name: String,
    pub joins: String,
    pub line: u8,
}

/// `loads.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadsFile {
    #[serde(default)]
    pub reconstructed: bool,
    /// How the reconstruction computed payouts; documentation only, no rule reads it.
    #[allow(dead_code)]
    pub payout_formula: toml::Table,
    pub troops: Troops,
    pub load: Vec<LoadRaw>,
}

/// The Troops chits (RT 5.2), all alike: read as they stand in `loads.toml`, and used so (the
/// engine's type too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Troops {
    /// The first chit's number; the rest follow.
    pub first_number: u32,
    /// How many.
    pub count: u32,
    /// The payout.
    pub payout: u32,
    /// The reduced line usage fee (RT 5.6.1).
    pub line_fee: u32,
    /// The pickup Depot is at least this many stations from the nearest Union marker (RT 5.2.1).
    pub pickup_min_distance: u32,
    /// The dropoff is within this many stations of a Union marker (RT 5.2.2).
    pub dropoff_max_distance: u32,
}

/// One load chit of the table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRaw {
    pub number: u32,
    pub goods: String,
    pub text: String,
    pub war: bool,
    pub pickup: String,
    pub dropoff: Vec<String>,
    pub payout: u32,
}

/// `tables.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    #[serde(default)]
    pub reconstructed: bool,
    pub war_progress: WarProgressRaw,
    pub congestion: CongestionRaw,
    pub costs: CostsRaw,
    pub setup: Vec<SetupRaw>,
    pub event: Vec<EventRaw>,
    pub special: Vec<SpecialEventRaw>,
}

/// The War Progress Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarProgressRaw {
    #[serde(default)]
    pub reconstructed: bool,
    pub rows: Vec<WarRowRaw>,
}

/// One 2d6 row of the War Progress Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WarRowRaw {
    pub roll: u8,
    pub columns: Vec<String>,
}

/// The Congestion Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CongestionRaw {
    #[serde(default)]
    pub reconstructed: bool,
    pub rows: Vec<CongestionRowRaw>,
}

/// One 2d6 row of the Congestion Table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CongestionRowRaw {
    pub roll: u8,
    pub stations: Vec<String>,
}

/// Movement and money constants.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostsRaw {
    pub movement_points: u32,
    pub activation: u32,
    pub line_fee: u32,
    pub penalty_tariff: u32,
    pub repair: u32,
    pub bridge_repair: u32,
    pub ripped_up_repair: u32,
    pub wear_and_tear: u32,
    pub through_freight_donation: u32,
    pub stack_depot: u32,
    pub stack_other: u32,
}

/// Set-up for one player count.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupRaw {
    pub players: u8,
    pub extended_dealt: u8,
    pub extended_trains_placed: u8,
    pub trains: u8,
    pub money: u32,
    pub extended_money: u32,
    pub specials_each: u8,
    pub rrc_chosen: u8,
    pub rrc_dealt: u8,
    pub rrc_dealt_initiative: u8,
    pub specials_removed: Vec<u8>,
}

/// One kind of event chit.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRaw {
    pub case: String,
    pub name: String,
    pub count: u32,
    #[serde(default)]
    pub completes: Option<[String; 2]>,
}

/// One kind of Special Event counter.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialEventRaw {
    pub number: u8,
    pub case: String,
    pub name: String,
    pub count: u32,
}
