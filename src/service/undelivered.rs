//! Mail that did not go out, for the GM: the list on the dashboard, a re-send (dashboard button
//! or console, audit-logged), and one summary mail per GM once the SMTP server works again
//! (rulings O1–O3). Nothing here shows a mail's body: it may hold a seat's private hand.

use super::audit::{self, Actor};
use super::notices::{self, OutgoingMail, render};
use super::{Ctx, ServiceError, load_game};
use crate::domain::FailureKind;
use crate::domain::GameId;
use crate::store;
pub use crate::store::outbox::Undelivered;
use askama::Template;
use chrono::{DateTime, TimeDelta, Utc};
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// The outbox kind of the GM's summary mail (never listed in a summary itself).
pub const SUMMARY_KIND: &str = "gm-undelivered";
/// How long a mail must have been failing before its GM is told, unless the settings say
/// otherwise (`STATIONMASTER_MAIL_TELL_AFTER_SECS`; RULING O3): shorter hiccups are retried
/// without bothering anyone. Given-up mail is told at once.
pub const TELL_AFTER: TimeDelta = TimeDelta::minutes(15);
/// At most this many rows on the dashboard.
const DASHBOARD_LIMIT: i64 = 200;
/// Errors are cut to this many characters in the summary mail.
const ERROR_CHARS: usize = 300;

/// A game's undelivered mail, for its dashboard (the caller has checked the GM).
pub async fn of_game(conn: &mut PgConnection, game: GameId) -> Result<Vec<Undelivered>, ServiceError> {
    Ok(store::outbox::undelivered_of_game(conn, game, DASHBOARD_LIMIT).await?)
}

/// Queues a game's undelivered mail again — `only` that mail, or all of it — on behalf of its GM
/// `gm` (the console acts as "console"): the same row, so the same Message-ID; the retry horizon
/// starts over. Logged in the game's audit log. Errors when there is nothing to re-send.
pub async fn resend(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    only: Option<i64>,
) -> Result<Vec<Undelivered>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    load_game(&mut tx, game).await?;
    let rows = store::outbox::resend(&mut tx, game, only, now).await?;
    if rows.is_empty() {
        return Err(ServiceError::BadInput(match only {
            Some(id) => format!("game {game} has no undelivered mail {id} waiting to be re-sent"),
            None => format!("game {game} has no undelivered mail waiting to be re-sent"),
        }));
    }
    let mails: Vec<_> =
        rows.iter().map(|r| json!({"mail": r.id, "to": r.to_addr, "subject": r.subject})).collect();
    audit::record(&mut tx, now, game, Actor::Gm(gm), "mail re-sent", json!({ "mails": mails })).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(rows)
}

/// What the outbox holds that was never sent: how many mails, and since when.
pub async fn backlog(ctx: &Ctx) -> Result<(i64, Option<DateTime<Utc>>), ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    Ok(store::outbox::backlog(&mut conn).await?)
}

/// Gives up every mail still waiting (the operator's `mail backlog --drop`, before a database
/// filled through the dev mailbox gets an SMTP server), logged in each game's audit log; the GMs
/// are not mailed about it. Returns how many mails each game lost.
pub async fn drop_backlog(ctx: &Ctx, by: &str) -> Result<Vec<(Option<GameId>, i64)>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let dropped =
        store::outbox::drop_backlog(&mut tx, now, "dropped unsent by the operator (mail backlog --drop)")
            .await?;
    for (game, count) in &dropped {
        if let Some(game) = game {
            audit::record(
                &mut tx,
                now,
                *game,
                Actor::Gm(by),
                "unsent mail dropped",
                json!({ "mails": count }),
            )
            .await?;
        }
    }
    tx.commit().await?;
    Ok(dropped)
}

/// One line of the summary mail.
struct SummaryLine {
    game: String,
    to: String,
    subject: String,
    attempts: i32,
    error: String,
    since: String,
    state: String,
}

/// The summary mail to one GM.
struct Summary {
    lines: Vec<SummaryLine>,
    links: Vec<String>,
}

