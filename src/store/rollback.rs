//! Rollback: what a rollback undoes is first copied whole into `rollbacks` (nothing accepted is
//! ever lost), then removed, and the turn rolled back to is re-opened.

use crate::domain::GameId;
use crate::engine::Seat;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::PgConnection;

/// Copies into `rollbacks` every turn from `from_turn` on, their actions, reports and timers,
/// and the orders of the turns after it (of `from_turn` too when `with_orders_of_from`). Returns
/// the archive's id.
pub async fn archive(
    conn: &mut PgConnection,
    game: GameId,
    from_turn: i32,
    with_orders_of_from: bool,
    now: DateTime<Utc>,
) -> sqlx::Result<i64> {
    let orders_from = if with_orders_of_from { from_turn } else { from_turn + 1 };
    let archive: Value = sqlx::query_scalar(
        "SELECT jsonb_build_object( \
            'turns', (SELECT coalesce(jsonb_agg(to_jsonb(t) ORDER BY t.number), '[]') FROM turns t \
                      WHERE t.game_id = $1 AND t.number >= $2), \
            'actions', (SELECT coalesce(jsonb_agg(to_jsonb(a) ORDER BY a.seq), '[]') FROM actions a \
                        WHERE a.game_id = $1 AND a.turn >= $2), \
            'reports', (SELECT coalesce(jsonb_agg(to_jsonb(r)), '[]') FROM reports r \
                        WHERE r.game_id = $1 AND r.turn >= $2), \
            'orders', (SELECT coalesce(jsonb_agg(to_jsonb(v) ORDER BY v.id), '[]') FROM order_versions v \
                       WHERE v.game_id = $1 AND v.turn >= $3), \
            'final_marks', (SELECT coalesce(jsonb_agg(to_jsonb(f) ORDER BY f.id), '[]') FROM final_marks f \
                            WHERE f.game_id = $1 AND f.turn >= $3), \
            'timers', (SELECT coalesce(jsonb_agg(to_jsonb(x) ORDER BY x.id), '[]') FROM timers x \
                       WHERE x.game_id = $1 AND x.turn >= $2))",
    )
    .bind(game)
    .bind(from_turn)
    .bind(orders_from)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query_scalar(
        "INSERT INTO rollbacks (game_id, to_turn, at, archive) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(game)
    .bind(from_turn)
    .bind(now)
    .bind(archive)
    .fetch_one(conn)
    .await
}

/// Removes what [`archive`] copied and re-opens turn `to` as it was before its adjudication,
/// held for the GM. The game goes back to that turn's start.
pub async fn undo(
    conn: &mut PgConnection,
    game: GameId,
    to: i32,
    discard_orders_of_to: bool,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    let by_turn = |sql: &'static str| sqlx::query(sql).bind(game).bind(to);
    by_turn("DELETE FROM actions WHERE game_id = $1 AND turn >= $2").execute(&mut *conn).await?;
    by_turn("DELETE FROM reports WHERE game_id = $1 AND turn >= $2").execute(&mut *conn).await?;
    by_turn("DELETE FROM timers WHERE game_id = $1 AND turn >= $2").execute(&mut *conn).await?;
    // Order versions and final marks of later turns go with their turns (ON DELETE CASCADE).
    by_turn("DELETE FROM turns WHERE game_id = $1 AND number > $2").execute(&mut *conn).await?;
    if discard_orders_of_to {
        by_turn("DELETE FROM order_versions WHERE game_id = $1 AND turn = $2").execute(&mut *conn).await?;
    }
    sqlx::query(
        "UPDATE turns SET status = 'open', closed_at = NULL, close_reason = NULL, draft = NULL, failure = NULL, \
         published_at = NULL, held_at = $3, held_reason = 'rolled back; adjudicate when ready', \
         reopened = reopened + 1 WHERE game_id = $1 AND number = $2",
    )
    .bind(game)
    .bind(to)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE games g SET state = t.start_state, next_seq = t.first_seq, current_turn = t.number, \
         status = 'active' FROM turns t WHERE g.id = $1 AND t.game_id = g.id AND t.number = $2",
    )
    .bind(game)
    .bind(to)
    .execute(conn)
    .await?;
    Ok(())
}

/// Takes back NMRs counted by the turns being undone (never below zero).
pub async fn uncount_nmr(conn: &mut PgConnection, game: GameId, seat: Seat) -> sqlx::Result<()> {
    sqlx::query("UPDATE seats SET nmr_count = greatest(nmr_count - 1, 0) WHERE game_id = $1 AND seat = $2")
        .bind(game)
        .bind(seat)
        .execute(conn)
        .await?;
    Ok(())
}
