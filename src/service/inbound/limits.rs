//! Inbound mail under flood: what a stranger's mail may cost. Refusals of mail that is not a
//! seat's own (a forged reply address or token, another sender, failed authentication) are
//! answered at most once per seat and [`NOTICE_PERIOD`], the next notice counting what was
//! refused since (RULING M2). Mail for no seat is kept only up to a bound per sender and overall;
//! beyond it, it is not kept, and its sender is told at most once per period, with at most
//! [`UNROUTED_NOTICES`] such notices per period in all (RULING M4). A mail to a seat's valid
//! signed address from its player is never judged by what others sent (RULING M1).

use super::decided::Decided;
use super::reply::NOTHING_CHANGED;
use super::route::Routed;
use crate::domain::Notice;
use crate::inbound_mail::ParsedMail;
use crate::service::notices::OutgoingMail;
use crate::service::{Ctx, ServiceError};
use crate::store;
use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;

/// The period of every flood limit: one notice per seat, the bound on mail for no seat.
pub const NOTICE_PERIOD: Duration = Duration::hours(1);
/// Mails for no seat kept per sender and period.
pub const UNROUTED_PER_SENDER: i64 = 20;
/// Bytes of mail for no seat kept per sender and period.
pub const UNROUTED_BYTES_PER_SENDER: i64 = 4 * 1024 * 1024;
/// Mails for no seat kept per period, from all senders.
pub const UNROUTED_PER_PERIOD: i64 = 1000;
/// Bytes of mail for no seat kept per period, from all senders.
pub const UNROUTED_BYTES_PER_PERIOD: i64 = 64 * 1024 * 1024;
/// Notices about refused mail for no seat per period, to all senders.
pub const UNROUTED_NOTICES: i64 = 20;

/// Refuses mail that names a seat but is not its player's own. The seat's player (never the
/// sender) is told, unless he was told of such a mail less than [`NOTICE_PERIOD`] ago; the
/// notice then counts the refusals withheld since the last one. Under a flood nearly every
/// refusal is withheld, which needs no lock (a notice already sent stays sent); a notice is only
/// decided on under the seat's lock, so two at once cannot both go out.
pub(super) async fn refuse_stranger(
    ctx: &Ctx,
    tx: &mut PgConnection,
    seat: Routed,
    outcome: String,
    why: String,
) -> Result<Decided, ServiceError> {
    let (game, n) = (seat.auth.game, seat.auth.seat);
    let recent = |last: Option<DateTime<Utc>>| last.is_some_and(|at| at > ctx.now() - NOTICE_PERIOD);
    let store::inbound::SeatNotices { last_sent: mut last, mut withheld } =
        store::inbound::seat_notices(tx, game, n).await?;
    if !recent(last) {
        store::inbound::lock_seat(tx, game, n).await?;
        store::inbound::SeatNotices { last_sent: last, withheld } =
            store::inbound::seat_notices(tx, game, n).await?;
    }
    if recent(last) {
        let mut d = Decided::refused(
            seat,
            format!("{outcome}; not answered (the player was told of a refused mail less than an hour ago)"),
            Vec::new(),
        );
        d.sections.clear();
        d.notice = Some(Notice::Withheld);
        return Ok(d);
    }
    let mut lines = vec![why, NOTHING_CHANGED.into()];
    if withheld > 0 {
        lines.push(withheld_words(withheld, last));
    }
    let mut d = Decided::refused(seat, outcome, lines);
    d.notice = Some(Notice::Sent);
    Ok(d)
}

/// The summary of refusals that were not answered one by one.
fn withheld_words(n: i64, since: Option<DateTime<Utc>>) -> String {
    let since = since.map_or(String::new(), |t| format!(" since {}", t.format("%Y-%m-%d %H:%M UTC")));
    format!(
        "{n} more mail{} naming your seat {} refused{since} for the same kind of reason; we tell you of such \
         mail at most once an hour. Nothing was changed by {}. Your GM can see each of them on the dashboard.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "was" } else { "were" },
        if n == 1 { "it" } else { "them" },
    )
}

/// What becomes of a mail for no seat.
pub(super) enum Unrouted {
    /// Within the bound: kept as it is.
    Keep,
    /// Over the bound: its bytes are not kept; answered once per period (this answer), else
    /// forgotten entirely.
    Refuse(Option<Box<OutgoingMail>>),
}

