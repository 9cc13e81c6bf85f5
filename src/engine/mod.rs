//! The contract every game engine implements: the typed [`Game`] trait, its vocabulary (seats,
//! decisions, events, order sheets), the per-action RNG, the action log and its replay, and (for
//! tests) the conformance harness every engine runs. It imports nothing above it: the engines
//! (`crate::games`) implement it and the registry (`crate::registry`) gives it a JSON face.
//!
//! An engine is pure and deterministic: no I/O, no clock, no global RNG. A game is its
//! [`SetupSpec`] + seed + action log; replaying the log through [`Game::apply`] reproduces the
//! state exactly. The adjudicator (`crate::adjudication`) pulls [`Decision`]s from the engine and
//! answers each from the acting seat's sealed order sheet, so sequential games are played with
//! simultaneous sealed orders.
//!
//! [`Game`] is the typed trait engines implement; `crate::registry::DynGame` is its object-safe
//! JSON face used by storage, web, mail and CLI, which never see an engine's own types.

#[cfg(test)]
pub mod conformance;
pub mod dice;
pub mod log;
pub mod outcome;
pub mod patch;
pub mod rng;
mod shared;
mod sheet;

pub use log::{GM_SEAT, LoggedAction, correction_patch};
pub use rng::{GameRng, Pick};
pub use shared::Shared;
pub use sheet::{NoFit, Tried};

use crate::draw::Fragment;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::{self, Debug, Display};
use std::ops::RangeInclusive;

/// A seat at the table, numbered from 1 in seating order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's zero-based index (for indexing per-seat vectors).
    pub fn index(self) -> usize {
        usize::from(self.0.saturating_sub(1))
    }
    /// The seat at a zero-based index.
    pub fn from_index(i: usize) -> Seat {
        Seat(u8::try_from(i + 1).unwrap_or(u8::MAX))
    }
    /// Every seat of an `n`-player game, in seating order.
    pub fn all(n: usize) -> Vec<Seat> {
        (0..n).map(Seat::from_index).collect()
    }
}

impl Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// What a game is set up with: the number of seats and the engine's own options (JSON object;
/// each engine documents and validates its keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetupSpec {
    pub seats: u8,
    #[serde(default)]
    pub options: serde_json::Value,
}

/// Whose move it is and what kind of move, in words a player can read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub seat: Seat,
    /// e.g. "play a card on a chain, or draw two", "claim a suit".
    pub prompt: String,
}

/// Who is looking at a game. Hidden information (hands, other seats' secrets) must only ever be
/// shown to the seat it belongs to; the GM sees everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Viewer {
    Public,
    Seat(Seat),
    Gm,
}

impl Viewer {
    /// Whether this viewer may see what only `seat` may see.
    pub fn may_see(self, seat: Seat) -> bool {
        match self {
            Viewer::Gm => true,
            Viewer::Seat(s) => s == seat,
            Viewer::Public => false,
        }
    }
}

/// Something that happened, as text: the public part everyone reads, and optionally a secret
/// part only one seat (and the GM) may read — e.g. "you drew the 7 of Hearts".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub public: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretNote>,
}

/// The part of an [`Event`] only `seat` may read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretNote {
    pub seat: Seat,
    pub text: String,
}

impl Event {
    /// An event with no secret part.
    pub fn public(text: impl Into<String>) -> Self {
        Event { public: text.into(), secret: None }
    }
    /// An event with a part only `seat` may read.
    pub fn with_secret(text: impl Into<String>, seat: Seat, secret: impl Into<String>) -> Self {
        Event { public: text.into(), secret: Some(SecretNote { seat, text: secret.into() }) }
    }
    /// The event as `viewer` may read it.
    pub fn text_for(&self, viewer: Viewer) -> String {
        match &self.secret {
            Some(s) if viewer.may_see(s.seat) => format!("{} ({})", self.public, s.text),
            _ => self.public.clone(),
        }
    }
}

/// An action the rules do not allow here, with a reason a player can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{0}")]
pub struct Illegal(pub String);

/// A game cannot be set up with these seats or options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// An order line the game's order language does not understand, with a reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OrderError(pub String);

/// One parsed order with the line it came from (1-based, as the player wrote it).
#[derive(Debug, Clone, PartialEq)]
pub struct Numbered<O> {
    pub line: usize,
    pub order: O,
}

/// A seat's parsed orders for one turn, with a mark per order for "already used", so that an
/// engine consulted at several decision points can consume orders in sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderSheet<O> {
    pub orders: Vec<Numbered<O>>,
    pub used: Vec<bool>,
}

