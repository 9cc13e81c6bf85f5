//! `stationmaster serve`: the web server with the background workers beside it (scheduler, outbox
//! worker, webhook worker, IMAP poller, ingest socket, the metrics listener when asked for), all on
//! one context and one shutdown signal.

use crate::clock::Clock;
use crate::config::Settings;
use crate::service::{Ctx, Shutdown};
use anyhow::Context;
use std::time::Duration;

/// Connects (creating and migrating the database if needed) and builds the service context.
pub async fn connect(settings: Settings) -> anyhow::Result<Ctx> {
    let pool =
        crate::store::connect_and_migrate(&settings.database_url, 20, crate::store::SERVER_DB_WAIT).await?;
    Ctx::new(pool, settings, Clock::system()).await
}

/// Runs until ctrl-c. Every background worker — scheduler, outbox worker, IMAP poller, ingest
/// socket — is started the same way: a clone of the one `Ctx` (its clock the only "now") and a
/// clone of the one [`Shutdown`], set once the web server has stopped.
pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    let listener = tokio::net::TcpListener::bind(&ctx.settings.bind)
        .await
        .with_context(|| format!("cannot listen on {}", ctx.settings.bind))?;
    let tick = Duration::from_secs(ctx.settings.tick_secs.max(1));
    let (switch, shutdown) = Shutdown::new();
    let mut workers = tokio::task::JoinSet::new();

    if let Some(addr) = ctx.settings.web.metrics_addr() {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen for metrics on {addr}"))?;
        tracing::info!(metrics = %addr, "serving /metrics");
        workers.spawn(crate::web::serve_metrics(
            ctx.clone(),
            crate::metrics::install()?,
            listener,
            shutdown.clone(),
        ));
    }
    workers.spawn(crate::scheduler::run(ctx.clone(), tick, shutdown.clone()));
    let transport = crate::mail::Transport::from_settings(&ctx.settings)?;
    if ctx.settings.smtp_url.as_deref().is_some_and(|u| !u.trim().is_empty()) {
        warn_of_backlog(&ctx).await;
    }
    workers.spawn(crate::mail::run_worker(ctx.clone(), transport, tick, shutdown.clone()));
    workers.spawn(crate::webhook::run_worker(ctx.clone(), tick, shutdown.clone()));
    if let Some(url) = ctx.settings.imap_url.as_deref().filter(|u| !u.trim().is_empty()) {
        let cfg = crate::mail::imap::ImapConfig::parse(url)?;
        tracing::info!(mailbox = ?cfg, "polling IMAP for order mail");
        let every = Duration::from_secs(ctx.settings.imap_poll_secs.max(5));
        workers.spawn(crate::mail::imap::run_poller(ctx.clone(), cfg, every, shutdown.clone()));
    }
    let socket = match ctx.settings.ingest_socket() {
        Some(path) => match crate::mail::handoff::bind(&path).await {
            Ok(listener) => {
                tracing::info!(socket = %path.display(), "taking order mail from `mail ingest` on the ingest socket");
                workers.spawn(crate::mail::handoff::serve(ctx.clone(), listener, shutdown.clone()));
                Some(path)
            }
            // RULING O8: a second instance of this database on this machine leaves it to the first.
            Err(e) => {
                tracing::warn!(
                    socket = %path.display(),
                    error = %e,
                    "no ingest socket: `mail ingest` will store order mail in the database itself"
                );
                None
            }
        },
        None => None,
    };
    if ctx.settings.dev_mailbox_page() {
        tracing::warn!(
            "no SMTP server configured: mail stays in the outbox; read it at {}/dev/mailbox",
            ctx.settings.base()
        );
    } else if ctx.settings.dev_mailbox() {
        tracing::warn!(
            "no SMTP server configured: mail stays in the outbox (start with --dev-mailbox on a loopback \
             address to read it at /dev/mailbox)"
        );
    }
    tracing::info!(bind = %ctx.settings.bind, base_url = ctx.settings.base(), "Stationmaster is serving");
    println!(
        "Stationmaster is serving on http://{} (public base URL {})",
        ctx.settings.bind,
        ctx.settings.base()
    );
    let served = crate::web::serve(ctx, listener).await;
    switch.stop();
    while workers.join_next().await.is_some() {}
    if let Some(path) = socket {
        let _ = std::fs::remove_file(path);
    }
    served
}

/// Says, once at start with an SMTP server, how much mail queued before (e.g. while the database
/// was used with the dev mailbox, which sends nothing) is about to go out, and how to stop it.
async fn warn_of_backlog(ctx: &Ctx) {
    match crate::service::undelivered::backlog(ctx).await {
        Ok((count, Some(since))) if count > 0 => tracing::warn!(
            unsent = count,
            oldest = %since,
            "mail queued and never sent goes out now; `stationmaster mail backlog --drop` gives it up"
        ),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "cannot count the mail waiting to be sent"),
    }
}
