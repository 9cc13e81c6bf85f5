//! The IMAP poller against a real Dovecot on localhost (started by the test with its own
//! configuration in a temporary directory that its mail user may enter). Needs `dovecot-imapd` (installed by `.ci/run`) and
//! root; where either is missing the test says so and does nothing, except under CI, where it
//! fails.

use crate::db::test_db;
use crate::helpers::{database_url, skip_without, spawn_app};
use crate::public_dir::PublicDir;
use chrono::{TimeZone, Utc};
use sqlx::PgPool;
use stationmaster::engine::Seat;
use stationmaster::mail::imap::{ImapConfig, PollStats, poll_once, run_poller};
use stationmaster::service::{Review, Shutdown, inbound};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

struct Dovecot {
    child: Child,
    dir: PathBuf,
    port: u16,
    // Dropped after `drop` below has stopped Dovecot: removes the directory.
    _home: PublicDir,
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn usable() -> bool {
    let root =
        Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    Path::new("/usr/sbin/dovecot").exists() && root
}

// The child is owned by `Dovecot`, whose Drop kills and waits for it; the lint cannot see that.
#[allow(clippy::zombie_processes)]
async fn start_dovecot() -> Dovecot {
    // Dovecot's mail user (nobody) must reach the maildir wherever the tests run.
    let home = PublicDir::new("sm-imap");
    let dir = home.path().to_path_buf();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    for sub in ["run", "state", "mail/orders/new", "mail/orders/cur", "mail/orders/tmp"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let d = dir.display();
    let conf = format!(
        "protocols = imap\nlisten = 127.0.0.1\nbase_dir = {d}/run\nstate_dir = {d}/state\nlog_path = {d}/dovecot.log\n\
         ssl = no\ndisable_plaintext_auth = no\nauth_mechanisms = plain login\nmail_location = maildir:{d}/mail/%u\n\
         first_valid_uid = 1\npassdb {{\n  driver = static\n  args = password=secret\n}}\n\
         userdb {{\n  driver = static\n  args = uid=nobody gid=nogroup home={d}/mail/%u\n}}\n\
         service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n}}\n\
         service anvil {{\n  chroot =\n}}\n"
    );
    std::fs::write(dir.join("dovecot.conf"), conf).unwrap();
    let status = Command::new("chown").args(["-R", "nobody:nogroup"]).arg(dir.join("mail")).status().unwrap();
    assert!(status.success());
    let child =
        Command::new("/usr/sbin/dovecot").arg("-F").arg("-c").arg(dir.join("dovecot.conf")).spawn().unwrap();
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return Dovecot { child, dir, port, _home: home };
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("dovecot did not start: {}", std::fs::read_to_string(dir.join("dovecot.log")).unwrap_or_default());
}

impl Dovecot {
    /// Delivers a message into the mailbox, unseen.
    fn deliver(&self, name: &str, raw: &str) {
        let path = self.dir.join("mail/orders/new").join(name);
        std::fs::write(&path, raw).unwrap();
        Command::new("chown").args(["nobody:nogroup"]).arg(&path).status().unwrap();
    }
    fn config(&self) -> ImapConfig {
        ImapConfig::parse(&format!("imap://orders:secret@127.0.0.1:{}/INBOX", self.port)).unwrap()
    }
}

fn order_mail(from: &str, to: &str, id: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <{id}@example.org>\r\n\r\nCLAIM 7H NORTH\r\n"
    )
}

#[tokio::test]
async fn the_imap_poller_stores_unseen_mail_and_marks_only_stored_mail_seen() {
    let (pool, _db) = test_db().await;
    if skip_without("root and /usr/sbin/dovecot", usable()) {
        return;
    }
    let url = database_url(&pool);
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let dovecot = start_dovecot().await;
    dovecot
        .deliver("1.msg", &order_mail("anna@example.org", &app.ctx.reply_address(g.id, Seat(1), 1), "imap1"));
    dovecot
        .deliver("2.msg", &order_mail("bert@example.org", &app.ctx.reply_address(g.id, Seat(2), 1), "imap2"));

    let first = poll_once(&dovecot.config(), &app.ctx).await.unwrap();
    assert_eq!(first, PollStats { fetched: 2, stored: 2, duplicates: 0 });
    let again = poll_once(&dovecot.config(), &app.ctx).await.unwrap();
    assert_eq!(again.fetched, 0, "stored messages were marked seen");
    assert_eq!(inbound::process_pending(&app.ctx, 10).await.unwrap(), 2);
    let accepted: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM inbound_messages WHERE status = 'accepted' AND source = 'imap'",
    )
    .fetch_one(&app.ctx.pool)
    .await
    .unwrap();
    assert_eq!(accepted, 2);

    // The database is gone while a new message waits: the poll fails and marks nothing.
    dovecot
        .deliver("3.msg", &order_mail("cleo@example.org", &app.ctx.reply_address(g.id, Seat(3), 1), "imap3"));
    let broken = spawn_app(PgPool::connect(&url).await.unwrap()).await;
    broken.ctx.pool.close().await;
    assert!(poll_once(&dovecot.config(), &broken.ctx).await.is_err());
    let recovered = poll_once(&dovecot.config(), &app.ctx).await.unwrap();
    assert_eq!(
        recovered,
        PollStats { fetched: 1, stored: 1, duplicates: 0 },
        "the unstored message was fetched again"
    );
}

#[tokio::test]
async fn a_wrong_imap_password_is_a_clear_error() {
    let (pool, _db) = test_db().await;
    if skip_without("root and /usr/sbin/dovecot", usable()) {
        return;
    }
    let dovecot = start_dovecot().await;
    let cfg = ImapConfig::parse(&format!("imap://orders:wrong@127.0.0.1:{}/INBOX", dovecot.port)).unwrap();
    let app = spawn_app(pool).await;
    let err = poll_once(&cfg, &app.ctx).await.unwrap_err();
    assert!(format!("{err:#}").contains("IMAP login refused"), "{err:#}");
}

#[tokio::test]
async fn the_imap_poller_stamps_mail_with_its_contexts_clock_and_stops_on_shutdown() {
    let (pool, _db) = test_db().await;
    if skip_without("root and /usr/sbin/dovecot", usable()) {
        return;
    }
    let app = spawn_app(pool).await; // its clock stands at 2026-03-01 12:00 UTC
    let g = app.create_game(Review::Gm).await;
    let dovecot = start_dovecot().await;
    dovecot
        .deliver("1.msg", &order_mail("anna@example.org", &app.ctx.reply_address(g.id, Seat(1), 1), "tick1"));
    let (stop, shutdown) = Shutdown::new();
    let poller =
        tokio::spawn(run_poller(app.ctx.clone(), dovecot.config(), Duration::from_secs(3600), shutdown));
    let mut received: Vec<chrono::DateTime<Utc>> = Vec::new();
    for _ in 0..200 {
        received = sqlx::query_scalar("SELECT received_at FROM inbound_messages WHERE source = 'imap'")
            .fetch_all(&app.ctx.pool)
            .await
            .unwrap();
        if !received.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(received, vec![Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap()], "the test clock's time");
    stop.stop();
    tokio::time::timeout(Duration::from_secs(5), poller).await.expect("stops on shutdown").expect("no panic");
}
