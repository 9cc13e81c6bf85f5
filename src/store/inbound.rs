//! Inbound mail rows: stored raw first (its secrets sealed, RULING M11), claimed for processing,
//! outcome recorded.

use crate::domain::{GameId, InboundStatus, Notice, SealedSecrets};
use crate::engine::Seat;
use chrono::{DateTime, TimeDelta, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

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
    pub status: InboundStatus,
    pub message_id: Option<String>,
    pub from_addr: Option<String>,
    pub game_id: Option<GameId>,
    pub seat: Option<Seat>,
    pub turn: Option<i32>,
    pub outcome: Option<String>,
    /// What the placeholders in `raw` and `envelope_to` stand for (None: stored before sealing,
    /// its secrets as they came).
    pub sealed: Option<Json<SealedSecrets>>,
}

impl InboundRow {
    /// What the stored message's placeholders stand for (none for a message stored before
    /// sealing: what it holds is checked as written).
    pub fn secrets(&self) -> std::borrow::Cow<'_, SealedSecrets> {
        match &self.sealed {
            Some(Json(s)) => std::borrow::Cow::Borrowed(s),
            None => std::borrow::Cow::Owned(SealedSecrets::default()),
        }
    }
}

const COLUMNS: &str = "id, received_at, raw, truncated, source, envelope_from, envelope_to, status, \
    message_id, from_addr, game_id, seat, turn, outcome, sealed";

/// A message as received, to store.
pub struct NewInbound<'a> {
    pub raw: &'a [u8],
    pub sha256: &'a str,
    pub truncated: bool,
    pub source: &'a str,
    pub envelope_from: Option<&'a str>,
    pub envelope_to: Option<&'a str>,
    pub received_at: DateTime<Utc>,
    /// What the placeholders written into `raw` and `envelope_to` stand for.
    pub sealed: &'a SealedSecrets,
}

/// Stores raw bytes; returns `(id, true)` for a new row, `(id of the earlier row, false)` when
/// the same bytes were stored before (an MTA retry).
pub async fn insert_raw(conn: &mut PgConnection, m: &NewInbound<'_>) -> sqlx::Result<(i64, bool)> {
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO inbound_messages (raw, raw_sha256, truncated, source, envelope_from, envelope_to, received_at, sealed) \
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (raw_sha256) DO NOTHING RETURNING id",
    )
    .bind(m.raw)
    .bind(m.sha256)
    .bind(m.truncated)
    .bind(m.source)
    .bind(m.envelope_from)
    .bind(m.envelope_to)
    .bind(m.received_at)
    .bind(Json(m.sealed))
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

/// A message stored before sealing (RULING M11): its bytes and envelope recipient as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Unsealed {
    pub id: i64,
    pub raw: Vec<u8>,
    pub envelope_to: Option<String>,
}

/// Up to `limit` messages stored before sealing, locked (others skip them).
pub async fn unsealed(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<Unsealed>> {
    sqlx::query_as(
        "SELECT id, raw, envelope_to FROM inbound_messages WHERE sealed IS NULL ORDER BY id \
         FOR UPDATE SKIP LOCKED LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Stores a message's bytes and envelope recipient sealed, with what the placeholders stand for.
pub async fn reseal(
    conn: &mut PgConnection,
    id: i64,
    raw: &[u8],
    envelope_to: Option<&str>,
    sealed: &SealedSecrets,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE inbound_messages SET raw = $2, envelope_to = $3, sealed = $4 WHERE id = $1")
        .bind(id)
        .bind(raw)
        .bind(envelope_to)
        .bind(Json(sealed))
        .execute(conn)
        .await?;
    Ok(())
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

/// Gives a claimed message's lease back so it is claimed again from `again` on (processing it
/// failed for a reason outside the message, e.g. the database was briefly out of reach).
pub async fn release(conn: &mut PgConnection, id: i64, again: DateTime<Utc>) -> sqlx::Result<()> {
    sqlx::query("UPDATE inbound_messages SET locked_until = $2 WHERE id = $1 AND status = 'new'")
        .bind(id)
        .bind(again)
        .execute(conn)
        .await?;
    Ok(())
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
    pub status: InboundStatus,
    pub message_id: Option<&'a str>,
    pub from_addr: Option<&'a str>,
    pub game_id: Option<GameId>,
    pub seat: Option<Seat>,
    pub turn: Option<i32>,
    pub auth_results: Option<&'a Value>,
    pub outcome: &'a str,
    /// For a refusal of mail that is not the seat's own, or mail for no seat: whether its
    /// notice was sent or withheld (flood limits).
    pub notice: Option<Notice>,
    /// Mail for no seat (counted against the bound on keeping such mail).
    pub unrouted: bool,
}

/// Records what processing decided about a message.
pub async fn record_outcome(
    conn: &mut PgConnection,
    id: i64,
    o: &Outcome<'_>,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE inbound_messages SET status = $2, message_id = $3, from_addr = $4, game_id = $5, seat = $6, \
         turn = $7, auth_results = $8, outcome = $9, processed_at = $10, notice = $11, unrouted = $12, \
         locked_until = NULL WHERE id = $1",
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
    .bind(o.notice)
    .bind(o.unrouted)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether another, already processed message had this Message-ID and came from the same
/// sender for the same seat as its player's own mail (not refused as a stranger's, which leaves
/// a notice): a stranger's mail cannot take a Message-ID away from the player.
pub async fn message_id_seen(
    conn: &mut PgConnection,
    id: i64,
    message_id: &str,
    game: GameId,
    seat: Seat,
    from: &str,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM inbound_messages WHERE message_id = $1 AND id <> $2 AND status <> 'new' \
         AND game_id = $3 AND seat = $4 AND lower(from_addr) = lower($5) AND notice IS NULL)",
    )
    .bind(message_id)
    .bind(id)
    .bind(game)
    .bind(seat)
    .bind(from)
    .fetch_one(conn)
    .await
}

/// Serialises, until the transaction ends, the decisions about one seat's mail: its per-turn
/// limit (count, then insert) and its refusal notices (at most one an hour).
pub async fn lock_seat(conn: &mut PgConnection, game: GameId, seat: Seat) -> sqlx::Result<()> {
    sqlx::query(
        "SELECT pg_advisory_xact_lock(hashtextextended('inbound-seat:' || $1::text || ':' || $2::text, 0))",
    )
    .bind(game)
    .bind(seat)
    .execute(conn)
    .await?;
    Ok(())
}

/// Serialises, until the transaction ends, the decisions about keeping mail for no seat.
pub async fn lock_unrouted(conn: &mut PgConnection) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended('inbound-unrouted', 0))")
        .execute(conn)
        .await?;
    Ok(())
}

/// A seat's refusal notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatNotices {
    /// When the last one went out.
    pub last_sent: Option<DateTime<Utc>>,
    /// How many refusals were withheld since (since ever, when none went out).
    pub withheld: i64,
}

