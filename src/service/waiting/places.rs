//! The places of a waiting game: an invitation answered by its link (accept or decline, once,
//! before it expires), a request to join confirmed by its link, the GM's approval, the waiting
//! list taking a freed seat, and invitations and requests that expire (RULINGS W45–W47).

use super::{CONFIRM_HOURS, INVITATION_DAYS, mail, start_if_full};
use crate::domain::{GameId, Mailbox, PlaceKind, PlaceStatus, SecretToken, WaitingStatus};
use crate::registry;
use crate::service::audit::{self, Actor};
use crate::service::gm_access::Gm;
use crate::service::mail_secrets::place_token;
use crate::service::signin_limits::{self, Origin};
use crate::service::{Ctx, ServiceError};
use crate::store;
use crate::store::waiting::{NewPlace, PlaceRow, WaitingRow};
use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::PgConnection;

/// The one answer to a link that opens nothing: unknown, used, expired or withdrawn alike.
pub(super) fn dead_link() -> ServiceError {
    ServiceError::Forbidden("this link is not valid: it was used already, or has expired".into())
}

/// A new place with its link: returns the mail's nonce — the place's id, a dot and a random
/// token — and stores the hash of the key's tag of it, which the link carries (RULING P8).
async fn new_place(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    kind: PlaceKind,
    player: &Mailbox,
    status: PlaceStatus,
    expires_at: DateTime<Utc>,
) -> Result<String, ServiceError> {
    let place = NewPlace {
        game: w.id,
        kind,
        email: player.email.as_str(),
        name: &player.name,
        status,
        expires_at,
        now: ctx.now(),
    };
    let id = store::waiting::insert_place(tx, &place).await?;
    let nonce = format!("{id}.{}", SecretToken::generate().reveal());
    store::waiting::set_token(tx, id, &place_token(ctx, &nonce).hash()).await?;
    Ok(nonce)
}

/// Invites an address to a seat: the place, the mail with its links, the audit entry.
pub(super) async fn invite(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    player: &Mailbox,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let expires = now + Duration::days(INVITATION_DAYS);
    let nonce = new_place(ctx, tx, w, PlaceKind::Invited, player, PlaceStatus::Pending, expires).await?;
    mail::invitation(ctx, tx, w, player, &nonce, expires).await?;
    let detail = json!({ "email": player.email.as_str(), "name": player.name, "expires": expires });
    audit::record(tx, now, w.id, Actor::Gm(&w.gm_email), "seat offered", detail).await
}

/// What a place link's page shows before the player answers.
#[derive(Debug, Clone)]
pub struct PlacePage {
    pub game: String,
    pub engine: String,
    pub seats: i16,
    pub kind: PlaceKind,
    pub name: String,
    /// A replacement offer's seat (RULING W61).
    pub seat: Option<i16>,
}

/// The page a live place link opens (nothing changes by opening it; link checkers may).
pub async fn place_page(ctx: &Ctx, token: &SecretToken) -> Result<PlacePage, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let p = store::waiting::place_by_token(&mut tx, &token.hash()).await?.ok_or_else(dead_link)?;
    if p.kind == PlaceKind::Replacement {
        return super::replacement::page(ctx, &mut tx, p).await;
    }
    let w = live_game(ctx, &mut tx, &p).await?.ok_or_else(dead_link)?;
    let engine = registry::find(&w.engine).map(|e| e.title()).unwrap_or("?");
    Ok(PlacePage {
        game: w.name,
        engine: engine.to_string(),
        seats: w.seats,
        kind: p.kind,
        name: p.name.unwrap_or_default(),
        seat: None,
    })
}

/// The place a token opens while it can still be answered, with its waiting game, both locked.
async fn live_place(
    ctx: &Ctx,
    tx: &mut PgConnection,
    token: &SecretToken,
) -> Result<(PlaceRow, WaitingRow), ServiceError> {
    let p = store::waiting::place_by_token(tx, &token.hash()).await?.ok_or_else(dead_link)?;
    let w = live_game(ctx, tx, &p).await?.ok_or_else(dead_link)?;
    Ok((p, w))
}

/// A player's answer through a place link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceAnswer {
    /// Take the seat (an invitation), or confirm the request to join.
    Accept,
    /// Decline the invitation (or withdraw the request).
    Decline,
}

/// What the answer did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaceOutcome {
    /// The player holds a seat; `started`: the game started with it.
    Seated { started: bool },
    /// No seat was free: the player is on the waiting list.
    Waitlisted,
    /// The request waits for the GM's approval.
    AwaitsApproval,
    /// Declined: the seat is free again.
    Declined,
}

