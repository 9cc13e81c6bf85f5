//! The decision about one inbound message, shared by the steps that reach it (the routing and
//! flood limits in `limits`, the commands in `commands`) and the face (`super`) that records it.

use super::reply::Section;
use super::route::Routed;
use crate::domain::{InboundStatus, Notice};
use crate::service::SeatAuth;
use crate::store::games::GameRow;
use chrono::{DateTime, Utc};

/// The decision about one message: its status, a one-line outcome for the GM, the seat it was
/// for (if known, with its reply-address generation) and the sections of the answer to that
/// seat (none: no answer); the game, when it was loaded on the way.
pub(super) struct Decided {
    pub(super) status: InboundStatus,
    pub(super) outcome: String,
    pub(super) seat: Option<SeatAuth>,
    pub(super) generation: i32,
    pub(super) game: Option<GameRow>,
    pub(super) turn: Option<i32>,
    /// The open turn's deadline and its version, when orders were just stored for it.
    pub(super) deadline: Option<(i32, DateTime<Utc>, i32)>,
    pub(super) sections: Vec<Section>,
    pub(super) finalised: bool,
    /// For refusals under the flood limits: whether the notice was `sent` or `withheld`.
    pub(super) notice: Option<Notice>,
    /// Mail for no seat, kept within its bound.
    pub(super) unrouted: bool,
}

impl Decided {
    pub(super) fn silent(status: InboundStatus, outcome: impl Into<String>) -> Self {
        Decided {
            status,
            outcome: outcome.into(),
            seat: None,
            generation: 1,
            game: None,
            turn: None,
            deadline: None,
            sections: Vec::new(),
            finalised: false,
            notice: None,
            unrouted: false,
        }
    }
    pub(super) fn refused(seat: Routed, outcome: impl Into<String>, why: Vec<String>) -> Self {
        Decided {
            status: InboundStatus::Rejected,
            outcome: outcome.into(),
            seat: Some(seat.auth),
            generation: seat.generation,
            game: None,
            turn: None,
            deadline: None,
            sections: vec![Section::new("Your mail was not accepted", why)],
            finalised: false,
            notice: None,
            unrouted: false,
        }
    }
}