/// A seat's refusal notices: when the last one went out, and how many refusals were withheld
/// since (since ever, when none went out).
pub async fn seat_notices(conn: &mut PgConnection, game: GameId, seat: Seat) -> sqlx::Result<SeatNotices> {
    sqlx::query_as(
        "WITH last AS (SELECT id, processed_at AS at FROM inbound_messages \
                       WHERE game_id = $1 AND seat = $2 AND notice = 'sent' ORDER BY id DESC LIMIT 1) \
         SELECT (SELECT at FROM last) AS last_sent, (SELECT count(*) FROM inbound_messages \
                 WHERE game_id = $1 AND seat = $2 AND notice = 'withheld' AND id > coalesce((SELECT id FROM last), 0)) AS withheld",
    )
    .bind(game)
    .bind(seat)
    .fetch_one(conn)
    .await
}

/// Mail for no seat kept since a time: from one sender (its From, else its envelope sender, lower
/// case) and overall, in messages and raw bytes, and the notices sent about refused ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct UnroutedUse {
    pub sender_count: i64,
    pub sender_bytes: i64,
    pub sender_noticed: bool,
    pub count: i64,
    pub bytes: i64,
    pub notices: i64,
}

/// [`UnroutedUse`] since `since` for `sender`.
pub async fn unrouted_use(
    conn: &mut PgConnection,
    sender: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<UnroutedUse> {
    sqlx::query_as(
        "SELECT count(*) FILTER (WHERE s AND octet_length(raw) > 0) AS sender_count, \
                coalesce(sum(octet_length(raw)) FILTER (WHERE s), 0)::int8 AS sender_bytes, \
                coalesce(bool_or(s AND notice = 'sent'), false) AS sender_noticed, \
                count(*) FILTER (WHERE octet_length(raw) > 0) AS count, \
                coalesce(sum(octet_length(raw)), 0)::int8 AS bytes, \
                count(*) FILTER (WHERE notice = 'sent') AS notices \
         FROM (SELECT raw, notice, lower(coalesce(from_addr, envelope_from, '')) = $1 AS s \
               FROM inbound_messages WHERE unrouted AND processed_at > $2) AS recent",
    )
    .bind(sender)
    .bind(since)
    .fetch_one(conn)
    .await
}

/// Forgets a message entirely (mail for no seat over its bound).
pub async fn delete(conn: &mut PgConnection, id: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM inbound_messages WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}

/// Keeps a message's row but not its bytes (mail for no seat over its bound, answered once).
pub async fn drop_raw(conn: &mut PgConnection, id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE inbound_messages SET raw = ''::bytea WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}

/// Order mails accepted from a seat in a turn (for the per-turn limit).
pub async fn accepted_for_turn(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
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

/// A message as the GM dashboard lists it: what happened to it, without its raw bytes.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InboundSummary {
    pub id: i64,
    pub received_at: DateTime<Utc>,
    pub status: InboundStatus,
    pub from_addr: Option<String>,
    pub seat: Option<Seat>,
    pub turn: Option<i32>,
    pub outcome: Option<String>,
}

/// A game's inbound mail, newest first, without the raw bytes (for the GM dashboard).
pub async fn of_game(conn: &mut PgConnection, game: GameId, limit: i64) -> sqlx::Result<Vec<InboundSummary>> {
    sqlx::query_as(
        "SELECT id, received_at, status, from_addr, seat, turn, outcome FROM inbound_messages \
         WHERE game_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(game)
    .bind(limit)
    .fetch_all(conn)
    .await
}
