//! Order versions (append-only) and final marks.

use crate::domain::GameId;
use crate::domain::OrderSource;
use crate::engine::Seat;
use crate::orders::Echo;
use chrono::{DateTime, Utc};
use sqlx::error::BoxDynError;
use sqlx::postgres::PgArguments;
use sqlx::types::Json;
use sqlx::{Arguments, PgConnection};

/// One stored version of a seat's orders for a turn.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OrderVersionRow {
    pub turn: i32,
    pub seat: Seat,
    pub version: i32,
    pub body: String,
    pub canonical: String,
    /// The whole-text salt of the old receipt scheme (empty for versions sealed line by line).
    pub salt: String,
    pub digest: String,
    /// One salt per order line (`crate::orders::digest::seal_lines`); `None` for versions
    /// sealed under the old scheme.
    pub line_salts: Option<Vec<String>>,
    pub echo: Json<Echo>,
    pub source: OrderSource,
    pub submitted_at: DateTime<Utc>,
    /// Whether this version carries a final mark.
    pub is_final: bool,
}

const COLUMNS: &str = "v.turn, v.seat, v.version, v.body, v.canonical, v.salt, v.digest, v.line_salts, v.echo, \
    v.source, v.submitted_at, EXISTS (SELECT 1 FROM final_marks f WHERE f.game_id = v.game_id AND f.turn = v.turn \
    AND f.seat = v.seat AND f.version = v.version) AS is_final";

/// A version to append.
pub struct NewVersion<'a> {
    pub game_id: GameId,
    pub turn: i32,
    pub seat: Seat,
    pub body: &'a str,
    pub canonical: &'a str,
    pub salt: &'a str,
    pub digest: &'a str,
    pub line_salts: &'a [String],
    pub echo: &'a Echo,
    pub source: OrderSource,
    pub submitted_at: DateTime<Utc>,
}

/// Appends a version numbered one past the seat's latest; returns its number. Callers hold the
/// turn row lock, so numbers are assigned without races.
pub async fn append(conn: &mut PgConnection, v: &NewVersion<'_>) -> sqlx::Result<i32> {
    sqlx::query_scalar_with(
        "INSERT INTO order_versions (game_id, turn, seat, version, body, canonical, salt, digest, echo, source, \
         submitted_at, line_salts) \
         SELECT $1, $2, $3, COALESCE(max(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11 FROM order_versions \
         WHERE game_id = $1 AND turn = $2 AND seat = $3 RETURNING version",
        v.arguments()?,
    )
    .fetch_one(conn)
    .await
}

impl NewVersion<'_> {
    /// The version's values as a statement's arguments `$1`–`$11`: game, turn, seat, body,
    /// canonical, salt, digest, echo, source, submitted at, line salts (the order `INSERT INTO
    /// order_versions` lists them in, version aside). A caller may add its own after them.
    pub(crate) fn arguments(&self) -> sqlx::Result<PgArguments> {
        self.encoded().map_err(sqlx::Error::Encode)
    }

    fn encoded(&self) -> Result<PgArguments, BoxDynError> {
        let mut a = PgArguments::default();
        a.add(self.game_id)?;
        a.add(self.turn)?;
        a.add(self.seat)?;
        a.add(self.body)?;
        a.add(self.canonical)?;
        a.add(self.salt)?;
        a.add(self.digest)?;
        a.add(Json(self.echo))?;
        a.add(self.source)?;
        a.add(self.submitted_at)?;
        a.add(self.line_salts)?;
        Ok(a)
    }
}

pub async fn mark_final(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
    version: i32,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO final_marks (game_id, turn, seat, version, marked_at) VALUES ($1,$2,$3,$4,$5)")
        .bind(game)
        .bind(turn)
        .bind(seat)
        .bind(version)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every version of one seat's orders for a turn, oldest first.
pub async fn versions_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
) -> sqlx::Result<Vec<OrderVersionRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM order_versions v WHERE v.game_id = $1 AND v.turn = $2 AND v.seat = $3 ORDER BY v.version"
    )))
    .bind(game)
    .bind(turn)
    .bind(seat)
    .fetch_all(conn)
    .await
}

/// The latest version of every seat's orders for a turn.
pub async fn latest_of_turn(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
) -> sqlx::Result<Vec<OrderVersionRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT DISTINCT ON (v.seat) {COLUMNS} FROM order_versions v WHERE v.game_id = $1 AND v.turn = $2 \
         ORDER BY v.seat, v.version DESC"
    )))
    .bind(game)
    .bind(turn)
    .fetch_all(conn)
    .await
}

/// How many versions a seat has for a turn.
pub async fn count_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM order_versions WHERE game_id = $1 AND turn = $2 AND seat = $3")
        .bind(game)
        .bind(turn)
        .bind(seat)
        .fetch_one(conn)
        .await
}

/// The latest version of a seat's orders for a turn, if any.
pub async fn latest_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
) -> sqlx::Result<Option<OrderVersionRow>> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM order_versions v WHERE v.game_id = $1 AND v.turn = $2 AND v.seat = $3 \
         ORDER BY v.version DESC LIMIT 1"
    )))
    .bind(game)
    .bind(turn)
    .bind(seat)
    .fetch_optional(conn)
    .await
}

