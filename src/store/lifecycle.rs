//! Lifecycle rows: pauses, deadline moves, holds, standing orders, NMR flags, replacement,
//! absences, durable timers and the scheduler's heartbeat.

use crate::domain::{GameId, TimerKind};
use crate::engine::Seat;
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::PgConnection;

/// Pauses (`Some(now)`) or resumes (`None`) a game.
pub async fn set_paused(
    conn: &mut PgConnection,
    game: GameId,
    at: Option<DateTime<Utc>>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET paused_at = $2 WHERE id = $1").bind(game).bind(at).execute(conn).await?;
    Ok(())
}

/// Moves an open turn's deadline (bumping its version, for calendars) and retimes its pending
/// reminders to follow it.
pub async fn move_deadline(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    deadline: DateTime<Utc>,
) -> sqlx::Result<i32> {
    let version: i32 = sqlx::query_scalar(
        "UPDATE turns SET deadline = $3, deadline_version = deadline_version + 1 \
         WHERE game_id = $1 AND number = $2 RETURNING deadline_version",
    )
    .bind(game)
    .bind(turn)
    .bind(deadline)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE timers SET due_at = $3 - make_interval(secs => offset_secs) \
         WHERE game_id = $1 AND turn = $2 AND kind = 'reminder' AND done_at IS NULL",
    )
    .bind(game)
    .bind(turn)
    .bind(deadline)
    .execute(conn)
    .await?;
    Ok(version)
}

/// Holds (`Some`) or releases (`None`) an open turn for the GM.
pub async fn set_hold(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    hold: Option<(DateTime<Utc>, &str)>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE turns SET held_at = $3, held_reason = $4 WHERE game_id = $1 AND number = $2")
        .bind(game)
        .bind(turn)
        .bind(hold.map(|h| h.0))
        .bind(hold.map(|h| h.1))
        .execute(conn)
        .await?;
    Ok(())
}

/// Appends a seat's standing orders (the newest are in force).
pub async fn add_standing(conn: &mut PgConnection, game: GameId, seat: Seat, body: &str) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO standing_orders (game_id, seat, body) VALUES ($1, $2, $3)")
        .bind(game)
        .bind(seat)
        .bind(body)
        .execute(conn)
        .await?;
    Ok(())
}

/// A seat's standing orders in force.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StandingRow {
    pub seat: Seat,
    pub body: String,
}

/// The standing orders in force, per seat that has any (empty text withdraws them).
pub async fn standing_in_force(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<StandingRow>> {
    sqlx::query_as(
        "SELECT DISTINCT ON (seat) seat, body FROM standing_orders WHERE game_id = $1 \
         ORDER BY seat, id DESC",
    )
    .bind(game)
    .fetch_all(conn)
    .await
    .map(|rows: Vec<StandingRow>| rows.into_iter().filter(|r| !r.body.trim().is_empty()).collect())
}

/// Flags a seat for replacement.
pub async fn flag_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE seats SET flagged_at = $3 WHERE game_id = $1 AND seat = $2")
        .bind(game)
        .bind(seat)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// Hands a seat to a new player: new token generation (the old secret and reply address stop
/// working), NMR count reset, flag cleared. Returns the new generation.
pub async fn replace_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    name: &str,
    email: &str,
    token_hash_of: impl FnOnce(i32) -> String,
) -> sqlx::Result<i32> {
    let generation: i32 = sqlx::query_scalar(
        "SELECT token_generation + 1 FROM seats WHERE game_id = $1 AND seat = $2 FOR UPDATE",
    )
    .bind(game)
    .bind(seat)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE seats SET player_name = $3, email = $4, token_hash = $5, token_generation = $6, \
         nmr_count = 0, flagged_at = NULL WHERE game_id = $1 AND seat = $2",
    )
    .bind(game)
    .bind(seat)
    .bind(name)
    .bind(email)
    .bind(token_hash_of(generation))
    .bind(generation)
    .execute(conn)
    .await?;
    Ok(generation)
}

/// Sets (or clears) a player's own time zone.
pub async fn set_seat_zone(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    zone: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE seats SET time_zone = $3 WHERE game_id = $1 AND seat = $2")
        .bind(game)
        .bind(seat)
        .bind(zone)
        .execute(conn)
        .await?;
    Ok(())
}

/// A seat's absence, first and last day included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct AbsenceRow {
    pub seat: Seat,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
}

/// Records an absence, in force (`approved`) or waiting for the GM's approval.
pub async fn add_absence(
    conn: &mut PgConnection,
    game: GameId,
    a: AbsenceRow,
    approved: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO absences (game_id, seat, first_day, last_day, approved) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(a.seat)
    .bind(a.first_day)
    .bind(a.last_day)
    .bind(approved)
    .execute(conn)
    .await?;
    Ok(())
}

/// Puts a seat's absences that wait for the GM in force; returns them.
pub async fn approve_absences(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
) -> sqlx::Result<Vec<AbsenceRow>> {
    sqlx::query_as(
        "UPDATE absences SET approved = true WHERE game_id = $1 AND seat = $2 AND NOT approved \
         RETURNING seat, first_day, last_day",
    )
    .bind(game)
    .bind(seat)
    .fetch_all(conn)
    .await
}

/// Removes a seat's absences that wait for the GM (the GM declined them); returns them.
pub async fn decline_absences(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
) -> sqlx::Result<Vec<AbsenceRow>> {
    sqlx::query_as(
        "DELETE FROM absences WHERE game_id = $1 AND seat = $2 AND NOT approved \
         RETURNING seat, first_day, last_day",
    )
    .bind(game)
    .bind(seat)
    .fetch_all(conn)
    .await
}

