//! Delivering due outbox rows: the MIME message built from a row, the send, and the retry
//! rule. See the module header of [`crate::mail`] for the outbox design.

use anyhow::{Context, bail};
use chrono::{DateTime, TimeDelta, Utc};
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use sqlx::PgPool;

use crate::store::outbox::{self, OutboxRow};

pub use super::transport::Transport;

/// After this many attempts a mail is no longer retried; it stays unsent with its `last_error`.
pub const MAX_ATTEMPTS: i32 = 10;
/// The wait after the first failed attempt; it doubles with every further failure.
pub const FIRST_RETRY_DELAY: TimeDelta = TimeDelta::seconds(30);
/// The longest wait between two attempts.
pub const MAX_RETRY_DELAY: TimeDelta = TimeDelta::hours(1);
/// How long a claimed batch is reserved for one worker. It must outlast sending a whole batch;
/// the batch stops trying once the server is unreachable, so one timeout is the usual worst case.
pub const LEASE: TimeDelta = TimeDelta::minutes(10);
/// How many mails one pass claims at most.
pub const BATCH_SIZE: i64 = 10;
/// How far in the future a mail that is given up is parked (the column is `NOT NULL`).
const GIVEN_UP_FOR: TimeDelta = TimeDelta::days(100 * 365);

/// What one call of [`deliver_due`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeliveryStats {
    /// Mails claimed from the outbox.
    pub claimed: usize,
    /// Mails accepted by the SMTP server.
    pub sent: usize,
    /// Mails that failed and will be tried again later.
    pub retrying: usize,
    /// Mails that failed for good (unbuildable, or out of attempts).
    pub given_up: usize,
}