/// Carries out an answer through a place link, once (RULING W45): the link dies with it.
pub async fn answer_place(
    ctx: &Ctx,
    token: &SecretToken,
    answer: PlaceAnswer,
) -> Result<PlaceOutcome, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let (p, w) = live_place(ctx, &mut tx, token).await?;
    let outcome = carry_out(ctx, &mut tx, &p, &w, answer).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(outcome)
}

/// Whether a place can still be answered (its game waiting, the place unanswered and in time),
/// with its waiting game locked.
pub(super) async fn live_game(
    ctx: &Ctx,
    tx: &mut PgConnection,
    p: &PlaceRow,
) -> Result<Option<WaitingRow>, ServiceError> {
    let live = matches!(p.status, PlaceStatus::Pending | PlaceStatus::Unconfirmed)
        && p.expires_at.is_none_or(|t| t > ctx.now());
    if !live {
        return Ok(None);
    }
    Ok(store::waiting::lock(tx, p.game_id).await?.filter(|w| w.status == WaitingStatus::Waiting))
}

/// Carries out a player's answer to a live place, in the caller's transaction.
pub(super) async fn carry_out(
    ctx: &Ctx,
    tx: &mut PgConnection,
    p: &PlaceRow,
    w: &WaitingRow,
    answer: PlaceAnswer,
) -> Result<PlaceOutcome, ServiceError> {
    let now = ctx.now();
    let email = p.email.clone().unwrap_or_default();
    let who = Actor::Player(&email);
    let outcome = match (answer, p.kind) {
        (PlaceAnswer::Decline, kind) => {
            store::waiting::set_status(tx, p.id, PlaceStatus::Declined, now).await?;
            let action = if kind == PlaceKind::Invited { "invitation declined" } else { "request withdrawn" };
            audit::record(tx, now, w.id, who, action, json!({ "email": email })).await?;
            if kind == PlaceKind::Invited {
                mail::to_gm(ctx, tx, w, &format!("{email} declined the invitation: the seat is free again."))
                    .await?;
                seat_freed(ctx, tx, w).await?;
            }
            PlaceOutcome::Declined
        }
        (PlaceAnswer::Accept, PlaceKind::Invited) => {
            store::waiting::set_status(tx, p.id, PlaceStatus::Accepted, now).await?;
            audit::record(tx, now, w.id, who, "invitation accepted", json!({ "email": email })).await?;
            PlaceOutcome::Seated { started: start_if_full(ctx, tx, w).await? }
        }
        (PlaceAnswer::Accept, PlaceKind::Joined) => confirmed(ctx, tx, w, p).await?,
        // A replacement offer is taken with a name and address (`replacement::take_offer`).
        (PlaceAnswer::Accept, PlaceKind::Replacement) => {
            return Err(ServiceError::BadInput("give your name and address to take the seat".into()));
        }
    };
    Ok(outcome)
}

/// A confirmed request to join: waits for the GM's approval, or takes a free seat, or a place on
/// the waiting list (RULING W46).
async fn confirmed(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
) -> Result<PlaceOutcome, ServiceError> {
    let now = ctx.now();
    let email = p.email.clone().unwrap_or_default();
    if w.approval {
        store::waiting::set_status(tx, p.id, PlaceStatus::Unapproved, now).await?;
        audit::record(tx, now, w.id, Actor::Player(&email), "asked to join", json!({ "email": email }))
            .await?;
        mail::to_gm(ctx, tx, w, &format!("{email} asks to join; approve or refuse on the game's page."))
            .await?;
        return Ok(PlaceOutcome::AwaitsApproval);
    }
    seat_or_waitlist(ctx, tx, w, p, Actor::Player(&email)).await
}

/// Gives a confirmed (and approved) player a free seat, else a place on the waiting list.
async fn seat_or_waitlist(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    p: &PlaceRow,
    by: Actor<'_>,
) -> Result<PlaceOutcome, ServiceError> {
    let now = ctx.now();
    let email = p.email.clone().unwrap_or_default();
    if free_seats(tx, w).await? > 0 {
        store::waiting::set_status(tx, p.id, PlaceStatus::Accepted, now).await?;
        audit::record(tx, now, w.id, by, "joined", json!({ "email": email })).await?;
        return Ok(PlaceOutcome::Seated { started: start_if_full(ctx, tx, w).await? });
    }
    store::waiting::set_status(tx, p.id, PlaceStatus::Waitlisted, now).await?;
    audit::record(tx, now, w.id, by, "waiting list", json!({ "email": email })).await?;
    Ok(PlaceOutcome::Waitlisted)
}

/// Seats not held by an accepted player or an invitation still out.
pub(super) async fn free_seats(tx: &mut PgConnection, w: &WaitingRow) -> Result<usize, ServiceError> {
    let held = store::waiting::places(tx, w.id).await?.iter().filter(|p| p.status.holds_seat()).count();
    Ok(usize::try_from(w.seats).unwrap_or(0).saturating_sub(held))
}

