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

/// Voids every unused sign-in link of an address (one used link voids the others, ruling W3).
pub async fn void_login_tokens(conn: &mut PgConnection, email: &str, now: DateTime<Utc>) -> sqlx::Result<()> {
    sqlx::query("UPDATE gm_login_tokens SET used_at = $2 WHERE email = $1 AND used_at IS NULL")
        .bind(email)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// What a sign-in attempt was, for the rate limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// A wrong password (or an address without one).
    Password,
    /// A mailed sign-in link asked for.
    Link,
}

impl Attempt {
    fn as_str(self) -> &'static str {
        match self {
            Attempt::Password => "password",
            Attempt::Link => "link",
        }
    }
}

/// Records an attempt (address lower-cased) and prunes attempts older than a day.
pub async fn record_attempt(
    conn: &mut PgConnection,
    kind: Attempt,
    email: &str,
    client: &str,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_signin_attempts WHERE at < $1")
        .bind(at - chrono::Duration::days(1))
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO gm_signin_attempts (kind, email, client, at) VALUES ($1, lower($2), $3, $4)")
        .bind(kind.as_str())
        .bind(email)
        .bind(client)
        .bind(at)
        .execute(conn)
        .await?;
    Ok(())
}

/// Serialises sign-in attempts for an address and for a client until the transaction ends, so
/// that counting and recording them cannot race (the address first, then the client: always in
/// that order, so two attempts never wait on each other in a cycle).
pub async fn lock_attempts(conn: &mut PgConnection, email: &str, client: &str) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('gm-signin-email:' || lower($1)))")
        .bind(email)
        .execute(&mut *conn)
        .await?;
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('gm-signin-client:' || $1))")
        .bind(client)
        .execute(conn)
        .await?;
    Ok(())
}

/// Attempts of a kind since a time: for the address and for the client.
pub async fn recent_attempts(
    conn: &mut PgConnection,
    kind: Attempt,
    email: &str,
    client: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<(i64, i64)> {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM gm_signin_attempts WHERE kind = $1 AND email = lower($2) AND at > $4), \
                (SELECT count(*) FROM gm_signin_attempts WHERE kind = $1 AND client = $3 AND at > $4)",
    )
    .bind(kind.as_str())
    .bind(email)
    .bind(client)
    .bind(since)
    .fetch_one(conn)
    .await
}

/// Forgets an address's failed passwords (after it signed in).
pub async fn clear_password_failures(conn: &mut PgConnection, email: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_signin_attempts WHERE kind = 'password' AND email = lower($1)")
        .bind(email)
        .execute(conn)
        .await?;
    Ok(())
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