impl<O> OrderSheet<O> {
    /// A sheet with nothing used yet.
    pub fn new(orders: Vec<Numbered<O>>) -> Self {
        let used = vec![false; orders.len()];
        OrderSheet { orders, used }
    }
    /// Whether the seat gave no usable order at all.
    pub fn is_empty(&self) -> bool {
        self.orders.is_empty()
    }
    /// The orders not yet used, with their index in the sheet.
    pub fn unused(&self) -> impl Iterator<Item = (usize, &Numbered<O>)> {
        self.orders.iter().enumerate().filter(|(i, _)| !self.used[*i])
    }
}

/// What the engine made of one order line at one decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineNote {
    pub line: usize,
    /// true when the line was carried out.
    pub executed: bool,
    /// "played 7♥ on the North chain", or why it could not be carried out.
    pub note: String,
}

/// The lines (by number) that were carried out at some decision: the starting point of most
/// engines' [`Game::public_lines`].
pub fn executed_lines(notes: &[LineNote]) -> BTreeSet<usize> {
    notes.iter().filter(|n| n.executed && n.line > 0).map(|n| n.line).collect()
}

/// The engine's answer to a decision from a seat's sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer<A> {
    /// The action the orders call for, or `None` when they give no legal answer (the game's
    /// default then applies and the seat may be counted NMR).
    pub action: Option<A>,
    pub notes: Vec<LineNote>,
}

impl<A> Answer<A> {
    /// This answer, or, when it gives no action though the seat sent orders, `default()`'s in its
    /// place: a seat whose orders fit nothing takes the rules' default as its answer instead of
    /// being counted NMR (a sheet with no order at all stays without an action).
    pub fn or_default_if_ordered<O>(
        mut self,
        sheet: &OrderSheet<O>,
        default: impl FnOnce() -> Option<A>,
    ) -> Self {
        if self.action.is_none() && !sheet.is_empty() {
            self.action = default();
        }
        self
    }
}

/// Final standings when a game is over, best first; tied seats share a place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    pub place: u8,
    /// The score in the game's own terms, e.g. "chain of 23 cards".
    pub score: String,
}

