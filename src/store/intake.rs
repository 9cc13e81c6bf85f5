//! The intake's short path for a player's orders (issue 32, RULING W19): one read of what the
//! echo needs, without a lock, and one statement that appends the version only if the turn is
//! still the one that was read and still takes this seat's orders. Anything else (a closed or
//! corrected turn, a deadline passed, the cap reached, a race with the seat's own other
//! submission) is left to the locked path of `service::submit`, which gives the exact answer.

use super::orders::NewVersion;
use crate::domain::GameId;
use crate::engine::Seat;
use crate::schedule::Rhythm;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::error::BoxDynError;
use sqlx::types::Json;
use sqlx::{Arguments, PgConnection};

/// What checking a seat's orders against the open turn needs, read in one statement.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IntakeRow {
    pub seat: Seat,
    /// The player's own time zone for deadlines, if they chose one.
    pub time_zone: Option<String>,
    pub engine: String,
    pub rules_version: i32,
    pub turn_length_secs: i64,
    pub rhythm: Option<Json<Rhythm>>,
    /// The game's current turn (whatever its status).
    pub number: i32,
    pub open: bool,
    pub deadline: DateTime<Utc>,
    pub deadline_version: i32,
    pub acting_seats: Vec<Seat>,
    pub start_state: Value,
    /// The turn's first sequence number and how often it was reopened: a GM correction or a
    /// rollback changes one of them, so the append sees whether the state read is still the
    /// turn's.
    pub first_seq: i64,
    pub reopened: i32,
    /// When the turn was opened: a turn opened again under the same number (after a rollback)
    /// is another turn.
    pub opened_at: DateTime<Utc>,
    /// How many versions the seat has sent for this turn: its latest version's number, as
    /// versions are numbered from 1 without gaps (`orders::append`).
    pub sent: i64,
}

/// Which seat of the game is sending.
#[derive(Debug, Clone, Copy)]
pub enum SeatKey<'a> {
    /// A seat already proven.
    Seat(Seat),
    /// The hash of the token presented (`SecretToken::hash`): the seat is proven by the row found.
    TokenHash(&'a str),
}

/// The game's current turn as the seat's orders are checked against it (no lock taken); `None`
/// when the game has no such seat (or no token of it has that hash).
pub async fn view(
    conn: &mut PgConnection,
    game: GameId,
    key: SeatKey<'_>,
) -> sqlx::Result<Option<IntakeRow>> {
    const SELECT: &str = "SELECT s.seat, s.time_zone, g.engine, g.rules_version, g.turn_length_secs, g.rhythm, \
         t.number, t.status = 'open' AS open, t.deadline, t.deadline_version, t.acting_seats, t.start_state, \
         t.first_seq, t.reopened, t.opened_at, \
         (SELECT COALESCE(max(v.version), 0)::int8 FROM order_versions v WHERE v.game_id = t.game_id \
          AND v.turn = t.number AND v.seat = s.seat) AS sent \
         FROM seats s JOIN games g ON g.id = s.game_id JOIN turns t ON t.game_id = g.id AND t.number = g.current_turn \
         WHERE s.game_id = $1";
    let query = match key {
        SeatKey::Seat(seat) => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} AND s.seat = $2"))).bind(game).bind(seat)
        }
        SeatKey::TokenHash(hash) => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("{SELECT} AND s.token_hash = $2")))
                .bind(game)
                .bind(hash)
        }
    };
    query.fetch_optional(conn).await
}

/// The turn as it was read, which the append requires unchanged.
#[derive(Debug, Clone, Copy)]
pub struct AsRead<'a> {
    pub first_seq: i64,
    pub reopened: i32,
    pub opened_at: DateTime<Utc>,
    /// The seat may store at most this many versions (RULING W1).
    pub cap: i64,
    /// The hash of the token the seat was found by, which must still be the seat's; `None` for
    /// a seat proven otherwise.
    pub token_hash: Option<&'a str>,
}

