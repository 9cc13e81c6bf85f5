//! `stationmaster serve`: the web server with the scheduler and the mail worker beside it.

use crate::clock::Clock;
use crate::config::Settings;
use crate::service::Ctx;
use anyhow::Context;
use std::time::Duration;

/// Connects (creating and migrating the database if needed) and builds the service context.
pub async fn connect(settings: Settings) -> anyhow::Result<Ctx> {
    let pool = crate::store::connect_and_migrate(&settings.database_url, 20).await?;
    Ctx::new(pool, settings, Clock::system()).await
}

/// Runs until ctrl-c.
pub async fn serve(settings: Settings) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    let listener = tokio::net::TcpListener::bind(&ctx.settings.bind)
        .await
        .with_context(|| format!("cannot listen on {}", ctx.settings.bind))?;
    let tick = Duration::from_secs(ctx.settings.tick_secs.max(1));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);

    let scheduler = tokio::spawn(crate::scheduler::run(ctx.clone(), tick, stop_rx.clone()));
    let transport = crate::mail::Transport::from_settings(&ctx.settings)?;
    let mut mail_stop = stop_rx.clone();
    let mailer = tokio::spawn(crate::mail::run_worker(ctx.clone(), transport, tick, async move {
        let _ = mail_stop.wait_for(|stop| *stop).await;
    }));
    let imap = match ctx.settings.imap_url.as_deref().filter(|u| !u.trim().is_empty()) {
        Some(url) => {
            let cfg = crate::mail::imap::ImapConfig::parse(url)?;
            tracing::info!(mailbox = ?cfg, "polling IMAP for order mail");
            let mut imap_stop = stop_rx.clone();
            Some(tokio::spawn(crate::mail::imap::run_poller(
                cfg,
                ctx.pool.clone(),
                Duration::from_secs(ctx.settings.imap_poll_secs.max(5)),
                ctx.turn_wake.clone(),
                async move {
                    let _ = imap_stop.wait_for(|stop| *stop).await;
                },
            )))
        }
        None => None,
    };
    let handoff = match ctx.settings.ingest_socket() {
        Some(path) => match crate::mail::handoff::bind(&path).await {
            Ok(listener) => {
                tracing::info!(socket = %path.display(), "taking order mail from `mail ingest` on the ingest socket");
                let mut handoff_stop = stop_rx.clone();
                Some(tokio::spawn(crate::mail::handoff::serve(listener, ctx.clone(), async move {
                    let _ = handoff_stop.wait_for(|stop| *stop).await;
                })))
            }
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
    let ctx_socket = handoff.as_ref().and(ctx.settings.ingest_socket());
    let served = crate::web::serve(ctx, listener).await;
    let _ = stop_tx.send(true);
    let _ = tokio::join!(scheduler, mailer);
    if let Some(imap) = imap {
        let _ = imap.await;
    }
    if let Some(handoff) = handoff {
        let _ = handoff.await;
        if let Some(path) = ctx_socket.as_deref() {
            let _ = std::fs::remove_file(path);
        }
    }
    served
}
