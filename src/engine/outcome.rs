//! What an adjudicated turn produced and what the GM is asked, in JSON form: the engine-agnostic
//! records the turn loop hands to the service and the store keeps (a turn's draft, its question).
//! They live in the contract, not in the registry, so storage can decode them without sitting
//! above the games.

use super::{Event, LineNote, LoggedAction, Seat, Standing};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What one adjudicated turn produced, in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnOutcome {
    pub state: Value,
    pub actions: Vec<LoggedAction>,
    pub events: Vec<Event>,
    pub notes: BTreeMap<Seat, Vec<LineNote>>,
    pub nmr: BTreeSet<Seat>,
    pub defaulted: BTreeSet<Seat>,
    pub game_over: bool,
    pub standings: Option<Vec<Standing>>,
}

/// A decision left to the GM (see `crate::adjudication::Question`), in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GmQuestion {
    pub number: usize,
    pub seat: Seat,
    pub prompt: String,
    /// The legal moves, the rules' default first.
    pub candidates: Vec<Candidate>,
}

/// One move the GM may choose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub action: Value,
    /// The move in words.
    pub label: String,
}
