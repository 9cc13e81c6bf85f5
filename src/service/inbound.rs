//! Orders by mail. [`ingest_raw`] stores a message's raw bytes before anything reads them (so an
//! MTA can hand it over and forget it); [`process_inbound`] then reads it, finds the seat (its
//! signed reply address, or an `ORDERS <game> <seat> <token>` line), checks the sender is the
//! seat's registered address, runs the mail's commands through the same functions as the web,
//! records the outcome on the message and queues the answer — all in one transaction. Answers go
//! to the seat's registered address, never to the sender, threaded to the player's mail.

use super::inbound_reply::{self as reply, Section};
use super::inbound_route::{Route, Routed, route};
use super::submit::{mark_final_in, submit_for};
use super::{Ctx, SeatAuth, ServiceError, Source};
use crate::domain::GameId;
use crate::engine::Seat;
use crate::mail::inbound::{BodyKind, MailCommands, ParsedMail};
use crate::orders::OrderText;
use crate::store;
use crate::store::games::GameRow;
use crate::store::inbound::Outcome;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};

/// The largest message accepted; larger ones are stored cut to this size and refused.
pub const MAX_MAIL_BYTES: usize = 2 * 1024 * 1024;
/// Order mails accepted per seat and turn.
pub const ORDER_MAILS_PER_TURN: i64 = 30;
/// Rejected mails per sender address and hour before further mail from it is dropped unanswered.
pub const REJECTIONS_PER_HOUR: i64 = 10;

/// A stored message: its row id, and whether it is new (false: the same bytes came before).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ingested {
    pub id: i64,
    pub new: bool,
}

/// A message as it arrived, to store with [`ingest_raw`] or [`ingest_raw_all`].
#[derive(Debug, Clone, Copy)]
pub struct Arrived<'a> {
    pub raw: &'a [u8],
    pub source: &'a str,
    pub envelope_from: Option<&'a str>,
    pub envelope_to: Option<&'a str>,
}

/// Stores a raw message as received. Nothing is parsed first. Bytes past [`MAX_MAIL_BYTES`] are
/// cut off and the message is marked truncated (it will be refused with an explanation).
pub async fn ingest_raw(
    pool: &PgPool,
    raw: &[u8],
    source: &str,
    envelope_from: Option<&str>,
    envelope_to: Option<&str>,
    now: chrono::DateTime<chrono::Utc>,
) -> sqlx::Result<Ingested> {
    let mut conn = pool.acquire().await?;
    store_raw(&mut conn, &Arrived { raw, source, envelope_from, envelope_to }, now).await
}

/// Stores several messages, as [`ingest_raw`] does each, in one transaction: one commit (one
/// flush of the write-ahead log) for all of them, so messages that arrive together are made
/// durable together. All or none are stored.
pub async fn ingest_raw_all(
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
    let kept = &raw[..raw.len().min(MAX_MAIL_BYTES)];
    let sha = data_encoding::HEXLOWER.encode(&Sha256::digest(raw));
    let (id, new) = store::inbound::insert_raw(
        conn,
        &store::inbound::NewInbound {
            raw: kept,
            sha256: &sha,
            truncated,
            source: m.source,
            envelope_from: m.envelope_from,
            envelope_to: m.envelope_to,
            received_at: now,
        },
    )
    .await?;
    Ok(Ingested { id, new })
}

