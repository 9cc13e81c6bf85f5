//! The 1800 components as checked data: the map, the powers' start positions, the development
//! deck, the admin and military decks, ambitions, global events and overseas routes, read from
//! `rules/1800/` and refused with a clear reason (file and entry) when anything is wrong.

pub mod raw;
#[cfg(test)]
mod tests;

use super::war::board::{MilitaryCard, MilitaryEffect, ProvinceId};
pub use raw::{
    AdminEffect, AdminOption, AgCap, Alone, Ambition, EndMove, GlobalEvent, HoldEffect, Instead,
    ProvinceKind, Requirement, Requires, Reward, RewardKind, When, Where,
};
use std::collections::{BTreeMap, BTreeSet};

/// The shipped files.
const MAP: &str = include_str!("../../../../rules/1800/map.toml");
const POWERS: &str = include_str!("../../../../rules/1800/powers.toml");
const DEVELOPMENT: &str = include_str!("../../../../rules/1800/development.toml");
const ACTIONS: &str = include_str!("../../../../rules/1800/actions.toml");

/// A data file is wrong: which file, and why, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules/1800/{file}: {reason}")]
pub struct DataError {
    pub file: &'static str,
    pub reason: String,
}

fn err(file: &'static str, reason: impl Into<String>) -> DataError {
    DataError { file, reason: reason.into() }
}

/// The four file texts (the shipped ones, or a test's broken copy).
#[derive(Debug, Clone)]
pub struct Texts<'a> {
    pub map: &'a str,
    pub powers: &'a str,
    pub development: &'a str,
    pub actions: &'a str,
}

impl Texts<'static> {
    /// The files shipped in `rules/1800/`.
    pub fn standard() -> Self {
        Texts { map: MAP, powers: POWERS, development: DEVELOPMENT, actions: ACTIONS }
    }
}

/// One province, checked.
#[derive(Debug, Clone)]
pub struct Province {
    pub code: String,
    pub name: String,
    pub kind: ProvinceKind,
    /// The power whose home this is (index into [`Data::powers`]).
    pub home: Option<usize>,
    pub coastal: bool,
    /// Land neighbours and strait crossings, sorted.
    pub adjacent: Vec<u16>,
    pub straits: Vec<u16>,
}

impl Province {
    /// Whether this is a city.
    pub fn is_city(&self) -> bool {
        self.kind == ProvinceKind::City
    }
    /// Improvement places (rules, "Improvements": cities 5, countrysides 2).
    pub fn improvement_places(&self) -> u8 {
        if self.is_city() { 5 } else { 2 }
    }
}

/// One power and its start position.
#[derive(Debug, Clone)]
pub struct Power {
    pub code: String,
    pub name: String,
    pub factories: Vec<u16>,
    pub pops: Vec<u16>,
}

/// The kind of development card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum DevType {
    Policy,
    Technology,
    Institution,
}

/// The slots: policies 0..3 (government, economy, industry), technologies 0..5 (food,
/// agriculture, military, infrastructure, communications).
pub const POLICY_SLOTS: [&str; 3] = ["government", "economy", "industry"];
/// The technology slots, in the data's words (FACTS §1: food = storage, infrastructure =
/// transportation; RULING E67).
pub const TECH_SLOTS: [&str; 5] = ["food", "agriculture", "military", "infrastructure", "communications"];

/// One development card kind, checked.
#[derive(Debug, Clone)]
pub struct DevCard {
    pub name: String,
    pub kind: DevType,
    /// Index in [`POLICY_SLOTS`] or [`TECH_SLOTS`]; 0 for institutions.
    pub slot: usize,
    pub count: u8,
    pub start: bool,
    pub era: u8,
    pub level: u8,
    pub requires: Option<Requirement>,
    /// Resource squares: food, production, commerce.
    pub slots: [u8; 3],
    pub hold: bool,
    pub admin_cost: u8,
    pub reward: Vec<Reward>,
    /// The activation by admin (or military) cards alone, if the card has one (RULINGS E79, E83).
    pub alt: Option<Alone>,
    pub income: u8,
    pub place_cap: Option<u8>,
    pub self_cap: Option<u8>,
    /// More food than the squares may be held; activation takes only the squares (RULING E84).
    pub overfill: bool,
    pub deficit: Option<u8>,
    pub ag_cap: Option<AgCap>,
    pub ammonia: bool,
    pub infra: Vec<u8>,
    pub regiment_moves: u8,
    pub mobility: u8,
    pub routes: u8,
    pub battle: u8,
    pub end_move: Vec<EndMove>,
    pub army: bool,
    pub navy: bool,
    pub recruit: bool,
    pub republic: bool,
    pub command_economy: bool,
    pub hold_effect: Option<HoldEffect>,
    /// A government policy's substitute for an admin card's prosperity cost.
    pub instead: Option<Instead>,
    /// A factory may be taken as prosperity and commerce instead (Corporations).
    pub corporate: bool,
}

