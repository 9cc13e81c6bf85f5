//! The 1800 data files as written (`rules/1800/*.toml`), before checking: serde types that
//! refuse unknown fields, so a misspelt key is an error and not a silent default.

use serde::Deserialize;

/// `map.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub reconstructed: bool,
    pub seas: Vec<SeaRow>,
    pub province: Vec<ProvinceRow>,
}

/// One sea zone.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaRow {
    pub id: String,
    pub name: String,
    pub borders: Vec<String>,
}

/// One province as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProvinceRow {
    pub id: String,
    pub name: String,
    pub kind: ProvinceKind,
    #[serde(default)]
    pub home: Option<String>,
    #[serde(default)]
    pub seas: Vec<String>,
    pub adjacent: Vec<String>,
    #[serde(default)]
    pub straits: Vec<String>,
}

/// A city or a countryside (rules, "Pops, Regiments, & Provinces").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProvinceKind {
    City,
    Countryside,
}

/// `powers.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowersFile {
    pub reconstructed: bool,
    pub start_prosperity: u8,
    pub pop_supply: u8,
    pub regiment_supply: u8,
    pub trade_tokens: u8,
    pub seating: Vec<String>,
    pub neutral_regiments: Vec<String>,
    pub power: Vec<PowerRow>,
}

/// One power's start position.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerRow {
    pub id: String,
    pub name: String,
    pub factories: Vec<String>,
    pub pops: Vec<String>,
}

/// `development.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevelopmentFile {
    pub card: Vec<DevRow>,
}

/// One development card as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevRow {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub slot: Option<String>,
    pub count: u8,
    #[serde(default)]
    pub era: u8,
    #[serde(default)]
    pub level: u8,
    #[serde(default)]
    pub requires: Option<Requirement>,
    #[serde(default)]
    pub slots: String,
    #[serde(default)]
    pub hold: bool,
    #[serde(default)]
    pub admin_cost: u8,
    #[serde(default)]
    pub reward: Vec<Reward>,
    /// A second way to activate the card: admin cards alone, its squares left as they are
    /// (Public Schools, Secret Police; RULING E79).
    #[serde(default)]
    pub alt: Option<Alone>,
    #[serde(default)]
    pub income: u8,
    #[serde(default)]
    pub place_cap: Option<u8>,
    #[serde(default)]
    pub self_cap: Option<u8>,
    /// The card may hold more food than its squares; activation removes only the squares' worth
    /// (Freon Refrigeration, RULING E84).
    #[serde(default)]
    pub overfill: bool,
    #[serde(default)]
    pub deficit: Option<u8>,
    #[serde(default)]
    pub ag_cap: Option<AgCap>,
    #[serde(default)]
    pub ammonia: bool,
    #[serde(default)]
    pub infra: Option<Vec<u8>>,
    #[serde(default)]
    pub regiment_moves: Option<u8>,
    #[serde(default)]
    pub mobility: Option<u8>,
    #[serde(default)]
    pub routes: Option<u8>,
    #[serde(default)]
    pub battle: Option<u8>,
    #[serde(default)]
    pub end_move: Vec<EndMove>,
    #[serde(default)]
    pub army: bool,
    #[serde(default)]
    pub navy: bool,
    #[serde(default)]
    pub recruit: bool,
    #[serde(default)]
    pub republic: bool,
    #[serde(default)]
    pub command_economy: bool,
    #[serde(default)]
    pub hold_effect: Option<HoldEffect>,
    /// What a government policy lets you pay when you cannot pay an admin card's prosperity.
    #[serde(default)]
    pub instead: Option<Instead>,
    /// An industry policy that lets a factory be taken as 1 prosperity and 1 commerce on a
    /// Stock Exchange instead (Corporations).
    #[serde(default)]
    pub corporate: bool,
}

/// A government policy's substitute for an admin card's prosperity cost (FACTS §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Instead {
    /// Oligarchy: 1 commerce.
    Commerce,
    /// Police State, at prosperity 0: a military card.
    Military,
}

/// A technology's requirement: at least `n` of `what`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Requirement {
    pub what: Requires,
    pub n: u8,
}

/// What a technology requirement counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Requires {
    Factories,
    IndustrialAgriculture,
    Bourgeois,
    Army,
    TradeRoutes,
}

/// One part of a development card's activation reward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reward {
    #[serde(rename = "do")]
    pub what: RewardKind,
    pub n: i8,
}

/// A card's activation by admin cards alone (RULING E79), or by military cards alone (Police
/// State, RULING E83): how many of each, and what it gives.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alone {
    #[serde(default)]
    pub admin_cost: u8,
    #[serde(default)]
    pub military_cost: u8,
    pub reward: Vec<Reward>,
}

