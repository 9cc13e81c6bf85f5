//! Games, seats, the action log and stored reports.

use crate::domain::{GameId, GameStatus, NmrPolicy, Review};
use crate::engine::Seat;
use crate::schedule::Rhythm;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

/// A game row.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameRow {
    pub id: GameId,
    pub name: String,
    pub engine: String,
    pub rules_version: i32,
    pub seed: i64,
    pub setup: Value,
    pub gm_email: String,
    pub review: Review,
    pub turn_length_secs: i64,
    pub status: GameStatus,
    pub state: Value,
    pub next_seq: i64,
    pub current_turn: i32,
    pub created_at: DateTime<Utc>,
    /// `crate::schedule::Rhythm` as JSON; `None` = every `turn_length_secs`.
    pub rhythm: Option<Json<Rhythm>>,
    pub paused_at: Option<DateTime<Utc>>,
    pub cooling_off_secs: i64,
    /// Reminders, in seconds before the deadline.
    pub reminder_offsets: Vec<i64>,
    /// `crate::domain::NmrPolicy` as JSON.
    pub nmr_policy: Json<NmrPolicy>,
    pub auto_release_secs: Option<i64>,
    pub max_absence_days: i32,
    /// Whether the rules' referrals to the GM stop the turn for the GM's choice (RULINGS S18).
    pub gm_referrals: bool,
}

/// Sets whether the rules' referrals stop the turn for the GM's choice (RULINGS S18).
pub async fn set_gm_referrals(conn: &mut PgConnection, game: GameId, ask: bool) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET gm_referrals = $2 WHERE id = $1")
        .bind(game)
        .bind(ask)
        .execute(conn)
        .await?;
    Ok(())
}

/// A seat row (the token itself is never stored, only its hash).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SeatRow {
    pub game_id: GameId,
    pub seat: Seat,
    pub player_name: String,
    pub email: String,
    pub nmr_count: i32,
    pub token_generation: i32,
    /// The player's own IANA time zone for deadlines in mail, if they set one.
    pub time_zone: Option<String>,
    /// When the seat was flagged for replacement (NMR policy), until a replacement takes over.
    pub flagged_at: Option<DateTime<Utc>>,
}

/// A new game to insert.
pub struct NewGame<'a> {
    pub id: GameId,
    pub name: &'a str,
    pub engine: &'a str,
    pub rules_version: i32,
    pub seed: i64,
    pub setup: &'a Value,
    pub gm_email: &'a str,
    pub review: Review,
    pub turn_length_secs: i64,
    pub state: &'a Value,
    pub clock: &'a crate::schedule::GameClock,
}

const GAME_COLUMNS: &str = "id, name, engine, rules_version, seed, setup, gm_email, review, \
    turn_length_secs, status, state, next_seq, current_turn, created_at, rhythm, paused_at, cooling_off_secs, \
    reminder_offsets, nmr_policy, auto_release_secs, max_absence_days, gm_referrals";

pub(crate) const SEAT_COLUMNS: &str =
    "game_id, seat, player_name, email, nmr_count, token_generation, time_zone, flagged_at";

pub async fn insert_game(conn: &mut PgConnection, g: &NewGame<'_>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO games (id, name, engine, rules_version, seed, setup, gm_email, review, \
         turn_length_secs, status, state, rhythm, cooling_off_secs, reminder_offsets, nmr_policy, \
         auto_release_secs, max_absence_days, gm_referrals) \
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,'active',$10,$11,$12,$13,$14,$15,$16,$17)",
    )
    .bind(g.id)
    .bind(g.name)
    .bind(g.engine)
    .bind(g.rules_version)
    .bind(g.seed)
    .bind(g.setup)
    .bind(g.gm_email)
    .bind(g.review)
    .bind(g.turn_length_secs)
    .bind(g.state)
    .bind(g.clock.rhythm.as_ref().map(Json))
    .bind(g.clock.cooling_off.num_seconds())
    .bind(g.clock.reminders.iter().map(|d| d.num_seconds()).collect::<Vec<i64>>())
    .bind(Json(g.clock.nmr_policy))
    .bind(g.clock.auto_release.map(|d| d.num_seconds()))
    .bind(g.clock.max_absence_days)
    .bind(g.clock.gm_referrals)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    name: &str,
    email: &str,
    token_hash: &str,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO seats (game_id, seat, player_name, email, token_hash) VALUES ($1,$2,$3,$4,$5)")
        .bind(game)
        .bind(seat)
        .bind(name)
        .bind(email)
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn get_game(conn: &mut PgConnection, id: GameId) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

/// The game row locked for update (serialises adjudication and publication of one game).
pub async fn lock_game(conn: &mut PgConnection, id: GameId) -> sqlx::Result<Option<GameRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1 FOR UPDATE")))
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn list_games(conn: &mut PgConnection, limit: i64) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games ORDER BY created_at DESC LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(conn)
    .await
}