impl DevCard {
    /// Whether the card can be activated (it has an activation, not a held effect).
    pub fn activates(&self) -> bool {
        !self.hold && !self.reward.is_empty()
    }

    /// Whether `res` fills every square (rules, "when sufficient resources have been placed");
    /// an overfilling card may hold more food than its squares (RULING E84).
    pub fn is_full(&self, res: [u8; 3]) -> bool {
        if self.overfill { res[0] >= self.slots[0] && res[1..] == self.slots[1..] } else { res == self.slots }
    }

    /// What stays on the card when it is activated holding `res`: nothing ("remove all
    /// resources that you've placed on the card"), but the food beyond the squares of an
    /// overfilling card ("activation removes only 3", RULING E84).
    pub fn left_after_activation(&self, res: [u8; 3]) -> [u8; 3] {
        if self.overfill { [res[0].saturating_sub(self.slots[0]), 0, 0] } else { [0; 3] }
    }
}

/// One admin card kind.
#[derive(Debug, Clone)]
pub struct AdminCard {
    pub name: String,
    pub count: u8,
    pub play: Vec<AdminOption>,
    /// Policies (development card kinds) in force with which it may not be played.
    pub not_with: Vec<u16>,
    /// Development card kinds it searches for.
    pub search: Vec<u16>,
    /// May be discarded instead of a prosperity cost that cannot be paid.
    pub substitute: bool,
}

/// One military card kind: the war's own form (`war::board::MilitaryCard`) and its count.
#[derive(Debug, Clone)]
pub struct MilitaryKind {
    pub name: String,
    pub count: u8,
    pub effect: MilitaryEffect,
}

/// One ambition.
#[derive(Debug, Clone)]
pub struct AmbitionCard {
    pub name: String,
    pub score: Ambition,
    pub reconstructed: bool,
}

/// One global event kind.
#[derive(Debug, Clone)]
pub struct EventCard {
    pub name: String,
    pub count: u8,
    pub effect: GlobalEvent,
}

/// All the components, checked.
#[derive(Debug, Clone)]
pub struct Data {
    pub provinces: Vec<Province>,
    /// The sea zones' ids, and their names in the same order.
    pub seas: Vec<String>,
    pub sea_names: Vec<String>,
    pub powers: Vec<Power>,
    /// Power indices in the order they are seated for fewer than eight players.
    pub seating: Vec<usize>,
    pub neutral_regiments: Vec<u16>,
    pub start_prosperity: u8,
    pub pop_supply: u8,
    pub regiment_supply: u8,
    pub trade_tokens: u8,
    pub dev: Vec<DevCard>,
    pub admin: Vec<AdminCard>,
    pub military: Vec<MilitaryKind>,
    /// The military cards as the war reads them (same order as `military`).
    pub military_cards: Vec<MilitaryCard>,
    /// Each province's neighbours as the war's ids.
    pub neighbour_ids: Vec<Vec<ProvinceId>>,
    pub ambitions: Vec<AmbitionCard>,
    pub events: Vec<EventCard>,
    pub routes: Vec<String>,
    /// Which parts are reconstructions (map, powers, routes).
    pub reconstructed: Vec<&'static str>,
}

mod check;

impl Data {
    /// The shipped files.
    pub fn standard() -> Result<Data, DataError> {
        Data::from_texts(&Texts::standard())
    }

    /// Reads and checks four file texts.
    pub fn from_texts(t: &Texts<'_>) -> Result<Data, DataError> {
        check::load(t)
    }

    /// The province with this name (any case, spaces and punctuation ignored) or code.
    pub fn province_named(&self, name: &str) -> Option<u16> {
        let want = fold(name);
        self.provinces
            .iter()
            .position(|p| fold(&p.name) == want || fold(&p.code) == want)
            .and_then(|i| u16::try_from(i).ok())
    }