/// Decides whether a mail for no seat may be kept. Keeping and answering are decided under a
/// lock shared by every such decision, so concurrent mail cannot overshoot the bound or send two
/// notices; a mail over the bound whose sender was already told (the bulk of a flood) is refused
/// without it (what is kept and sent only grows, so the refusal stays right).
pub(super) async fn unrouted(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &store::inbound::InboundRow,
    mail: &ParsedMail,
) -> Result<Unrouted, ServiceError> {
    let sender = mail.from.clone().or_else(|| row.envelope_from.clone()).unwrap_or_default().to_lowercase();
    let bytes = i64::try_from(row.raw.len()).unwrap_or(i64::MAX);
    let since = ctx.now() - NOTICE_PERIOD;
    let mut used = store::inbound::unrouted_use(tx, &sender, since).await?;
    if within_bound(&used, bytes) || may_answer(&used, mail).is_some() {
        store::inbound::lock_unrouted(tx).await?;
        used = store::inbound::unrouted_use(tx, &sender, since).await?;
    }
    if within_bound(&used, bytes) {
        return Ok(Unrouted::Keep);
    }
    Ok(Unrouted::Refuse(may_answer(&used, mail).map(|to| Box::new(unrouted_notice(ctx, row.id, to)))))
}

/// Whether a mail of `bytes` may still be kept.
fn within_bound(used: &store::inbound::UnroutedUse, bytes: i64) -> bool {
    used.sender_count < UNROUTED_PER_SENDER
        && used.sender_bytes.saturating_add(bytes) <= UNROUTED_BYTES_PER_SENDER
        && used.count < UNROUTED_PER_PERIOD
        && used.bytes.saturating_add(bytes) <= UNROUTED_BYTES_PER_PERIOD
}

/// The address a refused mail for no seat is answered at: its From, unless told this period
/// already or the period's notices are used up.
fn may_answer<'a>(used: &store::inbound::UnroutedUse, mail: &'a ParsedMail) -> Option<&'a str> {
    mail.from
        .as_deref()
        .filter(|to| !used.sender_noticed && used.notices < UNROUTED_NOTICES && to.contains('@'))
}

/// The one notice per period to a sender whose mail for no seat is no longer kept. It repeats
/// nothing of the mail (no subject, no text), so it cannot carry anyone's spam.
fn unrouted_notice(ctx: &Ctx, id: i64, to: &str) -> OutgoingMail {
    let domain = ctx.settings.reply_domain();
    let lines = [
        format!("Mail from your address to {domain} is not being read: it was not sent to a seat's reply address and had no ORDERS line, and we keep only a few such mails an hour."),
        "To send orders, reply to a mail Stationmaster sent you about your game (its reply address is your seat's own), or start the mail with the line ORDERS <game> <seat> <token>.".into(),
        "You will not hear from us about further such mail this hour.".into(),
    ];
    let html = lines.iter().map(|l| format!("<p>{}</p>", escape_html(l))).collect::<String>();
    OutgoingMail {
        key: format!("inbound-unrouted:{id}"),
        kind: "inbound-refusal",
        game_id: None,
        to_addr: to.to_string(),
        to_name: None,
        subject: format!("Your mail to {domain} was not read"),
        text: lines.join("\n\n"),
        html,
        reply_to: None,
        in_reply_to: None,
        calendar: None,
    }
}

/// Escapes text for HTML (the notice holds our words and the reply domain only).
fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::inbound::UnroutedUse;

    #[test]
    fn the_bound_on_mail_for_no_seat_counts_mails_and_bytes_per_sender_and_overall() {
        let used = |sender_count, sender_bytes, count, bytes| UnroutedUse {
            sender_count,
            sender_bytes,
            count,
            bytes,
            ..UnroutedUse::default()
        };
        assert!(within_bound(&used(19, 0, 999, 0), 1000));
        assert!(!within_bound(&used(UNROUTED_PER_SENDER, 0, 0, 0), 1));
        assert!(!within_bound(&used(0, UNROUTED_BYTES_PER_SENDER - 10, 0, 0), 11));
        assert!(!within_bound(&used(0, 0, UNROUTED_PER_PERIOD, 0), 1));
        assert!(!within_bound(&used(0, 0, 0, UNROUTED_BYTES_PER_PERIOD), 1));
        assert!(within_bound(&used(0, 0, 0, UNROUTED_BYTES_PER_PERIOD - 1), 1));
    }
}
