//! The game state: players' cash, every certificate's place, companies, minors, privates, the
//! start packet, the market markers and where the game stands. Plain serializable data; the
//! components themselves (names, prices, stacks) are in [`super::data::Data`] and the state
//! refers to them by position (`majors[i]` is the i-th `[[major]]` of `companies.toml`).

use super::board::BoardState;
use super::data::Space;
use super::options::Options;
use serde::{Deserialize, Serialize};

mod parts;

pub use parts::{Ask, Depot, PrussianMoment, PrussianState};

/// Where a certificate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    /// In the company's IPO stack (the "treasury" of unsold certificates).
    Ipo,
    /// In the bank pool.
    Pool,
    /// Held by the player with this zero-based seat index.
    Player(u8),
    /// A Prussian certificate kept for the exchange of a minor or private.
    Reserved,
    /// Waiting in the start packet with the item it comes with.
    Packet,
}

/// One share certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cert {
    pub percent: u8,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub director: bool,
    pub at: Loc,
}

/// A share company (the Prussian included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    pub id: String,
    /// The certificates in stack order (as in the data file).
    pub certs: Vec<Cert>,
    /// The price marker, once the director's certificate is sold (the Prussian: once formed).
    pub price: Option<Space>,
    /// Arrival order on its space: a marker arriving later goes under (lower value = on top).
    pub stamp: u32,
    pub floated: bool,
    /// Has operated at least once (its shares may be sold from then on).
    pub operated: bool,
    pub cash: i64,
    /// The home station is on the map (BA: from its first operation, HR 8).
    pub home_placed: bool,
    pub trains: Vec<String>,
}

/// A minor (pre-Prussian company).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MinorState {
    pub id: String,
    pub owner: Option<u8>,
    pub cash: i64,
    pub operated: bool,
    pub trains: Vec<String>,
    /// Converted into the Prussian (operating-round part of the engine).
    pub closed: bool,
}

/// A private company.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateState {
    pub id: String,
    pub owner: Option<u8>,
    pub closed: bool,
}

/// A player (seat index = position in `State::players`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub cash: i64,
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Round {
    /// Stock round `n` (the start-packet sale is its first part while the packet is unsold).
    Stock {
        n: u32,
    },
    /// Operating round `n` of `of` in the set that follows stock round `set`.
    Operating {
        set: u32,
        n: u8,
        of: u8,
    },
    Over,
}

impl Round {
    /// "SR3", "OR4.1", "end".
    pub fn name(self) -> String {
        match self {
            Round::Stock { n } => format!("SR{n}"),
            Round::Operating { set, n, .. } => format!("OR{set}.{n}"),
            Round::Over => "end".to_string(),
        }
    }
}

/// Lap patterns of the start-packet variants (FACTS §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// Lap 2 reversed, all others clockwise (first stock round only).
    Snake,
    /// Lap 1 reversed, then clockwise (first stock round only).
    Clemens,
    /// Even laps reversed (every stock round while the packet is unsold).
    Thompson,
}

/// The turn order of a stock round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnOrder {
    /// Each turn passes to the left.
    Clockwise,
    /// Laps over the table from `start`, some reversed; `lap` counts from 1, `pos` from 0.
    Laps { start: u8, lap: u32, pos: u8, pattern: Pattern },
}

/// The current player's turn in a stock round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub bought: bool,
    /// Companies sold this turn and the price the first sale got.
    pub sales: Vec<(u8, i64)>,
}

/// The running stock round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StockRound {
    pub current: u8,
    pub order: TurnOrder,
    /// Players who passed (declined to buy) since the last purchase.
    pub passed: Vec<bool>,
    pub last_buyer: Option<u8>,
    /// Per player, a bit per company sold this round (no buying it back this round).
    pub sold: Vec<u16>,
    pub turn: Turn,
    /// Someone took a turn in this round (rather than everyone being skipped).
    #[serde(default)]
    pub acted: bool,
    /// Purchases of this round in order: (player, company or item), for the orders' BOUGHT
    /// condition (issue 15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bought: Vec<(u8, String)>,
}

/// Who operates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entity {
    Minor(u8),
    Major(u8),
}

/// The steps of a company's turn, in order (FACTS §7.3): track, token, run, dividend, trains.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    #[default]
    Track,
    Token,
    Run,
    Dividend,
    Trains,
}

impl Step {
    /// The step's name for players.
    pub fn name(self) -> &'static str {
        match self {
            Step::Track => "track",
            Step::Token => "token",
            Step::Run => "run",
            Step::Dividend => "dividend",
            Step::Trains => "trains",
        }
    }
}

