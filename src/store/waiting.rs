//! Games that wait for their seats (issue 37) and their places: invitations, open seats taken,
//! requests to join and the waiting list (`waiting_games`, `seat_places`).

use crate::domain::{GameId, PlaceKind, PlaceStatus, Review, WaitingStatus};
use crate::schedule::ClockWords;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

/// A waiting game: what the GM asked for.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WaitingRow {
    pub id: GameId,
    pub gm_email: String,
    pub name: String,
    pub engine: String,
    pub options: Value,
    pub clock_words: Json<ClockWords>,
    pub review: Review,
    /// Seats wanted.
    pub seats: i16,
    pub seed: i64,
    pub shuffle: bool,
    pub approval: bool,
    pub status: WaitingStatus,
    pub created_at: DateTime<Utc>,
}

const WAITING_COLUMNS: &str = "id, gm_email, name, engine, options, clock_words, review, seats, seed, shuffle, approval, status, created_at";

/// Stores a new waiting game.
pub async fn insert(conn: &mut PgConnection, w: &WaitingRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO waiting_games (id, gm_email, name, engine, options, clock_words, review, seats, seed, \
         shuffle, approval, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(w.id)
    .bind(&w.gm_email)
    .bind(&w.name)
    .bind(&w.engine)
    .bind(&w.options)
    .bind(&w.clock_words)
    .bind(w.review)
    .bind(w.seats)
    .bind(w.seed)
    .bind(w.shuffle)
    .bind(w.approval)
    .bind(w.status)
    .bind(w.created_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// A waiting game, locked for the caller's transaction.
pub async fn lock(conn: &mut PgConnection, id: GameId) -> sqlx::Result<Option<WaitingRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {WAITING_COLUMNS} FROM waiting_games WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A waiting game, unlocked.
pub async fn get(conn: &mut PgConnection, id: GameId) -> sqlx::Result<Option<WaitingRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {WAITING_COLUMNS} FROM waiting_games WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The games still waiting that a GM created or is a co-GM of (RULING W62), newest first.
pub async fn of_gm(conn: &mut PgConnection, email: &str) -> sqlx::Result<Vec<WaitingRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {WAITING_COLUMNS} FROM waiting_games WHERE status = 'waiting' AND (lower(gm_email) = lower($1) \
         OR id IN (SELECT game_id FROM game_gms WHERE email = lower($1))) ORDER BY created_at DESC"
    )))
    .bind(email)
    .fetch_all(conn)
    .await
}

/// Every game still waiting, oldest first (the public list filters those with open seats).
pub async fn all_waiting(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<WaitingRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {WAITING_COLUMNS} FROM waiting_games WHERE status = 'waiting' ORDER BY created_at LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Marks a waiting game started or cancelled.
pub async fn close(
    conn: &mut PgConnection,
    id: GameId,
    status: WaitingStatus,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE waiting_games SET status = $2, closed_at = $3 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// One place of a game.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlaceRow {
    pub id: i64,
    pub game_id: GameId,
    /// A replacement offer's seat (RULING W61); none for the places of a waiting game.
    pub seat: Option<i16>,
    pub kind: PlaceKind,
    pub email: Option<String>,
    pub name: Option<String>,
    pub status: PlaceStatus,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub answered_at: Option<DateTime<Utc>>,
}

const PLACE_COLUMNS: &str =
    "id, game_id, seat, kind, email, name, status, expires_at, created_at, answered_at";

/// A new place.
pub struct NewPlace<'a> {
    pub game: GameId,
    pub kind: PlaceKind,
    pub email: &'a str,
    pub name: &'a str,
    pub status: PlaceStatus,
    pub expires_at: DateTime<Utc>,
    pub now: DateTime<Utc>,
}

/// Stores a place (its link's token follows, [`set_token`]); returns its id.
pub async fn insert_place(conn: &mut PgConnection, p: &NewPlace<'_>) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO seat_places (game_id, kind, email, name, status, expires_at, created_at) \
         VALUES ($1, $2, lower($3), $4, $5, $6, $7) RETURNING id",
    )
    .bind(p.game)
    .bind(p.kind)
    .bind(p.email)
    .bind(p.name)
    .bind(p.status)
    .bind(p.expires_at)
    .bind(p.now)
    .fetch_one(conn)
    .await
}

/// Sets the hash of a place's link token.
pub async fn set_token(conn: &mut PgConnection, id: i64, token_hash: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE seat_places SET token_hash = $2 WHERE id = $1")
        .bind(id)
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// A place by id, whatever its game, locked.
pub async fn place_by_id(conn: &mut PgConnection, id: i64) -> sqlx::Result<Option<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// A game's places, in the order they were made.
pub async fn places(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE game_id = $1 ORDER BY id"
    )))
    .bind(game)
    .fetch_all(conn)
    .await
}

