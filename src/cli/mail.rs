//! `stationmaster mail ingest`: the pipe an MTA (Postfix `pipe(8)`, Exim, OpenSMTPD `mda`)
//! delivers order mail to. The raw message is stored before anything reads it; the exit code
//! tells the MTA whether to forget the message (0) or to queue it and try again (75).

use super::serve::connect;
use crate::clock::Clock;
use crate::config::Settings;
use crate::service::{Ctx, inbound};
use std::io::Read;

/// sysexits.h EX_TEMPFAIL: the MTA keeps the message and retries later.
pub const EX_TEMPFAIL: i32 = 75;

/// Stores stdin as one message and processes it; returns the exit code.
pub async fn ingest(
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
    let pool = match crate::store::connect_and_migrate(&settings.database_url, 2).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("stationmaster: the database is not available, try again later: {e:#}");
            return EX_TEMPFAIL;
        }
    };
    let clock = Clock::system();
    let stored =
        inbound::ingest_raw(&pool, &raw, "pipe", sender.as_deref(), recipient.as_deref(), clock.now()).await;
    let ingested = match stored {
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
