//! Emptying the bodies of sent mail once the retention period is over (RULING O9): the text,
//! HTML and calendar of a mail sent more than `STATIONMASTER_MAIL_KEEP_DAYS` days ago are
//! dropped; the row itself (recipient, subject, when it went out, its idempotency key) stays, so
//! the same mail is never queued twice. Mail not sent keeps its body for a re-send. The mail
//! worker runs the purge once an hour.

use std::time::Duration;

use anyhow::Context;
use chrono::TimeDelta;

use crate::domain::GIVE_UP_AFTER;
use crate::service::Ctx;
use crate::store::{drawings, outbox};

/// How often the worker purges.
pub const PURGE_EVERY: Duration = Duration::from_secs(3600);
/// Rows emptied per statement, so no purge holds many row locks for long.
const BATCH: i64 = 500;

/// Empties the bodies of mail sent before the retention period (counted back from `ctx`'s
/// clock); returns how many.
pub async fn purge_sent(ctx: &Ctx) -> anyhow::Result<u64> {
    let now = ctx.now();
    let days = i64::try_from(ctx.settings.mail_keep_days).unwrap_or(i64::MAX);
    let keep = TimeDelta::try_days(days).unwrap_or(TimeDelta::MAX);
    let Some(before) = now.checked_sub_signed(keep) else { return Ok(0) };
    let mut conn = ctx.pool.acquire().await.context("cannot get a database connection to purge mail")?;
    let mut total = 0;
    loop {
        let n = outbox::purge_sent_bodies(&mut conn, before, now, BATCH)
            .await
            .context("cannot empty the bodies of sent mail")?;
        total += n;
        if n < BATCH as u64 {
            return Ok(total);
        }
    }
}

/// Removes the drawings kept longer than the retention period — and at least a day longer than
/// mail is retried ([`GIVE_UP_AFTER`]), so no mail still to be sent loses its picture (RULING
/// O27). A page that shows a removed drawing again keeps and renders it anew. Returns how many.
pub async fn purge_drawings(ctx: &Ctx) -> anyhow::Result<u64> {
    let now = ctx.now();
    let days = i64::try_from(ctx.settings.mail_keep_days).unwrap_or(i64::MAX);
    let keep = TimeDelta::try_days(days).unwrap_or(TimeDelta::MAX).max(GIVE_UP_AFTER + TimeDelta::days(1));
    let Some(before) = now.checked_sub_signed(keep) else { return Ok(0) };
    let mut conn = ctx.pool.acquire().await.context("cannot get a database connection to purge drawings")?;
    let mut total = 0;
    loop {
        let n =
            drawings::purge_before(&mut conn, before, BATCH).await.context("cannot remove old drawings")?;
        total += n;
        if n < BATCH as u64 {
            if total > 0 {
                // RULING O29: nothing held in memory outlives its drawing.
                ctx.forget_held_pngs();
            }
            return Ok(total);
        }
    }
}
