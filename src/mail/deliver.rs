//! Delivering due outbox rows: the send, the retry rule and the lease. The message itself is
//! built in [`super::message`]; see the module header of [`crate::mail`] for the outbox design.

use std::time::Duration;

use anyhow::Context;
use chrono::{DateTime, TimeDelta, Utc};
use lettre::message::Mailbox;
use lettre::transport::smtp::response::{Category, Severity};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use sqlx::PgPool;
use uuid::Uuid;

use crate::clock::Clock;
use crate::service::{Ctx, mail_secrets, pictures};
use crate::store::outbox::{self, FailureKind, OutboxRow};

pub use super::message::build_message;
pub use super::transport::Transport;

/// The wait after the first failed attempt; it doubles with every further failure.
pub const FIRST_RETRY_DELAY: TimeDelta = TimeDelta::seconds(30);
/// The longest wait between two attempts (RULING O1).
pub const MAX_RETRY_DELAY: TimeDelta = TimeDelta::minutes(30);
pub use crate::domain::GIVE_UP_AFTER;
/// How many mails one pass claims at most.
pub const BATCH_SIZE: i64 = 10;

/// The lease a worker takes on the mail it claims, and how often it renews the lease while it
/// sends (RULING O4). The lease only has to outlast one renewal period, so a worker that dies
/// leaves its mail to others within [`Leasing::lease`], however long its SMTP commands take.
#[derive(Debug, Clone, Copy)]
pub struct Leasing {
    pub lease: TimeDelta,
    pub renew_every: Duration,
}

impl Default for Leasing {
    fn default() -> Self {
        Leasing { lease: TimeDelta::seconds(30), renew_every: Duration::from_secs(10) }
    }
}

/// What one call of [`deliver_due`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryStats {
    /// Mails claimed from the outbox.
    pub claimed: usize,
    /// Mails accepted by the SMTP server.
    pub sent: usize,
    /// Mails that failed and will be tried again later.
    pub retrying: usize,
    /// Mails that failed for good (refused, unbuildable, or past the horizon).
    pub given_up: usize,
    /// Mails that waited for an outage and were made due at once because the server works again.
    pub hurried: u64,
}
/// When to try a mail again after its `attempts`-th attempt failed at `now`, the first failure
/// having been at `first_failed`: 30 s, 1 min, 2 min, … capped at [`MAX_RETRY_DELAY`], the last
/// attempt at the horizon [`GIVE_UP_AFTER`]; `None` once the horizon is reached (RULING O1).
pub fn retry_at(first_failed: DateTime<Utc>, now: DateTime<Utc>, attempts: i32) -> Option<DateTime<Utc>> {
    let horizon = first_failed + GIVE_UP_AFTER;
    if now >= horizon {
        return None;
    }
    let doublings = attempts.clamp(1, 20) - 1;
    let delay =
        FIRST_RETRY_DELAY.checked_mul(1 << doublings).map_or(MAX_RETRY_DELAY, |d| d.min(MAX_RETRY_DELAY));
    Some((now + delay).min(horizon))
}

/// How an SMTP error counts (RULING O2), by the first two digits of the reply code: a permanent
/// refusal in the mail-system class (55x: no such mailbox, not allowed, too big, refused
/// content) is about this mail and is not retried; any other reply — a temporary 4xx, a 5xx
/// about syntax or authentication, which says the server or our configuration is wrong rather
/// than the mail — defers it; no reply at all means the server is unreachable.
pub fn classify(code: Option<(u8, u8)>) -> FailureKind {
    match code {
        Some((5, 5)) => FailureKind::Refused,
        Some(_) => FailureKind::Deferred,
        None => FailureKind::Unreachable,
    }
}

/// The first two digits of an SMTP error's reply code, if the server replied.
fn reply_class(e: &lettre::transport::smtp::Error) -> Option<(u8, u8)> {
    e.status().map(|c| {
        let severity = match c.severity {
            Severity::PositiveCompletion => 2,
            Severity::PositiveIntermediate => 3,
            Severity::TransientNegativeCompletion => 4,
            Severity::PermanentNegativeCompletion => 5,
        };
        let category = match c.category {
            Category::Syntax => 0,
            Category::Information => 1,
            Category::Connections => 2,
            Category::Unspecified3 => 3,
            Category::Unspecified4 => 4,
            Category::MailSystem => 5,
        };
        (severity, category)
    })
}

