//! The audit log table: append-only rows chained by hash (the chaining itself is computed by
//! `crate::service::audit`; a database trigger refuses UPDATE and DELETE).

use crate::domain::GameId;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;

/// One stored audit entry.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct AuditRow {
    pub game_id: GameId,
    pub seq: i64,
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub detail: Value,
    pub prev_hash: String,
    pub hash: String,
}

/// The newest entry of a game's chain: its number and hash.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AuditHead {
    pub seq: i64,
    pub hash: String,
}

/// The newest entry of a game, locking the game's chain head: concurrent appends to the same
/// game queue behind each other (the lock is on the game row, held until the caller commits).
pub async fn lock_head(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Option<AuditHead>> {
    sqlx::query("SELECT 1 FROM games WHERE id = $1 FOR NO KEY UPDATE").bind(game).execute(&mut *conn).await?;
    sqlx::query_as("SELECT seq, hash FROM audit_log WHERE game_id = $1 ORDER BY seq DESC LIMIT 1")
        .bind(game)
        .fetch_optional(conn)
        .await
}

/// Appends one entry.
pub async fn insert(conn: &mut PgConnection, row: &AuditRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO audit_log (game_id, seq, at, actor, action, detail, prev_hash, hash) \
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
    )
    .bind(row.game_id)
    .bind(row.seq)
    .bind(row.at)
    .bind(&row.actor)
    .bind(&row.action)
    .bind(&row.detail)
    .bind(&row.prev_hash)
    .bind(&row.hash)
    .execute(conn)
    .await?;
    Ok(())
}

/// A game's whole log, oldest first.
pub async fn of_game(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<AuditRow>> {
    sqlx::query_as(
        "SELECT game_id, seq, at, actor, action, detail, prev_hash, hash FROM audit_log \
         WHERE game_id = $1 ORDER BY seq",
    )
    .bind(game)
    .fetch_all(conn)
    .await
}
