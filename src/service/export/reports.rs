//! Reports in an import document (RULING O20). Every published turn's report for every seat is
//! rendered again by this server — through the function publishing stores reports with
//! (`service::turn::archived` over `seat_report`) — from the turn's draft (checked against the
//! log), its orders and the seats, inside the import's transaction, and the document's copy must
//! be that rendering but for the slots `slots` allows. A report with an added link, a changed
//! line or a missing one is refused, naming its row. What is stored is the rendering, with this
//! server's seat link where the old server's stood: nothing of a report reaches a player that
//! this server would not have written.
//!
//! A document from a server that renders reports otherwise (an older version) is imported with
//! [`ReportSource::Rendered`]: its reports are not read, this server's renderings are stored.

use super::history::History;
use super::slots::{self, Kind, Slot};
use super::{GameDocument, ImportRefused, refuse_row, table};
use crate::domain::{GameId, TurnStatus};
use crate::engine::Seat;
use crate::registry::{DynGame, TurnOutcome};
use crate::service::notices::{ReplyTo, SEAT_LINK};
use crate::service::turn::{ReportContext, archived, draft_of, seat_report};
use crate::service::{ServiceError, deadlines, engine_of, load_game};
use crate::store;
use crate::store::export::Table;
use crate::store::games::{GameRow, ReportRow, SeatRow};
use crate::store::orders::OrderVersionRow;
use crate::store::turns::TurnRow;
use chrono::{DateTime, TimeZone, Utc};
use serde::Deserialize;
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// Which reports an import stores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReportSource {
    /// The document's, each checked against this server's rendering (the default).
    #[default]
    Document,
    /// This server's renderings, the document's left unread (`--rerender-reports`).
    Rendered,
}

#[derive(Deserialize)]
struct Theirs {
    turn: i32,
    seat: Seat,
    subject: String,
    body_text: String,
    body_html: String,
}

const LINK: &str = "stationmasterslotlink";
const DEADLINE: &str = "stationmasterslotdeadline";

fn name_marker(seat: Seat) -> String {
    format!("stationmasterslotname{}x", seat.0)
}

/// An instant no turn's deadline is: its words in a rendering mark where the next deadline stands.
fn sentinel() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2999, 12, 31, 23, 59, 0).single().unwrap_or(DateTime::<Utc>::MAX_UTC)
}

/// What every report of one published turn is made from.
struct TurnParts<'a> {
    game: &'a GameRow,
    engine: &'a dyn DynGame,
    turn: &'a TurnRow,
    outcome: TurnOutcome,
    orders: Vec<OrderVersionRow>,
}

impl TurnParts<'_> {
    fn render(
        &self,
        seats: &[SeatRow],
        seat: &SeatRow,
        next: Option<DateTime<Utc>>,
    ) -> Result<ReportRow, ServiceError> {
        let c = ReportContext {
            game: self.game,
            engine: self.engine,
            turn: self.turn.number,
            outcome: &self.outcome,
            orders: &self.orders,
            seats,
            next_deadline: next.filter(|_| !self.outcome.game_over),
            reply_to: ReplyTo::Seat { seat: seat.seat, generation: seat.token_generation },
            reopened: self.turn.reopened,
            first_seq: self.turn.first_seq,
        };
        // Only the archived report is kept here: no picture is drawn.
        let (mail, html) = seat_report(&c, seat, &[])?;
        Ok(archived(self.turn.number, seat.seat, &mail, html))
    }
}

