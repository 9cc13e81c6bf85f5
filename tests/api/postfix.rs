//! End to end through a real MTA: a message sent over SMTP to Postfix on localhost is piped to
//! `stationmaster mail ingest` (as Postfix's `pipe(8)` runs it, as user nobody), stored,
//! authenticated and applied, and the echo reaches a real SMTP catcher threaded to the message.
//!
//! The pipe runs a copy of the binary in a directory `nobody` may enter, so the test passes
//! wherever the checkout lives (a private home directory, a `mktemp -d`). When the mail does not
//! arrive, the failure says what Postfix's log reported for it.
//!
//! Needs Postfix and root (to configure it); `.ci/run` installs Postfix. Where either is missing
//! the test says so and does nothing, except under CI, where it fails.

use crate::db::test_db;
use crate::helpers::{database_url, skip_without, spawn_app_with};
use crate::public_dir::PublicDir;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use stationmaster::engine::Seat;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::Review;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const MAILLOG: &str = "/var/log/postfix.log";
const SERVICE: &str = "stationmaster/unix";

fn root_with_postfix() -> bool {
    let uid = Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    Path::new("/usr/sbin/postfix").exists() && uid.unwrap_or(false)
}

fn run(cmd: &str, args: &[&str]) {
    let out = Command::new(cmd).args(args).output().unwrap_or_else(|e| panic!("{cmd}: {e}"));
    assert!(out.status.success(), "{cmd} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Postfix configured to pipe `play.sm.test` into a copy of our binary; the copy and the
/// `master.cf` entry go when this is dropped.
struct PostfixPipe {
    _bin_dir: PublicDir,
}

impl Drop for PostfixPipe {
    fn drop(&mut self) {
        let _ = Command::new("postconf").args(["-MX", SERVICE]).output();
        let _ = Command::new("postfix").arg("reload").output();
    }
}

/// Points Postfix's `play.sm.test` domain at a copy of our binary that `nobody` may run, and at
/// this test's database.
fn configure_postfix(db: &str) -> PostfixPipe {
    let bin_dir = PublicDir::new("sm-postfix-bin");
    let bin = bin_dir.install_executable(Path::new(env!("CARGO_BIN_EXE_stationmaster")), "stationmaster");
    run(
        "postconf",
        &[
            "-e",
            "inet_interfaces=loopback-only",
            "inet_protocols=ipv4",
            "myhostname=mx.sm.test",
            "mydestination=",
            "relay_domains=play.sm.test",
            "transport_maps=inline:{play.sm.test=stationmaster:}",
            "smtpd_relay_restrictions=permit_mynetworks reject_unauth_destination",
            &format!("maillog_file={MAILLOG}"),
        ],
    );
    let service = format!(
        "stationmaster unix - n n - - pipe flags=Rq user=nobody argv=/usr/bin/env DATABASE_URL={db} \
         STATIONMASTER_SECRET_KEY=test-key STATIONMASTER_REPLY_DOMAIN=play.sm.test STATIONMASTER_BASE_URL=http://sm.test \
         RUST_LOG=warn {} mail ingest --sender ${{sender}} --recipient ${{recipient}}",
        bin.display()
    );
    run("postconf", &["-M", &format!("{SERVICE}={service}")]);
    let running = Command::new("postfix").arg("status").output().is_ok_and(|o| o.status.success());
    run("postfix", &[if running { "reload" } else { "start" }]);
    PostfixPipe { _bin_dir: bin_dir }
}

/// What Postfix's log says of deliveries to `rcpt` (status lines and the pipe's own complaints),
/// written after `from_byte`.
fn postfix_said(rcpt: &str, from_byte: u64) -> Vec<String> {
    let log = std::fs::read(MAILLOG).unwrap_or_default();
    let new = log.get(from_byte as usize..).unwrap_or_default();
    String::from_utf8_lossy(new)
        .lines()
        .filter(|l| {
            l.contains(rcpt) || l.contains("warning:") || l.contains("fatal:") || l.contains("error:")
        })
        .map(str::to_owned)
        .collect()
}

/// A final verdict in the log for `rcpt` that is not a delivery: the mail bounced or is deferred.
fn postfix_gave_up(said: &[String]) -> Option<&String> {
    said.iter().find(|l| l.contains("status=bounced") || l.contains("status=deferred"))
}

#[tokio::test]
async fn a_mail_sent_through_postfix_is_piped_in_applied_and_answered() {
    let (pool, _db) = test_db().await;
    if skip_without("root and /usr/sbin/postfix", root_with_postfix()) {
        return;
    }
    let db = database_url(&pool);
    // The piped process reads the system clock, so the game must too.
    let app = spawn_app_with(pool, stationmaster::clock::Clock::system()).await;
    let g = app.create_game(Review::Gm).await;
    let log_start = std::fs::metadata(MAILLOG).map(|m| m.len()).unwrap_or(0);
    let _postfix = configure_postfix(&db);

    let to = app.ctx.reply_address(g.id, Seat(1), 1);
    let message = Message::builder()
        .from("Anna <anna@example.org>".parse().unwrap())
        .to(to.parse().unwrap())
        .subject("My orders")
        .message_id(Some("<postfix-e2e@example.org>".into()))
        .body("CLAIM 7H NORTH\nFINAL\n".to_string())
        .unwrap();
    let mx = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1").port(25).build();
    let mut sent = false;
    for _ in 0..50 {
        if mx.send(message.clone()).await.is_ok() {
            sent = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(sent, "Postfix accepted the message on 127.0.0.1:25");

    let mut status = String::new();
    let mut said = Vec::new();
    for _ in 0..150 {
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT status, outcome FROM inbound_messages ORDER BY id DESC LIMIT 1")
                .fetch_optional(&app.ctx.pool)
                .await
                .unwrap();
        if let Some((s, why)) = row.filter(|(s, _)| s != "new") {
            status = format!("{s}: {}", why.unwrap_or_default());
            break;
        }
        said = postfix_said(&to, log_start);
        if postfix_gave_up(&said).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(
        status.starts_with("accepted"),
        "the piped message was stored and accepted, not {status:?}; Postfix's log ({MAILLOG}) said:\n{}",
        if said.is_empty() { "nothing about it".to_owned() } else { said.join("\n") }
    );
    let (envelope_to,): (Option<String>,) =
        sqlx::query_as("SELECT envelope_to FROM inbound_messages").fetch_one(&app.ctx.pool).await.unwrap();
    // Stored sealed (RULING M11): the recipient Postfix passed, its secret tag replaced.
    let sealed = String::from_utf8(crate::inbound::sealed_to(to.as_bytes(), &to)).unwrap();
    assert_eq!(envelope_to.as_deref(), Some(sealed.as_str()), "Postfix passed the envelope recipient");

    let (port, mut catcher) = crate::helpers::smtp_server().await;
    let smtp = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    deliver_due(&app.ctx, &smtp, chrono::Utc::now()).await.unwrap();
    let mut echo = None;
    while let Ok(Ok(m)) = tokio::time::timeout(Duration::from_secs(2), catcher.rx.recv()).await {
        let raw = String::from_utf8(m.raw_bytes().unwrap()).unwrap();
        if raw.contains("In-Reply-To: <postfix-e2e@example.org>") {
            echo = Some(raw);
        }
    }
    let echo = echo.expect("the echo reached the catcher, threaded to the player's message");
    assert!(echo.contains("To: Anna <anna@example.org>"));
    assert!(echo.contains("CLAIM 7H NORTH"));
}
