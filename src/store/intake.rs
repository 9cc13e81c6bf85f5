//! The intake's short path for a player's orders (issue 32, RULING W19): one read of what the
//! echo needs, without a lock, and one statement that appends the version only if the turn is
//! still the one that was read and still takes this seat's orders. Anything else (a closed or
//! corrected turn, a deadline passed, the cap reached, a race with the seat's own other
//! submission) is left to the locked path of `service::submit`, which gives the exact answer.
//! The appends of several seats that arrive together share that statement and its commit
//! (RULING W60, `service::intake_batch`), each row judged alone.

use super::orders::NewVersion;
use crate::domain::GameId;
use crate::engine::Seat;
use crate::schedule::Rhythm;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use sqlx::types::Json;

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

/// One append of a batch, owned so that the task that runs the batch can hold it: the version's
/// values and the turn as it was read.
#[derive(Debug, Clone)]
pub struct BatchItem {
    game: GameId,
    turn: i32,
    seat: Seat,
    body: String,
    canonical: String,
    salt: String,
    digest: String,
    /// The echo as JSON text (cast to `jsonb` by the statement).
    echo: String,
    source: &'static str,
    submitted_at: DateTime<Utc>,
    /// The line salts joined by commas (hex, so never containing one).
    line_salts: String,
    first_seq: i64,
    reopened: i32,
    opened_at: DateTime<Utc>,
    cap: i64,
    token_hash: Option<String>,
}

impl BatchItem {
    /// The append of `v` if the turn is still as `read`.
    pub fn new(read: &AsRead<'_>, v: &NewVersion<'_>) -> serde_json::Result<BatchItem> {
        Ok(BatchItem {
            game: v.game_id,
            turn: v.turn,
            seat: v.seat,
            body: v.body.to_owned(),
            canonical: v.canonical.to_owned(),
            salt: v.salt.to_owned(),
            digest: v.digest.to_owned(),
            echo: serde_json::to_string(v.echo)?,
            source: v.source.as_str(),
            submitted_at: v.submitted_at,
            line_salts: v.line_salts.join(","),
            first_seq: read.first_seq,
            reopened: read.reopened,
            opened_at: read.opened_at,
            cap: read.cap,
            token_hash: read.token_hash.map(str::to_owned),
        })
    }

    /// The seat's versions this append numbers: two appends of one seat never share a batch.
    pub fn seat_key(&self) -> (GameId, i32, Seat) {
        (self.game, self.turn, self.seat)
    }
}

#[derive(sqlx::FromRow)]
struct BatchRow {
    i: i64,
    #[sqlx(flatten)]
    appended: Appended,
}

