//! The scheduler, in the background: the outage guard, waiting inbound mail, turns that are due
//! (deadline and grace passed, or every acting seat final and the cooling-off over), and durable
//! timers (reminders, auto-release). Each pass claims rows with `FOR UPDATE SKIP LOCKED`, so
//! several server processes can run it against one database without doing anything twice.

use crate::service::{self, Ctx, Shutdown};
use std::time::Duration;

/// Most turns closed in one pass before the loop yields.
const BATCH: usize = 100;

/// One pass: records the heartbeat (moving deadlines that fell into an outage), processes stored
/// inbound mail (left by `mail ingest` or a crash), closes every due turn, then runs due timers.
/// Returns how many turns were closed.
pub async fn tick(ctx: &Ctx) -> anyhow::Result<usize> {
    let _timed = crate::metrics::scheduler_pass();
    // A `key rotate` by the console: links and reply addresses under the new key from now on.
    if let Err(e) = ctx.follow_rotation().await {
        tracing::warn!(error = %format!("{e:#}"), "cannot check for a rotated server key");
    }
    let moved = service::guard_outage(ctx).await?;
    if !moved.is_empty() {
        tracing::warn!(turns = moved.len(), "outage guard moved deadlines");
    }
    let mails = service::inbound::process_pending(ctx, BATCH as i64).await?;
    if mails > 0 {
        tracing::info!(mails, "scheduler processed inbound mail");
    }
    let done = service::close_due_turns(ctx, BATCH).await?;
    for outcome in &done {
        tracing::info!(?outcome, "scheduler closed a turn");
    }
    let timers = service::run_due_timers(ctx, BATCH).await?;
    if timers > 0 {
        tracing::info!(timers, "scheduler ran timers");
    }
    // Issue 37, RULING W45: invitations and requests to join not answered in time.
    let expired = service::waiting::expire_overdue(ctx, BATCH as i64).await?;
    if expired > 0 {
        tracing::info!(expired, "scheduler expired invitations and requests to join");
    }
    Ok(done.len())
}

/// Runs passes every `every`, or sooner when woken (`ctx.turn_wake`), until `shutdown` is set.
/// Every "now" comes from `ctx.clock`.
pub async fn run(ctx: Ctx, every: Duration, mut shutdown: Shutdown) {
    loop {
        match tick(&ctx).await {
            Ok(n) if n >= BATCH => continue,
            Ok(_) => {}
            Err(e) => tracing::error!(error = format!("{e:#}"), "scheduler pass failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = ctx.turn_wake.notified() => {}
            () = shutdown.wait() => {}
        }
        if shutdown.is_set() {
            break;
        }
    }
}
