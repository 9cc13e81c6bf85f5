//! The background loop that keeps delivering the outbox until the server shuts down.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use sqlx::PgPool;
use tokio::sync::Notify;

use super::deliver::{BATCH_SIZE, Transport, deliver_due};

/// Delivers due mail every `tick`, and at once whenever `wake` is notified (call
/// `wake.notify_one()` after committing a transaction that enqueued mail). Returns when
/// `shutdown` completes; a send in progress is finished first, so a lease is never left behind
/// by a clean shutdown. Errors of a pass are logged and the loop goes on.
///
/// With [`Transport::Keep`] there is nothing to do: it only waits for `shutdown`.
pub async fn run_worker(
    pool: PgPool,
    transport: Transport,
    from: String,
    tick: Duration,
    wake: Arc<Notify>,
    shutdown: impl Future<Output = ()>,
) {
    if matches!(transport, Transport::Keep) {
        tracing::info!("no SMTP server configured: mail stays in the outbox (dev mailbox)");
        shutdown.await;
        return;
    }
    let tick = tick.max(Duration::from_millis(10));
    tokio::pin!(shutdown);
    loop {
        let pause = match pass(&pool, &transport, &from).await {
            // A full batch may mean more is due: go again at once (unless shutting down).
            Ok(claimed) if claimed as i64 >= BATCH_SIZE => Duration::ZERO,
            Ok(_) => tick,
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "mail delivery pass failed");
                tick
            }
        };
        tokio::select! {
            biased;
            () = &mut shutdown => break,
            () = wake.notified() => {}
            () = tokio::time::sleep(pause) => {}
        }
    }
    tracing::info!("mail worker stopped");
}

/// One delivery pass; returns how many mails it claimed.
async fn pass(pool: &PgPool, transport: &Transport, from: &str) -> anyhow::Result<usize> {
    let stats =
        deliver_due(pool, transport, from, chrono::Utc::now()).await.context("delivering due mail")?;
    if stats.claimed > 0 {
        tracing::debug!(
            claimed = stats.claimed,
            sent = stats.sent,
            retrying = stats.retrying,
            given_up = stats.given_up,
            "mail delivery pass"
        );
    }
    Ok(stats.claimed)
}
