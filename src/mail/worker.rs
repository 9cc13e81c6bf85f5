//! The background loop that keeps delivering the outbox until the server shuts down, and tells
//! GMs about their games' undelivered mail once the SMTP server works again.

use std::time::{Duration, Instant};

use anyhow::Context;

use super::deliver::{BATCH_SIZE, DeliveryStats, Leasing, Transport, deliver_due_at, probe_and_hurry};
use super::retention::{self, PURGE_EVERY};
use crate::service::{Ctx, Shutdown, undelivered};

/// Delivers due mail every `tick`, and at once whenever `ctx.mail_wake` is notified (call
/// `notify_one()` after committing a transaction that enqueued mail). Every "now" comes from
/// `ctx.clock`. After a pass that claimed mail, GMs are told about undelivered mail
/// ([`undelivered::tell_gms`]). Returns when `shutdown` is set; a send in progress is finished
/// first, so a lease is never left behind by a clean shutdown. Errors of a pass are logged and
/// the loop goes on.
///
/// While mail waits for an unreachable server and nothing is due, the server is probed every
/// [`PROBE_EVERY`] ([`probe_and_hurry`]), so mail goes out soon after it is back.
///
/// Once an hour (and at start) it empties the bodies of mail sent before the retention period
/// ([`retention::purge_sent`], RULING O9) and removes the drawings kept longer
/// ([`retention::purge_drawings`], RULING O27).
///
/// With [`Transport::Keep`] there is nothing to do: it only waits for `shutdown`.
pub async fn run_worker(ctx: Ctx, transport: Transport, tick: Duration, mut shutdown: Shutdown) {
    if matches!(transport, Transport::Keep) {
        tracing::info!("no SMTP server configured: mail stays in the outbox (dev mailbox)");
        shutdown.wait().await;
        return;
    }
    let tick = tick.max(Duration::from_millis(10));
    let mut probed = Instant::now();
    let mut purged: Option<Instant> = None;
    loop {
        if purged.is_none_or(|at| at.elapsed() >= PURGE_EVERY) {
            purged = Some(Instant::now());
            match retention::purge_sent(&ctx).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(mails = n, "bodies of sent mail emptied after the retention period"),
                Err(e) => tracing::error!(error = %format!("{e:#}"), "purging sent mail failed"),
            }
            match retention::purge_drawings(&ctx).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(drawings = n, "drawings removed after the retention period"),
                Err(e) => tracing::error!(error = %format!("{e:#}"), "removing old drawings failed"),
            }
        }
        let pause = match pass(&ctx, &transport, &mut probed).await {
            // A full batch, or mail made due at once, means more is due: go again at once.
            Ok(true) => Duration::ZERO,
            Ok(false) => tick,
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "mail delivery pass failed");
                tick
            }
        };
        tokio::select! {
            biased;
            () = shutdown.wait() => break,
            () = ctx.mail_wake.notified() => {}
            () = tokio::time::sleep(pause) => {}
        }
    }
    tracing::info!("mail worker stopped");
}

/// How often an unreachable SMTP server is asked whether it is back (RULING O1).
pub const PROBE_EVERY: Duration = Duration::from_secs(60);

/// One delivery pass; returns whether more mail may be due at once. It sends four batches at
/// once, each on its own SMTP connection (issue 38): a mail waits for the SMTP server's answers
/// and for its pictures, so one batch after the other left the CPU idle while a deadline's
/// reports queued (docs/BENCHMARKS.md, "Pictures at scale"). Each batch is claimed under its own
/// lease, so no mail is sent twice (RULINGS O4, O8).
async fn pass(ctx: &Ctx, transport: &Transport, probed: &mut Instant) -> anyhow::Result<bool> {
    let batch = || deliver_due_at(ctx, transport, &ctx.clock, Leasing::default());
    let (a, b, c, d) = tokio::join!(batch(), batch(), batch(), batch());
    let mut stats = DeliveryStats::default();
    for s in [a, b, c, d] {
        let s = s.context("delivering due mail")?;
        stats.claimed += s.claimed;
        stats.sent += s.sent;
        stats.retrying += s.retrying;
        stats.given_up += s.given_up;
        stats.hurried += s.hurried;
    }
    if stats.claimed == 0 && probed.elapsed() >= PROBE_EVERY {
        *probed = Instant::now();
        let hurried =
            probe_and_hurry(&ctx.pool, transport, &ctx.clock).await.context("probing the SMTP server")?;
        return Ok(hurried > 0);
    }
    if stats.claimed > 0 {
        tracing::debug!(
            claimed = stats.claimed,
            sent = stats.sent,
            retrying = stats.retrying,
            given_up = stats.given_up,
            hurried = stats.hurried,
            "mail delivery pass"
        );
        let told = undelivered::tell_gms(ctx).await.context("telling GMs about undelivered mail")?;
        if told > 0 {
            tracing::info!(summaries = told, "GMs told about undelivered mail");
        }
    }
    Ok(stats.claimed as i64 >= BATCH_SIZE || stats.hurried > 0)
}
