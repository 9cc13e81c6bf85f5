//! Retrying through outages, giving up visibly, permanent refusals, and leases that bring a dead
//! worker's mail back soon (rulings O1, O2, O4, O5).

use super::*;
use crate::db::test_db;
use crate::fake_smtp;
use chrono::SubsecRound;

/// Runs delivery passes against a dead server, each at the time the mail is due again, from
/// `start` until `until` or until the mail is given up; returns the row and the passes made.
async fn outage(
    pool: &PgPool,
    port: u16,
    id: i64,
    start: chrono::DateTime<Utc>,
    until: chrono::DateTime<Utc>,
) -> (OutboxRow, usize) {
    let transport = smtp_to(port);
    let (mut now, mut passes) = (start, 0);
    loop {
        let stats = deliver_due(&sender(pool).await, &transport, now).await.expect("a pass with SMTP down");
        assert_eq!(stats.sent, 0);
        passes += 1;
        let r = row(pool, id).await;
        if r.gave_up_at.is_some() || r.next_attempt_at >= until {
            return (r, passes);
        }
        assert!(
            r.next_attempt_at <= now + TimeDelta::hours(1),
            "after {} attempts the mail is parked until {}",
            r.attempts,
            r.next_attempt_at
        );
        now = r.next_attempt_at;
    }
}

#[tokio::test]
async fn mail_is_retried_through_days_of_smtp_outage_and_goes_out_when_smtp_is_back() {
    let (pool, _db) = test_db().await;
    let port = free_port(); // nothing listens here for two days
    let m = mail(1, "report:outage:1");
    assert!(enqueue(&pool, &m).await);
    let id = all_rows(&pool).await[0].id;
    let start = (Utc::now() + TimeDelta::seconds(1)).trunc_subsecs(0);
    let (r, passes) = outage(&pool, port, id, start, start + TimeDelta::days(2)).await;
    assert!(r.sent_at.is_none() && r.gave_up_at.is_none(), "still waiting after two days");
    assert!(passes > 50, "retried all along, not 10 times: {passes}");
    assert_eq!(r.first_failed_at, Some(start), "since when it fails");

    let mut server = start_smtp(port).await;
    let stats = deliver_due(&sender(&pool).await, &smtp_to(port), r.next_attempt_at)
        .await
        .expect("a pass with SMTP up");
    assert_eq!(stats.sent, 1);
    let received = receive_exactly(&mut server, 1).await;
    assert!(raw(&received[0]).contains(&format!("Message-ID: <{}>", m.message_id)));
    server.stop();
}

#[tokio::test]
async fn mail_failing_past_the_horizon_is_given_up_in_sight_not_parked() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    assert!(enqueue(&pool, &mail(2, "report:horizon:2")).await);
    let id = all_rows(&pool).await[0].id;
    let start = (Utc::now() + TimeDelta::seconds(1)).trunc_subsecs(0);
    let (r, passes) = outage(&pool, port, id, start, start + TimeDelta::days(30)).await;
    let gave_up = r.gave_up_at.expect("given up at the horizon");
    assert!(
        gave_up >= start + GIVE_UP_AFTER && gave_up < start + GIVE_UP_AFTER + MAX_RETRY_DELAY,
        "{gave_up}"
    );
    assert!(r.next_attempt_at <= gave_up, "not parked in the far future: {}", r.next_attempt_at);
    assert!(passes as i64 >= GIVE_UP_AFTER.num_minutes() / MAX_RETRY_DELAY.num_minutes());
    assert!(r.last_error.is_some_and(|e| !e.is_empty()));
    // Given-up mail is never claimed again by itself (the GM re-sends it).
    let later =
        deliver_due(&sender(&pool).await, &smtp_to(port), gave_up + TimeDelta::days(1)).await.expect("pass");
    assert_eq!(later.claimed, 0);
}

fn by_recipient(to: &str) -> &'static str {
    match to.split('@').next().unwrap_or_default() {
        "gone" => "550 5.1.1 no such user here",
        "busy" => "451 4.3.0 try again later",
        _ => "250 2.1.5 ok",
    }
}

fn to(addr: &str, key: &str) -> NewMail {
    NewMail { to_addr: addr.into(), ..mail(9, key) }
}

