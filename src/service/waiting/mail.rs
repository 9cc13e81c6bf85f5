//! What the players and the GM of a waiting game are told by mail: an invitation with its accept
//! and decline links, a request to join's confirmation link, a seat taken from the waiting list,
//! a cancelled game, and the GM's notes. Links are stored as [`PLACE_LINK`] and filled from the
//! server key when the mail is sent (RULING P8). These mails name no game row yet (`game_id` none).

use crate::domain::{Mailbox, SecretToken};
use crate::registry;
use crate::service::mail_secrets::{PLACE_KEY_PREFIX, PLACE_LINK};
use crate::service::notices::{self, Notice, NoticeTo, OutgoingMail, ReplyTo};
use crate::service::{Ctx, ServiceError};
use crate::store::waiting::{PlaceRow, WaitingRow};
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Queues a notice about a waiting game (no game row to name yet).
async fn queue(
    ctx: &Ctx,
    tx: &mut PgConnection,
    to: NoticeTo<'_>,
    n: &Notice<'_>,
) -> Result<(), ServiceError> {
    let mut mail: OutgoingMail = notices::notice(to, n)?;
    mail.game_id = None;
    notices::queue(tx, &ctx.settings, &mail).await
}

fn title(w: &WaitingRow) -> &'static str {
    registry::find(&w.engine).map(|e| e.title()).unwrap_or("a game")
}

fn rhythm(w: &WaitingRow) -> String {
    match w.clock_words.0.parse().ok().and_then(|c| c.rhythm) {
        Some(r) => r.describe(),
        None => format!("a turn every {}", w.clock_words.0.deadline.trim()),
    }
}

/// An invitation: the page of its link offers accept and decline; each has its own link too.
pub(super) async fn invitation(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    player: &Mailbox,
    nonce: &str,
    expires: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let n = Notice {
        game: &w.name,
        greeting: &player.name,
        paragraphs: vec![
            format!(
                "{} invites you to a seat in \"{}\", a game of {} for {} players ({}).",
                w.gm_email,
                w.name,
                title(w),
                w.seats,
                rhythm(w)
            ),
            format!(
                "The invitation stands until {}. Each link works once: accept, or decline to free the seat. \
                 Or reply to this mail with ACCEPT or DECLINE.",
                expires.format("%Y-%m-%d %H:%M UTC")
            ),
        ],
        block: Some(format!("Accept:  {PLACE_LINK}?answer=accept\nDecline: {PLACE_LINK}?answer=decline")),
        link: Some(PLACE_LINK.to_string()),
    };
    let to = NoticeTo {
        key: format!("{PLACE_KEY_PREFIX}{nonce}"),
        kind: "invitation",
        game_id: w.id,
        to: player.email.as_str(),
        name: Some(&player.name),
        subject: format!("An invitation to \"{}\" ({})", w.name, title(w)),
        reply_to: Some(ReplyTo::Place),
        calendar: None,
    };
    queue(ctx, tx, to, &n).await
}

/// The confirmation of a request to join: its link confirms the address.
pub(super) async fn join_confirmation(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    player: &Mailbox,
    nonce: &str,
    expires: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let n = Notice {
        game: &w.name,
        greeting: &player.name,
        paragraphs: vec![
            format!("Someone asked, with this address, to join \"{}\", a game of {}.", w.name, title(w)),
            format!(
                "Open this link until {} to confirm, or reply to this mail with JOIN; if you did not ask, ignore \
                 this mail.",
                expires.format("%Y-%m-%d %H:%M UTC")
            ),
        ],
        block: None,
        link: Some(PLACE_LINK.to_string()),
    };
    let to = NoticeTo {
        key: format!("{PLACE_KEY_PREFIX}{nonce}"),
        kind: "join-confirmation",
        game_id: w.id,
        to: player.email.as_str(),
        name: Some(&player.name),
        subject: format!("Confirm: join \"{}\"", w.name),
        reply_to: Some(ReplyTo::Place),
        calendar: None,
    };
    queue(ctx, tx, to, &n).await
}

/// A note to the GM about the game's seats.
pub(super) async fn to_gm(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    text: &str,
) -> Result<(), ServiceError> {
    let n = Notice {
        game: &w.name,
        greeting: "GM",
        paragraphs: vec![text.to_string()],
        block: None,
        link: Some(format!("{}/gm/waiting/{}", ctx.settings.base(), w.id)),
    };
    let to = NoticeTo {
        key: format!("waiting-gm:{}:{}", w.id, SecretToken::generate().reveal()),
        kind: "waiting-gm",
        game_id: w.id,
        to: &w.gm_email,
        name: None,
        subject: format!("\"{}\": seats", w.name),
        reply_to: None,
        calendar: None,
    };
    queue(ctx, tx, to, &n).await
}

/// A note to the player of a place, filed under `key`.
async fn to_player(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
    (key, kind, subject): (String, &'static str, String),
    text: String,
) -> Result<(), ServiceError> {
    let name = p.name.clone().unwrap_or_default();
    let n = Notice { game: &w.name, greeting: &name, paragraphs: vec![text], block: None, link: None };
    let to = NoticeTo {
        key,
        kind,
        game_id: w.id,
        to: p.email.as_deref().unwrap_or_default(),
        name: Some(&name),
        subject,
        reply_to: None,
        calendar: None,
    };
    queue(ctx, tx, to, &n).await
}

/// A player on the waiting list took a freed seat.
pub(super) async fn seat_from_waiting_list(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
) -> Result<(), ServiceError> {
    let filed =
        (format!("waitlist-seat:{}", p.id), "seat-taken", format!("A seat in \"{}\" is yours", w.name));
    let text = format!(
        "A seat in \"{}\" came free and is yours. When every seat is taken the game starts, and your welcome \
         mail brings your private order link.",
        w.name
    );
    to_player(ctx, tx, w, p, filed, text).await
}

/// The GM cancelled the game.
pub(super) async fn cancelled(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
) -> Result<(), ServiceError> {
    let filed =
        (format!("waiting-cancelled:{}", p.id), "game-cancelled", format!("\"{}\" was cancelled", w.name));
    to_player(ctx, tx, w, p, filed, format!("The GM cancelled \"{}\" before it started.", w.name)).await
}

/// The game started without a seat for a player on its waiting list, who stays on it for a seat
/// the GM may offer as a replacement (RULING W61).
pub(super) async fn still_waiting(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
) -> Result<(), ServiceError> {
    let filed = (format!("waitlist-started:{}", p.id), "waiting-list", format!("\"{}\" has started", w.name));
    let text = format!(
        "\"{}\" has started without a seat for you. You stay on its waiting list: if the GM offers a seat to a \
         new player, the first on the list takes it, and is mailed the seat's link and its history.",
        w.name
    );
    to_player(ctx, tx, w, p, filed, text).await
}
