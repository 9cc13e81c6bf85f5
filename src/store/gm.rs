//! GM accounts, one-time login links and sessions (tokens stored as hashes only).

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

pub async fn set_password(conn: &mut PgConnection, email: &str, hash: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO gm_accounts (email, password_hash) VALUES ($1, $2) \
         ON CONFLICT (email) DO UPDATE SET password_hash = $2, updated_at = now()",
    )
    .bind(email)
    .bind(hash)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn password_hash(conn: &mut PgConnection, email: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT password_hash FROM gm_accounts WHERE email = $1")
        .bind(email)
        .fetch_optional(conn)
        .await
}

/// Whether the address is the GM of at least one game.
pub async fn is_gm(conn: &mut PgConnection, email: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM games WHERE lower(gm_email) = lower($1))")
        .bind(email)
        .fetch_one(conn)
        .await
}

pub async fn insert_login_token(
    conn: &mut PgConnection,
    hash: &str,
    email: &str,
    expires: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO gm_login_tokens (token_hash, email, expires_at) VALUES ($1, $2, $3)")
        .bind(hash)
        .bind(email)
        .bind(expires)
        .execute(conn)
        .await?;
    Ok(())
}

/// Uses a login token once: returns its address if it was valid, unused and unexpired.
pub async fn consume_login_token(
    conn: &mut PgConnection,
    hash: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "UPDATE gm_login_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 \
         RETURNING email",
    )
    .bind(hash)
    .bind(now)
    .fetch_optional(conn)
    .await
}

/// Login links requested for an address since a time (for rate limiting).
pub async fn recent_login_tokens(
    conn: &mut PgConnection,
    email: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT count(*) FROM gm_login_tokens WHERE email = $1 AND created_at > $2")
        .bind(email)
        .bind(since)
        .fetch_one(conn)
        .await
}

pub async fn insert_session(
    conn: &mut PgConnection,
    hash: &str,
    email: &str,
    expires: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO gm_sessions (token_hash, email, expires_at) VALUES ($1, $2, $3)")
        .bind(hash)
        .bind(email)
        .bind(expires)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn session_email(
    conn: &mut PgConnection,
    hash: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT email FROM gm_sessions WHERE token_hash = $1 AND expires_at > $2")
        .bind(hash)
        .bind(now)
        .fetch_optional(conn)
        .await
}

pub async fn delete_session(conn: &mut PgConnection, hash: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_sessions WHERE token_hash = $1").bind(hash).execute(conn).await?;
    Ok(())
}
