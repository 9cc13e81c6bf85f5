//! The scheduler: processes waiting inbound mail and closes turns that are due (deadline passed, or every acting seat final) in the
//! background. Each pass claims turns with `FOR UPDATE SKIP LOCKED`, so several server processes
//! can run it against one database without adjudicating a turn twice.

use crate::service::{self, Ctx};
use std::time::Duration;
use tokio::sync::watch;

/// Most turns closed in one pass before the loop yields.
const BATCH: usize = 100;

/// One pass: processes stored inbound mail (left by `mail ingest` or a crash), then closes every
/// due turn. Returns how many turns were closed.
pub async fn tick(ctx: &Ctx) -> anyhow::Result<usize> {
    let mails = service::inbound::process_pending(ctx, BATCH as i64).await?;
    if mails > 0 {
        tracing::info!(mails, "scheduler processed inbound mail");
    }
    let done = service::close_due_turns(ctx, BATCH).await?;
    for outcome in &done {
        tracing::info!(?outcome, "scheduler closed a turn");
    }
    Ok(done.len())
}

/// Runs passes every `every`, or sooner when woken, until `shutdown` turns true.
pub async fn run(ctx: Ctx, every: Duration, mut shutdown: watch::Receiver<bool>) {
    loop {
        match tick(&ctx).await {
            Ok(n) if n >= BATCH => continue,
            Ok(_) => {}
            Err(e) => tracing::error!(error = format!("{e:#}"), "scheduler pass failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = ctx.turn_wake.notified() => {}
            _ = shutdown.changed() => {}
        }
        if *shutdown.borrow() {
            break;
        }
    }
}