/// The result of trying to send one row.
enum Attempt {
    Sent,
    /// The server refused or could not be reached. `stop` when the rest of the batch would fail
    /// the same way (no SMTP reply at all, or a 5xx that is not about this mail).
    Failed {
        error: String,
        kind: FailureKind,
        stop: bool,
    },
    /// The row cannot become a message; retrying would not help.
    Unsendable(String),
}

/// Sends one row, its placeholders filled (`row` is the mail as sent, RULING P8), with the PNGs
/// of the drawings it shows (rendered once per drawing and kept, RULING O24).
async fn attempt(
    ctx: &Ctx,
    smtp: &AsyncSmtpTransport<Tokio1Executor>,
    row: OutboxRow,
    from: &str,
) -> Attempt {
    let drawn = match pictures::pngs_in(ctx, row.body_html.as_deref().unwrap_or_default()).await {
        Ok(drawn) => drawn,
        Err(e) => {
            let error = format!("the mail's pictures could not be read: {e}");
            return Attempt::Failed { error, kind: FailureKind::Deferred, stop: false };
        }
    };
    // Building a message with its pictures encoded (and an old report's drawing rendered) is
    // CPU work: not on the async threads.
    let (owned, sender) = (row, from.to_string());
    let message = match tokio::task::spawn_blocking(move || build_message(&owned, &sender, &drawn)).await {
        Ok(Ok(m)) => m,
        Ok(Err(e)) => return Attempt::Unsendable(format!("{e:#}")),
        Err(e) => return Attempt::Unsendable(format!("building the message failed: {e}")),
    };
    match smtp.send(message).await {
        Ok(_) => Attempt::Sent,
        Err(e) => {
            let class = reply_class(&e);
            // A client-side error (e.g. TLS set-up) or an unreadable reply is no SMTP reply either,
            // but says nothing about the server being down.
            let kind = match classify(class) {
                FailureKind::Unreachable if e.is_client() || e.is_response() => FailureKind::Deferred,
                kind => kind,
            };
            let stop = kind == FailureKind::Unreachable
                || (kind == FailureKind::Deferred && class.is_some_and(|(s, _)| s == 5));
            Attempt::Failed { error: e.to_string(), kind, stop }
        }
    }
}

/// [`deliver_due_at`] with the time standing at `now` and the default lease.
pub async fn deliver_due(
    ctx: &Ctx,
    transport: &Transport,
    now: DateTime<Utc>,
) -> anyhow::Result<DeliveryStats> {
    deliver_due_at(ctx, transport, &Clock::fixed(now), Leasing::default()).await
}

/// Delivers the mail that is due: claims one batch (a single short statement) under a short
/// lease that is renewed while the batch is sent, sends each mail, and marks it sent at once —
/// on a connection taken before the send, in its own statement, so nothing stands between the
/// server's 250 and the mark (RULING O5) — or failed with a backoff ([`retry_at`]), or given up.
/// Once the server turns out to be unreachable, the rest of the batch is not tried and gets the
/// same error and backoff. After a mail went out, mail that waited for an outage is made due at
/// once. Every time comes from `clock`; the pool, the From address (`mail_from`) and the server
/// key that fills each mail's placeholders (RULING P8) from `ctx`. With [`Transport::Keep`] it
/// does nothing.
///
/// Errors only for database trouble or an invalid From; SMTP failures are recorded on the rows.
pub async fn deliver_due_at(
    ctx: &Ctx,
    transport: &Transport,
    clock: &Clock,
    leasing: Leasing,
) -> anyhow::Result<DeliveryStats> {
    let Transport::Smtp(smtp) = transport else {
        return Ok(DeliveryStats::default());
    };
    let (pool, from) = (&ctx.pool, ctx.settings.mail_from.as_str());
    from.trim().parse::<Mailbox>().context("the From mailbox is invalid; no mail was claimed")?;

    let owner = Uuid::new_v4();
    let rows = {
        let mut conn = pool.acquire().await.context("cannot get a database connection to claim mail")?;
        outbox::claim_due(&mut conn, clock.now(), leasing.lease, BATCH_SIZE, owner)
            .await
            .context("cannot claim due mail")?
    };
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let renew = async {
        loop {
            tokio::time::sleep(leasing.renew_every).await;
            let renewed = match pool.acquire().await {
                Ok(mut conn) => {
                    outbox::renew_lease(&mut conn, &ids, owner, clock.now() + leasing.lease).await
                }
                Err(e) => Err(e),
            };
            if let Err(e) = renewed {
                tracing::warn!(error = %e, "cannot renew the lease on the mail being sent");
            }
        }
    };
    let mut stats = DeliveryStats { claimed: rows.len(), ..DeliveryStats::default() };
    tokio::select! {
        biased;
        sent = send_batch(ctx, smtp, clock, &rows, &mut stats) => sent?,
        () = renew => {}
    }
    crate::metrics::outbox_attempts(stats.sent, stats.retrying, stats.given_up);
    if stats.sent > 0 {
        let mut conn = pool.acquire().await.context("cannot get a database connection")?;
        stats.hurried = outbox::hurry_after_outage(&mut conn, clock.now())
            .await
            .context("cannot make the mail that waited for the server due")?;
    }
    Ok(stats)
}

