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

/// The games still waiting that a GM created, newest first.
pub async fn of_gm(conn: &mut PgConnection, email: &str) -> sqlx::Result<Vec<WaitingRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {WAITING_COLUMNS} FROM waiting_games WHERE status = 'waiting' AND lower(gm_email) = lower($1) \
         ORDER BY created_at DESC"
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
    pub kind: PlaceKind,
    pub email: Option<String>,
    pub name: Option<String>,
    pub status: PlaceStatus,
    pub expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub answered_at: Option<DateTime<Utc>>,
}

const PLACE_COLUMNS: &str = "id, game_id, kind, email, name, status, expires_at, created_at, answered_at";

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

/// The place a link's token opens, locked, whatever its status.
pub async fn place_by_token(conn: &mut PgConnection, token_hash: &str) -> sqlx::Result<Option<PlaceRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {PLACE_COLUMNS} FROM seat_places WHERE token_hash = $1 FOR UPDATE"
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
