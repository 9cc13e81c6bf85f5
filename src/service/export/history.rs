//! The history an import document tells twice: its audit chain, checked link by link, and what
//! the chain says against the rows it describes — the GM who created the game, each published
//! turn's NMRs and action count against the turn's draft, the player who last took over a seat
//! against the seat's address, and every seat's NMR count recounted from the chain (RULING O19).
//!
//! The chain is unkeyed (anyone can recompute it), so this finds a row changed without the chain,
//! or an entry changed without re-hashing everything after it; it is not a signature.

use super::{ImportRefused, refuse_row, table, typed};
use crate::domain::GameId;
use crate::engine::Seat;
use crate::registry::TurnOutcome;
use crate::service::audit;
use crate::store::audit::AuditRow;
use crate::store::export::Table;
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One entry of the chain, as the document holds it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(super) struct Entry {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub detail: Value,
    prev_hash: String,
    hash: String,
}

#[derive(Deserialize)]
struct SeatNmr {
    seat: Seat,
    email: String,
    nmr_count: i32,
}

#[derive(Deserialize)]
struct PublishedTurn {
    number: i32,
    status: String,
    draft: Option<TurnOutcome>,
}

/// A turn's publication as the chain records it.
struct Publication {
    entry: i64,
    nmr: BTreeSet<u8>,
    actions: u64,
    game_over: bool,
}

/// What the chain says, for the checks that follow it (reports name a seat's earlier player;
/// drafts, standing orders, absences and rollbacks are checked against its entries).
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct History {
    /// Per turn still published, the chain entry that published it.
    pub published: BTreeMap<i32, i64>,
    /// Per seat, the chain entry of its last replacement.
    pub replaced: BTreeMap<u8, i64>,
    /// The whole chain, when it begins with the game's creation (empty for a game older than
    /// its audit log, whose chain tells only part of its story).
    pub entries: Vec<Entry>,
}

impl History {
    /// Whether `seat` had another player when `turn` was published (its name in that turn's
    /// reports is the earlier player's).
    pub fn replaced_after(&self, seat: Seat, turn: i32) -> bool {
        matches!((self.replaced.get(&seat.0), self.published.get(&turn)), (Some(r), Some(p)) if r > p)
    }

    /// Whether the chain tells the game's whole story (it begins with "game created").
    pub fn told(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The entries of one action, in the chain's order.
    pub fn of<'a>(&'a self, action: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries.iter().filter(move |e| e.action == action)
    }

    /// The last entry that adjudicated `turn` (what its draft was made at).
    pub fn adjudicated(&self, turn: i32) -> Option<&Entry> {
        self.of("turn adjudicated").filter(|e| e.int("turn") == Some(i64::from(turn))).last()
    }
}

impl Entry {
    /// A whole number of the entry's detail.
    pub fn int(&self, key: &str) -> Option<i64> {
        self.detail.get(key).and_then(Value::as_i64)
    }
}

/// Checks the audit chain and what it says against the game, turn and seat rows (RULING O19).
pub(super) fn check(doc: &super::GameDocument) -> Result<History, ImportRefused> {
    let rows = table(doc, Table::AuditLog);
    let entries: Vec<Entry> =
        rows.iter().enumerate().map(|(i, r)| typed_entry(i + 1, r)).collect::<Result<_, _>>()?;
    let chain: Vec<AuditRow> = entries
        .iter()
        .map(|e| AuditRow {
            game_id: GameId(uuid::Uuid::nil()),
            seq: e.seq,
            at: e.at,
            actor: e.actor.clone(),
            action: e.action.clone(),
            detail: e.detail.clone(),
            prev_hash: e.prev_hash.clone(),
            hash: e.hash.clone(),
        })
        .collect();
    if let Err(b) = audit::verify(&chain) {
        let row = entries.iter().position(|e| e.seq == b.seq).map_or(entries.len(), |i| i + 1);
        return Err(refuse_row(Table::AuditLog, row, format!("entry {}", b.seq), b.why));
    }
    // A game older than its audit log (the chain starts later) is checked as a chain only.
    if entries.first().is_none_or(|e| e.action != "game created") {
        return Ok(History::default());
    }
    let walk = Walk::of(&entries);
    check_gm(doc, &entries[0])?;
    check_turns(doc, &walk)?;
    check_seats(doc, &walk)?;
    Ok(History {
        published: walk.published.iter().map(|(t, p)| (*t, p.entry)).collect(),
        replaced: walk.replaced.iter().map(|(s, (entry, _))| (*s, *entry)).collect(),
        entries,
    })
}

fn typed_entry(row: usize, r: &Value) -> Result<Entry, ImportRefused> {
    serde_json::from_value(r.clone())
        .map_err(|e| refuse_row(Table::AuditLog, row, "an entry".into(), format!("it cannot be read: {e}")))
}

/// The chain read in order: the NMRs each publication counted, taken back by a rollback and
/// reset by a replacement — exactly as `service::turn::nmr` and `replace_player` change a seat's
/// count — and which turns stand published.
#[derive(Default)]
struct Walk {
    nmr: BTreeMap<u8, i32>,
    published: BTreeMap<i32, Publication>,
    /// Per seat: the entry of its last replacement and the address it went to.
    replaced: BTreeMap<u8, (i64, String)>,
}