/// The games an address runs, as their GM or a co-GM, newest first.
pub async fn games_of_gm(conn: &mut PgConnection, email: &str) -> sqlx::Result<Vec<GameRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE lower(gm_email) = lower($1) \
         OR id IN (SELECT game_id FROM game_gms WHERE email = lower($1)) ORDER BY created_at DESC"
    )))
    .bind(email)
    .fetch_all(conn)
    .await
}

/// Stores the state after a published turn.
pub async fn update_after_publish(
    conn: &mut PgConnection,
    id: GameId,
    state: &Value,
    next_seq: i64,
    current_turn: i32,
    finished: bool,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE games SET state = $2, next_seq = $3, current_turn = $4, status = $5 WHERE id = $1")
        .bind(id)
        .bind(state)
        .bind(next_seq)
        .bind(current_turn)
        .bind(if finished { GameStatus::Finished } else { GameStatus::Active })
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn seats(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<SeatRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = $1 ORDER BY seat"
    )))
    .bind(game)
    .fetch_all(conn)
    .await
}

/// The seat a token belongs to.
pub async fn seat_by_token(conn: &mut PgConnection, token_hash: &str) -> sqlx::Result<Option<SeatRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {SEAT_COLUMNS} FROM seats WHERE token_hash = $1")))
        .bind(token_hash)
        .fetch_optional(conn)
        .await
}

/// Counts one more NMR for a seat; returns the new count.
pub async fn add_nmr(conn: &mut PgConnection, game: GameId, seat: Seat) -> sqlx::Result<i32> {
    sqlx::query_scalar(
        "UPDATE seats SET nmr_count = nmr_count + 1 WHERE game_id = $1 AND seat = $2 RETURNING nmr_count",
    )
    .bind(game)
    .bind(seat)
    .fetch_one(conn)
    .await
}

/// An action of the log as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ActionRow {
    pub seq: i64,
    pub turn: i32,
    pub seat: Seat,
    pub action: Value,
    pub by_default: bool,
}

/// Appends actions to the log of `game`, all in one statement (issue 38: a published turn's
/// actions together — one statement a turn, not one an action).
pub async fn append_actions(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    rows: &[ActionRow],
) -> sqlx::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let seqs: Vec<i64> = rows.iter().map(|a| a.seq).collect();
    let seats: Vec<Seat> = rows.iter().map(|a| a.seat).collect();
    let actions: Vec<&Value> = rows.iter().map(|a| &a.action).collect();
    let defaults: Vec<bool> = rows.iter().map(|a| a.by_default).collect();
    sqlx::query(
        "INSERT INTO actions (game_id, seq, turn, seat, action, by_default) \
         SELECT $1, s, $2, st, a, d FROM UNNEST($3::bigint[], $4::smallint[], $5::jsonb[], $6::boolean[]) \
         AS x(s, st, a, d)",
    )
    .bind(game)
    .bind(turn)
    .bind(seqs)
    .bind(seats)
    .bind(actions)
    .bind(defaults)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn actions(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<ActionRow>> {
    sqlx::query_as("SELECT seq, turn, seat, action, by_default FROM actions WHERE game_id = $1 ORDER BY seq")
        .bind(game)
        .fetch_all(conn)
        .await
}

/// A seat's report for a turn.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportRow {
    pub turn: i32,
    pub seat: Seat,
    pub subject: String,
    pub body_text: String,
    pub body_html: String,
}

pub async fn insert_report(conn: &mut PgConnection, game: GameId, r: &ReportRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO reports (game_id, turn, seat, subject, body_text, body_html) VALUES ($1,$2,$3,$4,$5,$6) \
         ON CONFLICT (game_id, turn, seat) DO NOTHING",
    )
    .bind(game)
    .bind(r.turn)
    .bind(r.seat)
    .bind(&r.subject)
    .bind(&r.body_text)
    .bind(&r.body_html)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn reports_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
) -> sqlx::Result<Vec<ReportRow>> {
    sqlx::query_as(
        "SELECT turn, seat, subject, body_text, body_html FROM reports WHERE game_id = $1 AND seat = $2 ORDER BY turn",
    )
    .bind(game)
    .bind(seat)
    .fetch_all(conn)
    .await
}

/// The turns a seat has a report of, with each report's subject, oldest first (the seat page's
/// report history, without the bodies).
pub async fn report_turns_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
) -> sqlx::Result<Vec<(i32, String)>> {
    sqlx::query_as("SELECT turn, subject FROM reports WHERE game_id = $1 AND seat = $2 ORDER BY turn")
        .bind(game)
        .bind(seat)
        .fetch_all(conn)
        .await
}

/// A seat's report of one turn, if it has one.
pub async fn report_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    turn: i32,
) -> sqlx::Result<Option<ReportRow>> {
    sqlx::query_as(
        "SELECT turn, seat, subject, body_text, body_html FROM reports WHERE game_id = $1 AND seat = $2 \
         AND turn = $3",
    )
    .bind(game)
    .bind(seat)
    .bind(turn)
    .fetch_optional(conn)
    .await
}