#[derive(Template)]
#[template(path = "mail/undelivered.txt")]
struct SummaryText<'a> {
    s: &'a Summary,
}

#[derive(Template)]
#[template(path = "mail/undelivered.html")]
struct SummaryHtml<'a> {
    s: &'a Summary,
}

fn stamp(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// What became of a mail, in words.
fn state_of(r: &Undelivered) -> String {
    match (r.sent_at, r.gave_up_at, r.failure) {
        (Some(sent), _, _) => format!("delivered late, at {}", stamp(sent)),
        (None, Some(_), Some(FailureKind::Refused)) => {
            "not delivered: the receiving server refused it".into()
        }
        (None, Some(_), Some(FailureKind::Unsendable)) => {
            "not delivered: it cannot be sent as it stands".into()
        }
        (None, Some(_), _) => {
            format!("not delivered: given up after {} days", crate::domain::GIVE_UP_AFTER.num_days())
        }
        (None, None, _) => format!("still waiting; next attempt at {}", stamp(r.next_attempt_at)),
    }
}

/// Tells each GM, in one mail, about their games' mail that failed (RULING O3): given up, or
/// failing for the configured delay ([`TELL_AFTER`] by default) and more — once the SMTP server has worked since (it accepted
/// another mail, or refused this one). Each mail is told about once: the rows are marked told in
/// the transaction that queues the summary, whose key is made from the rows it lists. Returns
/// how many summaries were queued.
pub async fn tell_gms(ctx: &Ctx) -> Result<usize, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let delay = i64::try_from(ctx.settings.mail_tell_after_secs)
        .ok()
        .and_then(TimeDelta::try_seconds)
        .unwrap_or(TELL_AFTER);
    let rows = store::outbox::take_untold(&mut tx, now, delay, SUMMARY_KIND).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let mut games: BTreeMap<GameId, (String, String)> = BTreeMap::new();
    let mut by_gm: BTreeMap<String, Vec<(GameId, &Undelivered)>> = BTreeMap::new();
    for r in &rows {
        let Some(game) = r.game_id else { continue };
        if let std::collections::btree_map::Entry::Vacant(slot) = games.entry(game) {
            let g = load_game(&mut tx, game).await?;
            slot.insert((g.name, g.gm_email.to_lowercase()));
        }
        let gm = games[&game].1.clone();
        by_gm.entry(gm).or_default().push((game, r));
    }
    for (gm, list) in &by_gm {
        let mut links: Vec<String> =
            list.iter().map(|(g, _)| format!("{}/gm/games/{g}", ctx.settings.base())).collect();
        links.sort();
        links.dedup();
        let summary = Summary {
            lines: list
                .iter()
                .map(|(g, r)| SummaryLine {
                    game: games[g].0.clone(),
                    to: r.to_addr.clone(),
                    subject: r.subject.clone(),
                    attempts: r.attempts,
                    error: r.last_error.as_deref().unwrap_or_default().chars().take(ERROR_CHARS).collect(),
                    since: r.first_failed_at.map(stamp).unwrap_or_default(),
                    state: state_of(r),
                })
                .collect(),
            links,
        };
        let ids: Vec<String> = list.iter().map(|(_, r)| r.id.to_string()).collect();
        let digest = Sha256::digest(format!("{gm}\n{}", ids.join(",")).as_bytes());
        let key = format!("{SUMMARY_KIND}:{}", &data_encoding::HEXLOWER.encode(&digest)[..32]);
        let mail = OutgoingMail {
            key,
            kind: SUMMARY_KIND,
            game_id: None,
            to_addr: gm.clone(),
            to_name: None,
            subject: format!("Stationmaster: {} mail(s) of your games did not go out in time", list.len()),
            text: render(&SummaryText { s: &summary })?,
            html: render(&SummaryHtml { s: &summary })?,
            reply_to: None,
            in_reply_to: None,
            calendar: None,
        };
        notices::queue(&mut tx, &ctx.settings, &mail).await?;
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(by_gm.len())
}
