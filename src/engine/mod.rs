//! The contract every game engine implements: the typed [`Game`] trait, its vocabulary (seats,
//! decisions, events, order sheets), the per-action RNG, the action log and its replay, and (for
//! tests) the conformance harness every engine runs. It imports nothing above it: the engines
//! (`crate::games`) implement it and the registry (`crate::registry`) gives it a JSON face.
//!
//! An engine is pure and deterministic: no I/O, no clock, no global RNG. A game is its
//! [`SetupSpec`] + seed + action log; replaying the log through [`Apply::apply`] reproduces the
//! state exactly. The adjudicator (`crate::adjudication`) pulls [`Decision`]s from the engine and
//! answers each from the acting seat's sealed order sheet, so sequential games are played with
//! simultaneous sealed orders.
//!
//! [`Game`] is the typed trait engines implement, the supertrait of the contract's role traits
//! (`contract`: [`Rules`], [`Setup`], [`Apply`], [`Orders`], [`View`], [`Scoring`], [`Draw`]), each
//! implemented in the engine file that plays the role; `prelude` brings them all into scope.
//! `crate::registry::DynGame` is its object-safe JSON face used by storage, web, mail and CLI,
//! which never see an engine's own types.

mod choices;
#[cfg(test)]
pub mod conformance;
mod contract;
mod count;
pub mod dice;
pub mod inventory;
pub mod log;
pub mod options;
pub mod outcome;
pub mod patch;
pub mod prelude;
pub mod rng;
mod shared;
mod sheet;

pub use choices::{answer_alone, carries_out_alone, carries_out_as};
pub use contract::{
    Apply, Draw, Game, Lasting, LedgerRefused, Orders, Referral, Rules, Scoring, Setup, View,
};
pub use count::counted;
pub use inventory::{Components, Inventory};
pub use log::{GM_SEAT, LoggedAction, correction_patch};
pub use options::{OptionKind, OptionSpec};
pub use rng::{GameRng, Pick, seating_key, shuffle_seating};
pub use shared::Shared;
pub use sheet::{NoFit, Tried};

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::{self, Display};

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

/// What a seat can order now for one of its decisions (the seat page's order builder, issue 36):
/// the decision in words and one order line per choice, each a line the game's language reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choices {
    pub decision: String,
    pub lines: Vec<String>,
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
    /// The event as `viewer` may read it. The secret part is written to its seat ("you drew
    /// 3D"), so the GM, who reads every seat's, is told whose it is ("(to seat 2: you drew 3D)").
    pub fn text_for(&self, viewer: Viewer) -> String {
        match (&self.secret, viewer) {
            (Some(s), Viewer::Gm) => format!("{} (to {}: {})", self.public, s.seat, s.text),
            (Some(s), _) if viewer.may_see(s.seat) => format!("{} ({})", self.public, s.text),
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
/// engines' [`Orders::public_lines`].
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
