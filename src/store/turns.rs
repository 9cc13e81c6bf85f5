//! Turns: opening, claiming due turns, drafts, publication.

use crate::domain::{GameId, TurnStatus};
use crate::engine::Seat;
use crate::engine::outcome::{GmQuestion, TurnOutcome};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

/// A turn row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TurnRow {
    pub game_id: GameId,
    pub number: i32,
    pub status: TurnStatus,
    pub opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub acting_seats: Vec<Seat>,
    pub start_state: Value,
    pub first_seq: i64,
    pub closed_at: Option<DateTime<Utc>>,
    pub close_reason: Option<String>,
    pub draft: Option<Json<TurnOutcome>>,
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
    /// The question the adjudication waits on (an `engine::GmQuestion`), if any.
    pub question: Option<Json<GmQuestion>>,
    /// The GM's answers so far (actions, in the order the questions came).
    pub gm_answers: Json<Vec<Value>>,
}

const TURN_COLUMNS: &str = "game_id, number, status, opened_at, deadline, acting_seats, start_state, \
    first_seq, closed_at, close_reason, draft, failure, published_at, deadline_version, grace_secs, held_at, \
    held_reason, reopened, question, gm_answers";

/// A turn to open.
pub struct NewTurn<'a> {
    pub game_id: GameId,
    pub number: i32,
    pub opened_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    pub acting_seats: &'a [Seat],
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

/// One turn of a game, by its number.
pub async fn get_turn(conn: &mut PgConnection, game: GameId, number: i32) -> sqlx::Result<Option<TurnRow>> {
    one_turn(conn, game, number, "").await
}

/// One turn row, the query with `suffix` (`" FOR UPDATE"` to lock it) after its condition.
async fn one_turn(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    suffix: &'static str,
) -> sqlx::Result<Option<TurnRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TURN_COLUMNS} FROM turns WHERE game_id = $1 AND number = $2{suffix}"
    )))
    .bind(game)
    .bind(number)
    .fetch_optional(conn)
    .await
}

pub async fn turns_of_game(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<TurnRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {TURN_COLUMNS} FROM turns WHERE game_id = $1 ORDER BY number"
    )))
    .bind(game)
    .fetch_all(conn)
    .await
}

/// When an open turn is due at `$1` (now), as an SQL condition on `turns t` joined with
/// `games g`:
/// - the deadline has passed and every acting seat has orders on file, or the deadline plus the
///   turn's grace period has passed;
/// - or every acting seat's latest orders are marked final (`all_final_at`) and the game's
///   cooling-off delay has passed since (early close).
///
/// Turns of paused games and turns held for the GM are never due.
pub(super) const DUE: &str = "t.status = 'open' AND t.held_at IS NULL AND g.paused_at IS NULL AND ( \
    (t.deadline <= $1 AND (t.grace_secs = 0 OR t.deadline + make_interval(secs => t.grace_secs) <= $1 \
        OR NOT EXISTS (SELECT 1 FROM unnest(t.acting_seats) AS s(seat) WHERE NOT EXISTS ( \
            SELECT 1 FROM order_versions v WHERE v.game_id = t.game_id AND v.turn = t.number \
            AND v.seat = s.seat)))) \
    OR (t.all_final_at IS NOT NULL AND t.all_final_at + make_interval(secs => g.cooling_off_secs) <= $1))";

/// Why a due turn closes, for its log: the same cases as [`DUE`].
const WHY: &str = "CASE WHEN t.deadline > $1 THEN 'all orders final' \
    WHEN t.grace_secs > 0 AND t.deadline + make_interval(secs => t.grace_secs) <= $1 \
        AND EXISTS (SELECT 1 FROM unnest(t.acting_seats) AS s(seat) WHERE NOT EXISTS ( \
            SELECT 1 FROM order_versions v WHERE v.game_id = t.game_id AND v.turn = t.number \
            AND v.seat = s.seat)) THEN 'deadline and grace period' \
    ELSE 'deadline' END";

/// A turn's key: its game and number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct TurnKey {
    pub game_id: GameId,
    pub number: i32,
}

