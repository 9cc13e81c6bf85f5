//! Emptying the bodies of sent mail once the retention period is over (RULING O9): the text,
//! HTML and calendar of a mail sent more than `STATIONMASTER_MAIL_KEEP_DAYS` days ago are
//! dropped; the row itself (recipient, subject, when it went out, its idempotency key) stays, so
//! the same mail is never queued twice. Mail not sent keeps its body for a re-send. The mail
//! worker runs the purge once an hour.

use std::time::Duration;

use anyhow::Context;
use chrono::TimeDelta;

use crate::service::Ctx;
use crate::store::outbox;

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
