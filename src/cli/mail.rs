//! `stationmaster mail ingest`: the pipe an MTA (Postfix `pipe(8)`, Exim, OpenSMTPD `mda`)
//! delivers order mail to. The raw message is stored before anything reads it; the exit code
//! tells the MTA whether to forget the message (0) or to queue it and try again (75).

use super::serve::connect;
use crate::clock::Clock;
use crate::config::Settings;
use crate::mail::handoff;
use crate::service::{Ctx, inbound};
use std::io::{ErrorKind, Read};

/// sysexits.h EX_TEMPFAIL: the MTA keeps the message and retries later.
pub const EX_TEMPFAIL: i32 = 75;

/// Stores stdin as one message and returns the exit code. The message goes to the running
/// server over the ingest socket when one listens (no async runtime, no database connection in
/// this process); otherwise this process stores it in the database itself and processes it.
pub fn ingest(
    settings: Settings,
    sender: Option<String>,
    recipient: Option<String>,
    store_only: bool,
) -> i32 {
    let mut raw = Vec::new();
    // Read one byte past the limit, so an oversized message is recognised (and stored cut).
    let limit = (inbound::MAX_MAIL_BYTES + 1) as u64;
    if let Err(e) = std::io::stdin().take(limit).read_to_end(&mut raw) {
        eprintln!("stationmaster: cannot read the message from standard input: {e}");
        return EX_TEMPFAIL;
    }
    let frame = handoff::Frame { sender, recipient, raw };
    if let Some(path) = settings.ingest_socket() {
        match handoff::hand_off(path, &frame) {
            Ok(ingested) => {
                tracing::info!(
                    inbound.id = ingested.id,
                    new = ingested.new,
                    "inbound mail handed to the server"
                );
                return 0;
            }
            // The usual case without a server (no socket file, or a stale one): say nothing.
            Err(handoff::HandoffError::NoServer(e))
                if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::ConnectionRefused) => {}
            Err(e) => tracing::warn!(error = %e, "hand-off failed; storing the message directly"),
        }
    }
    // One connection on one thread is all a single message needs.
    match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt.block_on(store_directly(settings, frame, store_only)),
        Err(e) => {
            eprintln!("stationmaster: cannot start: {e}");
            EX_TEMPFAIL
        }
    }
}

/// Stores a message with a connection of its own, then (unless `store_only`) processes it.
async fn store_directly(settings: Settings, frame: handoff::Frame, store_only: bool) -> i32 {
    let pool = match crate::store::connect_and_migrate(&settings.database_url, 1).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("stationmaster: the database is not available, try again later: {e:#}");
            return EX_TEMPFAIL;
        }
    };
    let clock = Clock::system();
    let (sender, recipient, raw) = (frame.sender.as_deref(), frame.recipient.as_deref(), &frame.raw);
    let ingested = match inbound::ingest_raw(&pool, raw, "pipe", sender, recipient, clock.now()).await {
        Ok(i) => i,
        Err(e) => {
            eprintln!("stationmaster: the message could not be stored, try again later: {e}");
            return EX_TEMPFAIL;
        }
    };
    tracing::info!(inbound.id = ingested.id, new = ingested.new, bytes = raw.len(), "inbound mail stored");
    if ingested.new && !store_only {
        // Stored is what the MTA needs to hear; a processing failure is retried by the server.
        let processed = match Ctx::new(pool, settings, clock).await {
            Ok(ctx) => inbound::process_inbound(&ctx, ingested.id).await.map_err(anyhow::Error::from),
            Err(e) => Err(e),
        };
        if let Err(e) = processed {
            tracing::error!(inbound.id = ingested.id, error = %e, "processing failed; the server will retry");
        }
    }
    0
}

/// Processes every stored message still waiting.
pub async fn process(settings: Settings) -> anyhow::Result<()> {
    let ctx = connect(settings).await?;
    let mut total = 0;
    loop {
        let n = inbound::process_pending(&ctx, 100).await?;
        total += n;
        if n == 0 {
            break;
        }
    }
    println!("Processed {total} message(s).");
    Ok(())
}
