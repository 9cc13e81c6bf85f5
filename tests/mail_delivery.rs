//! Outgoing mail against a real SMTP server (`support/smtp.rs`, in-process on 127.0.0.1) and a real
//! Postgres database per test: what goes out, exactly once, and what waits in the outbox.

#[path = "support/db.rs"]
mod db;
#[path = "support/smtp.rs"]
mod smtp;
use crate::db::test_db;
use std::collections::HashSet;
use std::time::Duration;

use crate::smtp::{MailServer, Received};
use chrono::{TimeDelta, Utc};
use clap::Parser;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::config::Settings;
use stationmaster::mail::deliver::{
    GIVE_UP_AFTER, Leasing, MAX_RETRY_DELAY, deliver_due_at, probe_and_hurry,
};
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::Ctx;
use stationmaster::store::outbox::{self, NewMail, OutboxRow};
use uuid::Uuid;

#[path = "mail_delivery/fake_smtp.rs"]
mod fake_smtp;
#[path = "mail_delivery/retry.rs"]
mod retry;
#[path = "mail_delivery/worker.rs"]
mod worker;

const FROM: &str = "Stationmaster <gm@stationmaster.test>";

/// A port nobody listens on right now.
fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind port 0");
    listener.local_addr().expect("local addr").port()
}

/// Starts the test SMTP server on `port`; it listens when this returns.
async fn start_smtp(port: u16) -> MailServer {
    smtp::start(port).await
}

/// What delivery runs in: this database, [`FROM`], the test clock and a server key (the mail
/// here names no seat, so the key fills nothing).
async fn ctx_on(pool: &PgPool, clock: Clock) -> Ctx {
    let args = ["stationmaster", "--smtp-url", "", "--mail-from", FROM, "--secret-key", "mail-test-key"];
    let settings = Cli::try_parse_from(args).expect("settings").settings;
    Ctx::new(pool.clone(), settings, clock).await.expect("ctx")
}

/// [`ctx_on`] on the system clock (the delivery functions take their own time).
async fn sender(pool: &PgPool) -> Ctx {
    ctx_on(pool, Clock::system()).await
}

fn smtp_to(port: u16) -> Transport {
    Transport::from_url(&format!("smtp://127.0.0.1:{port}")).expect("smtp transport")
}

fn mail(n: usize, key: &str) -> NewMail {
    NewMail {
        idempotency_key: key.to_string(),
        game_id: None,
        kind: "report".into(),
        to_addr: format!("player{n}@seat{n}.example"),
        to_name: Some(format!("Player {n}")),
        subject: format!("Turn report for seat {n}"),
        body_text: format!("Secret orders for seat {n} only"),
        body_html: Some(format!("<p>Secret map for seat {n} only</p>")),
        message_id: format!("{key}.m{n}@stationmaster.test"),
        in_reply_to: None,
        reply_to: None,
        seat: None,
        token_generation: None,
        calendar: None,
    }
}

async fn enqueue(pool: &PgPool, mail: &NewMail) -> bool {
    let mut conn = pool.acquire().await.expect("connection");
    outbox::enqueue(&mut conn, mail).await.expect("enqueue")
}

async fn row(pool: &PgPool, id: i64) -> OutboxRow {
    let mut conn = pool.acquire().await.expect("connection");
    outbox::get(&mut conn, id).await.expect("get").expect("row exists")
}

async fn all_rows(pool: &PgPool) -> Vec<OutboxRow> {
    let mut conn = pool.acquire().await.expect("connection");
    outbox::list_recent(&mut conn, 100).await.expect("list")
}

async fn pending(pool: &PgPool) -> i64 {
    let mut conn = pool.acquire().await.expect("connection");
    outbox::pending_count(&mut conn).await.expect("count")
}

