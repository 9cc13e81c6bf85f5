//! Orders by mail — the face of inbound mail. [`ingest`] is the one way mail comes in (the
//! ingest socket, the IMAP poller and a `mail ingest` that stores itself all call it): it stores
//! a batch of messages' raw bytes before anything reads them, in one transaction (so an MTA can
//! hand a message over and forget it once it is answered). [`process_inbound`] then reads one,
//! finds the seat (`route`: its signed reply address, or an `ORDERS <game> <seat> <token>`
//! line), checks the sender is the seat's registered address (`limits` for strangers and mail
//! for no seat), runs the mail's commands through the same functions as the web (`commands`),
//! records the outcome on the message and queues the answer (`reply`) — all in one transaction.
//! Answers go to the seat's registered address, never to the sender, threaded to the player's
//! mail. A mail that says only `GAMES` is answered with its sender's games instead (`games`,
//! RULINGS M26, M27), to the From address alone once it is authenticated like a seat's mail
//! (`authentic`). The steps share the [`decided::Decided`] they reach; none of them imports this face.

mod authentic;
mod commands;
mod decided;
mod games;
mod limits;
mod reply;
mod route;

use super::{Ctx, ServiceError};
use crate::domain::{GameId, InboundStatus, Notice};
use crate::engine::Seat;
use crate::inbound_mail::{MailCommands, ParsedMail};
use crate::store;
use crate::store::inbound::Outcome;
use chrono::Duration;
use decided::Decided;
use limits::Unrouted;
use route::{Route, Routed, route};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};

pub use limits::{
    NOTICE_PERIOD, UNROUTED_BYTES_PER_PERIOD, UNROUTED_BYTES_PER_SENDER, UNROUTED_NOTICES,
    UNROUTED_PER_PERIOD, UNROUTED_PER_SENDER,
};

/// The largest message accepted; larger ones are stored cut to this size and refused.
pub const MAX_MAIL_BYTES: usize = 2 * 1024 * 1024;
/// Order mails accepted per seat and turn.
pub const ORDER_MAILS_PER_TURN: i64 = 30;
/// [`MAX_MAIL_BYTES`] in words.
const CUT_AT: &str = "2 MiB";

/// A stored message: its row id, and whether it is new (false: the same bytes came before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ingested {
    pub id: i64,
    pub new: bool,
}

/// A message as it arrived, to store with [`ingest`]: its raw bytes, where it came from (`pipe`,
/// `imap`, …) and its envelope, when the MTA gave one.
#[derive(Debug, Clone, Copy)]
pub struct Arrived<'a> {
    pub raw: &'a [u8],
    pub source: &'a str,
    pub envelope_from: Option<&'a str>,
    pub envelope_to: Option<&'a str>,
}

impl<'a> Arrived<'a> {
    /// A message without an envelope (IMAP, tests); set the envelope fields when there is one.
    pub fn new(raw: &'a [u8], source: &'a str) -> Self {
        Arrived { raw, source, envelope_from: None, envelope_to: None }
    }
}

