//! Turns: opening, claiming due turns, drafts, publication.

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

/// A turn row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TurnRow {
    pub game_id: Uuid,
    pub number: i32,
    pub status: String,
    pub opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub acting_seats: Vec<i16>,
    pub start_state: Value,
    pub first_seq: i64,
    pub closed_at: Option<DateTime<Utc>>,
    pub close_reason: Option<String>,
    pub draft: Option<Value>,
    pub failure: Option<String>,
    pub published_at: Option<DateTime<Utc>>,
}

const TURN_COLUMNS: &str = "game_id, number, status, opened_at, deadline, acting_seats, start_state, \
    first_seq, closed_at, close_reason, draft, failure, published_at";

/// A turn to open.
pub struct NewTurn<'a> {
    pub game_id: Uuid,
    pub number: i32,
    pub opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub acting_seats: &'a [i16],
    pub start_state: &'a Value,
    pub first_seq: i64,
}

pub async fn open_turn(conn: &mut PgConnection, t: &NewTurn<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO turns (game_id, number, status, opened_at, deadline, acting_seats, start_state, first_seq) \
         VALUES ($1,$2,'open',$3,$4,$5,$6,$7)",
    )
    .bind(t.game_id)
    .bind(t.number)
    .bind(t.opened_at)
    .bind(t.deadline)
    .bind(t.acting_seats)
    .bind(t.start_state)
    .bind(t.first_seq)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn get_turn(conn: &mut PgConnection, game: Uuid, number: i32) -> sqlx::Result<Option<TurnRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TURN_COLUMNS} FROM turns WHERE game_id = $1 AND number = $2"
    )))
    .bind(game)
    .bind(number)
    .fetch_optional(conn)
    .await
}

pub async fn turns_of_game(conn: &mut PgConnection, game: Uuid) -> sqlx::Result<Vec<TurnRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TURN_COLUMNS} FROM turns WHERE game_id = $1 ORDER BY number"
    )))
    .bind(game)
    .fetch_all(conn)
    .await
}

/// Claims open turns that are due — past their deadline, or with every acting seat's latest
/// orders marked final — locking each turn row. Rows locked by another process are skipped, so
/// several server processes can run this at once; the lock lasts until the caller's transaction
/// ends, and a crashed process's rows become claimable again when its transaction is rolled back.
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, i32, String)>> {
    let rows: Vec<(Uuid, i32, bool)> = sqlx::query_as(
        "SELECT t.game_id, t.number, t.deadline <= $1 AS past_deadline FROM turns t \
         WHERE t.status = 'open' AND (t.deadline <= $1 OR NOT EXISTS ( \
             SELECT 1 FROM unnest(t.acting_seats) AS s(seat) WHERE NOT EXISTS ( \
                 SELECT 1 FROM final_marks f WHERE f.game_id = t.game_id AND f.turn = t.number \
                 AND f.seat = s.seat AND f.version = ( \
                     SELECT max(v.version) FROM order_versions v WHERE v.game_id = t.game_id \
                     AND v.turn = t.number AND v.seat = s.seat)))) \
         ORDER BY t.deadline FOR UPDATE OF t SKIP LOCKED LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(g, n, past)| (g, n, if past { "deadline" } else { "all orders final" }.to_string()))
        .collect())
}

/// Locks one turn row (waiting for any other holder).
pub async fn lock_turn(conn: &mut PgConnection, game: Uuid, number: i32) -> sqlx::Result<Option<TurnRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TURN_COLUMNS} FROM turns WHERE game_id = $1 AND number = $2 FOR UPDATE"
    )))
    .bind(game)
    .bind(number)
    .fetch_optional(conn)
    .await
}

/// Records the draft adjudication of a closed turn.
pub async fn set_draft(
    conn: &mut PgConnection,
    game: Uuid,
    number: i32,
    now: DateTime<Utc>,
    reason: &str,
    draft: &Value,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns SET status = 'draft', closed_at = $3, close_reason = $4, draft = $5, failure = NULL \
         WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(now)
    .bind(reason)
    .bind(draft)
    .execute(conn)
    .await?;
    Ok(())
}

/// Parks a turn whose adjudication failed, for the GM.
pub async fn set_failed(
    conn: &mut PgConnection,
    game: Uuid,
    number: i32,
    now: DateTime<Utc>,
    failure: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns SET status = 'failed', closed_at = $3, failure = $4 WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(now)
    .bind(failure)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn set_published(
    conn: &mut PgConnection,
    game: Uuid,
    number: i32,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns SET status = 'published', published_at = $3 WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}
