//! A running game's seat offered as a replacement (issue 37, RULING W61): the GM opens the seat;
//! the first player on the game's waiting list takes it at once, else the GM gets a link that
//! whoever opens it first may use to take the seat with a name and address. Either way the seat
//! is handed over as `seat replace` hands it (`lifecycle::replace_in`): the old link and reply
//! address stop working, the NMR count starts again, and the new player is mailed the seat's
//! history. Every step is in the game's audit log.

use super::INVITATION_DAYS;
use super::places::PlacePage;
use crate::domain::{EmailAddress, GameId, GameStatus, Mailbox, PlaceKind, PlaceStatus, SecretToken};
use crate::service::audit::{self, Actor};
use crate::service::lifecycle::{self, Replacement};
use crate::service::mail_secrets::{place_link, place_token};
use crate::service::{Ctx, ServiceError, engine_of, seat_by_number};
use crate::store;
use crate::store::waiting::PlaceRow;
use chrono::Duration;
use serde_json::json;
use sqlx::PgConnection;

/// What opening a seat did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Offered {
    /// The first player on the waiting list took the seat (their name).
    FromWaitingList(String),
    /// The link that takes the seat, for the GM to pass on (shown once; only its hash is kept).
    Link(String),
}

/// The GM (`gm`: an address, or the console) opens `seat` of a running game as a replacement
/// (RULING W61). A link offered before for the same seat stops working.
pub async fn open_seat(ctx: &Ctx, game: GameId, gm: &str, seat: u8) -> Result<Offered, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = store::games::lock_game(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    if g.status == GameStatus::Finished {
        return Err(ServiceError::Conflict("the game is over: no seat can be offered".into()));
    }
    seat_by_number(&mut tx, game, seat).await?;
    store::waiting::withdraw_offers(&mut tx, game, i16::from(seat), now).await?;
    let expires = now + Duration::days(INVITATION_DAYS);
    let id = store::waiting::insert_offer(&mut tx, game, i16::from(seat), expires, now).await?;
    audit::record(
        &mut tx,
        now,
        game,
        Actor::Gm(gm),
        "seat offered as a replacement",
        json!({ "seat": seat }),
    )
    .await?;
    let waiting = store::waiting::places(&mut tx, game).await?;
    let offered = match waiting.into_iter().find(|p| p.status == PlaceStatus::Waitlisted) {
        Some(next) => {
            let player = mailbox(&next)?;
            store::waiting::set_status(&mut tx, next.id, PlaceStatus::Accepted, now).await?;
            let offer =
                store::waiting::place(&mut tx, game, id).await?.ok_or(ServiceError::GameNotFound(game))?;
            take(ctx, &mut tx, &offer, &player, "replacement taken from the waiting list").await?;
            Offered::FromWaitingList(player.name)
        }
        None => {
            let nonce = format!("{id}.{}", SecretToken::generate().reveal());
            let token = place_token(ctx, &nonce);
            store::waiting::set_token(&mut tx, id, &token.hash()).await?;
            Offered::Link(place_link(ctx, &token))
        }
    };
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(offered)
}

/// A place's player as a mailbox.
fn mailbox(p: &PlaceRow) -> Result<Mailbox, ServiceError> {
    let email = EmailAddress::parse(p.email.as_deref().unwrap_or_default())
        .map_err(|e| ServiceError::Internal(format!("a stored place's address: {e}")))?;
    Ok(Mailbox { name: p.name.clone().unwrap_or_else(|| email.as_str().to_string()), email })
}

/// Hands the offer's seat to `player`, in the caller's transaction: the offer is used up.
async fn take(
    ctx: &Ctx,
    tx: &mut PgConnection,
    offer: &PlaceRow,
    player: &Mailbox,
    action: &str,
) -> Result<Replacement, ServiceError> {
    let seat = offer
        .seat
        .and_then(|s| u8::try_from(s).ok())
        .ok_or_else(|| ServiceError::Internal(format!("replacement offer {} without a seat", offer.id)))?;
    let now = ctx.now();
    store::waiting::take_offer(tx, offer.id, player.email.as_str(), &player.name, now).await?;
    let detail = json!({ "seat": seat, "email": player.email.as_str() });
    audit::record(tx, now, offer.game_id, Actor::Player(player.email.as_str()), action, detail).await?;
    lifecycle::replace_in(ctx, tx, offer.game_id, Actor::Server, seat, player).await
}

/// The offer a link opens while it can be taken, with its game; else the one dead-link answer.
async fn live_offer(
    ctx: &Ctx,
    tx: &mut PgConnection,
    p: PlaceRow,
) -> Result<(PlaceRow, store::games::GameRow), ServiceError> {
    let live = p.kind == PlaceKind::Replacement
        && p.status == PlaceStatus::Pending
        && p.expires_at.is_none_or(|t| t > ctx.now());
    let g = match live {
        true => store::games::lock_game(tx, p.game_id).await?,
        false => None,
    };
    match g {
        Some(g) if g.status != GameStatus::Finished => Ok((p, g)),
        _ => Err(super::places::dead_link()),
    }
}

/// The page an offer's link opens (opening it changes nothing).
pub(super) async fn page(ctx: &Ctx, tx: &mut PgConnection, p: PlaceRow) -> Result<PlacePage, ServiceError> {
    let (p, g) = live_offer(ctx, tx, p).await?;
    let seats = store::games::seats(tx, g.id).await?.len();
    Ok(PlacePage {
        game: g.name.clone(),
        engine: engine_of(&g)?.title().to_string(),
        seats: i16::try_from(seats).unwrap_or(i16::MAX),
        kind: p.kind,
        name: String::new(),
        seat: p.seat,
    })
}

/// Someone with an offer's link takes its seat with their name and address, once (RULING W61):
/// the seat's number.
pub async fn take_offer(ctx: &Ctx, token: &SecretToken, player: &Mailbox) -> Result<u8, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let p =
        store::waiting::place_by_token(&mut tx, &token.hash()).await?.ok_or_else(super::places::dead_link)?;
    let (p, _) = live_offer(ctx, &mut tx, p).await?;
    let r = take(ctx, &mut tx, &p, player, "replacement seat taken by its link").await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(r.seat)
}
