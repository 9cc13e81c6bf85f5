//! Storage: the only module that speaks SQL.
//!
//! Functions take a `&mut PgConnection`, so callers decide the transaction: everything that
//! changes a turn's outcome happens in one transaction opened by the service layer.

pub mod games;
pub mod gm;
pub mod inbound;
pub mod orders;
pub mod outbox;
pub mod turns;

use anyhow::Context;
use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgPool, PgPoolOptions};

/// Connects to the database, creating it first if it does not exist, and applies migrations.
pub async fn connect_and_migrate(url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    if !sqlx::Postgres::database_exists(url)
        .await
        .with_context(|| format!("cannot reach the database server at {}", redact(url)))?
    {
        sqlx::Postgres::create_database(url)
            .await
            .with_context(|| format!("cannot create the database {}", redact(url)))?;
        tracing::info!(database = %redact(url), "created the database");
    }
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        .connect(url)
        .await
        .with_context(|| format!("cannot connect to {}", redact(url)))?;
    migrate(&pool).await?;
    Ok(pool)
}

/// Applies the embedded migrations.
pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::migrate!("./migrations").run(pool).await.context("cannot apply database migrations")
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

/// A value stored under a name in `server_secrets`, created with `make` on first use. Used for
/// keys the server needs to keep across restarts when none is configured.
pub async fn server_secret(
    conn: &mut sqlx::PgConnection,
    name: &str,
    make: impl FnOnce() -> String,
) -> sqlx::Result<String> {
    sqlx::query("INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .bind(make())
        .execute(&mut *conn)
        .await?;
    sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1").bind(name).fetch_one(conn).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_never_reach_logs() {
        assert_eq!(super::redact("postgres://u:secret@h:5432/db"), "postgres://u@h:5432/db");
        assert_eq!(super::redact("postgres://u@h/db"), "postgres://u@h/db");
    }
}