/// Builds the MIME message for an outbox row: From, To (with name), Subject, our own
/// Message-ID (stable for the row, so a resend after a crash is recognisable as the same mail),
/// In-Reply-To and References when the row answers a mail, and either `multipart/alternative`
/// (text and HTML) or a single UTF-8 `text/plain` part.
///
/// Fails, without panicking, when an address or message id is malformed.
pub fn build_message(row: &OutboxRow, from: &str) -> anyhow::Result<Message> {
    let from: Mailbox = from.trim().parse().context("the From mailbox is invalid")?;
    let address: Address = row
        .to_addr
        .trim()
        .parse()
        .with_context(|| format!("the To address of a mail to {} is invalid", domain_of(&row.to_addr)))?;
    let name = row.to_name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    let to = Mailbox::new(name.map(str::to_string), address);

    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(row.subject.as_str())
        .message_id(Some(angle_id(&row.message_id).context("the Message-ID is invalid")?));
    if let Some(parent) = row.in_reply_to.as_deref().filter(|p| !p.trim().is_empty()) {
        let parent = angle_id(parent).context("the In-Reply-To id is invalid")?;
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    if let Some(reply_to) = row.reply_to.as_deref().filter(|r| !r.trim().is_empty()) {
        let reply_to: Mailbox = reply_to.trim().parse().context("the Reply-To address is invalid")?;
        builder = builder.reply_to(reply_to);
    }
    let body = match &row.body_html {
        Some(html) => MultiPart::alternative_plain_html(row.body_text.clone(), html.clone()),
        None => MultiPart::mixed().singlepart(SinglePart::plain(row.body_text.clone())),
    };
    let message = match (&row.calendar, &row.body_html) {
        // A deadline mail: the body, then the event as an .ics attachment calendars import.
        (Some(ics), _) => builder.multipart(
            MultiPart::mixed().multipart(body).singlepart(
                Attachment::new("deadline.ics".to_string())
                    .body(ics.clone(), ContentType::parse("text/calendar; charset=utf-8; method=PUBLISH")?),
            ),
        ),
        (None, Some(_)) => builder.multipart(body),
        (None, None) => builder.singlepart(SinglePart::plain(row.body_text.clone())),
    };
    message.context("cannot assemble the message")
}

/// A message id in angle brackets; accepts it with or without them. Rejects anything that is not
/// `left@right` in printable ASCII, so no header can be smuggled in.
fn angle_id(id: &str) -> anyhow::Result<String> {
    let bare = id.trim().trim_start_matches('<').trim_end_matches('>');
    let printable = bare.chars().all(|c| c.is_ascii_graphic() && c != '<' && c != '>');
    match bare.split_once('@') {
        Some((left, right)) if printable && !left.is_empty() && !right.is_empty() => Ok(format!("<{bare}>")),
        _ => bail!("\"{}\" is not of the form left@right", bare.escape_default()),
    }
}

/// When to try a mail again after its `attempts`-th attempt failed at `now`: 30 s, 1 min, 2 min,
/// … capped at one hour; `None` once [`MAX_ATTEMPTS`] attempts have been made.
pub fn retry_at(now: DateTime<Utc>, attempts: i32) -> Option<DateTime<Utc>> {
    if attempts >= MAX_ATTEMPTS {
        return None;
    }
    let doublings = attempts.clamp(1, 20) - 1;
    let delay =
        FIRST_RETRY_DELAY.checked_mul(1 << doublings).map_or(MAX_RETRY_DELAY, |d| d.min(MAX_RETRY_DELAY));
    Some(now + delay)
}

/// The result of trying to send one row.
enum Attempt {
    Sent,
    /// The server refused or could not be reached; `unreachable` when no SMTP reply came at all.
    Failed {
        error: String,
        unreachable: bool,
    },
    /// The row cannot become a message; retrying would not help.
    Unsendable(String),
}

async fn attempt(smtp: &AsyncSmtpTransport<Tokio1Executor>, row: &OutboxRow, from: &str) -> Attempt {
    let message = match build_message(row, from) {
        Ok(m) => m,
        Err(e) => return Attempt::Unsendable(format!("{e:#}")),
    };
    match smtp.send(message).await {
        Ok(_) => Attempt::Sent,
        Err(e) => Attempt::Failed {
            error: e.to_string(),
            unreachable: e.status().is_none() && !e.is_client() && !e.is_response(),
        },
    }
}

/// Delivers the mail that is due at `now`: claims one batch (a single short statement), sends
/// each mail, and marks it sent, or failed with a backoff ([`retry_at`]). Once the server turns
/// out to be unreachable, the rest of the batch is not tried and gets the same error and backoff.
/// With [`Transport::Keep`] it does nothing.
///
/// Errors only for database trouble or an invalid `from`; SMTP failures are recorded on the rows.
pub async fn deliver_due(
    pool: &PgPool,
    transport: &Transport,
    from: &str,
    now: DateTime<Utc>,
) -> anyhow::Result<DeliveryStats> {
    let Transport::Smtp(smtp) = transport else {
        return Ok(DeliveryStats::default());
    };
    from.trim().parse::<Mailbox>().context("the From mailbox is invalid; no mail was claimed")?;

    let rows = {
        let mut conn = pool.acquire().await.context("cannot get a database connection to claim mail")?;
        outbox::claim_due(&mut conn, now, LEASE, BATCH_SIZE).await.context("cannot claim due mail")?
    };
    let mut stats = DeliveryStats { claimed: rows.len(), ..DeliveryStats::default() };
    let mut server_down: Option<String> = None;

    for row in &rows {
        let result = match &server_down {
            Some(error) => Attempt::Failed {
                error: format!("not tried, the SMTP server was unreachable: {error}"),
                unreachable: true,
            },
            None => attempt(smtp, row, from).await,
        };
        let domain = domain_of(&row.to_addr);
        let mut conn = pool.acquire().await.context("cannot get a database connection to record delivery")?;
        match result {
            Attempt::Sent => {
                outbox::mark_sent(&mut conn, row.id, now)
                    .await
                    .with_context(|| format!("mail {} was sent but could not be marked sent", row.id))?;
                stats.sent += 1;
                tracing::info!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, "mail sent");
            }
            Attempt::Failed { error, unreachable } => {
                let logged = scrub(&error, &row.to_addr);
                let next = retry_at(now, row.attempts);
                outbox::mark_failed(&mut conn, row.id, now, &error, next.unwrap_or(now + GIVEN_UP_FOR))
                    .await
                    .with_context(|| format!("cannot record the failed delivery of mail {}", row.id))?;
                match next {
                    Some(next) => {
                        stats.retrying += 1;
                        tracing::warn!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, retry_at = %next, error = %logged, "mail not sent; will retry");
                    }
                    None => {
                        stats.given_up += 1;
                        tracing::error!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, attempt = row.attempts, error = %logged, "mail not sent; giving up after {MAX_ATTEMPTS} attempts");
                    }
                }
                if unreachable && server_down.is_none() {
                    server_down = Some(logged);
                }
            }
            Attempt::Unsendable(error) => {
                outbox::mark_failed(&mut conn, row.id, now, &error, now + GIVEN_UP_FOR)
                    .await
                    .with_context(|| format!("cannot record the failed delivery of mail {}", row.id))?;
                stats.given_up += 1;
                tracing::error!(mail.id = row.id, mail.kind = %row.kind, mail.domain = %domain, error = %scrub(&error, &row.to_addr), "mail cannot be built; giving up");
            }
        }
    }
    Ok(stats)
}

