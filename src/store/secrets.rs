//! `server_secrets`: what the server keeps about its key in the database — never the key itself
//! (issue 11). Old databases hold the key under [`LEGACY_KEY`] until the first start moves it to
//! the key file; from then on only [`KEY_CHECK`] (a SHA-256 fingerprint of the key, from which no
//! token can be derived) is kept, so a process started with the wrong key refuses to run instead
//! of handing out links that do not work. Also the seats' token hashes, re-derived on rotation.

use crate::domain::GameId;
use crate::engine::Seat;
use sqlx::PgConnection;

/// Where databases from before issue 11 kept the server key.
pub const LEGACY_KEY: &str = "server-key";
/// The fingerprint of the key this database's tokens were derived with.
pub const KEY_CHECK: &str = "server-key-check";

/// A value stored under a name, if any.
pub async fn get(conn: &mut PgConnection, name: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// The value under a name, locked until the transaction ends.
pub async fn get_for_update(conn: &mut PgConnection, name: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1 FOR UPDATE")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// Stores a value under a name unless one is there; returns the value in force.
pub async fn put_if_absent(conn: &mut PgConnection, name: &str, value: &str) -> sqlx::Result<String> {
    sqlx::query("INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(value)
        .execute(&mut *conn)
        .await?;
    sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1").bind(name).fetch_one(conn).await
}

/// Replaces the value under a name.
pub async fn set(conn: &mut PgConnection, name: &str, value: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = $2",
    )
    .bind(name)
    .bind(value)
    .execute(conn)
    .await?;
    Ok(())
}

/// Deletes a value, only if it is still `value` (a concurrent change is left alone).
pub async fn delete_if(conn: &mut PgConnection, name: &str, value: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM server_secrets WHERE name = $1 AND value = $2")
        .bind(name)
        .bind(value)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets a seat's token hash (key rotation).
pub async fn set_token_hash(
    conn: &mut PgConnection,
    game: GameId,
    seat: Seat,
    hash: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE seats SET token_hash = $3 WHERE game_id = $1 AND seat = $2")
        .bind(game)
        .bind(seat)
        .bind(hash)
        .execute(conn)
        .await?;
    Ok(())
}