/// One game's rules. Pure: same inputs, same outputs; no I/O, clock or global state.
///
/// `apply` is atomic: when it returns `Err`, the state is unchanged.
pub trait Game: Send + Sync + 'static {
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    type Order: Clone + Debug + Display + Send + Sync;

    /// Stable identifier stored on every game row; never renamed.
    fn slug(&self) -> &'static str;
    /// Human name of the game.
    fn title(&self) -> &'static str;
    /// Bumped whenever the same inputs could adjudicate differently.
    fn rules_version(&self) -> u32;
    /// Whether a game stored under rules version `v` can be played on and replayed by this
    /// engine. Default: only the current version (RULINGS S15); an engine that still plays an
    /// older version's games says so here.
    fn supports_rules_version(&self, v: u32) -> bool {
        v == self.rules_version()
    }
    /// How many seats the game can be played with.
    fn seat_counts(&self) -> RangeInclusive<u8>;

    /// Deals, shuffles and places everything for a new game.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<Self::State, SetupError>;
    /// Who must act next and how; `None` when the game is over.
    fn next_decision(&self, state: &Self::State) -> Option<Decision>;
    /// Every legal action at this decision (the web UI and order checker list them).
    fn legal_actions(&self, state: &Self::State, decision: &Decision) -> Vec<Self::Action>;
    /// Applies one action atomically.
    fn apply(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal>;

    /// The seats that must act in the PBEM turn that starts at `state` (whose orders are awaited).
    fn acting_seats(&self, state: &Self::State) -> Vec<Seat>;
    /// Whether the PBEM turn that started at `start` is over at `now` (the game being over also
    /// ends it; the adjudicator checks that separately).
    fn turn_complete(&self, start: &Self::State, now: &Self::State) -> bool;

    /// Parses one non-empty, non-comment order line.
    fn parse_order(&self, line: &str) -> Result<Self::Order, OrderError>;
    /// Advice on an order at submission time that does not reject it ("you do not hold 7♥").
    fn advise(&self, _state: &Self::State, _seat: Seat, _order: &Self::Order) -> Option<String> {
        None
    }
    /// Answers `decision` from the acting seat's sheet, marking orders used as it consumes them.
    fn answer(
        &self,
        state: &Self::State,
        decision: &Decision,
        sheet: &mut OrderSheet<Self::Order>,
    ) -> Answer<Self::Action>;
    /// The rules' forced default when the orders give no legal answer. Must be legal.
    fn default_action(&self, state: &Self::State, decision: &Decision) -> Option<Self::Action>;
    /// Which lines of a seat's adjudicated sheet everyone may read once the turn is published
    /// (their line numbers), given what the adjudication noted per line. Everything else is
    /// published as a hash only, so the receipt stays verifiable without revealing it: a line
    /// may be public only when its text tells nothing the turn's public events do not (never an
    /// unplayed alternative, a card named in a condition, or a standing order the views hide).
    fn public_lines(&self, sheet: &OrderSheet<Self::Order>, notes: &[LineNote]) -> BTreeSet<usize>;

    /// What `viewer` may see of the state, as JSON for the API.
    fn view(&self, state: &Self::State, viewer: Viewer) -> serde_json::Value;
    /// What `viewer` may see of the state, as plain text for pages and mail.
    fn describe(&self, state: &Self::State, viewer: Viewer) -> String;
    /// Final standings once the game is over.
    fn standings(&self, state: &Self::State) -> Option<Vec<Standing>>;
    /// A cash ledger of a JSONL action log (`{"seat": 2, "action": {...}}` per line), for games
    /// that keep one: the CSV (one row per entity after every round) and the final state, or why
    /// a line was refused (naming it) with the ledger of the rounds completed before it.
    /// Default: the game keeps no ledger.
    #[allow(clippy::type_complexity)]
    fn ledger(
        &self,
        _players: &[String],
        _options: &serde_json::Value,
        _seed: u64,
        _log: &str,
    ) -> Option<Result<(String, Self::State), LedgerRefused>> {
        None
    }
    /// An action in words, for the GM choosing among candidates. Defaults to its JSON form.
    fn describe_action(&self, action: &Self::Action) -> String {
        serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
    }

    /// When [`Game::answer`] gave no action: whether the game's rules send this decision to the
    /// GM instead of the default, with the candidates ranked best first (1835 HR 17 rung B: the
    /// tile that best follows the director's stated plan). Default: never.
    fn refer(
        &self,
        _state: &Self::State,
        _decision: &Decision,
        _sheet: &OrderSheet<Self::Order>,
    ) -> Option<Referral<Self::Action>> {
        None
    }
    /// How many of the game's rounds have ended between `start` (where a PBEM turn began) and
    /// `now` (1835 HR 14: a turn covers several rounds; the adjudicator may stop between them).
    /// Default: 0 (a game whose turns are not made of rounds).
    fn rounds_since(&self, _start: &Self::State, _now: &Self::State) -> u32 {
        0
    }
    /// The heading of the round `state` is in, for a turn report that groups what happened
    /// round by round (issue 15); `None` for a game whose turns are not made of rounds (default).
    fn round_title(&self, _state: &Self::State) -> Option<String> {
        None
    }
    /// Whether a seat's orders ask that the turn end after the round it is in (HR 14).
    fn wants_one_round(&self, _sheet: &OrderSheet<Self::Order>) -> bool {
        false
    }
    /// Why a seat's remaining orders no longer fit the position `now` at a round's end (the
    /// Prussian formed, an ordered company closed, most lines unusable), or `None` when they
    /// still fit (HR 14: the GM is then asked whether the turn goes on).
    fn misfit(&self, _state: &Self::State, _seat: Seat, _sheet: &OrderSheet<Self::Order>) -> Option<String> {
        None
    }
    /// The part of the picture every viewer sees alike (a map with its pieces), drawn only from
    /// what the whole table may know, once per state, to be placed in each viewer's picture by
    /// [`Game::draw_on`]. Default: the picture has no such part.
    fn draw_board(&self, _state: &Self::State) -> Option<Fragment> {
        None
    }
    /// A picture of what `viewer` may see of the table, as a standalone SVG document (never more
    /// than [`Game::describe`] shows that viewer), with `board` — this state's
    /// [`Game::draw_board`] — placed in it. Default: the game has no drawing.
    fn draw_on(&self, _state: &Self::State, _viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        None
    }
    /// The picture `viewer` sees: [`Game::draw_on`] around this state's [`Game::draw_board`].
    /// Engines implement those two, not this (the conformance harness checks they agree).
    fn draw(&self, state: &Self::State, viewer: Viewer) -> Option<String> {
        self.draw_on(state, viewer, self.draw_board(state).as_ref())
    }
    /// A short example of this game's order text, for the order box.
    fn order_example(&self) -> &'static str {
        ""
    }
    /// The game's order guide (Markdown), served as a page and linked from the order box.
    fn order_guide(&self) -> Option<&'static str> {
        None
    }
    /// Whether the game rolls dice during play ([`GameRng::roll`]): its turns then carry a dice
    /// commitment when they open and reveal the keys in their report ([`dice`]).
    fn rolls_dice(&self) -> bool {
        false
    }
}

/// A decision the rules refer to the GM ([`Game::refer`]): why, and the candidates best first.
#[derive(Debug, Clone, PartialEq)]
pub struct Referral<A> {
    /// What the GM is asked, e.g. "HR 17 (B): which tile best follows BY's plan toward Berlin?".
    pub prompt: String,
    pub candidates: Vec<A>,
}

/// A ledger replay stopped at a line: why (naming the line), and the CSV of every round
/// completed before it (so a long game's ledger is not lost to one bad line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct LedgerRefused {
    /// The ledger up to the refused line (header included).
    pub csv: String,
    /// Why the line was refused, naming it.
    pub error: String,
}
