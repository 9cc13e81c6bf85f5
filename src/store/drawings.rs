//! The drawings of the table, kept once each under their SHA-256 (table `drawings`, migration
//! 0019, issue 38): the SVG stored by the publishing transaction, the PNG added once by whoever
//! renders it first, outside that transaction (RULINGS O23–O25), into the unlogged
//! `drawing_pngs` (migration 0022, RULING O33: a cache the SVG can always rebuild, emptied by the
//! database after a crash).

use crate::draw::DrawingKey;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Stores drawings not yet kept, as of `now` (one statement; a drawing already kept is left as
/// it is).
pub async fn insert_new(
    conn: &mut PgConnection,
    drawings: &[(DrawingKey, &str)],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    if drawings.is_empty() {
        return Ok(());
    }
    let keys: Vec<&[u8]> = drawings.iter().map(|(k, _)| k.0.as_slice()).collect();
    let svgs: Vec<&str> = drawings.iter().map(|(_, s)| *s).collect();
    sqlx::query(
        "INSERT INTO drawings (sha256, svg, created_at) SELECT k, s, $3 FROM UNNEST($1::bytea[], $2::text[]) AS d(k, s) \
         ON CONFLICT (sha256) DO NOTHING",
    )
    .bind(keys)
    .bind(svgs)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// The PNGs already rendered of these drawings (those not kept or not rendered are absent).
pub async fn rendered(
    conn: &mut PgConnection,
    keys: &[DrawingKey],
) -> sqlx::Result<Vec<(DrawingKey, Vec<u8>)>> {
    let keys: Vec<&[u8]> = keys.iter().map(|k| k.0.as_slice()).collect();
    let rows: Vec<(Vec<u8>, Vec<u8>)> =
        sqlx::query_as("SELECT sha256, png FROM drawing_pngs WHERE sha256 = ANY($1)")
            .bind(keys)
            .fetch_all(conn)
            .await?;
    Ok(rows.into_iter().filter_map(|(k, png)| Some((DrawingKey(k.try_into().ok()?), png))).collect())
}

/// A drawing locked for rendering (the caller's transaction holds it until the PNG is stored,
/// so a second renderer waits and then finds the PNG): its SVG and the PNG if already rendered.
/// `None` when the drawing is not kept.
pub async fn lock(
    conn: &mut PgConnection,
    key: DrawingKey,
) -> sqlx::Result<Option<(String, Option<Vec<u8>>)>> {
    sqlx::query_as(
        "SELECT d.svg, p.png FROM drawings d LEFT JOIN drawing_pngs p USING (sha256) \
         WHERE d.sha256 = $1 FOR UPDATE OF d",
    )
    .bind(key.0.as_slice())
    .fetch_optional(conn)
    .await
}

/// Keeps a drawing's PNG (once: a PNG already kept is not replaced), in the unlogged
/// `drawing_pngs` (RULING O33: not written to the WAL). RULING O30: the column is stored out of
/// line and not compressed again; the SVG is compressed with LZ4.
pub async fn set_png(
    conn: &mut PgConnection,
    key: DrawingKey,
    png: &[u8],
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO drawing_pngs (sha256, png, rendered_at) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
    )
        .bind(key.0.as_slice())
        .bind(png)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// Removes up to `batch` drawings kept since before `before`, with their PNGs (RULING O27); how
/// many.
pub async fn purge_before(conn: &mut PgConnection, before: DateTime<Utc>, batch: i64) -> sqlx::Result<u64> {
    let done = sqlx::query(
        "DELETE FROM drawings WHERE sha256 IN \
         (SELECT sha256 FROM drawings WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)",
    )
    .bind(before)
    .bind(batch)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}
