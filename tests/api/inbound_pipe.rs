//! `mail ingest` with a message larger than it keeps: the real binary, both ways it reads a mail
//! (the early hand-off path and the full command-line parser), reads the whole of its standard
//! input, so the MTA's writer is never cut off, and stores the mail cut, saying so.

use crate::db::test_db;
use crate::helpers::{database_url, spawn_app};
use crate::inbound::reply_address;
use stationmaster::service::Review;
use stationmaster::service::inbound::MAX_MAIL_BYTES;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the binary with `args` and `raw` on stdin; returns (exit code, whether every byte of
/// `raw` was written without the pipe breaking).
fn run(args: &[String], db: &str, raw: Vec<u8>) -> (i32, Result<(), String>) {
    let dir = std::env::temp_dir().join(format!("sm-pipe-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .args(args)
        .env("DATABASE_URL", db)
        // No server listens there: the pipe stores the mail itself.
        .env("STATIONMASTER_INGEST_SOCKET", dir.join("none.sock"))
        .env("STATIONMASTER_SECRET_KEY", "test-key")
        .env("STATIONMASTER_REPLY_DOMAIN", "play.sm.test")
        .env("STATIONMASTER_BASE_URL", "http://sm.test")
        .env("RUST_LOG", "warn")
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&raw).map_err(|e| e.to_string()));
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, writer.join().unwrap())
}

#[tokio::test]
async fn an_oversized_piped_mail_is_read_to_its_end_and_stored_cut_either_way() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let db = database_url(&pool);
    let paths: [&[&str]; 2] = [
        &["mail", "ingest", "--recipient", &to],
        // A global flag: the early path leaves this command line to the full parser.
        &["mail", "ingest", "--recipient", &to, "--base-url", "http://sm.test"],
    ];
    for (n, args) in paths.into_iter().enumerate() {
        let mut raw = format!(
            "From: anna@example.org\r\nTo: {to}\r\nSubject: big\r\nMessage-ID: <big{n}@x>\r\n\r\nCLAIM 7H NORTH\r\n"
        )
        .into_bytes();
        raw.extend(std::iter::repeat_n(b'#', MAX_MAIL_BYTES + 1024 * 1024));
        let (db, owned): (String, Vec<String>) = (db.clone(), args.iter().map(|a| a.to_string()).collect());
        let (code, written) = tokio::task::spawn_blocking(move || run(&owned, &db, raw)).await.unwrap();
        assert_eq!(code, 0, "{args:?}: stored");
        assert_eq!(written, Ok(()), "{args:?}: the writer was not cut off");
        let (truncated, outcome): (bool, Option<String>) =
            sqlx::query_as("SELECT truncated, outcome FROM inbound_messages WHERE message_id = $1")
                .bind(format!("big{n}@x"))
                .fetch_one(&pool)
                .await
                .unwrap();
        let outcome = outcome.unwrap_or_default();
        assert!(truncated && outcome.contains("was cut"), "{args:?}: {outcome}");
    }
    let answers: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "order-echo").collect();
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| a.body_text.contains("was cut")), "{}", answers[0].body_text);
}
