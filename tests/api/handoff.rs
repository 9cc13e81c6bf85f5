//! `mail ingest` handing mail to the running server over the ingest socket, and falling back to
//! storing it itself: the real binary, as an MTA's pipe runs it, against a real database.

use crate::db::test_db;
use crate::helpers::{TestApp, database_url, spawn_app_with};
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::engine::Seat;
use stationmaster::mail::handoff;
use stationmaster::service::Review;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A database nobody listens on.
const NO_DATABASE: &str = "postgres://postgres@127.0.0.1:1/nothing";

/// A fresh directory for a socket.
fn socket_path() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "sm-handoff-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("ingest.sock")
}

/// Runs `mail ingest` with a message on stdin; returns the exit code and stderr.
async fn ingest(db: &str, socket: &Path, raw: &[u8]) -> (i32, String) {
    ingest_with(&["mail", "ingest", "--recipient", "ignored@nowhere.test"], db, socket, raw).await
}

/// Runs the binary with these arguments and a message on stdin; returns the exit code and stderr.
async fn ingest_with(args: &[&str], db: &str, socket: &Path, raw: &[u8]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (db, socket, raw) = (db.to_string(), socket.to_path_buf(), raw.to_vec());
    tokio::task::spawn_blocking(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_stationmaster"))
            .args(&args)
            .env("DATABASE_URL", db)
            .env("STATIONMASTER_INGEST_SOCKET", socket)
            .env("STATIONMASTER_SECRET_KEY", "test-key")
            .env("STATIONMASTER_REPLY_DOMAIN", "play.sm.test")
            .env("STATIONMASTER_BASE_URL", "http://sm.test")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        child.stdin.take().unwrap().write_all(&raw).unwrap();
        let out = child.wait_with_output().unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
    })
    .await
    .unwrap()
}

/// An order mail from seat 1's player to its reply address.
fn order_mail(app: &TestApp, g: &stationmaster::service::CreatedGame, id: &str) -> Vec<u8> {
    let to = app.ctx.reply_address(g.id, Seat(1), 1);
    format!(
        "From: Anna <anna@example.org>\r\nTo: {to}\r\nSubject: Orders\r\nMessage-ID: <{id}@example.org>\r\n\r\nCLAIM 7H NORTH\r\n"
    )
    .into_bytes()
}

/// Runs the ingest socket of a server with this context until the returned switch is dropped.
async fn listen(ctx: stationmaster::service::Ctx, path: &Path) -> stationmaster::service::ShutdownSwitch {
    let listener = handoff::bind(path).await.unwrap();
    let (stop, shutdown) = stationmaster::service::Shutdown::new();
    tokio::spawn(handoff::serve(ctx, listener, shutdown));
    stop
}

/// An app on the system clock (the pipe process reads it too) with one game, and its ingest
/// socket listening.
async fn running_server(
    pool: &PgPool,
) -> (TestApp, stationmaster::service::CreatedGame, PathBuf, stationmaster::service::ShutdownSwitch) {
    let app = spawn_app_with(pool.clone(), Clock::system()).await;
    let g = app.create_game(Review::Gm).await;
    let socket = socket_path();
    let stop = listen(app.ctx.clone(), &socket).await;
    (app, g, socket, stop)
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(pool).await.unwrap()
}

/// Waits until the scalar query returns `want` (processing after the hand-off is asynchronous).
async fn eventually(pool: &PgPool, sql: &str, want: i64) -> i64 {
    let mut got = 0;
    for _ in 0..200 {
        got = count(pool, sql).await;
        if got == want {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    got
}

#[tokio::test]
async fn a_mail_handed_to_a_running_server_is_stored_and_processed_once() {
    let (pool, _db) = test_db().await;
    let (app, g, socket, _server) = running_server(&pool).await;
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&socket).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o660, "only the server's user and group may hand mail over");

    let raw = order_mail(&app, &g, "handoff-1");
    // The pipe process cannot reach the database itself: the message can only go through the server.
    for _ in 0..2 {
        let (code, stderr) = ingest(NO_DATABASE, &socket, &raw).await;
        assert_eq!(code, 0, "stored by the server: {stderr}");
    }
    assert_eq!(count(&pool, "SELECT count(*) FROM inbound_messages").await, 1, "stored once");
    let accepted = "SELECT count(*) FROM inbound_messages WHERE status = 'accepted' AND source = 'pipe' \
                    AND envelope_to = 'ignored@nowhere.test'";
    assert_eq!(eventually(&pool, accepted, 1).await, 1, "processed by the server");
    let echoes = "SELECT count(*) FROM outbox WHERE kind = 'order-echo'";
    assert_eq!(eventually(&pool, echoes, 1).await, 1, "one echo queued");
    // Nothing is left to process (the status and the echo are written in one transaction), so
    // the count is final: a second echo could only come from processing the mail again.
    let waiting = "SELECT count(*) FROM inbound_messages WHERE status = 'new'";
    assert_eq!(eventually(&pool, waiting, 0).await, 0, "nothing left to process");
    assert_eq!(count(&pool, echoes).await, 1, "and only one");
}