/// Processes up to `max` stored messages that await processing. Returns how many were done.
pub async fn process_pending(ctx: &Ctx, max: i64) -> Result<usize, ServiceError> {
    let ids = {
        let mut conn = ctx.pool.acquire().await?;
        store::inbound::claim_new(&mut conn, ctx.now(), Duration::minutes(5), max).await?
    };
    let mut done = 0;
    for id in ids {
        if process_inbound(ctx, id).await?.is_some() {
            done += 1;
        }
    }
    Ok(done)
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundOutcome {
    pub status: &'static str,
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
    let decided = decide(ctx, &mut tx, &row, &mail).await?;
    let auth = mail.auth.as_ref().and_then(|a| serde_json::to_value(a).ok());
    store::inbound::record_outcome(
        &mut tx,
        id,
        &Outcome {
            status: decided.status,
            message_id: mail.message_id.as_deref(),
            from_addr: mail.from.as_deref(),
            game_id: decided.seat.as_ref().map(|s| s.game.0),
            seat: decided.seat.as_ref().map(|s| i16::from(s.seat.0)),
            turn: decided.turn,
            auth_results: auth.as_ref(),
            outcome: &decided.outcome,
        },
        now,
    )
    .await?;
    if let (Some(seat), false) = (&decided.seat, decided.sections.is_empty()) {
        let mut m = reply::answer(ctx, id, seat, decided.generation, &mail, &decided.sections)?;
        // The answer states the deadline; it carries the calendar entry too.
        let game = match decided.game {
            Some(game) => game,
            None => super::load_game(&mut tx, seat.game).await?,
        };
        m.calendar = match decided.deadline {
            Some((turn, at, version)) => Some(super::deadlines::calendar(ctx, &game, turn, at, version)),
            None => super::deadlines::open_turn_calendar(ctx, &mut tx, &game).await?,
        };
        super::notices::queue(&mut tx, &ctx.settings, &m).await?;
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    if decided.finalised {
        ctx.turn_wake.notify_one();
    }
    tracing::info!(inbound.id = id, status = decided.status, outcome = %decided.outcome, "inbound mail processed");
    Ok(Some(InboundOutcome {
        status: decided.status,
        outcome: decided.outcome,
        game: decided.seat.as_ref().map(|s| s.game),
        seat: decided.seat.as_ref().map(|s| s.seat),
    }))
}

/// The decision about one message: its status, a one-line outcome for the GM, the seat it was
/// for (if known, with its reply-address generation) and the sections of the answer to that
/// seat (none: no answer); the game, when it was loaded on the way.
struct Decided {
    status: &'static str,
    outcome: String,
    seat: Option<SeatAuth>,
    generation: i32,
    game: Option<GameRow>,
    turn: Option<i32>,
    /// The open turn's deadline and its version, when orders were just stored for it.
    deadline: Option<(i32, DateTime<Utc>, i32)>,
    sections: Vec<Section>,
    finalised: bool,
}

impl Decided {
    fn silent(status: &'static str, outcome: impl Into<String>) -> Self {
        Decided {
            status,
            outcome: outcome.into(),
            seat: None,
            generation: 1,
            game: None,
            turn: None,
            deadline: None,
            sections: Vec::new(),
            finalised: false,
        }
    }
    fn refused(seat: Routed, outcome: impl Into<String>, why: Vec<String>) -> Self {
        Decided {
            status: "rejected",
            outcome: outcome.into(),
            seat: Some(seat.auth),
            generation: seat.generation,
            game: None,
            turn: None,
            deadline: None,
            sections: vec![Section::new("Your mail was not accepted", why)],
            finalised: false,
        }
    }
}

async fn decide(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &store::inbound::InboundRow,
    mail: &ParsedMail,
) -> Result<Decided, ServiceError> {
    if !mail.readable {
        return Ok(Decided::silent("ignored", "not a readable mail message"));
    }
    let seen = store::inbound::seen_before(
        tx,
        row.id,
        mail.message_id.as_deref(),
        mail.from.as_deref(),
        ctx.now() - Duration::hours(1),
    )
    .await?;
    if let (Some(mid), true) = (&mail.message_id, seen.message_id) {
        return Ok(Decided::silent("duplicate", format!("same Message-ID as an earlier mail: {mid}")));
    }
    let Some(from) = mail.from.clone() else {
        return Ok(Decided::silent("ignored", "no From address"));
    };
    if seen.rejections >= REJECTIONS_PER_HOUR {
        return Ok(Decided::silent("rejected", "too many rejected mails from this address in the last hour"));
    }
    let commands = MailCommands::parse(&mail.body);
    let seat = match route(ctx, tx, row, mail, &commands).await? {
        Route::Seat(s) => s,
        Route::Forged(s, why) => {
            return Ok(Decided::refused(
                s,
                format!("refused: {why}"),
                vec![why, reply::NOTHING_CHANGED.into()],
            ));
        }
        Route::Nowhere(why) => return Ok(Decided::silent("ignored", why)),
    };
    if !seat.auth.email.eq_ignore_ascii_case(&from) {
        let why = format!(
            "it came from {from}, which is not the address registered for {} (mail for a seat is only taken from its player's own address)",
            seat.auth.seat
        );
        return Ok(Decided::refused(
            seat,
            format!("refused: sent from {from}"),
            vec![why, reply::NOTHING_CHANGED.into()],
        ));
    }
    if row.truncated {
        let why =
            format!("it is larger than {} MiB; send your orders as plain text", MAX_MAIL_BYTES / 1024 / 1024);
        return Ok(Decided::refused(seat, "refused: too large", vec![why, reply::NOTHING_CHANGED.into()]));
    }
    let game = super::load_game(tx, seat.auth.game).await?;
    if commands.has_orders()
        && store::inbound::accepted_for_turn(tx, game.id, i16::from(seat.auth.seat.0), game.current_turn)
            .await?
            >= ORDER_MAILS_PER_TURN
    {
        let why = format!(
            "{} has sent {ORDER_MAILS_PER_TURN} order mails this turn already, the most we take",
            seat.auth.seat
        );
        return Ok(Decided::refused(
            seat,
            "refused: per-turn mail limit",
            vec![why, reply::NOTHING_CHANGED.into()],
        ));
    }
    carry_out(ctx, tx, seat, game, mail, &commands).await
}

/// Runs the mail's commands for an authenticated seat.
async fn carry_out(
    ctx: &Ctx,
    tx: &mut PgConnection,
    routed: Routed,
    game: GameRow,
    mail: &ParsedMail,
    c: &MailCommands,
) -> Result<Decided, ServiceError> {
    let (seat, generation, turn) = (routed.auth, routed.generation, game.current_turn);
    let mut sections = Vec::new();
    let mut status = "accepted";
    let mut outcome = Vec::new();
    let mut finalised = false;
    let mut deadline = None;
    if mail.body_kind == BodyKind::None && !c.has_orders() {
        sections.push(Section::new("Your mail was not accepted", vec!["it has no readable text part (an attachment or an empty HTML mail?); write your orders in the mail itself".into()]));
        return Ok(Decided {
            status: "rejected",
            outcome: "refused: no readable text".into(),
            seat: Some(seat),
            generation,
            game: Some(game),
            turn: Some(turn),
            deadline: None,
            sections,
            finalised,
        });
    }
    if let Some(line) = c.bad_token_line {
        sections.push(Section::new(
            "Not understood",
            vec![format!("line {line}: an ORDERS line is ORDERS <game> <seat> <token>")],
        ));
    }
    if c.has_orders() {
        let submitted = match OrderText::parse(&c.order_text) {
            Ok(text) => submit_for(ctx, tx, &game, &seat, &text, Source::Mail, c.final_).await,
            Err(e) => Err(ServiceError::BadInput(e.to_string())),
        };
        match submitted {
            Ok(done) => {
                finalised = done.is_final;
                deadline = Some((done.turn, done.deadline, done.deadline_version));
                outcome.push(format!("orders stored as version {}", done.version));
                sections.push(reply::echo_section(&done));
            }
            Err(ServiceError::Rejected(echo)) => {
                status = "rejected";
                outcome.push(format!("orders refused: {} line(s) not understood", echo.errors));
                sections.push(reply::refused_section(&echo));
            }
            Err(ServiceError::Conflict(why)) => {
                status = "rejected";
                outcome.push(format!("too late: {why}"));
                sections.push(Section::new("Too late", vec![format!("{why}."), "Your mail is kept, but its orders were not applied — not to this turn, and not to the next one.".into()]));
            }
            Err(ServiceError::BadInput(why)) => {
                status = "rejected";
                outcome.push(format!("orders refused: {why}"));
                sections.push(Section::new("Your orders were not accepted", vec![why]));
            }
            Err(e) => return Err(e),
        }
    } else if c.final_ {
        match mark_final_in(ctx, tx, &seat).await {
            Ok(v) => {
                finalised = true;
                outcome.push(format!("version {v} marked final"));
                sections.push(Section::new(
                    "Final",
                    vec![format!("Your orders (version {v}) are marked final.")],
                ));
            }
            Err(e @ (ServiceError::Conflict(_) | ServiceError::NoOrders { .. })) => {
                outcome.push(format!("final refused: {e}"));
                sections.push(Section::new("Not marked final", vec![e.to_string()]));
            }
            Err(e) => return Err(e),
        }
    }
    if c.status {
        sections.push(reply::status_section(tx, &seat).await?);
        outcome.push("status sent".into());
    }
    if c.resend {
        sections.push(reply::resend(ctx, tx, &seat, mail).await?);
        outcome.push("last report resent".into());
    }
    if c.help || sections.is_empty() {
        if sections.is_empty() {
            status = "rejected";
            outcome.push("no orders or commands found".into());
        }
        sections.push(reply::help_section());
    }
    Ok(Decided {
        status,
        outcome: outcome.join("; "),
        seat: Some(seat),
        generation,
        game: Some(game),
        turn: Some(turn),
        deadline,
        sections,
        finalised,
    })
}