/// What an activation gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RewardKind {
    DrawAdmin,
    DrawMilitary,
    DiscardMilitary,
    Prosperity,
    Factory,
    Pop,
    Techpick,
    NavyRaid,
    Convert,
    /// Move a laborer or a farmer of yours into an adjacent city you control (Public Schools,
    /// RULING E80).
    Educate,
    /// Remove a pop not your own from a province you control (Secret Police, RULING E81).
    Massacre,
}

/// The agriculture technologies' cap on Industrial Agriculture food (FACTS §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgCap {
    PerTwoFarmerProvince,
    TwoPerTwoFarmerProvince,
    TwoPerFarmedProvince,
}

/// An end-of-turn pop move a policy allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndMove {
    pub from: Where,
    pub to: Where,
    pub when: When,
}

/// Which provinces an end-of-turn move may start from or go to (always ones you control).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Where {
    Controlled,
    City,
    Countryside,
}

/// When an end-of-turn move is allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    Always,
    NoSurplus,
    Surplus,
}

/// What resources held on an institution do (FACTS §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HoldEffect {
    Infrastructure,
    IndustrialAgriculture,
    Financial,
    StockExchange,
    Hospitals,
}

/// `actions.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionsFile {
    pub admin: Vec<AdminRow>,
    pub military: Vec<MilitaryRow>,
    pub ambition: Vec<AmbitionRow>,
    pub event: Vec<EventRow>,
    pub routes: RoutesRow,
}

/// One admin card.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminRow {
    pub name: String,
    pub count: u8,
    pub play: Vec<AdminOption>,
    /// Policies in force with which the card may not be played (by name).
    #[serde(default)]
    pub not_with: Vec<String>,
    /// Development cards searched for in the deck and discard pile (Free Enterprise).
    #[serde(default)]
    pub search: Vec<String>,
    /// The card may be discarded instead of another card's prosperity cost you cannot pay
    /// (Propaganda Campaign).
    #[serde(default)]
    pub substitute: bool,
}

/// One way of playing an admin card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct AdminOption {
    #[serde(rename = "do")]
    pub what: AdminEffect,
    /// Prosperity lost to play it.
    #[serde(default)]
    pub cost: u8,
    /// Production taken from your industry policy.
    #[serde(default)]
    pub industry_p: u8,
    /// Commerce taken from one of your policies or institutions.
    #[serde(default)]
    pub commerce: u8,
    /// A pop of yours is sacrificed.
    #[serde(default)]
    pub sacrifice: bool,
    /// The cost is 1 commerce moved from one of your Financial Institutions to one of your Stock
    /// Exchanges (Free Enterprise's second way to pay).
    #[serde(default)]
    pub shift: bool,
}

/// What an admin card option does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminEffect {
    Factory,
    Factory2,
    DrawMilitary,
    TradeRoute,
    Urbanize,
    NewAdministration,
    Techpick,
    Convert,
    Settle,
    Conscription,
    /// Play at the start of the draft to pick before those who did not (Accelerate Development).
    Accelerate,
    /// Play at your pick: pick twice, then a card joins the offer (Policy Initiative).
    Initiative,
    /// Play a random one of Infrastructure, Industrial Agriculture, Financial Institution found
    /// in the development deck or discard pile (Free Enterprise).
    FreeEnterprise,
    /// At the round's end, war on a power that did you a wrong this round (Diplomatic Action;
    /// RULING E72: a raid, cleansing, massacre, sabotage or supported rebellion).
    Retaliate,
    /// Take a neutral province: military cards for its neutral regiments, then perhaps move in.
    Conquest,
    /// With a willing power, each takes one technology the other has (Diplomatic Action).
    TradeTechnology,
    /// Take the face-up technologies a chosen power has discovered (Espionage).
    StealTechnology,
    /// Remove up to 3 production or food from another power's card (Espionage).
    Sabotage,
    /// Drive out an occupier where most pops are occupied (Espionage).
    SupportRebellion,
    /// Remove up to 2 pops of others from a province holding your regiment (Expansionism).
    Cleanse,
    Held,
}

/// One military card as written; its effect is the war's own form.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MilitaryRow {
    pub name: String,
    pub count: u8,
    pub effect: toml::Value,
}

/// One national ambition.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmbitionRow {
    pub name: String,
    pub score: Ambition,
    #[serde(default)]
    pub reconstructed: bool,
}

/// How an ambition scores (FACTS §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ambition {
    Science,
    Culture,
    Conquest,
    Wealth,
    Growth,
    Welfare,
    Industry,
    Commerce,
}

/// One global event.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRow {
    pub name: String,
    pub count: u8,
    pub effect: GlobalEvent,
}

/// What a global event does (FACTS §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GlobalEvent {
    UnrestOverseas,
    UnrestAtHome,
    LiberalRevolution,
    RisingFascism,
    Flooding,
    GreatWar,
    Migration,
}

/// The overseas trade routes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutesRow {
    pub reconstructed: bool,
    pub names: Vec<String>,
}