impl Walk {
    fn of(entries: &[Entry]) -> Walk {
        let mut w = Walk::default();
        for e in entries {
            let d = &e.detail;
            let int = |k: &str| d.get(k).and_then(Value::as_i64);
            match e.action.as_str() {
                "turn published" => {
                    let Some(turn) = int("turn").and_then(|t| i32::try_from(t).ok()) else { continue };
                    let nmr: BTreeSet<u8> = d
                        .get("nmr")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|s| s.as_u64().and_then(|s| u8::try_from(s).ok()))
                        .collect();
                    for s in &nmr {
                        *w.nmr.entry(*s).or_default() += 1;
                    }
                    let actions = d.get("actions").and_then(Value::as_u64).unwrap_or(0);
                    let game_over = d.get("game_over").and_then(Value::as_bool).unwrap_or(false);
                    w.published.insert(turn, Publication { entry: e.seq, nmr, actions, game_over });
                }
                "rolled back" => {
                    let Some(to) = int("to_turn") else { continue };
                    let undone: Vec<i32> =
                        w.published.keys().copied().filter(|t| i64::from(*t) >= to).collect();
                    for t in undone {
                        for s in w.published.remove(&t).map(|p| p.nmr).unwrap_or_default() {
                            let n = w.nmr.entry(s).or_default();
                            *n = (*n - 1).max(0);
                        }
                    }
                }
                "player replaced" => {
                    let Some(seat) = int("seat").and_then(|s| u8::try_from(s).ok()) else { continue };
                    w.nmr.insert(seat, 0);
                    let to = d.get("to").and_then(Value::as_str).unwrap_or_default().to_string();
                    w.replaced.insert(seat, (e.seq, to));
                }
                _ => {}
            }
        }
        w
    }
}

/// The GM address never changes after creation: it must be the creator's.
fn check_gm(doc: &super::GameDocument, created: &Entry) -> Result<(), ImportRefused> {
    let gm = table(doc, Table::Games).first().and_then(|g| g.get("gm_email")).and_then(Value::as_str);
    let gm = gm.unwrap_or_default();
    if created.actor != format!("gm:{}", gm.to_lowercase()) {
        let why =
            format!("its GM address is not the one that created the game (audit_log entry {})", created.seq);
        return Err(refuse_row(Table::Games, 1, "the game".into(), why));
    }
    Ok(())
}

/// Every published turn's draft agrees with the entry that published it, and the chain
/// publishes no turn the rows do not.
fn check_turns(doc: &super::GameDocument, walk: &Walk) -> Result<(), ImportRefused> {
    let mut seen = BTreeSet::new();
    for (i, row) in table(doc, Table::Turns).iter().enumerate() {
        let t: PublishedTurn = typed("turn", row)?;
        if t.status != "published" {
            continue;
        }
        let what = format!("turn {}", t.number);
        let Some(p) = walk.published.get(&t.number) else {
            let why = "the audit log does not say it was published".to_string();
            return Err(refuse_row(Table::Turns, i + 1, what, why));
        };
        seen.insert(t.number);
        let Some(d) = t.draft else {
            return Err(refuse_row(Table::Turns, i + 1, what, "it is published without a draft".into()));
        };
        let nmr: BTreeSet<u8> = d.nmr.iter().map(|s| s.0).collect();
        if nmr != p.nmr || d.actions.len() as u64 != p.actions || d.game_over != p.game_over {
            let why =
                format!("its NMRs or actions are not those of audit_log entry {} (turn published)", p.entry);
            return Err(refuse_row(Table::Turns, i + 1, what, why));
        }
    }
    if let Some((t, p)) = walk.published.iter().find(|(t, _)| !seen.contains(*t)) {
        let row = row_of_entry(doc, p.entry);
        let why = format!("it publishes turn {t}, which the turns rows do not show published");
        return Err(refuse_row(Table::AuditLog, row, format!("entry {}", p.entry), why));
    }
    Ok(())
}

/// Every seat's NMR count is the chain's recount, and a replaced seat's address is the one it
/// was handed to.
fn check_seats(doc: &super::GameDocument, walk: &Walk) -> Result<(), ImportRefused> {
    for (i, row) in table(doc, Table::Seats).iter().enumerate() {
        let s: SeatNmr = typed("seat", row)?;
        let what = format!("seat {}", s.seat.0);
        let counted = walk.nmr.get(&s.seat.0).copied().unwrap_or(0);
        if s.nmr_count != counted {
            let why = format!("its NMR count {} is not the {counted} its published turns count", s.nmr_count);
            return Err(refuse_row(Table::Seats, i + 1, what, why));
        }
        if let Some((entry, to)) = walk.replaced.get(&s.seat.0)
            && !to.eq_ignore_ascii_case(&s.email)
        {
            let why = format!("its address is not the one the seat was handed to (audit_log entry {entry})");
            return Err(refuse_row(Table::Seats, i + 1, what, why));
        }
    }
    Ok(())
}

/// The document row (1-based) of the audit entry numbered `seq`.
pub(super) fn row_of_entry(doc: &super::GameDocument, seq: i64) -> usize {
    let rows = table(doc, Table::AuditLog);
    rows.iter().position(|r| r.get("seq").and_then(Value::as_i64) == Some(seq)).map_or(0, |i| i + 1)
}