/// The absences players asked for that wait for the GM's approval, by seat and first day.
pub async fn pending_absences(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<AbsenceRow>> {
    sqlx::query_as(
        "SELECT seat, first_day, last_day FROM absences WHERE game_id = $1 AND NOT approved \
         ORDER BY seat, first_day",
    )
    .bind(game)
    .fetch_all(conn)
    .await
}

/// Whether a player's own absence in this game waits for the GM's approval (RULING S9).
pub async fn absence_approval(conn: &mut PgConnection, game: GameId) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT absence_approval FROM games WHERE id = $1").bind(game).fetch_one(conn).await
}

/// Sets whether a player's own absence waits for the GM's approval.
pub async fn set_absence_approval(conn: &mut PgConnection, game: GameId, on: bool) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET absence_approval = $2 WHERE id = $1")
        .bind(game)
        .bind(on)
        .execute(conn)
        .await?;
    Ok(())
}

/// Absences in force of a game that have not ended before `from`.
pub async fn absences(
    conn: &mut PgConnection,
    game: GameId,
    from: NaiveDate,
) -> sqlx::Result<Vec<AbsenceRow>> {
    sqlx::query_as(
        "SELECT seat, first_day, last_day FROM absences WHERE game_id = $1 AND approved AND last_day >= $2 \
         ORDER BY first_day",
    )
    .bind(game)
    .bind(from)
    .fetch_all(conn)
    .await
}

/// A timer to arm (a second arm of the same timer is ignored).
pub async fn arm_timer(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    kind: TimerKind,
    offset_secs: Option<i64>,
    due_at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO timers (game_id, turn, kind, offset_secs, due_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (game_id, turn, kind, offset_secs) DO NOTHING",
    )
    .bind(game)
    .bind(turn)
    .bind(kind)
    .bind(offset_secs)
    .bind(due_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// A due timer.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TimerRow {
    pub id: i64,
    pub game_id: GameId,
    pub turn: i32,
    pub kind: TimerKind,
    /// For a reminder: how long before the deadline it is due.
    pub offset_secs: Option<i64>,
}

/// Claims due timers of running games, locking them (other processes skip them) until the
/// caller's transaction ends.
pub async fn claim_timers(
    conn: &mut PgConnection,
    now: DateTime<Utc>,
    limit: i64,
) -> sqlx::Result<Vec<TimerRow>> {
    sqlx::query_as(
        "SELECT t.id, t.game_id, t.turn, t.kind, t.offset_secs FROM timers t JOIN games g ON g.id = t.game_id \
         WHERE t.done_at IS NULL AND t.due_at <= $1 AND g.paused_at IS NULL \
         ORDER BY t.due_at FOR UPDATE OF t SKIP LOCKED LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// Marks a timer done with what it did.
pub async fn finish_timer(
    conn: &mut PgConnection,
    id: i64,
    now: DateTime<Utc>,
    outcome: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE timers SET done_at = $2, outcome = $3 WHERE id = $1")
        .bind(id)
        .bind(now)
        .bind(outcome)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records a scheduler pass; returns when the previous pass ran (`None` on the first ever).
/// The row lock serialises concurrent passes, so one gap is measured by one process.
pub async fn heartbeat(conn: &mut PgConnection, now: DateTime<Utc>) -> sqlx::Result<Option<DateTime<Utc>>> {
    let before: Option<DateTime<Utc>> =
        sqlx::query_scalar("SELECT beat_at FROM scheduler_heartbeat WHERE id FOR UPDATE")
            .fetch_optional(&mut *conn)
            .await?;
    sqlx::query(
        "INSERT INTO scheduler_heartbeat (id, beat_at) VALUES (true, $1) \
         ON CONFLICT (id) DO UPDATE SET beat_at = greatest(scheduler_heartbeat.beat_at, $1)",
    )
    .bind(now)
    .execute(conn)
    .await?;
    Ok(before)
}

/// An open turn's deadline.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TurnDeadline {
    pub game_id: GameId,
    pub number: i32,
    pub deadline: DateTime<Utc>,
}

/// Open turns of running games whose deadline fell in `(from, to]`.
pub async fn deadlines_between(
    conn: &mut PgConnection,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> sqlx::Result<Vec<TurnDeadline>> {
    sqlx::query_as(
        "SELECT t.game_id, t.number, t.deadline FROM turns t JOIN games g ON g.id = t.game_id \
         WHERE t.status = 'open' AND g.paused_at IS NULL AND t.deadline > $1 AND t.deadline <= $2 \
         ORDER BY t.deadline FOR UPDATE OF t",
    )
    .bind(from)
    .bind(to)
    .fetch_all(conn)
    .await
}

/// After a GM correction logged at `seq`: the open turn starts from the corrected state, one
/// sequence number later, and so does the game.
pub async fn apply_correction(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    state: &serde_json::Value,
    seq: i64,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE turns SET start_state = $3, first_seq = $4 + 1 WHERE game_id = $1 AND number = $2")
        .bind(game)
        .bind(turn)
        .bind(state)
        .bind(seq)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE games SET state = $2, next_seq = $3 + 1 WHERE id = $1")
        .bind(game)
        .bind(state)
        .bind(seq)
        .execute(conn)
        .await?;
    Ok(())
}
