//! The GM audit log: every GM action and every state change of a game, append-only, each entry
//! chained to the previous one by SHA-256 so that an edited, removed or reordered entry is found
//! by [`verify`].
//!
//! An entry's hash is SHA-256 over its predecessor's hash, its number, time, actor, action and
//! detail (JSON with sorted keys), one per line. The first entry's predecessor is 64 zeros.

use super::{Ctx, ServiceError};
use crate::domain::GameId;
use crate::store;
use crate::store::audit::AuditRow;
use chrono::{DateTime, SubsecRound, Utc};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

/// The predecessor hash of a game's first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// Who did it: the GM (by address), a player's seat, or the server itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actor<'a> {
    Gm(&'a str),
    Seat(u8),
    /// A player not (yet) seated, by address: answering an invitation, joining (issue 37).
    Player(&'a str),
    Server,
}

impl Actor<'_> {
    fn label(&self) -> String {
        match self {
            Actor::Gm(addr) => format!("gm:{}", addr.to_lowercase()),
            Actor::Seat(s) => format!("seat:{s}"),
            Actor::Player(addr) => format!("player:{}", addr.to_lowercase()),
            Actor::Server => "server".to_string(),
        }
    }
}

/// The hash of an entry, given its predecessor's.
pub fn entry_hash(
    prev: &str,
    seq: i64,
    at: DateTime<Utc>,
    actor: &str,
    action: &str,
    detail: &Value,
) -> String {
    // serde_json's map keeps keys sorted, so the detail read back from jsonb hashes the same.
    let canonical = serde_json::to_string(detail).unwrap_or_default();
    let text = format!(
        "{prev}\n{seq}\n{}\n{actor}\n{action}\n{canonical}",
        at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
    );
    data_encoding::HEXLOWER.encode(&Sha256::digest(text.as_bytes()))
}

/// Appends an entry to a game's log in the caller's transaction.
pub async fn record(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    game: GameId,
    actor: Actor<'_>,
    action: &str,
    detail: impl Serialize,
) -> Result<(), ServiceError> {
    let detail =
        serde_json::to_value(detail).map_err(|e| ServiceError::Internal(format!("audit detail: {e}")))?;
    let (seq, prev) = match store::audit::lock_head(conn, game).await? {
        Some(head) => (head.seq + 1, head.hash),
        None => (1, GENESIS.to_string()),
    };
    // Postgres keeps microseconds; hash what will be read back.
    let at = now.trunc_subsecs(6);
    let actor = actor.label();
    let hash = entry_hash(&prev, seq, at, &actor, action, &detail);
    let row =
        AuditRow { game_id: game, seq, at, actor, action: action.to_string(), detail, prev_hash: prev, hash };
    store::audit::insert(conn, &row).await?;
    Ok(())
}

/// Where a chain first breaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainBreak {
    pub seq: i64,
    pub why: String,
}

/// Checks a game's chain from the first entry: numbering without gaps, each entry pointing at its
/// predecessor's hash, and each hash matching the entry's content.
pub fn verify(rows: &[AuditRow]) -> Result<(), ChainBreak> {
    let mut prev = GENESIS.to_string();
    for (i, row) in rows.iter().enumerate() {
        let expected_seq = i64::try_from(i).unwrap_or(i64::MAX) + 1;
        if row.seq != expected_seq {
            return Err(ChainBreak { seq: row.seq, why: format!("entry {expected_seq} is missing") });
        }
        if row.prev_hash != prev {
            return Err(ChainBreak { seq: row.seq, why: "does not point at the entry before it".into() });
        }
        if entry_hash(&row.prev_hash, row.seq, row.at, &row.actor, &row.action, &row.detail) != row.hash {
            return Err(ChainBreak { seq: row.seq, why: "its content does not match its hash".into() });
        }
        prev = row.hash.clone();
    }
    Ok(())
}

/// A game's audit log and whether its chain is intact.
#[derive(Debug, Clone, Serialize)]
pub struct AuditLog {
    pub entries: Vec<AuditEntry>,
    pub intact: bool,
    pub first_break: Option<ChainBreak>,
}

/// One entry as shown to the GM.
#[derive(Debug, Clone, Serialize)]
pub struct AuditEntry {
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub detail: Value,
    pub hash: String,
}

/// The audit log of a game, verified.
pub async fn audit_log(ctx: &Ctx, game: GameId) -> Result<AuditLog, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    // RULING W49: a game waiting for its seats has a log before its row in `games`.
    if store::waiting::get(&mut conn, game).await?.is_none() {
        super::load_game(&mut conn, game).await?;
    }
    let rows = store::audit::of_game(&mut conn, game).await?;
    let check = verify(&rows);
    Ok(AuditLog {
        intact: check.is_ok(),
        first_break: check.err(),
        entries: rows
            .into_iter()
            .map(|r| AuditEntry {
                seq: r.seq,
                at: r.at,
                actor: r.actor,
                action: r.action,
                detail: r.detail,
                hash: r.hash,
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use serde_json::json;

    fn chain(n: i64) -> Vec<AuditRow> {
        let mut prev = GENESIS.to_string();
        (1..=n)
            .map(|seq| {
                let at =
                    Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap() + chrono::Duration::minutes(seq);
                let detail = json!({"turn": seq, "by": "24h"});
                let hash = entry_hash(&prev, seq, at, "gm:gm@example.org", "deadline extended", &detail);
                let row = AuditRow {
                    game_id: GameId(uuid::Uuid::nil()),
                    seq,
                    at,
                    actor: "gm:gm@example.org".into(),
                    action: "deadline extended".into(),
                    detail,
                    prev_hash: prev.clone(),
                    hash: hash.clone(),
                };
                prev = hash;
                row
            })
            .collect()
    }

    #[test]
    fn an_untouched_chain_verifies() {
        assert_eq!(verify(&chain(5)), Ok(()));
    }

    #[test]
    fn an_edited_detail_breaks_the_chain_at_that_entry() {
        let mut rows = chain(5);
        rows[2].detail = json!({"turn": 3, "by": "48h"});
        assert_eq!(verify(&rows).unwrap_err().seq, 3);
    }

    #[test]
    fn a_removed_entry_breaks_the_chain() {
        let mut rows = chain(5);
        rows.remove(1);
        assert_eq!(verify(&rows).unwrap_err().seq, 3);
    }

    #[test]
    fn a_rehashed_edit_is_still_found_by_its_successor() {
        let mut rows = chain(5);
        rows[1].actor = "server".into();
        rows[1].hash =
            entry_hash(&rows[1].prev_hash, 2, rows[1].at, "server", &rows[1].action, &rows[1].detail);
        let err = verify(&rows).unwrap_err();
        assert_eq!((err.seq, err.why.as_str()), (3, "does not point at the entry before it"));
    }
}
