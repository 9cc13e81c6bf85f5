//! One fresh database per test, cloned from a migrated template (issue 31).
//!
//! Running the twelve migrations into every test's database cost about 1.5 s a test; cloning a
//! database that already holds them (`CREATE DATABASE … TEMPLATE …`) costs a tenth of that. The
//! template is named after a hash of the embedded migrations (their versions and checksums), so
//! a changed or added migration makes a new template and an old one is never used by mistake; it
//! is built once per migration set on this server, under an advisory lock (test binaries and
//! developers' runs may start at the same time), migrated under a temporary name and renamed
//! when complete, then closed to connections (a template with a session open cannot be cloned).
//!
//! Each test gets its own database on the server of `DATABASE_URL` (`.cargo/config.toml` points
//! it at the local Postgres), dropped when the test passes and kept, with its name printed, when
//! it fails — as `#[sqlx::test]` did.

#![allow(dead_code)]

use sha2::{Digest, Sha256};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{AssertSqlSafe, Connection, Executor, PgConnection, PgPool};
use std::time::Duration;
use tokio::sync::OnceCell;

/// `'smtestdb'` as a number: the advisory lock held while a template is built.
const TEMPLATE_LOCK: i64 = 0x736d_7465_7374_6462;

/// The template of this process's migration set, once built or found.
static TEMPLATE: OnceCell<String> = OnceCell::const_new();

/// The server every test database lives on (its maintenance database).
fn server() -> PgConnectOptions {
    let url = std::env::var("DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    stationmaster::store::connect_options(&url).expect("DATABASE_URL is a Postgres URL")
}

/// The template's name: `sm_tpl_` and the start of the migrations' hash.
fn template_name() -> String {
    let migrator = sqlx::migrate!("./migrations");
    let mut hash = Sha256::new();
    for m in migrator.iter() {
        hash.update(m.version.to_be_bytes());
        hash.update(&m.checksum[..]);
    }
    let hex: String = hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("sm_tpl_{hex}")
}

/// Runs one statement built from names this module made (never from input).
async fn run(conn: &mut PgConnection, sql: String) {
    conn.execute(AssertSqlSafe(sql.clone())).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Finds or builds the migrated template; its name.
async fn template() -> &'static str {
    TEMPLATE
        .get_or_init(|| async {
            let name = template_name();
            let mut master = PgConnection::connect_with(&server()).await.expect("connect to DATABASE_URL");
            sqlx::query("SELECT pg_advisory_lock($1)")
                .bind(TEMPLATE_LOCK)
                .execute(&mut master)
                .await
                .unwrap();
            let exists: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                    .bind(&name)
                    .fetch_one(&mut master)
                    .await
                    .unwrap();
            if !exists {
                let building = format!("{name}_building");
                run(&mut master, format!(r#"DROP DATABASE IF EXISTS "{building}" WITH (FORCE)"#)).await;
                run(&mut master, format!(r#"CREATE DATABASE "{building}""#)).await;
                let mut conn = PgConnection::connect_with(&server().database(&building)).await.unwrap();
                sqlx::migrate!("./migrations").run(&mut conn).await.expect("migrate the template");
                conn.close().await.unwrap();
                run(&mut master, format!(r#"ALTER DATABASE "{building}" RENAME TO "{name}""#)).await;
                run(
                    &mut master,
                    format!(r#"ALTER DATABASE "{name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"#),
                )
                .await;
            }
            sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(TEMPLATE_LOCK)
                .execute(&mut master)
                .await
                .unwrap();
            let _ = master.close().await;
            name
        })
        .await
}

/// A test's own database: dropped when the test passes, kept (and named) when it fails.
pub struct TestDb {
    name: String,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the failed test's database is kept: {}", self.name);
            return;
        }
        // The test's runtime may be the one dropping us: drop the database from a thread of its
        // own (FORCE closes the test's pool connections that are still open).
        let name = self.name.clone();
        let dropped = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            rt.block_on(async {
                let mut master = PgConnection::connect_with(&server()).await.ok()?;
                let sql = format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#);
                master.execute(AssertSqlSafe(sql)).await.ok()?;
                master.close().await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(()))) {
            eprintln!("could not drop the test database {}", self.name);
        }
    }
}

/// A fresh database with every migration applied, and the guard that drops it.
pub async fn test_db() -> (PgPool, TestDb) {
    let template = template().await;
    let name = format!("sm_test_{}", uuid::Uuid::new_v4().simple());
    let mut master = PgConnection::connect_with(&server()).await.expect("connect to DATABASE_URL");
    // Two clones of one template at the same moment may see each other as "other users" of it
    // for an instant; try again briefly.
    let sql = format!(r#"CREATE DATABASE "{name}" TEMPLATE "{template}""#);
    let mut tries = 0;
    while let Err(e) = master.execute(AssertSqlSafe(sql.clone())).await {
        tries += 1;
        assert!(tries < 50, "{sql}: {e}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _ = master.close().await;
    let pool = PgPoolOptions::new()
        .max_connections(5)
        .idle_timeout(Some(Duration::from_secs(1)))
        .connect_lazy_with(server().database(&name));
    (pool, TestDb { name })
}
