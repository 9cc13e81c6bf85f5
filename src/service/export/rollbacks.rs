//! Rollback archives in an import document (RULING O19): an archive must hold what the log says
//! was rolled back. Walking the rollbacks from the newest back, the log as it stood before each
//! is the log kept below the archive's first turn plus the archive's actions; that log must
//! replay, reproduce the start state of every archived turn and every archived draft, and the
//! archive must hold exactly the turns its "rolled back" entry names (when the audit log tells
//! the game's whole story, one entry per archive, with its time).

use super::history::History;
use super::{GameDocument, ImportRefused, refuse_row, table, typed};
use crate::engine::{LoggedAction, Seat};
use crate::registry::{DynGame, TurnOutcome};
use crate::store::export::Table;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Rollback {
    to_turn: i32,
    at: DateTime<Utc>,
    archive: Archive,
}

#[derive(Deserialize)]
struct Archive {
    turns: Vec<ArchivedTurn>,
    #[serde(default)]
    actions: Vec<ArchivedAction>,
}

#[derive(Deserialize)]
struct ArchivedTurn {
    number: i32,
    status: String,
    start_state: Value,
    first_seq: i64,
    draft: Option<TurnOutcome>,
}

#[derive(Deserialize)]
struct ArchivedAction {
    seq: i64,
    turn: i32,
    seat: Seat,
    action: Value,
    #[serde(default)]
    by_default: bool,
}

/// Checks every rollback archive of a document against the log (see the module docs).
pub(super) fn check(
    engine: &dyn DynGame,
    doc: &GameDocument,
    history: &History,
) -> Result<(), ImportRefused> {
    let t = Table::Rollbacks;
    let rows: Vec<Rollback> = table(doc, t).iter().map(|r| typed("rollback", r)).collect::<Result<_, _>>()?;
    let entries: Vec<_> = history.of("rolled back").collect();
    if history.told() && entries.len() != rows.len() {
        let why = format!(
            "the audit log records {} rollbacks, the rollbacks rows hold {}",
            entries.len(),
            rows.len()
        );
        return Err(ImportRefused::Inconsistent(why));
    }
    // RULING O19: each archive against the log as it stood before its rollback.
    let mut log = doc.game.actions.clone();
    for (i, r) in rows.iter().enumerate().rev() {
        let what = format!("back to turn {}", r.to_turn);
        let refuse = |why: String| refuse_row(t, i + 1, what.clone(), why);
        let numbers: Vec<i32> = r.archive.turns.iter().map(|t| t.number).collect();
        let from = entries
            .get(i)
            .map_or(numbers.last().copied(), |e| e.int("from_turn").and_then(|n| i32::try_from(n).ok()));
        if let Some(e) = entries.get(i)
            && (e.int("to_turn") != Some(i64::from(r.to_turn)) || e.at != r.at)
        {
            return Err(refuse(format!("it is not the rollback audit_log entry {} records", e.seq)));
        }
        let expected: Vec<i32> = from.map_or(Vec::new(), |f| (r.to_turn..=f).collect());
        if numbers.is_empty() || numbers != expected {
            return Err(refuse(format!(
                "it archives turns {numbers:?}, not the turns {expected:?} rolled back"
            )));
        }
        log = before(engine, doc, &log, r).map_err(refuse)?;
    }
    Ok(())
}

/// The log as it stood before rollback `r`, given the log as it stood after it; checked against
/// the archived turns.
fn before(
    engine: &dyn DynGame,
    doc: &GameDocument,
    after: &[LoggedAction],
    r: &Rollback,
) -> Result<Vec<LoggedAction>, String> {
    let first = &r.archive.turns[0];
    let cut = usize::try_from(first.first_seq).ok().filter(|n| *n <= after.len());
    let Some(cut) = cut else {
        return Err(format!("its turn {} starts at action {}, past the log", first.number, first.first_seq));
    };
    let mut log = after[..cut].to_vec();
    for a in &r.archive.actions {
        if a.seq != log.len() as i64
            || !(r.to_turn..=r.archive.turns.last().map_or(0, |t| t.number)).contains(&a.turn)
        {
            return Err(format!("its action {} does not follow the log kept before it", a.seq));
        }
        let (seq, seat, action) = (log.len() as u64, a.seat, a.action.clone());
        log.push(LoggedAction { seq, seat, action, by_default: a.by_default });
    }
    let state_after = |n: usize| {
        engine
            .replay(&doc.game.setup, doc.game.seed, &log[..n])
            .map_err(|e| format!("its actions do not replay: {e}"))
    };
    for t in &r.archive.turns {
        let n = usize::try_from(t.first_seq).ok().filter(|n| *n <= log.len());
        let Some(n) = n else {
            return Err(format!("its turn {} starts at action {}, past its log", t.number, t.first_seq));
        };
        if state_after(n)? != t.start_state {
            return Err(format!("its turn {} does not start where its log puts it", t.number));
        }
        if let (true, Some(d)) = (t.status == "published", &t.draft) {
            let end = n + d.actions.len();
            if log.get(n..end) != Some(d.actions.as_slice()) || state_after(end)? != d.state {
                return Err(format!("its turn {}'s draft is not what its log played", t.number));
            }
        }
    }
    Ok(log)
}