/// While mail waits for an unreachable server and nothing is due, asks the server whether it is
/// back (one connection, no mail); when it is, makes that mail due at once (RULING O1), so the
/// outbox catches up within one probe period of the server's return instead of at the end of
/// each mail's backoff. Returns how many mails were made due.
pub async fn probe_and_hurry(pool: &PgPool, transport: &Transport, clock: &Clock) -> anyhow::Result<u64> {
    let Transport::Smtp(smtp) = transport else {
        return Ok(0);
    };
    let mut conn = pool.acquire().await.context("cannot get a database connection")?;
    if !outbox::waits_for_server(&mut conn).await.context("cannot look for mail waiting for the server")? {
        return Ok(0);
    }
    drop(conn);
    if !matches!(smtp.test_connection().await, Ok(true)) {
        return Ok(0);
    }
    let mut conn = pool.acquire().await.context("cannot get a database connection")?;
    let hurried = outbox::hurry_after_outage(&mut conn, clock.now())
        .await
        .context("cannot make the mail that waited for the server due")?;
    if hurried > 0 {
        tracing::info!(mails = hurried, "the SMTP server is back: sending the mail that waited for it");
    }
    Ok(hurried)
}

/// Said of mail that waits for the key another process rotated to (RULING P6).
const KEY_NOT_HERE: &str =
    "not tried: the server key was rotated and this instance does not have the new key yet";

/// Sends the claimed rows one by one, each filled from the key ([`mail_secrets::as_sent`]), and
/// records each outcome. The key is checked after the claim: mail that `key rotate` queued is
/// claimed only once its new key's fingerprint is in the database, so it is never filled with
/// the old key; an instance that cannot find the new key leaves such mail for later.
async fn send_batch(
    ctx: &Ctx,
    smtp: &AsyncSmtpTransport<Tokio1Executor>,
    clock: &Clock,
    rows: &[OutboxRow],
    stats: &mut DeliveryStats,
) -> anyhow::Result<()> {
    let (pool, from) = (&ctx.pool, ctx.settings.mail_from.as_str());
    let key_ok =
        rows.is_empty() || mail_secrets::key_is_current(ctx).await.context("checking the server key")?;
    // Set once the server turns out to be unreachable, or to refuse every mail (a 5xx that is
    // not about one mail): the rest of the batch is not tried and counts the same way.
    let mut server_down: Option<(String, FailureKind)> = None;
    for row in rows {
        let mut conn = pool.acquire().await.context("cannot get a database connection to record delivery")?;
        let result = match &server_down {
            Some((error, kind)) => Attempt::Failed {
                error: match kind {
                    FailureKind::Unreachable => {
                        format!("not tried, the SMTP server was unreachable: {error}")
                    }
                    _ => format!("not tried, the SMTP server refused the mail before it: {error}"),
                },
                kind: *kind,
                stop: true,
            },
            None if !key_ok && mail_secrets::needs_key(row) => {
                Attempt::Failed { error: KEY_NOT_HERE.into(), kind: FailureKind::Deferred, stop: false }
            }
            None => attempt(ctx, smtp, mail_secrets::as_sent(ctx, row), from).await,
        };
        let domain = domain_of(&row.to_addr);
        match result {
            Attempt::Sent => {
                mark_sent(pool, &mut conn, row.id, clock.now()).await?;
                stats.sent += 1;
                tracing::info!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, "mail sent");
            }
            Attempt::Failed { error, kind, stop } => {
                let logged = scrub(&error, &row.to_addr);
                let now = clock.now();
                let next = match kind {
                    FailureKind::Unreachable | FailureKind::Deferred => {
                        retry_at(row.first_failed_at.unwrap_or(now), now, row.attempts)
                    }
                    FailureKind::Refused | FailureKind::Unsendable => None,
                };
                outbox::mark_failed(&mut conn, row.id, now, &error, kind, next)
                    .await
                    .with_context(|| format!("cannot record the failed delivery of mail {}", row.id))?;
                match next {
                    Some(next) => {
                        stats.retrying += 1;
                        tracing::warn!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, retry_at = %next, error = %logged, "mail not sent; will retry");
                    }
                    None => {
                        stats.given_up += 1;
                        tracing::error!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, failure = kind.as_str(), error = %logged, "mail not sent; giving up");
                    }
                }
                if stop && server_down.is_none() {
                    server_down = Some((logged, kind));
                }
            }
            Attempt::Unsendable(error) => {
                outbox::mark_failed(&mut conn, row.id, clock.now(), &error, FailureKind::Unsendable, None)
                    .await
                    .with_context(|| format!("cannot record the failed delivery of mail {}", row.id))?;
                stats.given_up += 1;
                tracing::error!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, error = %scrub(&error, &row.to_addr), "mail cannot be built; giving up");
            }
        }
    }
    Ok(())
}