/// Stores messages as they arrived, in one transaction: one commit (one flush of the write-ahead
/// log) for all of them, so messages that arrive together are made durable together; all or
/// none are stored, and a single message is a batch of one. Nothing is acted on first: the raw
/// bytes are stored before anything routes them, deduplicated by their SHA-256 (the same bytes
/// again answer with the first row, `new: false`); what is stored has every seat link a reply
/// quotes replaced by the placeholder (RULING P8) and its reply address tags and `ORDERS`
/// tokens sealed (RULING M11). Bytes past [`MAX_MAIL_BYTES`] are cut off
/// and the message is marked truncated (it will be refused with an explanation). Answer the
/// sender only once this returns: then the messages are committed.
pub async fn ingest(
    pool: &PgPool,
    messages: &[Arrived<'_>],
    now: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Vec<Ingested>> {
    let mut tx = pool.begin().await?;
    let mut stored = Vec::with_capacity(messages.len());
    for m in messages {
        stored.push(store_raw(&mut tx, m, now).await?);
    }
    tx.commit().await?;
    Ok(stored)
}

async fn store_raw(
    conn: &mut PgConnection,
    m: &Arrived<'_>,
    now: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Ingested> {
    let raw = m.raw;
    let truncated = raw.len() > MAX_MAIL_BYTES;
    // RULINGS P8, M11: no seat link is stored, and every other secret is sealed; the hash is of
    // the bytes as they came, so the same message again is still recognised (M9).
    let kept = crate::inbound_mail::for_storage(&raw[..raw.len().min(MAX_MAIL_BYTES)], m.envelope_to);
    let sha = data_encoding::HEXLOWER.encode(&Sha256::digest(raw));
    let (id, new) = store::inbound::insert_raw(
        conn,
        &store::inbound::NewInbound {
            raw: &kept.raw,
            sha256: &sha,
            truncated,
            source: m.source,
            envelope_from: m.envelope_from,
            envelope_to: kept.envelope_to.as_deref(),
            received_at: now,
            sealed: &kept.sealed,
        },
    )
    .await?;
    Ok(Ingested { id, new })
}

/// Seals up to `max` messages stored before sealing (RULING M11), in one transaction: their
/// secrets are replaced as a new message's are, so a message still to be processed is routed
/// through the placeholders like any other. Returns how many were sealed.
pub async fn seal_stored(pool: &PgPool, max: i64) -> sqlx::Result<usize> {
    let mut tx = pool.begin().await?;
    let rows = store::inbound::unsealed(&mut tx, max).await?;
    for row in &rows {
        let kept = crate::inbound_mail::for_storage(&row.raw, row.envelope_to.as_deref());
        store::inbound::reseal(&mut tx, row.id, &kept.raw, kept.envelope_to.as_deref(), &kept.sealed).await?;
    }
    tx.commit().await?;
    Ok(rows.len())
}

/// Processes up to `max` stored messages that await processing (after sealing what was stored
/// before sealing, RULING M11). Returns how many were done.
pub async fn process_pending(ctx: &Ctx, max: i64) -> Result<usize, ServiceError> {
    seal_stored(&ctx.pool, max).await?;
    let ids = {
        let mut conn = ctx.pool.acquire().await?;
        store::inbound::claim_new(&mut conn, ctx.now(), Duration::minutes(5), max).await?
    };
    let mut done = 0;
    let mut failed = None;
    for id in ids {
        match process_inbound(ctx, id).await {
            Ok(Some(_)) => done += 1,
            Ok(None) => {}
            // One message's failure (its transaction rolled back, the message still stored and
            // new) neither holds back the others claimed with it nor waits out the whole lease:
            // it is claimed again after a short pause.
            Err(e) => {
                tracing::warn!(inbound.id = id, error = %e, "processing an inbound mail failed; it is tried again shortly");
                let mut conn = ctx.pool.acquire().await?;
                store::inbound::release(&mut conn, id, ctx.now() + RETRY_FAILED).await?;
                failed.get_or_insert(e);
            }
        }
    }
    match failed {
        Some(e) if done == 0 => Err(e),
        _ => Ok(done),
    }
}

/// How soon a message whose processing failed is claimed again.
const RETRY_FAILED: Duration = Duration::seconds(15);

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundOutcome {
    pub status: InboundStatus,
    pub outcome: String,
    pub game: Option<GameId>,
    pub seat: Option<Seat>,
}

/// Reads, routes, authenticates and carries out one stored message. `None` when another
/// process already handled it.
pub async fn process_inbound(ctx: &Ctx, id: i64) -> Result<Option<InboundOutcome>, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let Some(row) = store::inbound::lock_new(&mut tx, id).await? else {
        return Ok(None);
    };
    let mail = ParsedMail::parse(&row.raw, ctx.settings.authserv_id.as_deref());
    if let Some((status, outcome, game)) =
        crate::service::turn::gm_mail::carry_out(ctx, &mut tx, &row, &mail).await?
    {
        tx.commit().await?;
        ctx.mail_wake.notify_one();
        return Ok(Some(InboundOutcome { status, outcome, game: Some(game), seat: None }));
    }
    // RULING M23: an answer to an invitation or a join confirmation (issue 37).
    if let Some((status, outcome)) =
        crate::service::waiting::by_mail::carry_out(ctx, &mut tx, &row, &mail).await?
    {
        tx.commit().await?;
        ctx.mail_wake.notify_one();
        return Ok(Some(InboundOutcome { status, outcome, game: None, seat: None }));
    }
    let mut decided = decide(ctx, &mut tx, &row, &mail).await?;
    if row.truncated {
        decided.outcome.push_str(&format!(
            " (the mail was larger than {} and was cut: only that much was read)",
            CUT_AT
        ));
    }
    if decided.seat.is_none() {
        match limits::unrouted(ctx, &mut tx, &row, &mail).await? {
            Unrouted::Keep => decided.unrouted = true,
            Unrouted::Refuse(Some(answer)) => {
                store::inbound::drop_raw(&mut tx, id).await?;
                crate::service::notices::queue(&mut tx, &ctx.settings, &answer).await?;
                decided.outcome.push_str("; not kept: over the limit on mail for no seat (its bytes were dropped; its sender was told, once this hour)");
                (decided.unrouted, decided.notice) = (true, Some(Notice::Sent));
            }
            Unrouted::Refuse(None) => {
                // Over the bound and already answered this hour: not kept at all (RULING M4).
                store::inbound::delete(&mut tx, id).await?;
                tx.commit().await?;
                crate::metrics::mail_ingested("dropped");
                let outcome = format!("{}; not kept: over the limit on mail for no seat", decided.outcome);
                // Debug only: a flood must not flood the log either.
                tracing::debug!(
                    inbound.id = id,
                    bytes = row.raw.len(),
                    "mail for no seat over its limit: dropped"
                );
                return Ok(Some(InboundOutcome { status: decided.status, outcome, game: None, seat: None }));
            }
        }
    }
    let auth = mail.auth.as_ref().and_then(|a| serde_json::to_value(a).ok());
    store::inbound::record_outcome(
        &mut tx,
        id,
        &Outcome {
            status: decided.status,
            message_id: mail.message_id.as_deref(),
            from_addr: mail.from.as_deref(),
            game_id: decided.seat.as_ref().map(|s| s.game),
            seat: decided.seat.as_ref().map(|s| s.seat),
            turn: decided.turn,
            auth_results: auth.as_ref(),
            outcome: &decided.outcome,
            notice: decided.notice,
            unrouted: decided.unrouted,
        },
        now,
    )
    .await?;
    if let (Some(seat), false) = (&decided.seat, decided.sections.is_empty()) {
        let mut m = reply::answer(id, seat, decided.generation, &mail, &decided.sections)?;
        // The answer states the deadline; it carries the calendar entry too.
        let game = match decided.game {
            Some(game) => game,
            None => crate::service::load_game(&mut tx, seat.game).await?,
        };
        m.calendar = match decided.deadline {
            Some((turn, at, version)) => {
                Some(crate::service::deadlines::calendar(ctx, &game, turn, at, version))
            }
            None => crate::service::deadlines::open_turn_calendar(ctx, &mut tx, &game).await?,
        };
        crate::service::notices::queue(&mut tx, &ctx.settings, &m).await?;
    }
    tx.commit().await?;
    crate::metrics::mail_ingested(decided.status.as_str());
    ctx.mail_wake.notify_one();
    if decided.finalised {
        ctx.turn_wake.notify_one();
    }
    tracing::info!(inbound.id = id, status = %decided.status, outcome = %decided.outcome, "inbound mail processed");
    Ok(Some(InboundOutcome {
        status: decided.status,
        outcome: decided.outcome,
        game: decided.seat.as_ref().map(|s| s.game),
        seat: decided.seat.as_ref().map(|s| s.seat),
    }))
}

async fn decide(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &store::inbound::InboundRow,
    mail: &ParsedMail,
) -> Result<Decided, ServiceError> {
    if !mail.readable {
        return Ok(Decided::silent(InboundStatus::Ignored, "not a readable mail message"));
    }
    let Some(from) = mail.from.clone() else {
        return Ok(Decided::silent(InboundStatus::Ignored, "no From address"));
    };
    if games::asked(&mail.body) {
        return games::answer(ctx, tx, &from, mail).await;
    }
    let commands = MailCommands::parse(&mail.body);
    // RULING M1: no limit keyed on what others sent applies here; a mail is refused only for
    // what it is itself.
    let (seat, stranger) = match route(ctx, tx, row, mail, &commands).await? {
        Route::Seat(s) => {
            let stranger = not_the_players_own(ctx, &s, &from, mail);
            (s, stranger)
        }
        Route::Forged(s, why) => (s, Some((format!("refused: {why}"), why))),
        Route::Nowhere(why) => return Ok(Decided::silent(InboundStatus::Ignored, why)),
    };
    if let Some((outcome, why)) = stranger {
        return limits::refuse_stranger(ctx, tx, seat, outcome, why).await;
    }
    // Only the player's own earlier mail makes a Message-ID a duplicate: a stranger's mail
    // carrying it first must not silence the player's (RULING M9).
    if let Some(mid) = &mail.message_id
        && store::inbound::message_id_seen(tx, row.id, mid, seat.auth.game, seat.auth.seat, &from).await?
    {
        return Ok(Decided::silent(
            InboundStatus::Duplicate,
            format!("same Message-ID as an earlier mail of this seat's player: {mid}"),
        ));
    }
    if row.truncated {
        let why = format!(
            "it was larger than {CUT_AT} and was cut there, so we cannot know what it said; send your orders as plain text"
        );
        return Ok(Decided::refused(seat, "refused: too large", vec![why, reply::NOTHING_CHANGED.into()]));
    }
    let game = crate::service::load_game(tx, seat.auth.game).await?;
    if commands.has_orders() {
        // One order mail per seat at a time: the limit's count and the orders' insert hold under
        // concurrent ingest (RULING M2).
        let n = seat.auth.seat;
        store::inbound::lock_seat(tx, seat.auth.game, n).await?;
        if store::inbound::accepted_for_turn(tx, game.id, n, game.current_turn).await? >= ORDER_MAILS_PER_TURN
        {
            let why = format!(
                "{} has sent {ORDER_MAILS_PER_TURN} order mails this turn already, the most we take",
                seat.auth.seat
            );
            let why = vec![why, reply::NOTHING_CHANGED.into()];
            return Ok(Decided::refused(seat, "refused: per-turn mail limit", why));
        }
    }
    commands::carry_out(ctx, tx, seat, game, mail, &commands).await
}

/// Why a mail to a seat is not its player's own, if it is not: a From that is not one address
/// (RULING M8), another sender, or (under the `require` policy) authentication results that do
/// not pass for the From's domain (RULINGS M3, M8). The outcome for the
/// GM, and the reason for the player.
fn not_the_players_own(ctx: &Ctx, seat: &Routed, from: &str, mail: &ParsedMail) -> Option<(String, String)> {
    if let Some(problem) = mail.from_problem {
        // RULING M8: whose mail it is must not depend on which From one reads.
        return Some((
            format!("refused: From: {problem}"),
            format!("{problem} (mail for a seat is only taken from its player's own address alone)"),
        ));
    }
    if !seat.auth.email.eq_ignore_ascii_case(from) {
        let why = format!(
            "it came from {from}, which is not the address registered for {} (mail for a seat is only taken from its player's own address)",
            seat.auth.seat
        );
        return Some((format!("refused: sent from {from}"), why));
    }
    authentic::failure(ctx, from, mail).map(|why| {
        (
            format!("refused: authentication: {why}"),
            format!("{why}; mail for a seat must be verifiably from its player's address"),
        )
    })
}