/// The domain part of an address, the only part of it we log.
fn domain_of(addr: &str) -> &str {
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

    fn row() -> OutboxRow {
        OutboxRow {
            id: 7,
            idempotency_key: "report:g:3:1".into(),
            game_id: None,
            kind: "report".into(),
            to_addr: "anna@example.org".into(),
            to_name: Some("Anna Ämmälä".into()),
            subject: "Turn 3 report".into(),
            body_text: "Plain report\nline two".into(),
            body_html: Some("<p>HTML report</p>".into()),
            message_id: "turn-3.seat-1.abc@stationmaster.test".into(),
            in_reply_to: Some("<orders-42@example.org>".into()),
            reply_to: Some("orders+abc.def@example.org".into()),
            calendar: None,
            created_at: Utc::now(),
            attempts: 0,
            next_attempt_at: Utc::now(),
            sent_at: None,
            last_error: None,
        }
    }

    fn formatted(row: &OutboxRow) -> String {
        let message = build_message(row, "Stationmaster <gm@stationmaster.test>").expect("builds");
        String::from_utf8(message.formatted()).expect("utf-8")
    }

    fn header_lines(text: &str) -> Vec<&str> {
        text.split("\r\n\r\n").next().unwrap_or_default().lines().collect()
    }

    #[test]
    fn a_message_carries_our_headers() {
        let text = formatted(&row());
        let headers = header_lines(&text);
        let has = |prefix: &str| headers.iter().any(|h| h.starts_with(prefix));
        assert!(has("From: Stationmaster <gm@stationmaster.test>"), "{text}");
        assert!(has("To: ") && text.contains("<anna@example.org>"), "{text}");
        assert!(has("Subject: Turn 3 report"), "{text}");
        assert!(has("Message-ID: <turn-3.seat-1.abc@stationmaster.test>"), "{text}");
        assert!(has("In-Reply-To: <orders-42@example.org>"), "{text}");
        assert!(has("References: <orders-42@example.org>"), "{text}");
        assert!(has("Date: "), "{text}");
    }

    #[test]
    fn text_and_html_make_a_multipart_alternative() {
        let text = formatted(&row());
        assert!(text.contains("Content-Type: multipart/alternative;"), "{text}");
        let plain = text.find("Content-Type: text/plain; charset=utf-8").expect("plain part");
        let html = text.find("Content-Type: text/html; charset=utf-8").expect("html part");
        assert!(plain < html, "the plain part comes first");
        assert!(text.contains("Plain report") && text.contains("<p>HTML report</p>"), "{text}");
    }

    #[test]
    fn text_only_is_a_single_plain_part() {
        let mut r = row();
        r.body_html = None;
        r.in_reply_to = None;
        let text = formatted(&r);
        assert!(text.contains("Content-Type: text/plain; charset=utf-8"), "{text}");
        assert!(!text.contains("multipart"), "{text}");
        assert!(!text.contains("In-Reply-To") && !text.contains("References"), "{text}");
    }

    #[test]
    fn a_deadline_calendar_travels_as_an_ics_attachment_after_the_body() {
        let mut r = row();
        r.calendar = Some("BEGIN:VCALENDAR\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n".into());
        let text = formatted(&r);
        assert!(text.contains("Content-Type: multipart/mixed;"), "{text}");
        let body = text.find("Content-Type: multipart/alternative;").expect("the body alternatives");
        let ics =
            text.find("Content-Type: text/calendar; charset=utf-8; method=PUBLISH").expect("the calendar");
        assert!(body < ics, "{text}");
        assert!(text.contains("filename=\"deadline.ics\""), "{text}");
    }

    #[test]
    fn bad_addresses_and_ids_are_errors_not_panics() {
        let mut r = row();
        r.to_addr = "not an address".into();
        assert!(build_message(&r, "gm@stationmaster.test").is_err());
        assert!(build_message(&row(), "no mailbox here").is_err());
        let mut r = row();
        r.message_id = "x@y>\r\nBcc: evil@example.org".into();
        assert!(build_message(&r, "gm@stationmaster.test").is_err());
        let mut r = row();
        r.in_reply_to = Some("no-at-sign".into());
        assert!(build_message(&r, "gm@stationmaster.test").is_err());
    }

    #[test]
    fn retries_back_off_exponentially_up_to_an_hour_then_stop() {
        let now = Utc::now();
        let wait = |n| retry_at(now, n).map(|t| (t - now).num_seconds());
        assert_eq!(wait(1), Some(30));
        assert_eq!(wait(2), Some(60));
        assert_eq!(wait(3), Some(120));
        assert_eq!(wait(8), Some(3600));
        assert_eq!(wait(9), Some(3600));
        assert_eq!(wait(MAX_ATTEMPTS), None);
    }

    #[test]
    fn logs_show_only_the_domain_of_an_address() {
        assert_eq!(domain_of("Anna@Example.org"), "Example.org");
        let said = scrub("550 <anna@example.org> unknown", "anna@example.org");
        assert_eq!(said, "550 <…@example.org> unknown");
    }
}