#[tokio::test]
async fn a_refusal_for_the_recipient_is_final_but_a_temporary_one_is_retried() {
    let (pool, _db) = test_db().await;
    let server = fake_smtp::start(by_recipient, false).await;
    for (addr, key) in
        [("gone@seat.example", "k:gone"), ("busy@seat.example", "k:busy"), ("ok@seat.example", "k:ok")]
    {
        let mut m = to(addr, key);
        m.message_id = format!("{key}@stationmaster.test").replace(':', "-");
        assert!(enqueue(&pool, &m).await);
    }
    let now = Utc::now();
    let stats = deliver_due(&sender(&pool).await, &smtp_to(server.port), now).await.expect("deliver");
    assert_eq!((stats.sent, stats.retrying, stats.given_up), (1, 1, 1), "{stats:?}");
    assert_eq!(server.accepted(), vec!["ok@seat.example".to_string()]);
    let rows = all_rows(&pool).await;
    let of = |addr: &str| rows.iter().find(|r| r.to_addr == addr).expect("row").clone();
    let gone = of("gone@seat.example");
    assert!(gone.gave_up_at.is_some() && gone.last_error.as_deref().is_some_and(|e| e.contains("550")));
    let busy = of("busy@seat.example");
    assert!(busy.gave_up_at.is_none() && busy.next_attempt_at > now, "deferred keeps its backoff");
    // The refused one is not tried again, the temporary one is.
    let again = deliver_due(&sender(&pool).await, &smtp_to(server.port), now + TimeDelta::hours(1))
        .await
        .expect("again");
    assert_eq!(again.claimed, 1);
}

fn auth_required(_: &str) -> &'static str {
    "530 5.7.0 authentication required"
}

#[tokio::test]
async fn a_server_that_refuses_everyone_is_an_outage_not_a_refusal() {
    let (pool, _db) = test_db().await;
    let server = fake_smtp::start(auth_required, false).await;
    assert!(enqueue(&pool, &mail(1, "k:auth:1")).await);
    assert!(enqueue(&pool, &mail(2, "k:auth:2")).await);
    let stats = deliver_due(&sender(&pool).await, &smtp_to(server.port), Utc::now()).await.expect("deliver");
    assert_eq!((stats.retrying, stats.given_up), (2, 0), "{stats:?}");
    let skipped = all_rows(&pool)
        .await
        .iter()
        .filter(|r| r.last_error.as_deref().is_some_and(|e| e.starts_with("not tried")))
        .count();
    assert_eq!(skipped, 1, "the batch stops at a server that refuses everyone");
    let deferred: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE failure = 'deferred'")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(deferred, 2, "the mail not tried counts as refused too, not as a server that is down");
}

#[tokio::test]
async fn a_crashed_workers_mail_is_claimed_again_within_a_minute() {
    let (pool, _db) = test_db().await;
    let lease = Leasing::default().lease;
    assert!(lease < TimeDelta::minutes(1), "{lease}");
    let m = mail(3, "report:crash:3");
    assert!(enqueue(&pool, &m).await);
    let now = Utc::now();
    // A worker claims the mail and dies before it can send or mark it.
    let mut conn = pool.acquire().await.expect("connection");
    assert_eq!(outbox::claim_due(&mut conn, now, lease, 10, Uuid::new_v4()).await.expect("claim").len(), 1);
    drop(conn);

    let port = free_port();
    let mut server = start_smtp(port).await;
    let transport = smtp_to(port);
    let soon = deliver_due(&sender(&pool).await, &transport, now + lease - TimeDelta::seconds(1))
        .await
        .expect("pass");
    assert_eq!(soon.claimed, 0, "the lease still holds");
    let after =
        deliver_due(&sender(&pool).await, &transport, now + TimeDelta::seconds(59)).await.expect("pass");
    assert_eq!(after.sent, 1, "the dead worker's mail came back in under a minute");
    receive_exactly(&mut server, 1).await;
    server.stop();
}

