//! The 1835 components as data: loading and checking the TOML files of `rules/1835/` into the
//! engine's types. Every file is embedded at build time; a broken file is a [`DataError`]
//! naming the file and the entry (`rules/1835/companies.toml: major "BA": ...`).
//!
//! `raw` holds the file shapes, `check` the companies, privates, packet, market and game
//! settings, `board` the trains, phases, tiles and map.

mod board;
mod check;
pub mod market;
mod raw;
#[cfg(test)]
mod tests;

pub use board::{Ferry, Hex, NEIGHBOUR_OFFSETS, Phase, Stop, Tile, TrainType, neighbour};
pub use market::{Market, Space};

use super::options::Options;
use std::collections::BTreeMap;

/// A data file could not be loaded: which file, which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules/1835/{file}: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct DataError {
    pub file: &'static str,
    pub entry: String,
    pub msg: String,
}

/// The texts of the data files, by file name.
#[derive(Debug, Clone)]
pub struct Files {
    pub game: String,
    pub companies: String,
    pub privates: String,
    pub start_packet: String,
    pub market: String,
    pub trains: String,
    pub tiles: String,
    pub map: String,
}

impl Files {
    /// The files shipped in `rules/1835/`, embedded at build time.
    pub fn standard() -> Files {
        Files {
            game: include_str!("../../../../rules/1835/game.toml").into(),
            companies: include_str!("../../../../rules/1835/companies.toml").into(),
            privates: include_str!("../../../../rules/1835/privates.toml").into(),
            start_packet: include_str!("../../../../rules/1835/start_packet.toml").into(),
            market: include_str!("../../../../rules/1835/market.toml").into(),
            trains: include_str!("../../../../rules/1835/trains.toml").into(),
            tiles: include_str!("../../../../rules/1835/tiles.toml").into(),
            map: include_str!("../../../../rules/1835/map.toml").into(),
        }
    }
}

/// Starting cash and certificate limit for one player count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayerSetup {
    pub count: u8,
    pub cash: i64,
    pub cert_limit: u8,
}

/// A paper that a reserved Prussian certificate is kept for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    Minor(usize),
    Private(usize),
}

/// A minor (pre-Prussian company).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minor {
    pub id: String,
    pub name: String,
    pub home: String,
    pub station: u8,
    pub price: i64,
    pub tokens: u8,
    pub prussian_percent: u8,
    pub forms_prussian: bool,
}

/// When a share company's IPO opens in the standard variant (FACTS §2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Release {
    StartPacketSold,
    /// No certificate of these companies left in the IPO.
    SoldOut(Vec<usize>),
    /// At least this percentage of that company has left the IPO.
    SoldPercent {
        company: usize,
        percent: u8,
    },
}

/// One certificate of a share company's stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CertSpec {
    pub percent: u8,
    pub director: bool,
    pub reserved_for: Option<Paper>,
}

/// A share company (the Prussian included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Major {
    pub id: String,
    pub name: String,
    pub home: String,
    pub station: u8,
    pub start_space: Space,
    pub par: i64,
    pub tokens: u8,
    pub float_percent: u8,
    /// BA places its home station at its first operation (HR 8), the others on floating.
    pub home_on_first_operation: bool,
    pub group: u8,
    pub prussian: bool,
    pub release: Release,
    /// The IPO stack, top first; the director's certificate first.
    pub certificates: Vec<CertSpec>,
}

impl Major {
    /// Percentage of the director's certificate.
    pub fn director_percent(&self) -> u8 {
        self.certificates.iter().find(|c| c.director).map(|c| c.percent).unwrap_or(20)
    }
}

/// The certificate that comes with a private.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComesWith {
    pub company: usize,
    pub percent: u8,
    pub director: bool,
}

/// A private company's special ability, as data and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Power {
    pub kind: String,
    pub hexes: Vec<String>,
    pub colour: Option<String>,
    pub percent: Option<u8>,
    pub text: String,
}

/// A private company.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Private {
    pub id: String,
    pub name: String,
    pub cost: i64,
    pub income: i64,
    pub comes_with: Option<ComesWith>,
    pub closes: Vec<String>,
    pub power: Option<Power>,
}

/// What a start-packet item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    Private(usize),
    Minor(usize),
    /// The director's certificate of a share company.
    Director(usize),
}