/// Receives exactly `n` messages: fails if fewer arrive, or if another one follows.
async fn receive_exactly(server: &mut MailServer, n: usize) -> Vec<Received> {
    let mut got = Vec::new();
    for i in 0..n {
        let message = tokio::time::timeout(Duration::from_secs(5), server.rx.recv())
            .await
            .unwrap_or_else(|_| panic!("only {i} of {n} messages arrived"))
            .expect("receive");
        got.push(message);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(server.rx.try_recv().is_err(), "more than {n} messages arrived");
    got
}

fn raw(message: &Received) -> String {
    String::from_utf8(message.raw_bytes().expect("raw bytes")).expect("utf-8")
}

#[tokio::test]
async fn each_recipient_gets_exactly_their_own_mail() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    let mut server = start_smtp(port).await;
    let mails: Vec<NewMail> = (1..=4).map(|n| mail(n, &format!("report:t1:{n}"))).collect();
    for m in &mails {
        assert!(enqueue(&pool, m).await);
    }

    let stats = deliver_due(&sender(&pool).await, &smtp_to(port), Utc::now()).await.expect("deliver");
    assert_eq!((stats.claimed, stats.sent, stats.retrying, stats.given_up), (4, 4, 0, 0));

    let received = receive_exactly(&mut server, 4).await;
    let mut seen = HashSet::new();
    for message in &received {
        assert_eq!(message.envelope_recipients.len(), 1, "one envelope recipient per mail");
        let rcpt = &message.envelope_recipients[0];
        let m = mails.iter().find(|m| &m.to_addr == rcpt).expect("a recipient we queued");
        assert!(seen.insert(rcpt.clone()), "{rcpt} got two mails");

        let parsed = message.parsed();
        let to = parsed.to().and_then(|a| a.first()).expect("a To address");
        assert_eq!(to.address(), Some(m.to_addr.as_str()));
        assert_eq!(to.name().unwrap_or_default(), m.to_name.as_deref().unwrap_or_default());
        assert_eq!(parsed.subject(), Some(m.subject.as_str()));
        let text = parsed.body_text(0).expect("text part");
        let html = parsed.body_html(0).expect("html part");
        assert!(text.contains(&m.body_text), "{text}");
        assert!(html.contains(m.body_html.as_deref().unwrap_or_default()), "{html}");
        for other in mails.iter().filter(|o| o.to_addr != m.to_addr) {
            assert!(!text.contains(&other.body_text) && !html.contains(&other.body_text));
        }
        let raw = raw(message);
        assert!(raw.contains(&format!("Message-ID: <{}>\r\n", m.message_id)), "{raw}");
        assert!(raw.contains("multipart/alternative"), "{raw}");
    }
    assert_eq!(pending(&pool).await, 0);
    assert!(all_rows(&pool).await.iter().all(|r| r.sent_at.is_some() && r.last_error.is_none()));
    server.stop();
}

#[tokio::test]
async fn a_delivered_mail_is_never_sent_again() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    let mut server = start_smtp(port).await;
    let transport = smtp_to(port);
    let m = mail(1, "welcome:anna");
    assert!(enqueue(&pool, &m).await);
    assert!(!enqueue(&pool, &m).await, "the same idempotency key is queued once");

    let now = Utc::now();
    let first = deliver_due(&sender(&pool).await, &transport, now).await.expect("deliver");
    assert_eq!(first.sent, 1);
    assert!(!enqueue(&pool, &m).await, "still a no-op after sending");
    let later = now + TimeDelta::days(2);
    let second = deliver_due(&sender(&pool).await, &transport, later).await.expect("deliver again");
    assert_eq!(second.claimed, 0);

    let received = receive_exactly(&mut server, 1).await;
    assert_eq!(received[0].envelope_recipients, vec![m.to_addr.clone()]);
    let rows = all_rows(&pool).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].attempts, 1);
    assert!(rows[0].sent_at.is_some());
    server.stop();
}

#[tokio::test]
async fn mail_waits_in_the_outbox_while_smtp_is_down_and_goes_out_later() {
    let (pool, _db) = test_db().await;
    let port = free_port(); // nothing listens here yet
    let transport = smtp_to(port);
    let m = mail(2, "report:t2:2");
    assert!(enqueue(&pool, &m).await);
    assert!(enqueue(&pool, &mail(3, "report:t2:3")).await);
    let (id, other) = {
        let rows = all_rows(&pool).await;
        (rows[1].id, rows[0].id)
    };

    let now = Utc::now();
    let down = deliver_due(&sender(&pool).await, &transport, now).await.expect("a pass with SMTP down");
    assert_eq!((down.claimed, down.sent, down.retrying), (2, 0, 2));
    let skipped = row(&pool, other).await.last_error.unwrap_or_default();
    assert!(skipped.starts_with("not tried"), "the batch stops at a dead server: {skipped}");
    let waiting = row(&pool, id).await;
    assert!(waiting.sent_at.is_none());
    assert!(waiting.last_error.as_deref().is_some_and(|e| !e.is_empty()));
    assert!(waiting.next_attempt_at > now, "retry is scheduled later");
    assert_eq!(waiting.attempts, 1);
    assert_eq!(pending(&pool).await, 2);

    let too_soon =
        deliver_due(&sender(&pool).await, &transport, now + TimeDelta::seconds(5)).await.expect("pass");
    assert_eq!(too_soon.claimed, 0, "not retried before its time");

    let mut server = start_smtp(port).await;
    let later = waiting.next_attempt_at + TimeDelta::seconds(1);
    let up = deliver_due(&sender(&pool).await, &transport, later).await.expect("a pass with SMTP up");
    assert_eq!((up.claimed, up.sent), (2, 2));
    let again =
        deliver_due(&sender(&pool).await, &transport, later + TimeDelta::hours(2)).await.expect("pass");
    assert_eq!(again.claimed, 0);

    let received = receive_exactly(&mut server, 2).await;
    let id_header = format!("Message-ID: <{}>", m.message_id);
    assert_eq!(received.iter().filter(|r| raw(r).contains(&id_header)).count(), 1);
    let sent = row(&pool, id).await;
    assert_eq!(sent.sent_at, Some(later));
    assert_eq!(sent.attempts, 2);
    assert_eq!(pending(&pool).await, 0);
    server.stop();
}

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
}