    /// The development card with this name (folded as for provinces).
    pub fn dev_named(&self, name: &str) -> Option<u16> {
        let want = fold(name);
        self.dev.iter().position(|c| fold(&c.name) == want).and_then(|i| u16::try_from(i).ok())
    }

    /// The admin card with this name.
    pub fn admin_named(&self, name: &str) -> Option<u8> {
        let want = fold(name);
        self.admin.iter().position(|c| fold(&c.name) == want).and_then(|i| u8::try_from(i).ok())
    }

    /// A province's neighbours (land and strait).
    pub fn neighbours(&self, p: u16) -> &[u16] {
        self.provinces.get(usize::from(p)).map(|x| x.adjacent.as_slice()).unwrap_or(&[])
    }

    /// Whether two provinces border (by land or strait).
    pub fn adjacent(&self, a: u16, b: u16) -> bool {
        self.neighbours(a).contains(&b)
    }

    /// The starting card of a slot (policy or technology).
    pub fn starting(&self, kind: DevType, slot: usize) -> Option<u16> {
        self.dev
            .iter()
            .position(|c| c.start && c.kind == kind && c.slot == slot)
            .and_then(|i| u16::try_from(i).ok())
    }

    /// The name of a development card kind.
    pub fn dev_name(&self, c: u16) -> &str {
        self.dev.get(usize::from(c)).map(|d| d.name.as_str()).unwrap_or("?")
    }

    /// The name of a province.
    pub fn province_name(&self, p: u16) -> &str {
        self.provinces.get(usize::from(p)).map(|d| d.name.as_str()).unwrap_or("?")
    }
}

/// A name folded for comparison: lower case, letters and digits only.
pub fn fold(name: &str) -> String {
    name.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// Province names that must exist: every name the rules text uses in the start positions
/// (checked against `powers.toml` too, so a renamed province is caught twice).
pub const NAMED_IN_RULES: [&str; 48] = [
    "London",
    "Liverpool",
    "Wales",
    "Midlands",
    "Scotland",
    "Ireland",
    "Paris",
    "Lyon",
    "Normandie",
    "Acquitaine",
    "Occitanie",
    "Champagne",
    "Berlin",
    "Konigsberg",
    "Pommerania",
    "Hesse",
    "Saxony",
    "Rheinland",
    "Vienna",
    "Budapest",
    "Bohemia",
    "Galicia",
    "Tyrol",
    "Transylvania",
    "Moscow",
    "St. Petersburg",
    "Livonia",
    "Belarus",
    "Ukraine",
    "Crimea",
    "Madrid",
    "Sevilla",
    "Leon",
    "Aragon",
    "Andalucia",
    "Morocco",
    "Rome",
    "Milan",
    "Tuscany",
    "Costa Adriatica",
    "Napoli",
    "Piedmont",
    "Constantinople",
    "Bucharest",
    "Bursa",
    "Ankara",
    "Bulgaria",
    "Greece",
];

/// Expected counts (FACTS §3), checked on load.
pub(crate) const EXPECTED: [(&str, usize); 7] = [
    ("provinces", 73),
    ("development deck (policies, institutions, technologies)", 226),
    ("admin deck", 94),
    ("military deck", 61),
    ("ambitions", 8),
    ("global events", 8),
    ("overseas routes", 8),
];

/// Counts a map's names for a duplicate check.
pub(crate) fn duplicates<'a>(names: impl Iterator<Item = &'a str>) -> Option<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for n in names {
        *seen.entry(fold(n)).or_default() += 1;
    }
    seen.into_iter().find(|(_, k)| *k > 1).map(|(n, _)| n)
}

/// The connected part of `within` containing `start`, by the map's adjacency.
pub fn connected(provinces: &[Province], start: u16, within: &BTreeSet<u16>) -> BTreeSet<u16> {
    let mut seen = BTreeSet::from([start]);
    let mut todo = vec![start];
    while let Some(p) = todo.pop() {
        for &q in provinces.get(usize::from(p)).map(|x| x.adjacent.as_slice()).unwrap_or(&[]) {
            if within.contains(&q) && seen.insert(q) {
                todo.push(q);
            }
        }
    }
    seen
}