/// Appends each item as its seat's next version, in one statement, if its turn is still open,
/// still the one read (the same start, reopened as often, opened at the same time), before its
/// deadline at the item's `submitted_at`, with the seat among its acting seats, under the cap and
/// (for a token) still the token's; a turn whose seats had all marked their orders final is no
/// longer so (the new version is not final). Answers per item, in order, what was stored — `None`
/// for an item left to the locked path. The turn rows are share-locked until the append commits:
/// a close or correction (which locks a turn for update) waits for it or it for them, while
/// appends of the game's other seats go on side by side (RULINGS W1, S6, W19, W60). `items` must
/// hold at most one append per seat and turn ([`BatchItem::seat_key`]). An error stored nothing:
/// a unique violation means a seat's own concurrent submission took the number, a deadlock that
/// two appends both cleared the "all final" mark ([`is_race`]).
pub async fn append_batch(
    conn: &mut PgConnection,
    items: &[BatchItem],
) -> sqlx::Result<Vec<Option<Appended>>> {
    let column = |f: fn(&BatchItem) -> &str| items.iter().map(f).collect::<Vec<&str>>();
    let rows: Vec<BatchRow> = sqlx::query_as(
        // The same conditions as `append_if_open`, row by row. The turns are share-locked in key
        // order (two batches never wait on each other's turns in a circle) and only then judged.
        "WITH req AS (SELECT * FROM unnest($1::uuid[], $2::int4[], $3::int2[], $4::text[], $5::text[], \
             $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::text[], $12::int8[], \
             $13::int4[], $14::timestamptz[], $15::int8[], $16::text[]) WITH ORDINALITY \
             AS r(game_id, turn, seat, body, canonical, salt, digest, echo, source, submitted_at, line_salts, \
             first_seq, reopened, opened_at, cap, token_hash, i)), \
         locked AS (SELECT game_id, number, status, first_seq, reopened, opened_at, deadline, deadline_version, \
             acting_seats FROM turns WHERE (game_id, number) IN (SELECT game_id, turn FROM req) \
             ORDER BY game_id, number FOR SHARE), \
         ok AS (SELECT r.*, l.deadline, l.deadline_version, s.time_zone, \
             (SELECT COALESCE(max(v.version), 0) FROM order_versions v WHERE v.game_id = r.game_id \
                 AND v.turn = r.turn AND v.seat = r.seat) AS top \
             FROM req r JOIN locked l ON l.game_id = r.game_id AND l.number = r.turn \
             JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat \
             WHERE l.status = 'open' AND l.first_seq = r.first_seq AND l.reopened = r.reopened \
             AND l.opened_at = r.opened_at AND l.deadline > r.submitted_at AND r.seat = ANY (l.acting_seats) \
             AND (r.token_hash IS NULL OR s.token_hash = r.token_hash)), \
         ins AS (INSERT INTO order_versions (game_id, turn, seat, version, body, canonical, salt, digest, echo, \
             source, submitted_at, line_salts) \
             SELECT game_id, turn, seat, top + 1, body, canonical, salt, digest, echo::jsonb, source, \
             submitted_at, string_to_array(line_salts, ',') FROM ok WHERE top < cap \
             RETURNING game_id, turn, seat, version), \
         unfinal AS (UPDATE turns u SET all_final_at = NULL FROM (SELECT DISTINCT game_id, turn FROM ins) x \
             WHERE u.game_id = x.game_id AND u.number = x.turn AND u.all_final_at IS NOT NULL) \
         SELECT ok.i, ins.version, ok.deadline, ok.deadline_version, ok.time_zone, g.rhythm, g.turn_length_secs \
         FROM ins JOIN ok ON ok.game_id = ins.game_id AND ok.turn = ins.turn AND ok.seat = ins.seat \
         JOIN games g ON g.id = ins.game_id",
    )
    .bind(items.iter().map(|v| v.game.0).collect::<Vec<_>>())
    .bind(items.iter().map(|v| v.turn).collect::<Vec<_>>())
    .bind(items.iter().map(|v| i16::from(v.seat.0)).collect::<Vec<_>>())
    .bind(column(|v| &v.body))
    .bind(column(|v| &v.canonical))
    .bind(column(|v| &v.salt))
    .bind(column(|v| &v.digest))
    .bind(column(|v| &v.echo))
    .bind(column(|v| v.source))
    .bind(items.iter().map(|v| v.submitted_at).collect::<Vec<_>>())
    .bind(column(|v| &v.line_salts))
    .bind(items.iter().map(|v| v.first_seq).collect::<Vec<_>>())
    .bind(items.iter().map(|v| v.reopened).collect::<Vec<_>>())
    .bind(items.iter().map(|v| v.opened_at).collect::<Vec<_>>())
    .bind(items.iter().map(|v| v.cap).collect::<Vec<_>>())
    .bind(items.iter().map(|v| v.token_hash.as_deref()).collect::<Vec<_>>())
    .fetch_all(conn)
    .await?;
    let mut out: Vec<Option<Appended>> = vec![None; items.len()];
    for row in rows {
        // Ordinality counts from 1.
        if let Some(slot) = usize::try_from(row.i - 1).ok().and_then(|i| out.get_mut(i)) {
            *slot = Some(row.appended);
        }
    }
    Ok(out)
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