/// One item of the start packet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PacketItem {
    /// The name players use: the private's or minor's id, or the company's id for a director.
    pub id: String,
    pub kind: ItemKind,
    pub price: i64,
    /// Row from the top, from 0, and position in the row from the left, from 0.
    pub row: usize,
    pub column: usize,
}

/// Everything the engine knows about the components.
#[derive(Debug, Clone, PartialEq)]
pub struct Data {
    pub title: String,
    pub currency: String,
    pub bank: i64,
    pub pool_limit: u8,
    pub cert_bonus_at: u8,
    pub players: Vec<PlayerSetup>,
    pub presets: BTreeMap<String, Options>,
    pub minors: Vec<Minor>,
    pub majors: Vec<Major>,
    pub privates: Vec<Private>,
    pub packet: Vec<PacketItem>,
    pub market: Market,
    pub trains: Vec<TrainType>,
    pub phases: Vec<Phase>,
    pub tiles: Vec<Tile>,
    pub preprinted: Vec<Tile>,
    pub hexes: Vec<Hex>,
    pub barriers: Vec<[String; 2]>,
}

impl Data {
    /// The standard data files.
    pub fn standard() -> Result<Data, DataError> {
        Self::load(&Files::standard())
    }

    /// Loads and checks a set of files.
    pub fn load(files: &Files) -> Result<Data, DataError> {
        let game: raw::GameFile = parse("game.toml", &files.game)?;
        let market: raw::MarketFile = parse("market.toml", &files.market)?;
        let companies: raw::CompaniesFile = parse("companies.toml", &files.companies)?;
        let privates: raw::PrivatesFile = parse("privates.toml", &files.privates)?;
        let packet: raw::PacketFile = parse("start_packet.toml", &files.start_packet)?;
        let trains: raw::TrainsFile = parse("trains.toml", &files.trains)?;
        let tiles: raw::TilesFile = parse("tiles.toml", &files.tiles)?;
        let map: raw::MapFile = parse("map.toml", &files.map)?;
        let mut data = check::game(game)?;
        data.market = check::market(market)?;
        check::companies(&mut data, companies, &privates)?;
        data.privates = check::privates(&data, privates)?;
        data.packet = check::packet(&data, packet)?;
        let (train_types, phases) = board::trains(trains)?;
        data.trains = train_types;
        data.phases = phases;
        let (tile_list, preprinted) = board::tiles(tiles)?;
        data.tiles = tile_list;
        data.preprinted = preprinted;
        let (hexes, barriers) = board::map(map, &data.preprinted)?;
        data.hexes = hexes;
        data.barriers = barriers;
        board::homes(&data)?;
        Ok(data)
    }

    /// Setup row for a player count.
    pub fn players_setup(&self, count: u8) -> Option<PlayerSetup> {
        self.players.iter().copied().find(|p| p.count == count)
    }
    /// Index of a share company by id (case-insensitive).
    pub fn major_index(&self, id: &str) -> Option<usize> {
        self.majors.iter().position(|m| m.id.eq_ignore_ascii_case(id))
    }
    /// Index of a minor by id (case-insensitive).
    pub fn minor_index(&self, id: &str) -> Option<usize> {
        self.minors.iter().position(|m| m.id.eq_ignore_ascii_case(id))
    }
    /// Index of a private by id (case-insensitive).
    pub fn private_index(&self, id: &str) -> Option<usize> {
        self.privates.iter().position(|p| p.id.eq_ignore_ascii_case(id))
    }
    /// Index of a start-packet item by the name players use (case-insensitive).
    pub fn item_index(&self, id: &str) -> Option<usize> {
        self.packet.iter().position(|i| i.id.eq_ignore_ascii_case(id))
    }
    /// The hex with this coordinate.
    pub fn hex(&self, at: &str) -> Option<&Hex> {
        self.hexes.iter().find(|h| h.at == at)
    }
    /// A pre-printed tile by id.
    pub fn preprinted_tile(&self, id: &str) -> Option<&Tile> {
        self.preprinted.iter().find(|t| t.id == id)
    }
}

fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| DataError {
        file,
        entry: String::new(),
        msg: e.to_string().trim_end().replace('\n', " "),
    })
}
