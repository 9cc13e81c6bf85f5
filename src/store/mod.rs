//! Storage: the only module that speaks SQL.
//!
//! Functions take a `&mut PgConnection`, so callers decide the transaction: everything that
//! changes a turn's outcome happens in one transaction opened by the service layer.
//!
//! Rows are typed: game ids are `GameId`, seats `engine::Seat` (`seat`: a number out of range
//! is a decode error), closed word sets the `domain` enums, JSON columns their own types through
//! `sqlx::types::Json` (only engine states stay `serde_json::Value`, opaque by design). A bad
//! stored value is an error, never a default.

pub mod audit;
pub mod drawings;
pub mod export;
pub mod games;
pub mod gm;
pub mod gm_roles;
pub mod home;
pub mod inbound;
pub mod intake;
pub mod lifecycle;
pub mod metrics;
pub mod orders;
pub mod outbox;
pub mod rollback;
mod seat;
pub mod secrets;
pub mod turns;
pub mod waiting;
pub mod webhooks;

use anyhow::Context;
use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgSslMode};

/// How long the server waits for the database at start and for a connection from its pool.
pub const SERVER_DB_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// How long a pooled connection may sit idle and still be used without a ping first.
const IDLE_BEFORE_PING: std::time::Duration = std::time::Duration::from_secs(1);

/// Connects to the database, creating it first if it does not exist, and applies migrations.
/// A database that does not answer within `wait` (sqlx retries a refused connection until then)
/// is an error.
pub async fn connect_and_migrate(
    url: &str,
    max_connections: u32,
    wait: std::time::Duration,
) -> anyhow::Result<PgPool> {
    let options = connect_options(url)?;
    let open = || {
        PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(wait)
            // A connection that sat idle is pinged before use (a restarted database drops it
            // here, not in a request); one in steady use is not: the ping was one round trip
            // more per request (issue 32, docs/BENCHMARKS.md).
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= IDLE_BEFORE_PING {
                        sqlx::Connection::ping(conn).await?;
                    }
                    Ok(true)
                })
            })
            .connect_with(options.clone())
    };
    let pool = match open().await {
        Ok(pool) => pool,
        // 3D000 invalid_catalog_name: the server is there, the database is not (yet).
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("3D000") => {
            sqlx::Postgres::create_database(url)
                .await
                .with_context(|| format!("cannot create the database {}", redact(url)))?;
            tracing::info!(database = %redact(url), "created the database");
            open().await.with_context(|| format!("cannot connect to {}", redact(url)))?
        }
        Err(e) => return Err(e).with_context(|| format!("cannot connect to {}", redact(url))),
    };
    migrate(&pool).await?;
    Ok(pool)
}

/// Connection options from a URL. On a loopback host, TLS is off unless the URL asks for it
/// (`sslmode=`): encrypting a connection that never leaves the machine only costs a handshake.
pub fn connect_options(url: &str) -> anyhow::Result<PgConnectOptions> {
    let options: PgConnectOptions =
        url.parse().with_context(|| format!("{} is not a Postgres URL", redact(url)))?;
    let host = options.get_host().to_string();
    let loopback = host == "localhost"
        || host.starts_with('/')
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    Ok(if loopback && !url.contains("sslmode=") { options.ssl_mode(PgSslMode::Disable) } else { options })
}

/// Applies the embedded migrations, unless the database already has the newest one applied
/// (checked without taking the migration lock, so many short-lived `mail ingest` processes do
/// not queue behind each other).
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    let migrator = sqlx::migrate!("./migrations");
    let newest = migrator.iter().map(|m| m.version).max().unwrap_or(0);
    let applied: Option<i64> = sqlx::query_scalar(
        "SELECT max(version) FROM _sqlx_migrations WHERE success AND to_regclass('_sqlx_migrations') IS NOT NULL",
    )
    .fetch_one(pool)
    .await
    .unwrap_or(None);
    if applied == Some(newest) {
        return Ok(());
    }
    migrator.run(pool).await.context("cannot apply database migrations")
}

/// What `/readyz` asks the database: that it answers, how many embedded migrations it lacks,
/// and when the scheduler last beat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readiness {
    pub migrations_missing: usize,
    pub heartbeat: Option<chrono::DateTime<chrono::Utc>>,
}

/// Reads [`Readiness`] (an error means the database does not answer).
pub async fn readiness(pool: &PgPool) -> sqlx::Result<Readiness> {
    let migrator = sqlx::migrate!("./migrations");
    let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
        .fetch_all(pool)
        .await
        .unwrap_or_default();
    let migrations_missing = migrator.iter().filter(|m| !applied.contains(&m.version)).count();
    let heartbeat =
        sqlx::query_scalar("SELECT beat_at FROM scheduler_heartbeat WHERE id").fetch_optional(pool).await?;
    Ok(Readiness { migrations_missing, heartbeat })
}

/// A database URL with any password removed, for logs and error messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let userinfo = &url[s + 3..at];
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{}{}@{}", &url[..s + 3], user, &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_never_reach_logs() {
        assert_eq!(super::redact("postgres://u:secret@h:5432/db"), "postgres://u@h:5432/db");
        assert_eq!(super::redact("postgres://u@h/db"), "postgres://u@h/db");
    }
}