#[tokio::test]
async fn a_command_line_the_early_hand_off_leaves_to_the_parser_is_handed_over_all_the_same() {
    let (pool, _db) = test_db().await;
    let (app, g, socket, _server) = running_server(&pool).await;
    // A global flag before the subcommand: the full parser reads it, then hands the mail over.
    let args = ["--json", "mail", "ingest", "--sender", "anna@example.org"];
    let (code, stderr) = ingest_with(&args, NO_DATABASE, &socket, &order_mail(&app, &g, "parsed")).await;
    assert_eq!(code, 0, "stored by the server: {stderr}");
    let accepted = "SELECT count(*) FROM inbound_messages WHERE status = 'accepted' \
                    AND envelope_from = 'anna@example.org'";
    assert_eq!(eventually(&pool, accepted, 1).await, 1);
    // A misspelt flag is the parser's error, and nothing is stored.
    let args = ["mail", "ingest", "--sendr", "anna@example.org"];
    let (code, stderr) = ingest_with(&args, NO_DATABASE, &socket, &order_mail(&app, &g, "misspelt")).await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--sendr"), "{stderr}");
    assert_eq!(count(&pool, "SELECT count(*) FROM inbound_messages").await, 1);
}

#[tokio::test]
async fn a_bad_frame_is_refused_with_a_clear_error_and_changes_nothing() {
    let (pool, _db) = test_db().await;
    let (app, g, socket, _server) = running_server(&pool).await;
    let good =
        handoff::Frame { sender: None, recipient: None, raw: order_mail(&app, &g, "bad-frame") }.encode();
    let mut trailing = good.clone();
    trailing.extend_from_slice(b"more");
    let frames: [(&[u8], &str); 4] = [
        (b"EHLO mx.example.org\r\n", "ERR bad frame: a frame starts with STATIONMASTER-INGEST/1"),
        (&good[..good.len() - 3], "ERR bad frame: the frame is shorter than its header says"),
        (&trailing, "ERR bad frame: the frame is longer than its header says"),
        (b"STATIONMASTER-INGEST/1 - - 99999999999\n", "ERR bad frame: the message is longer than"),
    ];
    for (bytes, want) in frames {
        let mut s = tokio::net::UnixStream::connect(&socket).await.unwrap();
        s.write_all(bytes).await.unwrap();
        s.shutdown().await.unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with(want), "{want}: got {answer:?}");
    }
    assert_eq!(count(&pool, "SELECT count(*) FROM inbound_messages").await, 0, "nothing stored");
    assert_eq!(count(&pool, "SELECT count(*) FROM outbox WHERE kind = 'order-echo'").await, 0);
}

#[tokio::test]
async fn with_no_server_listening_mail_ingest_stores_and_processes_the_mail_itself() {
    let (pool, _db) = test_db().await;
    let app = spawn_app_with(pool.clone(), Clock::system()).await;
    let g = app.create_game(Review::Gm).await;
    let socket = socket_path();
    // A stale socket file from a server that is gone, as after a crash.
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    let (code, stderr) = ingest(&database_url(&pool), &socket, &order_mail(&app, &g, "direct")).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.is_empty(), "no server is the usual case, not a warning: {stderr}");
    let accepted = "SELECT count(*) FROM inbound_messages WHERE status = 'accepted' AND source = 'pipe'";
    assert_eq!(count(&pool, accepted).await, 1, "stored and processed before the process exited");
    assert_eq!(count(&pool, "SELECT count(*) FROM outbox WHERE kind = 'order-echo'").await, 1);
}

#[tokio::test]
async fn when_neither_the_server_nor_the_pipe_can_store_the_mail_ingest_exits_75() {
    let (pool, _db) = test_db().await;
    let app = spawn_app_with(pool.clone(), Clock::system()).await;
    let g = app.create_game(Review::Gm).await;
    let raw = order_mail(&app, &g, "tempfail");
    // No server, no database.
    let (code, stderr) = ingest(NO_DATABASE, &socket_path(), &raw).await;
    assert_eq!(code, 75, "EX_TEMPFAIL: {stderr}");
    assert!(stderr.contains("try again later"), "{stderr}");
    // A server whose database is down: it refuses, and the pipe cannot store either.
    let broken = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(Duration::from_secs(1))
        .connect_lazy(NO_DATABASE)
        .unwrap();
    let ctx =
        stationmaster::service::Ctx::new(broken, (*app.ctx.settings).clone(), Clock::system()).await.unwrap();
    let socket = socket_path();
    let _server = listen(ctx, &socket).await;
    let (code, stderr) = ingest(NO_DATABASE, &socket, &raw).await;
    assert_eq!(code, 75, "EX_TEMPFAIL: {stderr}");
    assert!(stderr.contains("could not be stored"), "the server's refusal is reported: {stderr}");
    assert_eq!(count(&pool, "SELECT count(*) FROM inbound_messages").await, 0);
}