/// A seat was freed (an invitation declined or expired, a request refused): the first player on
/// the waiting list takes it and is told (RULING W46).
async fn seat_freed(ctx: &Ctx, tx: &mut PgConnection, w: &WaitingRow) -> Result<(), ServiceError> {
    let places = store::waiting::places(tx, w.id).await?;
    let Some(next) = places.iter().find(|p| p.status == PlaceStatus::Waitlisted) else { return Ok(()) };
    let now = ctx.now();
    store::waiting::set_status(tx, next.id, PlaceStatus::Accepted, now).await?;
    let email = next.email.clone().unwrap_or_default();
    audit::record(
        tx,
        now,
        w.id,
        Actor::Server,
        "freed seat taken from the waiting list",
        json!({ "email": email }),
    )
    .await?;
    mail::seat_from_waiting_list(ctx, tx, w, next).await?;
    start_if_full(ctx, tx, w).await?;
    Ok(())
}

/// Asks to join a waiting game with an address: a confirmation mail with a link goes to it. The
/// answer is the same whatever the address and the game (RULING W46: no account enumeration);
/// requests are limited per address and per client.
pub async fn ask_to_join(
    ctx: &Ctx,
    game: GameId,
    player: &Mailbox,
    origin: &Origin,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    if !signin_limits::allow_join_request(&mut tx, player.email.as_str(), origin, now).await? {
        tracing::warn!(client = ?origin.client, "request to join over the limit: nothing sent");
        tx.commit().await?;
        return Ok(());
    }
    let Some(w) = store::waiting::lock(&mut tx, game).await?.filter(|w| w.status == WaitingStatus::Waiting)
    else {
        tx.commit().await?;
        return Ok(());
    };
    let places = store::waiting::places(&mut tx, game).await?;
    let open = usize::try_from(w.seats).unwrap_or(0)
        > places.iter().filter(|p| p.kind == PlaceKind::Invited).count();
    let known = places.iter().any(|p| {
        p.email.as_deref() == Some(&player.email.as_str().to_lowercase())
            && !matches!(p.status, PlaceStatus::Expired | PlaceStatus::Declined | PlaceStatus::Withdrawn)
    });
    if open && !known {
        let expires = now + Duration::hours(CONFIRM_HOURS);
        let nonce =
            new_place(ctx, &mut tx, &w, PlaceKind::Joined, player, PlaceStatus::Unconfirmed, expires).await?;
        mail::join_confirmation(ctx, &mut tx, &w, player, &nonce, expires).await?;
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// The GM approves (or refuses) a confirmed request to join.
pub async fn approve(ctx: &Ctx, game: GameId, gm: &Gm, place: i64, yes: bool) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let w = super::authorized(&mut tx, game, gm).await?;
    let p = store::waiting::place(&mut tx, game, place)
        .await?
        .filter(|p| p.status == PlaceStatus::Unapproved)
        .ok_or_else(|| ServiceError::BadInput("no request to join waits for your approval there".into()))?;
    if yes {
        seat_or_waitlist(ctx, &mut tx, &w, &p, Actor::Gm(&gm.email)).await?;
    } else {
        store::waiting::set_status(&mut tx, p.id, PlaceStatus::Refused, now).await?;
        let email = p.email.clone().unwrap_or_default();
        audit::record(&mut tx, now, game, Actor::Gm(&gm.email), "request refused", json!({ "email": email }))
            .await?;
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// Expires invitations and requests to join not answered in time (a scheduler pass): an expired
/// invitation frees its seat and the GM is told (RULING W45). Returns how many expired.
pub async fn expire_overdue(ctx: &Ctx, limit: i64) -> Result<usize, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let overdue = store::waiting::overdue(&mut tx, now, limit).await?;
    for p in &overdue {
        store::waiting::set_status(&mut tx, p.id, PlaceStatus::Expired, now).await?;
        if p.status != PlaceStatus::Pending {
            continue;
        }
        let Some(w) =
            store::waiting::lock(&mut tx, p.game_id).await?.filter(|w| w.status == WaitingStatus::Waiting)
        else {
            continue;
        };
        let email = p.email.clone().unwrap_or_default();
        audit::record(&mut tx, now, w.id, Actor::Server, "invitation expired", json!({ "email": email }))
            .await?;
        let text = format!("The invitation to {email} expired unanswered: the seat is free again.");
        mail::to_gm(ctx, &mut tx, &w, &text).await?;
        seat_freed(ctx, &mut tx, &w).await?;
    }
    tx.commit().await?;
    if !overdue.is_empty() {
        ctx.mail_wake.notify_one();
    }
    Ok(overdue.len())
}
