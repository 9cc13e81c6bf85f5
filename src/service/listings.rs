//! The service's own view types for lists the web shows: games and turns in a list, queued mail
//! in the dev mailbox, order versions as the API gives them, the dashboard's inbound mail and
//! absence requests. The web layer takes these, never store
//! rows.

use crate::domain::{GameId, GameStatus, InboundStatus, OrderSource, TurnStatus};
use crate::engine::Seat;
use crate::orders::Echo;
use crate::store::games::GameRow;
use crate::store::inbound::InboundSummary;
use crate::store::lifecycle::AbsenceRow;
use crate::store::orders::OrderVersionRow;
use crate::store::outbox::OutboxRow;
use crate::store::turns::TurnRow;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

/// A game in a list (the front page, a GM's games).
#[derive(Debug, Clone, Serialize)]
pub struct GameSummary {
    pub id: GameId,
    pub name: String,
    pub engine: String,
    pub status: GameStatus,
    pub current_turn: i32,
}

impl From<GameRow> for GameSummary {
    fn from(g: GameRow) -> Self {
        GameSummary {
            id: g.id,
            name: g.name,
            engine: g.engine,
            status: g.status,
            current_turn: g.current_turn,
        }
    }
}

/// A turn in a game's public list: its number, status and deadline (never its states).
#[derive(Debug, Clone, Serialize)]
pub struct TurnSummary {
    pub number: i32,
    pub status: TurnStatus,
    pub deadline: DateTime<Utc>,
}

impl From<TurnRow> for TurnSummary {
    fn from(t: TurnRow) -> Self {
        TurnSummary { number: t.number, status: t.status, deadline: t.deadline }
    }
}

/// A queued mail as the dev mailbox shows it.
#[derive(Debug, Clone)]
pub struct MailView {
    pub id: i64,
    pub created_at: DateTime<Utc>,
    pub kind: String,
    pub to_addr: String,
    pub to_name: Option<String>,
    pub reply_to: Option<String>,
    pub subject: String,
    pub body_text: String,
    pub body_html: Option<String>,
    /// The iCalendar attachment's text, if the mail states a deadline.
    pub calendar: Option<String>,
    pub message_id: String,
    pub in_reply_to: Option<String>,
}

impl From<OutboxRow> for MailView {
    fn from(m: OutboxRow) -> Self {
        MailView {
            id: m.id,
            created_at: m.created_at,
            kind: m.kind,
            to_addr: m.to_addr,
            to_name: m.to_name,
            reply_to: m.reply_to,
            subject: m.subject,
            body_text: m.body_text,
            body_html: m.body_html,
            calendar: m.calendar,
            message_id: m.message_id,
            in_reply_to: m.in_reply_to,
        }
    }
}

/// An order version as its seat (or, once published, the API) sees it.
#[derive(Debug, Clone, Serialize)]
pub struct VersionView {
    pub turn: i32,
    pub seat: u8,
    pub version: i32,
    pub body: String,
    pub canonical: String,
    /// The old receipt scheme's salt (empty for versions sealed line by line).
    pub salt: String,
    /// One salt per canonical line (RULING P3), for checking the receipt.
    pub line_salts: Option<Vec<String>>,
    pub digest: String,
    pub is_final: bool,
    pub source: OrderSource,
    pub submitted_at: DateTime<Utc>,
    pub echo: Echo,
}

impl From<OrderVersionRow> for VersionView {
    fn from(v: OrderVersionRow) -> Self {
        VersionView {
            turn: v.turn,
            seat: v.seat.0,
            version: v.version,
            body: v.body,
            canonical: v.canonical,
            salt: v.salt,
            line_salts: v.line_salts,
            digest: v.digest,
            is_final: v.is_final,
            source: v.source,
            submitted_at: v.submitted_at,
            echo: v.echo.0,
        }
    }
}

/// One inbound mail as the GM's dashboard lists it (no raw bytes: the GM opens those one by one).
#[derive(Debug, Clone, Serialize)]
pub struct InboundView {
    pub id: i64,
    pub received_at: DateTime<Utc>,
    pub status: InboundStatus,
    pub from_addr: Option<String>,
    pub seat: Option<Seat>,
    pub turn: Option<i32>,
    pub outcome: Option<String>,
}

impl From<InboundSummary> for InboundView {
    fn from(m: InboundSummary) -> Self {
        InboundView {
            id: m.id,
            received_at: m.received_at,
            status: m.status,
            from_addr: m.from_addr,
            seat: m.seat,
            turn: m.turn,
            outcome: m.outcome,
        }
    }
}

/// An absence a player asked for that waits for the GM's answer (RULINGS S9, S16).
#[derive(Debug, Clone, Serialize)]
pub struct AbsenceRequest {
    pub seat: Seat,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
}

impl From<AbsenceRow> for AbsenceRequest {
    fn from(a: AbsenceRow) -> Self {
        AbsenceRequest { seat: a.seat, first_day: a.first_day, last_day: a.last_day }
    }
}