/// The place a link's token opens, locked, whatever its status: under the key its link was made
/// with, or the one a rotation carried it to (RULING P9).
pub async fn place_by_token(conn: &mut PgConnection, token_hash: &str) -> sqlx::Result<Option<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE token_hash = $1 OR token_hash_next = $1 \
         ORDER BY id LIMIT 1 FOR UPDATE"
    )))
    .bind(token_hash)
    .fetch_optional(conn)
    .await
}

/// A place of a game by id, locked.
pub async fn place(conn: &mut PgConnection, game: GameId, id: i64) -> sqlx::Result<Option<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE game_id = $1 AND id = $2 FOR UPDATE"
    )))
    .bind(game)
    .bind(id)
    .fetch_optional(conn)
    .await
}

/// Sets a place's status, and when it was answered.
pub async fn set_status(
    conn: &mut PgConnection,
    id: i64,
    status: PlaceStatus,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE seat_places SET status = $2, answered_at = $3 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Pending invitations and unconfirmed requests past their time, of games still waiting, locked
/// (SKIP LOCKED: another process may be expiring them).
pub async fn overdue(conn: &mut PgConnection, now: DateTime<Utc>, limit: i64) -> sqlx::Result<Vec<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE status IN ('pending', 'unconfirmed') AND expires_at <= $1 \
         AND game_id IN (SELECT id FROM waiting_games WHERE status = 'waiting') \
         ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED"
    )))
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Stores a running game's seat offered as a replacement (RULING W61), pending, without an address
/// until someone takes it; returns its id.
pub async fn insert_offer(
    conn: &mut PgConnection,
    game: GameId,
    seat: i16,
    expires_at: DateTime<Utc>,
    now: DateTime<Utc>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO seat_places (game_id, seat, kind, status, expires_at, created_at) \
         VALUES ($1, $2, 'replacement', 'pending', $3, $4) RETURNING id",
    )
    .bind(game)
    .bind(seat)
    .bind(expires_at)
    .bind(now)
    .fetch_one(conn)
    .await
}

/// How many players are on a game's waiting list.
pub async fn waitlisted(conn: &mut PgConnection, game: GameId) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM seat_places WHERE game_id = $1 AND status = 'waitlisted'")
        .bind(game)
        .fetch_one(conn)
        .await
}

/// Withdraws a seat's replacement offers still pending; how many there were.
pub async fn withdraw_offers(
    conn: &mut PgConnection,
    game: GameId,
    seat: i16,
    at: DateTime<Utc>,
) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "UPDATE seat_places SET status = 'withdrawn', answered_at = $3 \
         WHERE game_id = $1 AND seat = $2 AND kind = 'replacement' AND status = 'pending'",
    )
    .bind(game)
    .bind(seat)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// A replacement offer taken: the player's address and name, accepted.
pub async fn take_offer(
    conn: &mut PgConnection,
    id: i64,
    email: &str,
    name: &str,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE seat_places SET email = lower($2), name = $3, status = 'accepted', answered_at = $4 WHERE id = $1",
    )
    .bind(id)
    .bind(email)
    .bind(name)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// A key rotation (RULING P9): the link made from `was` under the old key is also `is` under the
/// new one; false when no place has that link.
pub async fn carry_token_hash(conn: &mut PgConnection, was: &str, is: &str) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE seat_places SET token_hash_next = $2 WHERE token_hash = $1 OR token_hash_next = $1",
    )
    .bind(was)
    .bind(is)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// The ids of the places still to be answered (pending or unconfirmed, in time), locked, for a key
/// rotation (RULING P9).
pub async fn live_places(conn: &mut PgConnection, now: DateTime<Utc>) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM seat_places \
         WHERE status IN ('pending', 'unconfirmed') AND (expires_at IS NULL OR expires_at > $1) ORDER BY id FOR UPDATE",
    )
    .bind(now)
    .fetch_all(conn)
    .await
}

/// Keeps the hash of a place's reply tag under a key that is being replaced (RULING P9).
pub async fn add_reply_tag_hash(conn: &mut PgConnection, id: i64, hash: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE seat_places SET reply_tag_hashes = array_append(reply_tag_hashes, $2) \
         WHERE id = $1 AND NOT ($2 = ANY (reply_tag_hashes))",
    )
    .bind(id)
    .bind(hash)
    .execute(conn)
    .await?;
    Ok(())
}

/// The hashes of a place's reply tags under keys since replaced (RULING P9).
pub async fn reply_tag_hashes(conn: &mut PgConnection, id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT reply_tag_hashes FROM seat_places WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await
        .map(Option::unwrap_or_default)
}