/// Open turns that are due now, earliest deadline first, without locking them: candidates for
/// [`claim_due_turn`]. Both cases of [`DUE`] are found through partial indexes.
pub async fn due_candidates(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<TurnKey>> {
    // One indexed walk per case (turns_open_deadline, turns_open_all_final).
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "(SELECT t.game_id, t.number FROM turns t JOIN games g ON g.id = t.game_id \
          WHERE {DUE} AND t.deadline <= $1 ORDER BY t.deadline LIMIT $2) \
         UNION \
         (SELECT t.game_id, t.number FROM turns t JOIN games g ON g.id = t.game_id \
          WHERE {DUE} AND t.all_final_at IS NOT NULL ORDER BY t.all_final_at LIMIT $2)"
    )))
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Claims one candidate turn if it is still due, locking its row until the caller's transaction
/// ends; `None` when another process holds it or it is no longer due. Returns why it closes.
/// Several server processes can run this at once; a crashed process's claim is rolled back with
/// its transaction.
pub async fn claim_due_turn(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT {WHY} FROM turns t JOIN games g ON g.id = t.game_id \
         WHERE t.game_id = $2 AND t.number = $3 AND {DUE} FOR UPDATE OF t SKIP LOCKED"
    )))
    .bind(now)
    .bind(game)
    .bind(number)
    .fetch_optional(conn)
    .await
}

/// Records whether every acting seat's latest orders are now final (`now`) or not (`NULL`), after
/// a submission or a final mark on the (locked) turn.
pub async fn refresh_all_final(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns t SET all_final_at = CASE WHEN NOT EXISTS ( \
             SELECT 1 FROM unnest(t.acting_seats) AS s(seat) WHERE NOT EXISTS ( \
                 SELECT 1 FROM final_marks f WHERE f.game_id = t.game_id AND f.turn = t.number \
                 AND f.seat = s.seat AND f.version = ( \
                     SELECT max(v.version) FROM order_versions v WHERE v.game_id = t.game_id \
                     AND v.turn = t.number AND v.seat = s.seat))) \
             THEN $3::timestamptz END \
         WHERE t.game_id = $1 AND t.number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// When every acting seat's latest orders of a turn were last found final (`all_final_at`), or
/// `None` while some are not (or there is no such turn).
pub async fn all_final_at(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
) -> sqlx::Result<Option<DateTime<Utc>>> {
    let at: Option<Option<DateTime<Utc>>> =
        sqlx::query_scalar("SELECT all_final_at FROM turns WHERE game_id = $1 AND number = $2")
            .bind(game)
            .bind(number)
            .fetch_optional(conn)
            .await?;
    Ok(at.flatten())
}

/// An open turn's deadline and its version (iCalendar SEQUENCE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct OpenDeadline {
    pub deadline: DateTime<Utc>,
    pub deadline_version: i32,
}

/// The deadline and its version of a game's turn, if that turn is open (without the turn's
/// state, which a mail that only mentions the deadline does not need).
pub async fn open_deadline(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
) -> sqlx::Result<Option<OpenDeadline>> {
    sqlx::query_as(
        "SELECT deadline, deadline_version FROM turns WHERE game_id = $1 AND number = $2 AND status = 'open'",
    )
    .bind(game)
    .bind(number)
    .fetch_optional(conn)
    .await
}

/// Locks one turn row (waiting for any other holder).
pub async fn lock_turn(conn: &mut PgConnection, game: GameId, number: i32) -> sqlx::Result<Option<TurnRow>> {
    one_turn(conn, game, number, " FOR UPDATE").await
}

/// Records the draft adjudication of a closed turn.
pub async fn set_draft(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    now: DateTime<Utc>,
    reason: &str,
    draft: &TurnOutcome,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns SET status = 'draft', closed_at = $3, close_reason = $4, draft = $5, failure = NULL \
         WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(now)
    .bind(reason)
    .bind(Json(draft))
    .execute(conn)
    .await?;
    Ok(())
}

/// Parks a turn whose adjudication failed, for the GM.
pub async fn set_failed(
    conn: &mut PgConnection,
    game: GameId,
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
    game: GameId,
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

/// Parks an open turn on a question for the GM (held, so the scheduler leaves it alone), or
/// clears it (`None`).
pub async fn set_question(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    question: Option<(&GmQuestion, DateTime<Utc>, &str)>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE turns SET question = $3, held_at = $4, held_reason = $5 WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(number)
    .bind(question.map(|q| Json(q.0)))
    .bind(question.map(|q| q.1))
    .bind(question.map(|q| q.2))
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the GM's answers so far.
pub async fn set_gm_answers(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    answers: &[Value],
) -> sqlx::Result<()> {
    sqlx::query("UPDATE turns SET gm_answers = $3 WHERE game_id = $1 AND number = $2")
        .bind(game)
        .bind(number)
        .bind(Json(answers))
        .execute(conn)
        .await?;
    Ok(())
}