/// Replaces the reports the import wrote from the document (game `id`, in the import's
/// transaction) with this server's renderings, after checking the document's against them when
/// `source` says so.
pub(super) async fn settle(
    tx: &mut PgConnection,
    id: GameId,
    doc: &GameDocument,
    history: &History,
    source: ReportSource,
) -> Result<(), ServiceError> {
    let game = load_game(tx, id).await?;
    let engine = engine_of(&game)?;
    let seats = store::games::seats(tx, id).await?;
    let turns = store::turns::turns_of_game(tx, id).await?;
    let mut theirs = BTreeMap::new();
    if source == ReportSource::Document {
        for (i, row) in table(doc, Table::Reports).iter().enumerate() {
            let r: Theirs = serde_json::from_value(row.clone()).map_err(|e| {
                refuse_row(Table::Reports, i + 1, "a report".into(), format!("it cannot be read: {e}"))
            })?;
            theirs.insert((r.turn, r.seat), (i + 1, r));
        }
    }
    let mut kept = Vec::new();
    for turn in turns.iter().filter(|t| t.status == TurnStatus::Published) {
        let parts = TurnParts {
            game: &game,
            engine,
            turn,
            outcome: draft_of(turn)?,
            orders: store::orders::latest_of_turn(tx, id, turn.number).await?,
        };
        let next = turns.iter().find(|t| t.number == turn.number + 1).map(|t| t.deadline);
        for seat in &seats {
            if source == ReportSource::Rendered {
                kept.push(parts.render(&seats, seat, next)?);
                continue;
            }
            let Some((row, doc_report)) = theirs.remove(&(turn.number, seat.seat)) else {
                let what = format!("turn {}, seat {}", turn.number, seat.seat.0);
                return Err(ImportRefused::Inconsistent(format!("the report of {what} is missing")).into());
            };
            let what = format!("turn {}, seat {}", turn.number, seat.seat.0);
            let ours = checked(&parts, history, &seats, seat, &doc_report)
                .map_err(|why| refuse_row(Table::Reports, row, what, why))?;
            kept.push(ours);
        }
    }
    if let Some(((turn, seat), (row, _))) = theirs.into_iter().next() {
        let what = format!("turn {turn}, seat {}", seat.0);
        let why = "no published turn of the game has this report".to_string();
        return Err(refuse_row(Table::Reports, row, what, why).into());
    }
    store::export::replace_reports(tx, id, &kept).await?;
    Ok(())
}

/// The report of `seat` rendered with markers, matched against the document's; this server's
/// report (the document's values in the slots, the seat link's placeholder where the link
/// stands: RULING P8) when it fits, else why not.
fn checked(
    parts: &TurnParts<'_>,
    history: &History,
    seats: &[SeatRow],
    seat: &SeatRow,
    theirs: &Theirs,
) -> Result<ReportRow, String> {
    let mut slots = vec![Slot { marker: LINK.into(), kind: Kind::Link }];
    slots.push(Slot { marker: DEADLINE.into(), kind: Kind::Deadline });
    // A seat whose player changed after this turn is named as the earlier player was.
    let shown: Vec<SeatRow> = seats
        .iter()
        .map(|s| {
            let mut s = s.clone();
            if history.replaced_after(s.seat, parts.turn.number) {
                s.player_name = name_marker(s.seat);
                slots.push(Slot { marker: s.player_name.clone(), kind: Kind::Name });
            }
            s
        })
        .collect();
    let me = shown.iter().find(|s| s.seat == seat.seat).unwrap_or(seat);
    let mut r = parts.render(&shown, me, Some(sentinel())).map_err(|e| e.to_string())?;
    let words = deadlines::words(parts.game, seat.time_zone.as_deref(), sentinel());
    // The link stands as its placeholder in a rendering (RULING P8); a document may hold the
    // placeholder or, from a server before P8, that server's link.
    r.subject = r.subject.replace(SEAT_LINK, LINK);
    r.body_text = r.body_text.replace(&words, DEADLINE).replace(SEAT_LINK, LINK);
    r.body_html = r.body_html.replace(&html(&words), DEADLINE).replace(&html(SEAT_LINK), LINK);
    let subject = slots::fit(&r.subject, &slots, &theirs.subject).map_err(|e| format!("its subject: {e}"))?;
    let mut text =
        slots::fit(&r.body_text, &slots, &theirs.body_text).map_err(|e| format!("its text: {e}"))?;
    let mut markup =
        slots::fit(&r.body_html, &slots, &theirs.body_html).map_err(|e| format!("its HTML: {e}"))?;
    for (marker, value) in &text {
        if markup.get(marker).is_some_and(|v| *v != html(value)) {
            return Err(format!("its text and its HTML name different things: {value}"));
        }
    }
    for values in [&mut text, &mut markup] {
        if values.contains_key(LINK) {
            values.insert(LINK.into(), SEAT_LINK.into());
        }
    }
    r.subject = slots::fill(&r.subject, &subject);
    r.body_text = slots::fill(&r.body_text, &text);
    r.body_html = slots::fill(&r.body_html, &markup);
    Ok(r)
}

/// Text as the HTML templates escape it.
fn html(text: &str) -> String {
    askama::filters::escape(text, askama::filters::Html).map(|s| s.to_string()).unwrap_or_default()
}