/// How large a page of versions may be.
#[derive(Debug, Clone, Copy)]
pub struct PageBound {
    /// Versions at most.
    pub limit: i64,
    /// Text at most (body, canonical form and echo), in bytes: a version is left for the next
    /// page when those before it on this page already reach this. The first always fits.
    pub bytes: i64,
}

/// A query for a bounded page: the rows matching `filter` in `order`, up to the bound's limit,
/// cut where the text before a row reaches the bound's bytes (parameters `$limit`, `$bytes`).
fn bounded_page(filter: &str, order: &str, limit: &str, bytes: &str) -> String {
    let outer = order.replace("v.", "p.");
    format!(
        "SELECT * FROM (SELECT {COLUMNS}, COALESCE(sum(octet_length(v.body) + octet_length(v.canonical) \
         + octet_length(v.echo::text)) OVER (ORDER BY {order} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) \
         AS bytes_before FROM order_versions v WHERE {filter} ORDER BY {order} LIMIT {limit}) p \
         WHERE p.bytes_before < {bytes} ORDER BY {outer}"
    )
}

/// A page of a seat's versions for a turn, newest first, older than version `before` (from the
/// latest when `None`).
pub async fn page_of_seat(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
    before: Option<i32>,
    bound: PageBound,
) -> sqlx::Result<Vec<OrderVersionRow>> {
    let filter = "v.game_id = $1 AND v.turn = $2 AND v.seat = $3 AND v.version < $4";
    sqlx::query_as(sqlx::AssertSqlSafe(bounded_page(filter, "v.version DESC", "$5", "$6")))
        .bind(game)
        .bind(turn)
        .bind(seat)
        .bind(before.unwrap_or(i32::MAX))
        .bind(bound.limit)
        .bind(bound.bytes)
        .fetch_all(conn)
        .await
}

/// How many of a seat's versions for a turn are older than `version`.
pub async fn count_older(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    seat: Seat,
    version: i32,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM order_versions WHERE game_id = $1 AND turn = $2 AND seat = $3 AND version < $4",
    )
    .bind(game)
    .bind(turn)
    .bind(seat)
    .bind(version)
    .fetch_one(conn)
    .await
}

/// A seat's version number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct SeatVersion {
    pub seat: Seat,
    pub version: i32,
}

/// Each seat's latest version number of a turn: the version that was adjudicated (no version is
/// added after a turn closes).
pub async fn played_versions(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
) -> sqlx::Result<Vec<SeatVersion>> {
    sqlx::query_as(
        "SELECT seat, max(version) AS version FROM order_versions WHERE game_id = $1 AND turn = $2 GROUP BY seat",
    )
    .bind(game)
    .bind(turn)
    .fetch_all(conn)
    .await
}

/// How many versions all seats have for a turn.
pub async fn count_of_turn(conn: &mut PgConnection, game: GameId, turn: i32) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM order_versions WHERE game_id = $1 AND turn = $2")
        .bind(game)
        .bind(turn)
        .fetch_one(conn)
        .await
}

/// A page of a turn's versions in (seat, version) order, after the given (seat, version).
pub async fn page_of_turn(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    after: (Seat, i32),
    bound: PageBound,
) -> sqlx::Result<Vec<OrderVersionRow>> {
    let filter = "v.game_id = $1 AND v.turn = $2 AND (v.seat, v.version) > ($3, $4)";
    sqlx::query_as(sqlx::AssertSqlSafe(bounded_page(filter, "v.seat, v.version", "$5", "$6")))
        .bind(game)
        .bind(turn)
        .bind(after.0)
        .bind(after.1)
        .bind(bound.limit)
        .bind(bound.bytes)
        .fetch_all(conn)
        .await
}

/// How many of a turn's versions come after the given (seat, version).
pub async fn count_later(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    after: (Seat, i32),
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT count(*) FROM order_versions WHERE game_id = $1 AND turn = $2 AND (seat, version) > ($3, $4)",
    )
    .bind(game)
    .bind(turn)
    .bind(after.0)
    .bind(after.1)
    .fetch_one(conn)
    .await
}

/// One seat's sheet played in a turn: the text of its last version.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlayedSheet {
    pub turn: i32,
    pub seat: Seat,
    pub body: String,
}

/// The sheets played in the turns before `before`, in turn order (each seat's last version of
/// each turn; a closed turn takes no more versions, and a rollback deletes later turns' ones).
pub async fn played_before(
    conn: &mut PgConnection,
    game: GameId,
    before: i32,
) -> sqlx::Result<Vec<PlayedSheet>> {
    sqlx::query_as(
        "SELECT DISTINCT ON (turn, seat) turn, seat, body FROM order_versions WHERE game_id = $1 AND turn < $2 \
         ORDER BY turn, seat, version DESC",
    )
    .bind(game)
    .bind(before)
    .fetch_all(conn)
    .await
}