/// Marks a mail sent on the connection taken before the send; if that connection broke while
/// the server was talking, once more on a fresh one.
async fn mark_sent(
    pool: &PgPool,
    conn: &mut sqlx::PgConnection,
    id: i64,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    if outbox::mark_sent(conn, id, now).await.is_ok() {
        return Ok(());
    }
    let mut fresh =
        pool.acquire().await.with_context(|| format!("mail {id} was sent but cannot be marked sent"))?;
    outbox::mark_sent(&mut fresh, id, now)
        .await
        .with_context(|| format!("mail {id} was sent but could not be marked sent"))?;
    Ok(())
}

/// The domain part of an address, the only part of it we log.
pub(super) fn domain_of(addr: &str) -> &str {
    addr.trim().rsplit_once('@').map_or("(no domain)", |(_, domain)| domain)
}

/// `text` with the full address replaced by its domain, for logs (servers echo recipients).
fn scrub(text: &str, addr: &str) -> String {
    let addr = addr.trim();
    if addr.is_empty() {
        return text.to_string();
    }
    let masked = format!("…@{}", domain_of(addr));
    text.replace(addr, &masked).replace(&addr.to_lowercase(), &masked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn retries_back_off_exponentially_up_to_half_an_hour_for_five_days_then_stop() {
        let first = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        let wait = |at: DateTime<Utc>, n| retry_at(first, at, n).map(|t| (t - at).num_seconds());
        assert_eq!(wait(first, 1), Some(30));
        assert_eq!(wait(first, 2), Some(60));
        assert_eq!(wait(first, 3), Some(120));
        assert_eq!(wait(first, 7), Some(1800));
        // Ten attempts (about three hours of outage) are nowhere near the end any more.
        let three_hours = first + TimeDelta::hours(3);
        assert_eq!(wait(three_hours, 10), Some(1800));
        assert_eq!(wait(first + TimeDelta::days(4), 200), Some(1800));
        // The last attempt lands on the horizon; after it, nothing.
        let almost = first + GIVE_UP_AFTER - TimeDelta::minutes(10);
        assert_eq!(wait(almost, 250), Some(600));
        assert_eq!(retry_at(first, first + GIVE_UP_AFTER, 251), None);
    }

    #[test]
    fn only_a_mail_system_refusal_is_permanent() {
        assert_eq!(classify(Some((5, 5))), FailureKind::Refused, "550 no such user, 554 refused");
        for deferred in [Some((4, 5)), Some((4, 2)), Some((5, 3)), Some((5, 0))] {
            assert_eq!(classify(deferred), FailureKind::Deferred, "{deferred:?}");
        }
        assert_eq!(classify(None), FailureKind::Unreachable);
    }

    #[test]
    fn logs_show_only_the_domain_of_an_address() {
        assert_eq!(domain_of("Anna@Example.org"), "Example.org");
        let said = scrub("550 <anna@example.org> unknown", "anna@example.org");
        assert_eq!(said, "550 <…@example.org> unknown");
    }
}
