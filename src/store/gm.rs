//! GM accounts, one-time login links and sessions (tokens stored as hashes only) of both realms —
//! the GM's pages and a player's home, RULING W51 — and what the sign-in limits count: attempts,
//! and where each address has signed in from.

use crate::domain::Realm;
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

/// Whether the address is the GM or a co-GM of at least one game.
pub async fn is_gm(conn: &mut PgConnection, email: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM games WHERE lower(gm_email) = lower($1)) \
             OR EXISTS (SELECT 1 FROM game_gms WHERE email = lower($1))",
    )
    .bind(email)
    .fetch_one(conn)
    .await
}

/// Stores a sign-in link's token (its hash) for an address in a realm.
pub async fn insert_login_token(
    conn: &mut PgConnection,
    realm: Realm,
    hash: &str,
    email: &str,
    expires: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO gm_login_tokens (token_hash, email, expires_at, realm) VALUES ($1, $2, $3, $4)")
        .bind(hash)
        .bind(email)
        .bind(expires)
        .bind(realm)
        .execute(conn)
        .await?;
    Ok(())
}

/// Gives the newest unused, unexpired login token of an address in a realm a full lifetime again:
/// it expires at `expires` (RULING W3: a link request held back by a limit keeps the last link
/// mailed working). Nothing happens when the address has no such token.
pub async fn extend_newest_login_token(
    conn: &mut PgConnection,
    realm: Realm,
    email: &str,
    now: DateTime<Utc>,
    expires: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE gm_login_tokens SET expires_at = GREATEST(expires_at, $3) WHERE token_hash = \
         (SELECT token_hash FROM gm_login_tokens WHERE email = $1 AND realm = $4 AND used_at IS NULL \
          AND expires_at > $2 ORDER BY created_at DESC, expires_at DESC LIMIT 1)",
    )
    .bind(email)
    .bind(now)
    .bind(expires)
    .bind(realm)
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds a second hash for an unused, unexpired login token: `new_hash` then works like
/// `old_hash`, for the same address and until the same time (a sign-in link derived again under
/// a rotated key, RULING P6). False when there was no such token.
pub async fn add_login_token_hash(
    conn: &mut PgConnection,
    old_hash: &str,
    new_hash: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "INSERT INTO gm_login_tokens (token_hash, email, created_at, expires_at, realm) \
         SELECT $2, email, created_at, expires_at, realm FROM gm_login_tokens \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $3 ON CONFLICT (token_hash) DO NOTHING",
    )
    .bind(old_hash)
    .bind(new_hash)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Uses a login token of a realm once: returns its address if it was valid, unused and
/// unexpired (a token of the other realm opens nothing here, RULING W51).
pub async fn consume_login_token(
    conn: &mut PgConnection,
    realm: Realm,
    hash: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "UPDATE gm_login_tokens SET used_at = $2 WHERE token_hash = $1 AND realm = $3 AND used_at IS NULL \
         AND expires_at > $2 RETURNING email",
    )
    .bind(hash)
    .bind(now)
    .bind(realm)
    .fetch_optional(conn)
    .await
}

/// Voids every unused sign-in link of an address in a realm (one used link voids the others,
/// ruling W3).
pub async fn void_login_tokens(
    conn: &mut PgConnection,
    realm: Realm,
    email: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE gm_login_tokens SET used_at = $2 WHERE email = $1 AND realm = $3 AND used_at IS NULL",
    )
    .bind(email)
    .bind(now)
    .bind(realm)
    .execute(conn)
    .await?;
    Ok(())
}

/// What a sign-in attempt was, for the rate limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attempt {
    /// A wrong password (or an address without one).
    Password,
    /// A mailed sign-in link to the GM's pages asked for.
    Link,
    /// A request to join a game (its confirmation mailed; RULING W46).
    Join,
    /// A mailed sign-in link to a player's home asked for (RULING W52).
    HomeLink,
    /// A `GAMES` mail answered (RULING M27).
    Games,
}

impl Attempt {
    fn as_str(self) -> &'static str {
        match self {
            Attempt::Password => "password",
            Attempt::Link => "link",
            Attempt::Join => "join",
            Attempt::HomeLink => "home-link",
            Attempt::Games => "games",
        }
    }
}

/// Records an attempt (address lower-cased) under its source — the client address, or the
/// device it came from — marked when it came from a stranger to the account; prunes attempts
/// older than a day.
pub async fn record_attempt(
    conn: &mut PgConnection,
    kind: Attempt,
    email: &str,
    source: &str,
    stranger: bool,
    at: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_signin_attempts WHERE at < $1")
        .bind(at - chrono::Duration::days(1))
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO gm_signin_attempts (kind, email, client, stranger, at) VALUES ($1, lower($2), $3, $4, $5)",
    )
    .bind(kind.as_str())
    .bind(email)
    .bind(source)
    .bind(stranger)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Serialises sign-in attempts for an address and for a source until the transaction ends, so