#[tokio::test]
async fn without_smtp_mail_stays_in_the_outbox() {
    let (pool, _db) = test_db().await;
    let settings = Cli::try_parse_from(["stationmaster", "--smtp-url", ""]).expect("settings").settings;
    let transport = Transport::from_settings(&settings).expect("transport");
    assert!(matches!(transport, Transport::Keep));
    let m = mail(3, "gm-login:3");
    assert!(enqueue(&pool, &m).await);

    let stats = deliver_due(&sender(&pool).await, &transport, Utc::now() + TimeDelta::days(1))
        .await
        .expect("deliver");
    assert_eq!(stats, Default::default());

    let rows = all_rows(&pool).await;
    assert_eq!(rows.len(), 1);
    let kept = row(&pool, rows[0].id).await;
    assert!(kept.sent_at.is_none() && kept.last_error.is_none());
    assert_eq!(kept.attempts, 0);
    assert_eq!((kept.subject, kept.body_text), (m.subject, m.body_text));
    assert_eq!(pending(&pool).await, 1);
}

#[tokio::test]
async fn two_workers_never_claim_the_same_mail() {
    let (pool, _db) = test_db().await;
    for n in 1..=6 {
        assert!(enqueue(&pool, &mail(n, &format!("report:t4:{n}"))).await);
    }
    let now = Utc::now();
    let lease = TimeDelta::minutes(10);
    let ids = |rows: &[OutboxRow]| rows.iter().map(|r| r.id).collect::<HashSet<i64>>();

    // Worker A claims inside an open transaction, holding its row locks; worker B must skip
    // those rows rather than wait for them or take them.
    let mut a = pool.begin().await.expect("begin a");
    let mut b = pool.begin().await.expect("begin b");
    let got_a = outbox::claim_due(&mut a, now, lease, 4, Uuid::new_v4()).await.expect("claim a");
    let got_b = tokio::time::timeout(
        Duration::from_secs(5),
        outbox::claim_due(&mut b, now, lease, 10, Uuid::new_v4()),
    )
    .await
    .expect("B skips locked rows instead of waiting")
    .expect("claim b");
    b.commit().await.expect("commit b");
    a.commit().await.expect("commit a");
    assert_eq!((got_a.len(), got_b.len()), (4, 2));
    assert!(ids(&got_a).is_disjoint(&ids(&got_b)));

    // Leased rows are not due again until the lease runs out (a crashed worker's rows come back).
    let mut conn = pool.acquire().await.expect("connection");
    assert!(outbox::claim_due(&mut conn, now, lease, 10, Uuid::new_v4()).await.expect("claim").is_empty());
    drop(conn);

    // Many workers at once, after the leases expired: disjoint claims, together everything.
    let after = now + lease + TimeDelta::seconds(1);
    let workers = (0..4).map(|_| {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut conn = pool.acquire().await.expect("connection");
            outbox::claim_due(&mut conn, after, lease, 2, Uuid::new_v4()).await.expect("claim")
        })
    });
    let mut claimed = HashSet::new();
    for worker in workers.collect::<Vec<_>>() {
        for r in worker.await.expect("worker") {
            assert!(claimed.insert(r.id), "mail {} claimed twice", r.id);
            assert_eq!(r.attempts, 2);
        }
    }
    let mut conn = pool.acquire().await.expect("connection");
    for r in outbox::claim_due(&mut conn, after, lease, 10, Uuid::new_v4()).await.expect("claim rest") {
        assert!(claimed.insert(r.id), "mail {} claimed twice", r.id);
    }
    assert_eq!(claimed.len(), 6);
}
