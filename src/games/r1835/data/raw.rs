//! The files of `rules/1835/` exactly as written: serde shapes with unknown keys refused. The
//! checks and the conversion into the engine's types live in `check.rs` and `board.rs`.

use super::super::options::Options;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub game: GameSection,
    pub players: Vec<PlayersRow>,
    pub options: BTreeMap<String, Options>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSection {
    pub title: String,
    pub currency: String,
    pub bank: i64,
    pub pool_limit_percent: u8,
    pub cert_bonus_at_percent: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersRow {
    pub count: u8,
    pub cash: i64,
    pub cert_limit: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompaniesFile {
    pub minor: Vec<MinorRaw>,
    pub major: Vec<MajorRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MinorRaw {
    pub id: String,
    pub name: String,
    pub home: String,
    #[serde(default = "one")]
    pub station: u8,
    pub price: i64,
    pub tokens: u8,
    pub prussian_percent: u8,
    #[serde(default)]
    pub forms_prussian: bool,
}

fn one() -> u8 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MajorRaw {
    pub id: String,
    pub name: String,
    pub home: String,
    #[serde(default = "one")]
    pub station: u8,
    pub start_space: String,
    pub tokens: u8,
    pub float_percent: u8,
    pub home_token: String,
    pub group: u8,
    #[serde(default)]
    pub prussian: bool,
    pub release: ReleaseRaw,
    pub certificates: Vec<CertRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReleaseRaw {
    #[serde(default)]
    pub start_packet_sold: bool,
    #[serde(default)]
    pub sold_out: Vec<String>,
    pub company: Option<String>,
    pub sold_percent: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertRaw {
    pub percent: u8,
    #[serde(default)]
    pub director: bool,
    #[serde(default = "one")]
    pub count: u8,
    pub reserved_for: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivatesFile {
    pub private: Vec<PrivateRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivateRaw {
    pub id: String,
    pub name: String,
    pub cost: i64,
    pub income: i64,
    pub comes_with: Option<ComesWithRaw>,
    pub closes: Vec<String>,
    pub power: Option<PowerRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComesWithRaw {
    pub company: String,
    pub percent: u8,
    #[serde(default)]
    pub director: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerRaw {
    pub kind: String,
    #[serde(default)]
    pub hexes: Vec<String>,
    pub colour: Option<String>,
    pub percent: Option<u8>,
    pub text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacketFile {
    pub rows: Vec<Vec<ItemRaw>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemRaw {
    pub private: Option<String>,
    pub minor: Option<String>,
    pub director: Option<String>,
    pub price: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarketFile {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<i64>>,
    pub par_spaces: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainsFile {
    pub train: Vec<TrainRaw>,
    pub phase: Vec<PhaseRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainRaw {
    pub name: String,
    pub cities: u8,
    #[serde(default)]
    pub towns: u8,
    pub count: u8,
    pub price: i64,
    pub rusts_on: Option<String>,
    pub starts_phase: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseRaw {
    pub id: String,
    pub real: u8,
    pub tiles: Vec<String>,
    pub operating_rounds: u8,
    pub major_yellow_lays: u8,
    pub offboard_step: u8,
    pub train_trading: bool,
    pub limits: LimitsRaw,
    #[serde(default)]
    pub events: Vec<String>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsRaw {
    pub major: u8,
    pub minor: u8,
    pub prussian: u8,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TilesFile {
    pub tile: Vec<TileRaw>,
    pub preprinted: Vec<TileRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileRaw {
    pub id: String,
    pub name: Option<String>,
    pub colour: String,
    pub count: Option<u8>,
    pub label: Option<String>,
    #[serde(default)]
    pub stops: Vec<StopRaw>,
    #[serde(default)]
    pub track: Vec<[u8; 2]>,
    #[serde(default)]
    pub upgrades: Vec<String>,
    pub orientation: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRaw {
    pub kind: String,
    pub value: i64,
    #[serde(default)]
    pub slots: u8,
    pub exits: Vec<u8>,
    pub ferry: Option<FerryRaw>,
}

/// A river crossing inside a city (the brown Hamburg tile, HR 3).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FerryRaw {
    pub banks: [Vec<u8>; 2],
    pub toll: i64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub barriers: Vec<[String; 2]>,
    pub hexes: Vec<HexRaw>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexRaw {
    pub at: String,
    pub name: Option<String>,
    pub tile: String,
    #[serde(default)]
    pub rotation: u8,
    #[serde(default)]
    pub cost: i64,
    pub terrain: Option<String>,
    pub label: Option<String>,
    pub offboard: Option<[i64; 3]>,
    pub group: Option<String>,
}
