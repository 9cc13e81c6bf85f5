//! Turn reports: one mail per seat with the public result and what only that seat may see (its
//! hand, its secret draws, how its own orders were read), plus every seat's published orders as
//! that seat may see them (its own whole, with every salt; the others' public lines and hashes)
//! so receipts can be checked.
//!
//! The mail's HTML part shows the seat's picture of the table (`Game::draw`, issue 16). The
//! report stores the drawing as SVG in a `data:` address (drawing it takes a millisecond, so it
//! may happen inside the publishing transaction); the outbox worker renders it to PNG when it
//! builds the message, outside any transaction, and sends it as a related part with a
//! Content-ID (`mail::message`; RULING W17). The `<pre>` text stays as its alternative, and the
//! plain-text part is complete without it. The archived report (`reports` table, shown on pages
//! whose policy allows no `data:` images) keeps the HTML without the picture.

use crate::engine::{LineNote, Seat, Viewer};
use crate::registry::{DynGame, TurnOutcome};
use crate::service::notices::{self, OutgoingMail, render};
use crate::service::{PublishedSheet, ServiceError, deadlines, disclose_turn};
use crate::store::games::{GameRow, SeatRow};
use crate::store::orders::OrderVersionRow;
use askama::Template;
use chrono::{DateTime, Utc};

/// Everything a report is made from.
pub struct ReportContext<'a> {
    pub game: &'a GameRow,
    pub engine: &'a dyn DynGame,
    pub turn: i32,
    pub outcome: &'a TurnOutcome,
    pub orders: &'a [OrderVersionRow],
    pub seats: &'a [SeatRow],
    pub next_deadline: Option<DateTime<Utc>>,
    /// The private order page of the seat the report is for.
    pub link: String,
    /// The seat's signed reply address.
    pub reply_to: String,
    /// How often a rollback re-opened the turn: a re-published report is a new mail.
    pub reopened: i32,
    /// The log sequence number of the turn's first action (for its dice, `service::dice`).
    pub first_seq: i64,
}

/// A report's picture of the table: the SVG drawing (base64, rendered to PNG when the mail is
/// sent) and its text alternative.
pub struct Picture {
    pub svg_base64: String,
    pub alt: String,
}

/// One seat's published orders, for checking receipts.
pub struct PublishedOrders {
    pub player: String,
    pub sheet: PublishedSheet,
}

/// The data of a report, as the templates see it.
pub struct Report {
    pub game: String,
    pub turn: i32,
    pub seat: u8,
    pub player: String,
    pub events: Vec<String>,
    pub notes: Vec<LineNote>,
    pub nmr: bool,
    pub defaulted: bool,
    pub table: String,
    pub orders: Vec<PublishedOrders>,
    pub next_deadline: Option<String>,
    pub standings: Vec<String>,
    pub link: String,
    /// The picture of the table, in the mail only (never in the archived report).
    pub picture: Option<Picture>,
    /// The turn's dice revealed and the next turn's commitment (games that roll dice; issue 17).
    pub dice: Vec<String>,
}

#[derive(Template)]
#[template(path = "mail/report.txt")]
struct ReportText<'a> {
    r: &'a Report,
}

#[derive(Template)]
#[template(path = "mail/report.html")]
struct ReportHtml<'a> {
    r: &'a Report,
}

/// Builds the report of one seat.
pub fn build(c: &ReportContext<'_>, seat: &SeatRow) -> Result<Report, ServiceError> {
    let s = seat.seat;
    let viewer = Viewer::Seat(s);
    let name_of =
        |n: Seat| c.seats.iter().find(|x| x.seat == n).map(|x| x.player_name.clone()).unwrap_or_default();
    let standings = c
        .outcome
        .standings
        .iter()
        .flatten()
        .map(|st| format!("{}. {} ({}) — {}", st.place, name_of(st.seat), st.seat, st.score))
        .collect();
    Ok(Report {
        game: c.game.name.clone(),
        turn: c.turn,
        seat: s.0,
        player: seat.player_name.clone(),
        events: c.outcome.events.iter().map(|e| e.text_for(viewer)).collect(),
        notes: c.outcome.notes.get(&s).cloned().unwrap_or_default(),
        nmr: c.outcome.nmr.contains(&s),
        defaulted: c.outcome.defaulted.contains(&s),
        table: c.engine.describe(&c.outcome.state, viewer)?,
        orders: disclose_turn(c.engine, c.orders, &c.outcome.notes, viewer)
            .into_iter()
            .map(|sheet| PublishedOrders { player: name_of(Seat(sheet.seat)), sheet })
            .collect(),
        next_deadline: c.next_deadline.map(|d| deadlines::words(c.game, seat.time_zone.as_deref(), d)),
        standings,
        link: c.link.clone(),
        picture: None,
        dice: dice_lines(c),
    })
}

/// The turn's dice keys revealed, then the next turn's commitment (docs/DICE.md).
fn dice_lines(c: &ReportContext<'_>) -> Vec<String> {
    let used = c.outcome.actions.len();
    let mut lines = crate::service::dice::reveal_lines(c.engine, c.game, c.turn, c.first_seq, used);
    if !c.outcome.game_over {
        let next = c.first_seq + i64::try_from(used).unwrap_or(0);
        lines.extend(crate::service::dice::commitment_line(c.engine, c.game, c.turn + 1, next));
    }
    lines
}

/// The seat's picture of the table after the turn, when the game draws one.
fn picture(c: &ReportContext<'_>, viewer: Viewer) -> Result<Option<Picture>, ServiceError> {
    let Some(svg) = c.engine.draw(&c.outcome.state, viewer)? else {
        return Ok(None);
    };
    Ok(Some(Picture {
        svg_base64: data_encoding::BASE64.encode(svg.as_bytes()),
        alt: format!(
            "A picture of the table after turn {}, as you see it (the text below says the same).",
            c.turn
        ),
    }))
}

/// The report mail of one seat (its HTML with the picture of the table), and the HTML to
/// archive (the same without the picture).
pub fn seat_report(c: &ReportContext<'_>, seat: &SeatRow) -> Result<(OutgoingMail, String), ServiceError> {
    let mut r = build(c, seat)?;
    let archived = render(&ReportHtml { r: &r })?;
    r.picture = picture(c, Viewer::Seat(seat.seat))?;
    let over = if c.outcome.game_over { " — game over" } else { "" };
    let mail = OutgoingMail {
        key: notices::run_key(format!("report:{}:{}:{}", c.game.id, c.turn, seat.seat.0), c.reopened),
        kind: "report",
        game_id: Some(c.game.id),
        to_addr: seat.email.clone(),
        to_name: Some(seat.player_name.clone()),
        subject: format!("[{}] Turn {} result{over}", c.game.name, c.turn),
        text: render(&ReportText { r: &r })?,
        html: render(&ReportHtml { r: &r })?,
        in_reply_to: None,
        reply_to: Some(c.reply_to.clone()),
        calendar: None,
    };
    Ok((mail, archived))
}
