//! One game's rows as JSON, out of this database and into another (`game export` / `game
//! import`, docs/BACKUPS.md). Each table of a game is read whole with `to_jsonb`, minus what only
//! means something on this server (serial ids, the game's key, token hashes), and written back
//! with `jsonb_populate_recordset` under the new game's id, so a column added by a migration
//! moves without a change here. What the rows mean is checked by the service before anything is
//! written (`crate::service::export`).

use crate::domain::GameId;
use crate::store::games::ReportRow;
use serde_json::Value;
use sqlx::PgConnection;

/// The tables that make up a game, in the order they are written (parents before children).
/// Not here, by design (RULING O14): mail in and out, chat webhooks and their queue, and GM
/// accounts — they belong to a server, not to a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Games,
    Seats,
    Turns,
    OrderVersions,
    FinalMarks,
    Actions,
    Reports,
    Absences,
    StandingOrders,
    Timers,
    Rollbacks,
    AuditLog,
}

impl Table {
    /// Every table of a game, parents first.
    pub const ALL: [Table; 12] = [
        Table::Games,
        Table::Seats,
        Table::Turns,
        Table::OrderVersions,
        Table::FinalMarks,
        Table::Actions,
        Table::Reports,
        Table::Absences,
        Table::StandingOrders,
        Table::Timers,
        Table::Rollbacks,
        Table::AuditLog,
    ];

    /// The table's name in the database (and in the export document).
    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Seats => "seats",
            Table::Turns => "turns",
            Table::OrderVersions => "order_versions",
            Table::FinalMarks => "final_marks",
            Table::Actions => "actions",
            Table::Reports => "reports",
            Table::Absences => "absences",
            Table::StandingOrders => "standing_orders",
            Table::Timers => "timers",
            Table::Rollbacks => "rollbacks",
            Table::AuditLog => "audit_log",
        }
    }

    /// The column holding the game's id.
    pub fn game_column(self) -> &'static str {
        if self == Table::Games { "id" } else { "game_id" }
    }

    /// The order rows are read in, so that an export of the same game is the same document.
    fn order(self) -> &'static str {
        match self {
            Table::Games => "id",
            Table::Seats => "seat",
            Table::Turns => "number",
            Table::OrderVersions => "turn, seat, version",
            Table::FinalMarks => "turn, seat, version, id",
            Table::Actions | Table::AuditLog => "seq",
            Table::Reports => "turn, seat",
            Table::Absences | Table::StandingOrders | Table::Timers | Table::Rollbacks => "id",
        }
    }

    /// Columns that stay on this server: the game's key (the importer gives its own), serial
    /// ids (the importing database numbers its rows) and a seat's token hash (re-issued on
    /// import, RULING O13).
    pub fn server_only(self) -> &'static [&'static str] {
        match self {
            Table::Games => &["id"],
            Table::Seats => &["game_id", "token_hash"],
            Table::Turns | Table::Actions | Table::Reports | Table::AuditLog => &["game_id"],
            Table::OrderVersions
            | Table::FinalMarks
            | Table::Absences
            | Table::StandingOrders
            | Table::Timers
            | Table::Rollbacks => &["id", "game_id"],
        }
    }
}

/// A game's rows of one table, each a JSON object of its columns minus [`Table::server_only`].
pub async fn rows(conn: &mut PgConnection, table: Table, game: GameId) -> sqlx::Result<Vec<Value>> {
    let dropped: Vec<String> = table.server_only().iter().map(|c| c.to_string()).collect();
    let sql = format!(
        "SELECT to_jsonb(t) - $2::text[] FROM {} t WHERE {} = $1 ORDER BY {}",
        table.name(),
        table.game_column(),
        table.order()
    );
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(game).bind(dropped).fetch_all(conn).await
}

/// The columns of a table an import may write: all but those the database numbers itself.
pub async fn writable_columns(conn: &mut PgConnection, table: Table) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT column_name::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 \
         AND coalesce(column_default, '') NOT LIKE 'nextval(%' ORDER BY ordinal_position",
    )
    .bind(table.name())
    .fetch_all(conn)
    .await
}

/// Writes rows (JSON objects of columns, the game's key included) into a table. `columns` are
/// the ones to write, each checked by the caller against [`writable_columns`]; a column left out
/// takes its default. Returns how many rows were written.
pub async fn insert_rows(
    conn: &mut PgConnection,
    table: Table,
    columns: &[String],
    rows: &[Value],
) -> sqlx::Result<u64> {
    if rows.is_empty() {
        return Ok(0);
    }
    let list =
        columns.iter().map(|c| format!("\"{}\"", c.replace('"', "\"\""))).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "INSERT INTO {t} ({list}) SELECT {list} FROM jsonb_populate_recordset(NULL::{t}, $1)",
        t = table.name()
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(Value::Array(rows.to_vec())).execute(conn).await?;
    Ok(done.rows_affected())
}

/// The newest migration applied to this database (the schema an export was written under).
pub async fn schema_version(conn: &mut PgConnection) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT coalesce(max(version), 0) FROM _sqlx_migrations WHERE success")
        .fetch_one(conn)
        .await
}

/// Whether a game with this id is stored.
pub async fn game_exists(conn: &mut PgConnection, game: GameId) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)").bind(game).fetch_one(conn).await
}

/// Replaces a game's reports with `rows` (an import keeps this server's renderings of them,
/// RULING O20).
pub async fn replace_reports(conn: &mut PgConnection, game: GameId, rows: &[ReportRow]) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM reports WHERE game_id = $1").bind(game).execute(&mut *conn).await?;
    for r in rows {
        super::games::insert_report(&mut *conn, game, r).await?;
    }
    Ok(())
}

/// Replaces a turn's draft with this server's (an import that re-renders what the document's
/// server wrote, RULING O20).
pub async fn replace_draft(
    conn: &mut PgConnection,
    game: GameId,
    number: i32,
    draft: &crate::registry::TurnOutcome,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE turns SET draft = $3 WHERE game_id = $1 AND number = $2")
        .bind(game)
        .bind(number)
        .bind(sqlx::types::Json(draft))
        .execute(conn)
        .await?;
    Ok(())
}
