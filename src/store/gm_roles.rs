//! Who may run games: the addresses invited to create games (`gm_creators`) and the co-GMs of a
//! game (`game_gms`), besides the GM who created it (`games.gm_email`). Addresses lower-cased.

use crate::domain::GameId;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Invites an address to create games (again, when it was revoked).
pub async fn invite_creator(conn: &mut PgConnection, email: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO gm_creators (email, invited_at) VALUES (lower($1), $2) \
         ON CONFLICT (email) DO UPDATE SET invited_at = $2, revoked_at = NULL",
    )
    .bind(email)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Revokes an address's invitation to create games; false when it had none in force.
pub async fn revoke_creator(conn: &mut PgConnection, email: &str, now: DateTime<Utc>) -> sqlx::Result<bool> {
    let done =
        sqlx::query("UPDATE gm_creators SET revoked_at = $2 WHERE email = lower($1) AND revoked_at IS NULL")
            .bind(email)
            .bind(now)
            .execute(conn)
            .await?;
    Ok(done.rows_affected() > 0)
}

/// Whether the address is invited to create games (and not revoked).
pub async fn is_invited_creator(conn: &mut PgConnection, email: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM gm_creators WHERE email = lower($1) AND revoked_at IS NULL)",
    )
    .bind(email)
    .fetch_one(conn)
    .await
}

/// Whether the address runs the game: its GM or one of its co-GMs.
pub async fn runs_game(conn: &mut PgConnection, game: GameId, email: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1 AND lower(gm_email) = lower($2)) \
             OR EXISTS (SELECT 1 FROM game_gms WHERE game_id = $1 AND email = lower($2))",
    )
    .bind(game)
    .bind(email)
    .fetch_one(conn)
    .await
}

/// Adds a co-GM to a game; false when the address already was one.
pub async fn add_co_gm(
    conn: &mut PgConnection,
    game: GameId,
    email: &str,
    by: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO game_gms (game_id, email, added_at, added_by) VALUES ($1, lower($2), $3, lower($4)) \
         ON CONFLICT (game_id, email) DO NOTHING",
    )
    .bind(game)
    .bind(email)
    .bind(now)
    .bind(by)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// A game's co-GMs, in the order they were added.
pub async fn co_gms(conn: &mut PgConnection, game: GameId) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT email FROM game_gms WHERE game_id = $1 ORDER BY added_at, email")
        .bind(game)
        .fetch_all(conn)
        .await
}