/// that counting and recording them cannot race (the address first, then the source: always in
/// that order, so two attempts never wait on each other in a cycle).
pub async fn lock_attempts(conn: &mut PgConnection, email: &str, source: &str) -> sqlx::Result<()> {
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('gm-signin-email:' || lower($1)))")
        .bind(email)
        .execute(&mut *conn)
        .await?;
    sqlx::query("SELECT pg_advisory_xact_lock(hashtext('gm-signin-client:' || $1))")
        .bind(source)
        .execute(conn)
        .await?;
    Ok(())
}

/// How many attempts of a kind were made since a time, counted three ways.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct AttemptCounts {
    /// At the address from this source (the client address, or the device).
    pub source: i64,
    /// From the client address, at any address.
    pub client: i64,
    /// At the address from strangers (sources it has not signed in from).
    pub strangers: i64,
}

/// Attempts of a kind since a time: at the address from the source, from the client address,
/// and at the address from strangers.
pub async fn recent_attempts(
    conn: &mut PgConnection,
    kind: Attempt,
    email: &str,
    source: &str,
    client: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<AttemptCounts> {
    sqlx::query_as(
        "SELECT (SELECT count(*) FROM gm_signin_attempts \
                 WHERE kind = $1 AND email = lower($2) AND client = $3 AND at > $5) AS source, \
                (SELECT count(*) FROM gm_signin_attempts WHERE kind = $1 AND client = $4 AND at > $5) AS client, \
                (SELECT count(*) FROM gm_signin_attempts \
                 WHERE kind = $1 AND email = lower($2) AND stranger AND at > $5) AS strangers",
    )
    .bind(kind.as_str())
    .bind(email)
    .bind(source)
    .bind(client)
    .bind(since)
    .fetch_one(conn)
    .await
}

/// Forgets the failed passwords at an address from one source (after it signed in from there).
pub async fn clear_password_failures(conn: &mut PgConnection, email: &str, source: &str) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM gm_signin_attempts WHERE kind = 'password' AND email = lower($1) AND client = $2",
    )
    .bind(email)
    .bind(source)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the address signed in from the source (a client address or a device) since a time.
pub async fn is_known_source(
    conn: &mut PgConnection,
    email: &str,
    source: &str,
    since: DateTime<Utc>,
) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM gm_signin_known WHERE email = lower($1) AND source = $2 AND seen_at > $3)",
    )
    .bind(email)
    .bind(source)
    .bind(since)
    .fetch_one(conn)
    .await
}

/// Remembers that the address signed in from the source now; forgets sources not seen since
/// `forget_before`.
pub async fn remember_source(
    conn: &mut PgConnection,
    email: &str,
    source: &str,
    now: DateTime<Utc>,
    forget_before: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_signin_known WHERE seen_at < $1")
        .bind(forget_before)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO gm_signin_known (email, source, seen_at) VALUES (lower($1), $2, $3) \
         ON CONFLICT (email, source) DO UPDATE SET seen_at = GREATEST(gm_signin_known.seen_at, $3)",
    )
    .bind(email)
    .bind(source)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Opens a session (its token's hash) of an address in a realm.
pub async fn insert_session(
    conn: &mut PgConnection,
    realm: Realm,
    hash: &str,
    email: &str,
    expires: DateTime<Utc>,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO gm_sessions (token_hash, email, expires_at, realm) VALUES ($1, $2, $3, $4)")
        .bind(hash)
        .bind(email)
        .bind(expires)
        .bind(realm)
        .execute(conn)
        .await?;
    Ok(())
}

/// The address of a valid session of a realm (a session of the other realm is none here).
pub async fn session_email(
    conn: &mut PgConnection,
    realm: Realm,
    hash: &str,
    now: DateTime<Utc>,
) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT email FROM gm_sessions WHERE token_hash = $1 AND expires_at > $2 AND realm = $3",
    )
    .bind(hash)
    .bind(now)
    .bind(realm)
    .fetch_optional(conn)
    .await
}

/// Ends a session of a realm.
pub async fn delete_session(conn: &mut PgConnection, realm: Realm, hash: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM gm_sessions WHERE token_hash = $1 AND realm = $2")
        .bind(hash)
        .bind(realm)
        .execute(conn)
        .await?;
    Ok(())
}
