//! The background worker: woken after a commit, stopped on shutdown, and on the `Clock` of its
//! `Ctx`, so tests move time instead of sleeping.

use super::*;
use crate::db::test_db;
use chrono::SubsecRound;
use stationmaster::mail::run_worker;
use stationmaster::service::{Shutdown, ShutdownSwitch};

async fn ctx(pool: PgPool, clock: Clock) -> Ctx {
    ctx_on(&pool, clock).await
}

/// Starts the worker; returns the switch that stops it and its handle.
fn spawn_worker(ctx: Ctx, port: u16, tick: Duration) -> (ShutdownSwitch, tokio::task::JoinHandle<()>) {
    let (stop, shutdown) = Shutdown::new();
    let worker = tokio::spawn(run_worker(ctx, smtp_to(port), tick, shutdown));
    (stop, worker)
}

#[tokio::test]
async fn the_worker_sends_when_woken_and_stops_on_shutdown() {
    let (pool, _db) = test_db().await;
    let port = free_port();
    let mut server = start_smtp(port).await;
    let ctx = ctx(pool.clone(), Clock::system()).await;
    // Only a wake-up can make it deliver in time.
    let (stop, worker) = spawn_worker(ctx.clone(), port, Duration::from_secs(3600));
    receive_exactly(&mut server, 0).await; // the first pass finds nothing
    assert!(enqueue(&pool, &mail(5, "report:t5:5")).await);
    ctx.mail_wake.notify_one();
    let received = receive_exactly(&mut server, 1).await;
    assert_eq!(received[0].envelope_recipients, vec!["player5@seat5.example".to_string()]);

    stop.stop();
    tokio::time::timeout(Duration::from_secs(5), worker)
        .await
        .expect("the worker stops on shutdown")
        .expect("no panic");
    assert_eq!(pending(&pool).await, 0);
    server.stop();
}

#[tokio::test]
async fn the_worker_takes_its_time_from_the_clock() {
    let (pool, _db) = test_db().await;
    let port = free_port(); // down for the first attempt
    let clock = Clock::fixed(Utc::now().trunc_subsecs(0) + TimeDelta::hours(1));
    let ctx = ctx(pool.clone(), clock.clone()).await;
    assert!(enqueue(&pool, &mail(6, "report:clock:6")).await);
    let first =
        deliver_due_at(&sender(&pool).await, &smtp_to(port), &clock, Leasing::default()).await.expect("pass");
    assert_eq!(first.retrying, 1, "retry in 30 s of the clock's time");

    let mut server = start_smtp(port).await;
    let (stop, worker) = spawn_worker(ctx, port, Duration::from_millis(50));
    receive_exactly(&mut server, 0).await; // not due yet by the clock, whatever the wall says
    clock.advance(TimeDelta::seconds(31));
    let received = receive_exactly(&mut server, 1).await;
    assert_eq!(received[0].envelope_recipients, vec!["player6@seat6.example".to_string()]);
    let sent = all_rows(&pool).await[0].sent_at.expect("marked sent");
    assert_eq!(sent, clock.now(), "marked with the clock's time");
    stop.stop();
    worker.await.expect("no panic");
    server.stop();
}