/// Sends one mail to a server that holds its answer while the clock moves 10 minutes on; returns
/// whether another worker could claim the mail meanwhile.
async fn claimable_while_sending(pool: &PgPool, renew_every: Duration) -> bool {
    let server = fake_smtp::start(by_recipient, true).await;
    let clock = Clock::fixed(Utc::now());
    let leasing = Leasing { lease: TimeDelta::seconds(45), renew_every };
    let sender = {
        let (pool, clock, transport) = (pool.clone(), clock.clone(), smtp_to(server.port));
        tokio::spawn(async move { deliver_due_at(&sender(&pool).await, &transport, &clock, leasing).await })
    };
    tokio::time::timeout(Duration::from_secs(10), server.holding.notified()).await.expect("the mail arrives");
    clock.advance(TimeDelta::minutes(10));
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut conn = pool.acquire().await.expect("connection");
    let taken =
        outbox::claim_due(&mut conn, clock.now(), leasing.lease, 10, Uuid::new_v4()).await.expect("claim");
    server.release.notify_one();
    let stats = sender.await.expect("no panic").expect("deliver");
    assert_eq!(stats.sent, 1);
    !taken.is_empty()
}

#[tokio::test]
async fn a_worker_renews_its_lease_while_a_slow_server_holds_the_answer() {
    let (pool, _db) = test_db().await;
    assert!(enqueue(&pool, &mail(4, "report:slow:4")).await);
    assert!(!claimable_while_sending(&pool, Duration::from_millis(50)).await, "the lease was renewed");
    // Without renewal the same ten minutes let another worker take it (and send it twice).
    assert!(enqueue(&pool, &mail(5, "report:slow:5")).await);
    assert!(claimable_while_sending(&pool, Duration::from_secs(3600)).await);
}

#[tokio::test]
async fn mail_that_waited_for_the_server_goes_out_as_soon_as_the_server_takes_mail_again() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    assert!(enqueue(&pool, &mail(1, "report:wait:1")).await);
    let waiting = all_rows(&pool).await[0].id;
    let start = (Utc::now() + TimeDelta::seconds(1)).trunc_subsecs(0);
    let (r, _) = outage(&pool, port, waiting, start, start + TimeDelta::minutes(10)).await;
    assert!(r.next_attempt_at > start + TimeDelta::minutes(10), "backing off: {}", r.next_attempt_at);

    // The server is back and a new mail (due at once) goes out: the waiting one follows at once
    // instead of at the end of its backoff.
    let mut server = start_smtp(port).await;
    assert!(enqueue(&pool, &mail(2, "report:wait:2")).await);
    let now = start + TimeDelta::minutes(10);
    let first = deliver_due(&sender(&pool).await, &smtp_to(port), now).await.expect("pass");
    assert_eq!((first.sent, first.hurried), (1, 1), "{first:?}");
    assert_eq!(row(&pool, waiting).await.next_attempt_at, now);
    let second = deliver_due(&sender(&pool).await, &smtp_to(port), now).await.expect("pass");
    assert_eq!(second.sent, 1);
    receive_exactly(&mut server, 2).await;
    server.stop();
}

#[tokio::test]
async fn a_server_that_comes_back_is_noticed_without_waiting_for_the_backoff() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    assert!(enqueue(&pool, &mail(1, "report:probe:1")).await);
    let id = all_rows(&pool).await[0].id;
    let start = (Utc::now() + TimeDelta::seconds(1)).trunc_subsecs(0);
    let (r, _) = outage(&pool, port, id, start, start + TimeDelta::hours(2)).await;
    let now = start + TimeDelta::hours(2);
    assert!(r.next_attempt_at > now, "deep in its backoff: {}", r.next_attempt_at);
    let clock = Clock::fixed(now);
    assert_eq!(probe_and_hurry(&pool, &smtp_to(port), &clock).await.expect("probe"), 0, "still down");

    let mut server = start_smtp(port).await;
    assert_eq!(probe_and_hurry(&pool, &smtp_to(port), &clock).await.expect("probe"), 1);
    assert_eq!(deliver_due(&sender(&pool).await, &smtp_to(port), now).await.expect("pass").sent, 1);
    receive_exactly(&mut server, 1).await;
    assert_eq!(probe_and_hurry(&pool, &smtp_to(port), &clock).await.expect("probe"), 0, "nothing waits");
    server.stop();
}
