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
    /// Bumped whenever the announced deadline moves (iCalendar SEQUENCE).
    pub deadline_version: i32,
    pub grace_secs: i64,
    /// When the NMR policy held the turn for the GM, and why.
    pub held_at: Option<DateTime<Utc>>,
    pub held_reason: Option<String>,
    /// How often a rollback re-opened the turn.
    pub reopened: i32,
}

const TURN_COLUMNS: &str = "game_id, number, status, opened_at, deadline, acting_seats, start_state, \
    first_seq, closed_at, close_reason, draft, failure, published_at, deadline_version, grace_secs, held_at, \
    held_reason, reopened";

/// A turn to open.
pub struct NewTurn<'a> {
    pub game_id: Uuid,
    pub number: i32,
    pub opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub acting_seats: &'a [i16],
    pub start_state: &'a Value,
    pub first_seq: i64,
    pub grace_secs: i64,
}

pub async fn open_turn(conn: &mut PgConnection, t: &NewTurn<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO turns (game_id, number, status, opened_at, deadline, acting_seats, start_state, first_seq, \
         grace_secs) VALUES ($1,$2,'open',$3,$4,$5,$6,$7,$8)",
    )
    .bind(t.game_id)
    .bind(t.number)
    .bind(t.opened_at)
    .bind(t.deadline)
    .bind(t.acting_seats)
    .bind(t.start_state)
    .bind(t.first_seq)
    .bind(t.grace_secs)
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

/// Claims open turns that are due, locking each turn row:
/// - the deadline has passed and every acting seat has orders on file, or the deadline plus the
///   turn's grace period has passed;
/// - or every acting seat's latest orders are marked final and the game's cooling-off delay has
///   passed since the last of those marks (early close).
///
/// Turns of paused games and turns held for the GM are never due. Rows locked by another process
/// are skipped, so several server processes can run this at once; the lock lasts until the
/// caller's transaction ends, and a crashed process's rows become claimable again when its
/// transaction is rolled back.
pub async fn claim_due(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<(Uuid, i32, String)>> {
    sqlx::query_as(
        "SELECT t.game_id, t.number, CASE \
             WHEN t.deadline <= $1 AND st.missing > 0 THEN 'deadline and grace period' \
             WHEN t.deadline <= $1 THEN 'deadline' \
             ELSE 'all orders final' END \
         FROM turns t JOIN games g ON g.id = t.game_id \
         CROSS JOIN LATERAL ( \
             SELECT count(*) FILTER (WHERE lv.version IS NULL) AS missing, \
                    count(*) FILTER (WHERE fm.marked_at IS NULL) AS not_final, \
                    max(fm.marked_at) AS last_final \
             FROM unnest(t.acting_seats) AS s(seat) \
             LEFT JOIN LATERAL (SELECT max(v.version) AS version FROM order_versions v \
                 WHERE v.game_id = t.game_id AND v.turn = t.number AND v.seat = s.seat) lv ON true \
             LEFT JOIN LATERAL (SELECT max(f.marked_at) AS marked_at FROM final_marks f \
                 WHERE f.game_id = t.game_id AND f.turn = t.number AND f.seat = s.seat \
                 AND f.version = lv.version) fm ON true) st \
         WHERE t.status = 'open' AND t.held_at IS NULL AND g.paused_at IS NULL AND ( \
             (t.deadline <= $1 AND (st.missing = 0 OR t.deadline + make_interval(secs => t.grace_secs) <= $1)) \
             OR (st.not_final = 0 AND st.last_final + make_interval(secs => g.cooling_off_secs) <= $1)) \
         ORDER BY t.deadline FOR UPDATE OF t SKIP LOCKED LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
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
