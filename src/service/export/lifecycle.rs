//! Standing orders, absences and timers in an import document (RULING O19), checked as far as
//! they can be without the exporting server's key: each belongs to a seat or turn of the game; a
//! standing order reads as orders of the game's engine; absences run forward in time; a pending
//! timer is due when its turn says. When the audit log tells the game's whole story, the standing
//! orders and absences must also be the ones it records being set, requested, approved and
//! declined — in that order, with the same seats, days and line counts.

use super::drafts::Standing;
use super::history::{History, row_of_entry as row_of};
use super::{GameDocument, ImportRefused, refuse_row, table, typed};
use crate::engine::Seat;
use crate::registry::DynGame;
use crate::store::export::Table;
use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Checks the standing orders, absences and timers of a document.
pub(super) fn check(
    engine: &dyn DynGame,
    doc: &GameDocument,
    state: &Value,
    history: &History,
) -> Result<(), ImportRefused> {
    // RULING O19: what can be checked without the exporting server's key.
    standing_orders(engine, doc, state, history)?;
    absences(doc, history)?;
    timers(doc)
}

fn seat_of_game(doc: &GameDocument, seat: Seat) -> bool {
    (1..=doc.game.setup.seats).contains(&seat.0)
}

/// Each standing order names a seat of the game and reads without an error (they are checked so
/// when set); with the whole chain, each seat's rows are its "standing orders set" entries, one
/// for one, with the entry's line count.
fn standing_orders(
    engine: &dyn DynGame,
    doc: &GameDocument,
    state: &Value,
    history: &History,
) -> Result<(), ImportRefused> {
    let t = Table::StandingOrders;
    let mut entries: BTreeMap<u8, Vec<(i64, Option<i64>)>> = BTreeMap::new();
    for e in history.of("standing orders set") {
        if let Some(seat) = e.actor.strip_prefix("seat:").and_then(|s| s.parse::<u8>().ok()) {
            entries.entry(seat).or_default().push((e.seq, e.int("lines")));
        }
    }
    let mut seen: BTreeMap<u8, usize> = BTreeMap::new();
    for (i, row) in table(doc, t).iter().enumerate() {
        let s: Standing = typed("standing orders", row)?;
        let refuse = |why: String| refuse_row(t, i + 1, format!("seat {}", s.seat.0), why);
        if !seat_of_game(doc, s.seat) {
            return Err(refuse(format!("seat {} is not a seat of the game", s.seat.0)));
        }
        let echo = engine.check_orders(state, s.seat, &s.body).map_err(|e| refuse(e.to_string()))?;
        // HR 16, RULING S1: lines not understood are kept beside a readable order.
        if echo.readable() == 0
            && let Some(bad) = echo.lines.iter().find(|l| l.error.is_some())
        {
            let error = bad.error.clone().unwrap_or_default();
            return Err(refuse(format!(
                "its line {} does not read as orders of this game: {error}",
                bad.line
            )));
        }
        if !history.told() {
            continue;
        }
        let n = seen.entry(s.seat.0).or_default();
        let Some((seq, lines)) = entries.get(&s.seat.0).and_then(|v| v.get(*n)) else {
            return Err(refuse("the audit log does not record them being set".into()));
        };
        *n += 1;
        if *lines != Some(echo.lines.len() as i64) {
            return Err(refuse(format!("they are not the orders audit_log entry {seq} records being set")));
        }
    }
    for (seat, list) in &entries {
        if let Some((seq, _)) = list.get(seen.get(seat).copied().unwrap_or(0)) {
            let why =
                format!("it sets standing orders for seat {seat} that the standing_orders rows do not hold");
            return Err(refuse_row(Table::AuditLog, row_of(doc, *seq), format!("entry {seq}"), why));
        }
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Absence {
    seat: Seat,
    first_day: NaiveDate,
    last_day: NaiveDate,
    #[serde(default = "in_force")]
    approved: bool,
}

fn in_force() -> bool {
    true
}

/// Each absence names a seat of the game and ends on or after its first day; with the whole
/// chain, the rows are the absences it records (requested or recorded, then approved, or declined
/// and gone), in order.
fn absences(doc: &GameDocument, history: &History) -> Result<(), ImportRefused> {
    let t = Table::Absences;
    let rows: Vec<Absence> = table(doc, t).iter().map(|r| typed("absence", r)).collect::<Result<_, _>>()?;
    for (i, a) in rows.iter().enumerate() {
        let what = format!("seat {}", a.seat.0);
        if !seat_of_game(doc, a.seat) {
            return Err(refuse_row(t, i + 1, what, format!("seat {} is not a seat of the game", a.seat.0)));
        }
        if a.last_day < a.first_day {
            return Err(refuse_row(t, i + 1, what, "it ends before it begins".into()));
        }
    }
    if !history.told() {
        return Ok(());
    }
    let told = told_absences(history);
    for (i, (a, (seq, b))) in rows.iter().zip(&told).enumerate() {
        if a != b {
            let why = format!("it is not the absence audit_log entry {seq} records");
            return Err(refuse_row(t, i + 1, format!("seat {}", a.seat.0), why));
        }
    }
    if rows.len() > told.len() {
        let a = &rows[told.len()];
        let why = "the audit log does not record it".to_string();
        return Err(refuse_row(t, told.len() + 1, format!("seat {}", a.seat.0), why));
    }
    if let Some((seq, a)) = told.get(rows.len()) {
        let why = format!("it records an absence of seat {} that the absences rows do not hold", a.seat.0);
        return Err(refuse_row(Table::AuditLog, row_of(doc, *seq), format!("entry {seq}"), why));
    }
    Ok(())
}

/// The absences the chain leaves standing, each with the entry that recorded it.
fn told_absences(history: &History) -> Vec<(i64, Absence)> {
    let mut list: Vec<(i64, Absence)> = Vec::new();
    for e in &history.entries {
        let day =
            |k: &str| e.detail.get(k).cloned().and_then(|v| serde_json::from_value::<NaiveDate>(v).ok());
        let seat = e.int("seat").and_then(|s| u8::try_from(s).ok()).map(Seat);
        let (Some(seat), Some(first_day), Some(last_day)) = (seat, day("from"), day("to")) else { continue };
        let a = |approved| Absence { seat, first_day, last_day, approved };
        let waiting = list.iter().position(|(_, x)| *x == a(false));
        match (e.action.as_str(), waiting) {
            ("absence recorded", _) => list.push((e.seq, a(true))),
            ("absence requested", _) => list.push((e.seq, a(false))),
            ("absence approved", Some(at)) => list[at].1.approved = true,
            ("absence declined", Some(at)) => {
                list.remove(at);
            }
            _ => {}
        }
    }
    list
}

#[derive(Deserialize)]
struct Timer {
    turn: i32,
    kind: String,
    offset_secs: Option<i64>,
    due_at: DateTime<Utc>,
    done_at: Option<DateTime<Utc>>,
}

#[derive(Deserialize)]
struct TimedTurn {
    number: i32,
    status: String,
    deadline: DateTime<Utc>,
    closed_at: Option<DateTime<Utc>>,
}

/// Each timer belongs to a turn of the game; a reminder still to run is due its offset before
/// the turn's deadline; an auto-release still to run on a draft is due its delay after the turn
/// closed. (What a timer that ran did is its outcome's words; nothing can check them.)
fn timers(doc: &GameDocument) -> Result<(), ImportRefused> {
    let turns: BTreeMap<i32, TimedTurn> = table(doc, Table::Turns)
        .iter()
        .map(|r| typed::<TimedTurn>("turn", r).map(|t| (t.number, t)))
        .collect::<Result<_, _>>()?;
    let t = Table::Timers;
    for (i, row) in table(doc, t).iter().enumerate() {
        let x: Timer = typed("timer", row)?;
        let refuse = |why: &str| refuse_row(t, i + 1, format!("turn {}, {}", x.turn, x.kind), why.into());
        let Some(turn) = turns.get(&x.turn) else {
            return Err(refuse("its turn is not a turn of the game"));
        };
        if x.done_at.is_some() {
            continue;
        }
        let offset = x.offset_secs.map(chrono::Duration::seconds);
        match (x.kind.as_str(), offset) {
            ("reminder", Some(o)) if o > chrono::Duration::zero() => {
                if x.due_at != turn.deadline - o {
                    return Err(refuse("it is not due its offset before its turn's deadline"));
                }
            }
            ("auto_release", Some(o)) if o >= chrono::Duration::zero() => {
                if turn.status == "draft" && turn.closed_at.map(|c| c + o) != Some(x.due_at) {
                    return Err(refuse("it is not due its delay after its turn was adjudicated"));
                }
            }
            ("reminder" | "auto_release", _) => return Err(refuse("it has no usable offset")),
            _ => return Err(refuse("it is no kind of timer this server runs")),
        }
    }
    Ok(())
}