/// What the append answers: the version stored and what the receipt says of the deadline, as
/// they are at the append (whatever was read before).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Appended {
    pub version: i32,
    pub deadline: DateTime<Utc>,
    pub deadline_version: i32,
    pub time_zone: Option<String>,
    pub rhythm: Option<Json<Rhythm>>,
    pub turn_length_secs: i64,
}

/// Appends `v` as the seat's next version in one statement, if the turn is still open, still
/// the one read (`read`: the same start, reopened as often, opened at the same time), before its
/// deadline at `v.submitted_at`, with the seat among its acting seats, under the cap and (for a
/// token) still the token's; a turn whose seats had all
/// marked their orders final is no longer so (the new version is not final). The turn row is
/// share-locked until the append commits: a close or correction (which locks it for update)
/// waits for it or it for them, while appends of the game's other seats go on side by side
/// (RULINGS W1, S6, W19). `None` when nothing was stored. A unique violation means the seat's
/// own concurrent submission took the number, a deadlock that two appends both cleared the
/// "all final" mark; either way the caller takes the locked path ([`is_race`]).
pub async fn append_if_open(
    conn: &mut PgConnection,
    read: AsRead<'_>,
    v: &NewVersion<'_>,
) -> sqlx::Result<Option<Appended>> {
    let mut arguments = v.arguments()?;
    let added: Result<(), BoxDynError> = (|| {
        arguments.add(read.first_seq)?;
        arguments.add(read.reopened)?;
        arguments.add(read.cap)?;
        arguments.add(read.token_hash)?;
        arguments.add(read.opened_at)
    })();
    added.map_err(sqlx::Error::Encode)?;
    sqlx::query_as_with(
        // The turn is found by its key and locked first, then judged: a filter the partial index
        // on open deadlines could serve made the planner scan every open turn. A share lock: the
        // game's seats append side by side; a close's or correction's update lock excludes them.
        "WITH locked AS (SELECT game_id, number, status, first_seq, reopened, opened_at, deadline, \
             deadline_version, acting_seats FROM turns WHERE game_id = $1 AND number = $2 FOR SHARE), \
         t AS (SELECT game_id, number, deadline, deadline_version FROM locked \
             WHERE status = 'open' AND first_seq = $12 AND reopened = $13 AND opened_at = $16 \
             AND deadline > $10 AND $3 = ANY (acting_seats) \
             AND ($15::text IS NULL OR EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND seat = $3 \
                 AND token_hash = $15))), \
         cur AS (SELECT COALESCE(max(version), 0) AS top FROM order_versions \
             WHERE game_id = $1 AND turn = $2 AND seat = $3), \
         ins AS (INSERT INTO order_versions (game_id, turn, seat, version, body, canonical, salt, digest, echo, \
             source, submitted_at, line_salts) \
             SELECT t.game_id, t.number, $3, cur.top + 1, $4, $5, $6, $7, $8, $9, $10, $11 FROM t CROSS JOIN cur \
             WHERE cur.top < $14 RETURNING version), \
         unfinal AS (UPDATE turns u SET all_final_at = NULL FROM ins \
             WHERE u.game_id = $1 AND u.number = $2 AND u.all_final_at IS NOT NULL) \
         SELECT ins.version, t.deadline, t.deadline_version, s.time_zone, g.rhythm, g.turn_length_secs \
         FROM ins CROSS JOIN t JOIN games g ON g.id = t.game_id JOIN seats s ON s.game_id = t.game_id AND s.seat = $3",
        arguments,
    )
    .fetch_optional(conn)
    .await
}

/// Whether an append failed only because it raced another submission (the seat's own, which took
/// the version number; or another seat's, both clearing the turn's "all final" mark under their
/// share locks): nothing was stored and the locked path decides.
pub fn is_race(e: &sqlx::Error) -> bool {
    match e {
        // 23505 unique_violation, 40P01 deadlock_detected, 40001 serialization_failure.
        sqlx::Error::Database(d) => {
            d.is_unique_violation() || matches!(d.code().as_deref(), Some("40P01") | Some("40001"))
        }
        _ => false,
    }
}