/// The operating entity's turn so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompanyTurn {
    #[serde(default)]
    pub step: Step,
    /// Normal tile lays done this turn (private free lays not counted).
    #[serde(default)]
    pub lays: u8,
    /// The normal station token of the turn is placed.
    #[serde(default)]
    pub token: bool,
    /// The revenue of the run, kept until the dividend is decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revenue: Option<i64>,
    /// The routes run (stops in order, for players), until the dividend.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<String>,
    /// An offer for another player's company's train, waiting for its director's answer
    /// (RULING K75); only the two directors and the GM see its price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer: Option<TrainOffer>,
    /// The offers of this turn that their seller declined: none is made again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declined: Vec<TrainOffer>,
}

/// The operating entity's offer for a train of a company another player directs (RULING K75).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainOffer {
    /// The company selling (its director answers).
    pub seller: Entity,
    pub train: String,
    /// What the buyer's treasury pays, at least 1 M (FACTS §7.6).
    pub price: i64,
}

/// A company's last run, kept until it runs again, for the drawing's overlay (RULING K68).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastRun {
    /// The revenue it ran for.
    pub revenue: i64,
    /// Each train's route: its stops in travel order as players name them (`E19.2`, `A11`).
    pub routes: Vec<Vec<String>>,
}

/// The running operating round: the entities still to operate, first = operating now.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OperatingRound {
    pub queue: Vec<Entity>,
    /// The turn of the entity operating now.
    #[serde(default)]
    pub turn: CompanyTurn,
    /// Private companies whose once-per-round power was used in this operating round (OBB:
    /// one hex per operating round, FACTS §3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub powers_used: Vec<String>,
}

/// The money at the end of a round, for the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundClose {
    pub round: String,
    pub players: Vec<i64>,
    /// Minors then share companies, in data order.
    pub companies: Vec<(String, i64)>,
    pub bank: i64,
}

/// The operating round after which the game ends (the bank has broken; FACTS §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndPlan {
    pub set: u32,
    pub n: u8,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub options: Options,
    pub players: Vec<Player>,
    pub bank: i64,
    /// Seat index holding the priority deal.
    pub priority: u8,
    pub majors: Vec<Company>,
    pub minors: Vec<MinorState>,
    pub privates: Vec<PrivateState>,
    /// Per start-packet item (data order): sold yet.
    pub packet_sold: Vec<bool>,
    pub round: Round,
    /// Counts round starts (a PBEM turn ends when it changes).
    pub round_seq: u32,
    pub sr: StockRound,
    pub or: OperatingRound,
    /// Index of the current phase in the data's phases.
    pub phase: u8,
    /// Last arrival stamp given to a market marker.
    pub stamp: u32,
    pub end: Option<EndPlan>,
    /// Stock rounds in a row in which nobody could act (see RULING K14).
    #[serde(default)]
    pub idle: u32,
    /// The trains outside the companies: sold from the bank, in the pool, rusted.
    #[serde(default)]
    pub depot: Depot,
    /// Prussian moments reached by phase changes and not yet carried out (FACTS §9).
    #[serde(default)]
    pub prussian_due: Vec<PrussianMoment>,
    /// The Prussian's questions and HR 10's bookkeeping.
    #[serde(default)]
    pub prussian: PrussianState,
    /// Rounds that closed during the last action (for the ledger); cleared by every action.
    #[serde(default)]
    pub closed: Vec<RoundClose>,
    /// Tiles laid and station tokens (issue 13).
    #[serde(default)]
    pub board: BoardState,
    /// Each company's last run, by company id (issue 16; RULING K68).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub last_runs: std::collections::BTreeMap<String, LastRun>,
}

impl State {
    /// Number of players.
    pub fn n(&self) -> u8 {
        u8::try_from(self.players.len()).unwrap_or(u8::MAX)
    }
    /// The seat index `k` places to the left of `p`.
    pub fn left_of(&self, p: u8, k: u8) -> u8 {
        let n = u16::from(self.n().max(1));
        u8::try_from((u16::from(p) + u16::from(k)) % n).unwrap_or(0)
    }
    /// Whether any start-packet item is unsold.
    pub fn packet_open(&self) -> bool {
        self.packet_sold.iter().any(|s| !s)
    }
    /// Total money in the game (conserved by every action).
    pub fn money(&self) -> i64 {
        self.bank
            + self.players.iter().map(|p| p.cash).sum::<i64>()
            + self.majors.iter().map(|c| c.cash).sum::<i64>()
            + self.minors.iter().map(|m| m.cash).sum::<i64>()
    }
}
