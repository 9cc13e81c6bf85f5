//! Inbound mail rows: stored raw first, claimed for processing, outcome recorded.

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

/// A stored inbound message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InboundRow {
    pub id: i64,
    pub received_at: DateTime<Utc>,
    pub raw: Vec<u8>,
    pub truncated: bool,
    pub source: String,
    pub envelope_from: Option<String>,
    pub envelope_to: Option<String>,
    pub status: String,
    pub message_id: Option<String>,
    pub from_addr: Option<String>,
    pub game_id: Option<Uuid>,
    pub seat: Option<i16>,
    pub turn: Option<i32>,
    pub outcome: Option<String>,
}

const COLUMNS: &str = "id, received_at, raw, truncated, source, envelope_from, envelope_to, status, \
    message_id, from_addr, game_id, seat, turn, outcome";

/// A message as received, to store.
pub struct NewInbound<'a> {
    pub raw: &'a [u8],
    pub sha256: &'a str,
    pub truncated: bool,
    pub source: &'a str,
    pub envelope_from: Option<&'a str>,
    pub envelope_to: Option<&'a str>,
    pub received_at: DateTime<Utc>,
}

/// Stores raw bytes; returns `(id, true)` for a new row, `(id of the earlier row, false)` when
/// the same bytes were stored before (an MTA retry).
pub async fn insert_raw(conn: &mut PgConnection, m: &NewInbound<'_>) -> sqlx::Result<(i64, bool)> {
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO inbound_messages (raw, raw_sha256, truncated, source, envelope_from, envelope_to, received_at) \
         VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (raw_sha256) DO NOTHING RETURNING id",
    )
    .bind(m.raw)
    .bind(m.sha256)
    .bind(m.truncated)
    .bind(m.source)
    .bind(m.envelope_from)
    .bind(m.envelope_to)
    .bind(m.received_at)
    .fetch_optional(&mut *conn)
    .await?;
    match inserted {
        Some(id) => Ok((id, true)),
        None => {
            let id = sqlx::query_scalar("SELECT id FROM inbound_messages WHERE raw_sha256 = $1")
                .bind(m.sha256)
                .fetch_one(conn)
                .await?;
            Ok((id, false))
        }
    }
}

/// Claims unprocessed messages (lease; SKIP LOCKED), oldest first.
pub async fn claim_new(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    lease: TimeDelta,
    limit: i64,
) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "UPDATE inbound_messages SET locked_until = $2, attempts = attempts + 1 WHERE id IN ( \
         SELECT id FROM inbound_messages WHERE status = 'new' AND (locked_until IS NULL OR locked_until < $1) \
         ORDER BY id FOR UPDATE SKIP LOCKED LIMIT $3) RETURNING id",
    )
    .bind(now)
    .bind(now + lease)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// One message, locked for processing (None when already processed by someone else).
pub async fn lock_new(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<InboundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM inbound_messages WHERE id = $1 AND status = 'new' FOR UPDATE SKIP LOCKED"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn get(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<InboundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM inbound_messages WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// What processing found out about a message.
pub struct Outcome<'a> {
    pub status: &'a str,
    pub message_id: Option<&'a str>,
    pub from_addr: Option<&'a str>,
    pub game_id: Option<Uuid>,
    pub seat: Option<i16>,
    pub turn: Option<i32>,
    pub auth_results: Option<&'a Value>,
    pub outcome: &'a str,
}

pub async fn record_outcome(
    conn: &mut PgConnection,
    id: i64,
    o: &Outcome<'_>,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE inbound_messages SET status = $2, message_id = $3, from_addr = $4, game_id = $5, seat = $6, \
         turn = $7, auth_results = $8, outcome = $9, processed_at = $10, locked_until = NULL WHERE id = $1",
    )
    .bind(id)
    .bind(o.status)
    .bind(o.message_id)
    .bind(o.from_addr)
    .bind(o.game_id)
    .bind(o.seat)
    .bind(o.turn)
    .bind(o.auth_results)
    .bind(o.outcome)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// What earlier mail says about a message, asked in one round trip: whether another, already
/// processed message had its Message-ID, and how many mails from its sender were rejected since
/// a time (for the rejection rate limit).
pub struct SeenBefore {
    pub message_id: bool,
    pub rejections: i64,
}

/// [`SeenBefore`] for message `id` with this Message-ID and sender (either may be missing).
pub async fn seen_before(
    conn: &mut PgConnection,
    id: i64,
    message_id: Option<&str>,
    from_addr: Option<&str>,
    since: DateTime<Utc>,
) -> sqlx::Result<SeenBefore> {
    let (message_id, rejections) = sqlx::query_as(
        "SELECT EXISTS (SELECT 1 FROM inbound_messages WHERE message_id = $1 AND id <> $2 AND status <> 'new'), \
         (SELECT count(*) FROM inbound_messages WHERE lower(from_addr) = lower($3) AND status = 'rejected' \
          AND received_at > $4)",
    )
    .bind(message_id)
    .bind(id)
    .bind(from_addr)
    .bind(since)
    .fetch_one(conn)
    .await?;
    Ok(SeenBefore { message_id, rejections })
}

/// Order mails accepted from a seat in a turn (for the per-turn limit).
pub async fn accepted_for_turn(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
    turn: i32,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM inbound_messages WHERE game_id = $1 AND seat = $2 AND turn = $3 AND status = 'accepted'",
    )
    .bind(game)
    .bind(seat)
    .bind(turn)
    .fetch_one(conn)
    .await
}

/// A game's inbound mail, newest first (for the GM dashboard).
pub async fn of_game(conn: &mut PgConnection, game: Uuid, limit: i64) -> sqlx::Result<Vec<InboundRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM inbound_messages WHERE game_id = $1 ORDER BY id DESC LIMIT $2"
    )))
    .bind(game)
    .bind(limit)
    .fetch_all(conn)
    .await
}
