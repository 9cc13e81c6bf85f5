//! Which seat an inbound mail is for: a signed reply address it was delivered to (its envelope
//! recipient, when known; else its recipient headers), else an `ORDERS <game> <seat> <token>`
//! line — and whether its credentials hold, read through the placeholders the stored message
//! holds instead (RULING M11).

use crate::domain::{GameId, ReplyAddress};
use crate::engine::Seat;
use crate::inbound_mail::{MailCommands, ParsedMail};
use crate::service::{Ctx, SeatAuth, ServiceError};
use crate::store;
use sqlx::PgConnection;

/// Where a mail goes.
pub(super) enum Route {
    Seat(Routed),
    /// A seat was named, but its credentials are wrong: tell its registered player.
    Forged(Routed, String),
    Nowhere(String),
}

/// The seat a mail was routed to, with the generation of its reply addresses (for the answer's
/// own signed reply address).
pub(super) struct Routed {
    pub(super) auth: SeatAuth,
    pub(super) generation: i32,
}

/// Finds the seat a mail is for: a signed reply address among its recipients, else an
/// `ORDERS <game> <seat> <token>` line.
pub(super) async fn route(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &store::inbound::InboundRow,
    mail: &ParsedMail,
    c: &MailCommands,
) -> Result<Route, ServiceError> {
    // RULING M6: an envelope recipient in our reply domain is where the MTA delivered the mail;
    // the To, Cc, Delivered-To and X-Original-To headers are the sender's to write and count only
    // without one (IMAP, or mail that reached the pipe through an address of another domain).
    // Either way a reply address counts only with its valid signature.
    let domain = format!("@{}", ctx.settings.reply_domain().trim().to_lowercase());
    let envelope: Vec<String> =
        row.envelope_to.iter().map(|s| s.trim().to_lowercase()).filter(|s| s.ends_with(&domain)).collect();
    let candidates = if envelope.is_empty() { mail.recipients.clone() } else { envelope };
    // RULING M11: the stored message holds placeholders; the row says what each stands for.
    let sealed = row.secrets();
    for address in candidates.iter().filter_map(|a| ReplyAddress::parse(a)) {
        let Some(seat) = seat_of(tx, address.game, address.seat).await? else { continue };
        if ctx.reply_tag_valid(&address, seat.generation, &sealed) {
            return Ok(Route::Seat(seat));
        }
        return Ok(Route::Forged(seat, "it was sent to a reply address whose signature is not valid".into()));
    }
    if let Some(t) = &c.token {
        let (Ok(game), Ok(n)) = (t.game.parse::<GameId>(), t.seat.parse::<u8>()) else {
            return Ok(Route::Nowhere("an ORDERS line names no valid game and seat".into()));
        };
        let Some(seat) = seat_of(tx, game, n).await? else {
            return Ok(Route::Nowhere("an ORDERS line names a seat that does not exist".into()));
        };
        return Ok(
            match crate::service::authenticate_seat_hash(tx, Some(game), &sealed.digest(&t.token)).await {
                Ok(s) if s.seat == seat.auth.seat => {
                    Route::Seat(Routed { auth: s, generation: seat.generation })
                }
                _ => Route::Forged(seat, "its ORDERS line carries a wrong token".into()),
            },
        );
    }
    Ok(Route::Nowhere("not sent to a seat's reply address and no ORDERS line".into()))
}

/// The seat with its reply-address generation, if the game has it.
async fn seat_of(tx: &mut PgConnection, game: GameId, seat: u8) -> Result<Option<Routed>, ServiceError> {
    let row = store::games::seats(tx, game).await?.into_iter().find(|s| s.seat == Seat(seat));
    Ok(row.map(|s| Routed {
        auth: SeatAuth {
            game,
            seat: Seat(seat),
            player_name: s.player_name,
            email: s.email,
            time_zone: s.time_zone,
        },
        generation: s.token_generation,
    }))
}
