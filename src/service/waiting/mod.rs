//! Games that wait for their seats (issue 37): a GM opens one from the web with seats invited by
//! address or left open (`open_game`); it is created as every game is — by
//! `create::create_game_in`, under the id it waited with — once its seats are filled, or when the
//! GM starts it early with fewer players where the rules allow; the GM may cancel it. Files:
//! `places` (invitations answered, requests to join, the waiting list, expiry), `mail` (what the
//! players and the GM are told), `views` (the GM's page, the public list of open games),
//! `replacement` (a running game's seat offered by a link or to the waiting list, RULING W61).

pub(crate) mod by_mail;
mod form;
mod mail;
mod places;
mod replacement;
mod views;

pub use form::options_from_form;
pub use places::{
    PlaceAnswer, PlaceOutcome, PlacePage, answer_place, approve, ask_to_join, expire_overdue, place_page,
};
pub use replacement::{Offered, open_seat, take_offer};
pub use views::{
    OpenGame, WaitingPlace, WaitingView, open_game_page, open_games, waiting_of_gm, waiting_view,
};

use super::audit::{self, Actor};
use super::create::{CreateGame, create_game_in, game_name};
use super::gm_access::{self, Gm};
use super::{Ctx, ServiceError};
use crate::domain::{
    EmailAddress, GameId, Mailbox, PlaceKind, PlaceStatus, Review, TurnLength, WaitingStatus,
};
use crate::engine::{SetupSpec, seating_key, shuffle_seating};
use crate::registry;
use crate::schedule::ClockWords;
use crate::store;
use crate::store::waiting::{PlaceRow, WaitingRow};
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgConnection;
use std::collections::BTreeSet;

/// How long an invitation stands (RULING W45).
pub const INVITATION_DAYS: i64 = 7;
/// How long a request to join waits for its confirmation (RULING W46).
pub const CONFIRM_HOURS: i64 = 24;

/// A game to open for seats, as the GM's "New game" form gives it.
#[derive(Debug, Clone)]
pub struct NewWaitingGame {
    pub engine: String,
    pub name: String,
    /// Seats wanted: the invited addresses, and open seats for the rest.
    pub seats: u8,
    /// Seats offered by address, in seating order.
    pub invited: Vec<Mailbox>,
    /// The engine's options (checked by the engine's setup, as `game create --options` is).
    pub options: Value,
    pub clock: ClockWords,
    pub review: Review,
    /// Seat the players in an order shuffled with the game's seed (RULING W44), else as given.
    pub shuffle: bool,
    /// Players who ask to join wait for the GM's approval.
    pub approval: bool,
}

/// The SHA-256 of the seating key, published while the game waits (RULING W44).
pub fn seating_commitment(seed: u64) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(seating_key(seed)))
}

/// Opens a game for its seats: checks everything `create_game` will (engine, seat count, options,
/// clock words), stores it, invites the addresses given (each a mail with its own links) and
/// records it all in the game's audit log.
pub async fn open_game(ctx: &Ctx, gm: &Gm, req: NewWaitingGame) -> Result<GameId, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    if !gm_access::may_create(&mut tx, &ctx.settings.creation, &gm.email).await? {
        return Err(ServiceError::Forbidden(
            "this address may not create games here; the server's operator can invite it".into(),
        ));
    }
    let engine = registry::find(&req.engine).map_err(|e| ServiceError::BadInput(e.to_string()))?;
    let name = game_name(&req.name)?;
    let counts = engine.seat_counts();
    if !counts.contains(&req.seats) {
        return Err(ServiceError::BadInput(format!(
            "{} is played by {} to {} players, not {}",
            engine.title(),
            counts.start(),
            counts.end(),
            req.seats
        )));
    }
    if req.invited.len() > usize::from(req.seats) {
        return Err(ServiceError::BadInput(format!(
            "{} addresses invited for {} seats",
            req.invited.len(),
            req.seats
        )));
    }
    let mut seen = BTreeSet::new();
    if let Some(twice) = req.invited.iter().find(|m| !seen.insert(m.email.as_str().to_lowercase())) {
        return Err(ServiceError::BadInput(format!("{} is invited twice", twice.email)));
    }
    req.clock.parse().map_err(|e| ServiceError::BadInput(e.to_string()))?;
    turn_length(&req.clock.deadline)?;
    let seed: u64 = rand::random();
    let spec = SetupSpec { seats: req.seats, options: req.options.clone() };
    engine.setup(&spec, seed).map_err(|e| ServiceError::BadInput(e.to_string()))?;

    let id = GameId::new();
    let row = WaitingRow {
        id,
        gm_email: gm.email.clone(),
        name: name.to_string(),
        engine: engine.slug().to_string(),
        options: req.options.clone(),
        clock_words: sqlx::types::Json(req.clock.clone()),
        review: req.review,
        seats: i16::from(req.seats),
        seed: seed as i64,
        shuffle: req.shuffle,
        approval: req.approval,
        status: WaitingStatus::Waiting,
        created_at: now,
    };
    store::waiting::insert(&mut tx, &row).await?;
    let detail = json!({
        "engine": engine.slug(), "name": name, "seats": req.seats, "invited": req.invited.len(),
        "open": usize::from(req.seats) - req.invited.len(), "options": req.options,
        "clock": req.clock, "review": req.review,
        "seating": if req.shuffle { "shuffled" } else { "as given" },
        // RULING W44: the key's hash now, the key when the game starts.
        "seating_commitment": seating_commitment(seed), "approval": req.approval,
    });
    audit::record(&mut tx, now, id, Actor::Gm(&gm.email), "game opened for seats", detail).await?;
    for player in &req.invited {
        places::invite(ctx, &mut tx, &row, player, now).await?;
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    tracing::info!(game.id = %id, game.engine = engine.slug(), "game opened for seats");
    Ok(id)
}

/// Whether `gm` runs the waiting game `w`: its GM, a co-GM (RULING W62) or the operator
/// (RULING W42).
async fn runs(conn: &mut PgConnection, w: &WaitingRow, gm: &Gm) -> Result<(), ServiceError> {
    if gm.operator
        || w.gm_email.eq_ignore_ascii_case(&gm.email)
        || store::gm_roles::runs_game(conn, w.id, &gm.email).await?
    {
        return Ok(());
    }
    Err(ServiceError::Forbidden("only the game's GM can open its page or act on it".into()))
}

/// The waiting game, locked, if `gm` may act on it: its GM, a co-GM or the operator (RULINGS
/// W42, W62).
pub(crate) async fn authorized(
    tx: &mut PgConnection,
    id: GameId,
    gm: &Gm,
) -> Result<WaitingRow, ServiceError> {
    let w = store::waiting::lock(tx, id).await?.ok_or(ServiceError::GameNotFound(id))?;
    runs(tx, &w, gm).await?;
    if w.status != WaitingStatus::Waiting {
        return Err(ServiceError::Conflict(format!("this game is {} already", w.status)));
    }
    Ok(w)
}

/// The waiting game, unlocked, if `gm` may see it: its GM, a co-GM or the operator (RULINGS W42,
/// W62).
async fn authorized_read(conn: &mut PgConnection, id: GameId, gm: &Gm) -> Result<WaitingRow, ServiceError> {
    let w = store::waiting::get(conn, id).await?.ok_or(ServiceError::GameNotFound(id))?;
    runs(conn, &w, gm).await?;
    Ok(w)
}

/// The GM starts the game now with the players who hold a seat, where the rules allow that many
/// (RULING W47).
pub async fn start_now(ctx: &Ctx, id: GameId, gm: &Gm) -> Result<(), ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let w = authorized(&mut tx, id, gm).await?;
    let seated = seated(&store::waiting::places(&mut tx, id).await?);
    let engine = registry::find(&w.engine).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let n = u8::try_from(seated.len()).unwrap_or(u8::MAX);
    if !engine.seat_counts().contains(&n) {
        return Err(ServiceError::BadInput(format!(
            "{} is played by {} to {} players; {} hold a seat",
            engine.title(),
            engine.seat_counts().start(),
            engine.seat_counts().end(),
            seated.len()
        )));
    }
    audit::record(&mut tx, ctx.now(), id, Actor::Gm(&gm.email), "started early", json!({ "players": n }))
        .await?;
    start_in(ctx, &mut tx, &w, seated).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    ctx.turn_wake.notify_one();
    Ok(())
}

/// The GM cancels a waiting game: every place is withdrawn, and those who hold a seat or an
/// invitation are told.
pub async fn cancel(ctx: &Ctx, id: GameId, gm: &Gm) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let w = authorized(&mut tx, id, gm).await?;
    for p in store::waiting::places(&mut tx, id).await? {
        if p.status.holds_seat() || p.status == PlaceStatus::Waitlisted {
            mail::cancelled(ctx, &mut tx, &w, &p).await?;
        }
    }
    withdraw_open_places(&mut tx, id, now, false).await?;
    store::waiting::close(&mut tx, id, WaitingStatus::Cancelled, now).await?;
    audit::record(&mut tx, now, id, Actor::Gm(&gm.email), "game cancelled", json!({})).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// The places that hold a seat, in seating order as given (RULING W44): the invited in the order
/// the GM listed them, then the players who joined in the order they took their seats.
fn seated(places: &[PlaceRow]) -> Vec<PlaceRow> {
    let mut v: Vec<PlaceRow> = places.iter().filter(|p| p.status == PlaceStatus::Accepted).cloned().collect();
    v.sort_by_key(|p| {
        (p.kind == PlaceKind::Joined, if p.kind == PlaceKind::Joined { p.answered_at } else { None }, p.id)
    });
    v
}

/// Starts the game when every seat it waits for is taken.
async fn start_if_full(ctx: &Ctx, tx: &mut PgConnection, w: &WaitingRow) -> Result<bool, ServiceError> {
    let seated = seated(&store::waiting::places(tx, w.id).await?);
    if seated.len() < usize::try_from(w.seats).unwrap_or(usize::MAX) {
        return Ok(false);
    }
    start_in(ctx, tx, w, seated).await?;
    ctx.turn_wake.notify_one();
    Ok(true)
}

/// Seats the players (shuffled with the seating key when asked, RULING W44), creates the game
/// through the one creation path, and closes the waiting game.
async fn start_in(
    ctx: &Ctx,
    tx: &mut PgConnection,
    w: &WaitingRow,
    seated: Vec<PlaceRow>,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut players = seated
        .iter()
        .map(|p| {
            let email = EmailAddress::parse(p.email.as_deref().unwrap_or_default())
                .map_err(|e| ServiceError::Internal(format!("a stored place's address: {e}")))?;
            Ok(Mailbox { name: p.name.clone().unwrap_or_else(|| email.as_str().to_string()), email })
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    let seed = w.seed as u64;
    let given: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
    if w.shuffle {
        shuffle_seating(seating_key(seed), &mut players);
    }
    let detail = json!({
        "order_given": given,
        "seating": players.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        "shuffled": w.shuffle,
        "seating_key": w.shuffle.then(|| data_encoding::HEXLOWER.encode(&seating_key(seed))),
    });
    audit::record(tx, now, w.id, Actor::Server, "players seated", detail).await?;
    let clock =
        w.clock_words.0.parse().map_err(|e| ServiceError::Internal(format!("stored clock words: {e}")))?;
    let req = CreateGame {
        engine: w.engine.clone(),
        name: w.name.clone(),
        gm: EmailAddress::parse(&w.gm_email).map_err(|e| ServiceError::Internal(e.to_string()))?,
        players,
        seed: Some(seed),
        turn_length: turn_length(&w.clock_words.0.deadline)?,
        review: w.review,
        options: w.options.clone(),
        clock,
    };
    create_game_in(ctx, tx, w.id, req).await?;
    // RULING W61: the waiting list stays, for the seats the GM may offer as replacements.
    withdraw_open_places(tx, w.id, now, true).await?;
    for p in store::waiting::places(tx, w.id).await? {
        if p.status == PlaceStatus::Waitlisted {
            mail::still_waiting(ctx, tx, w, &p).await?;
        }
    }
    store::waiting::close(tx, w.id, WaitingStatus::Started, now).await?;
    Ok(())
}

/// Every place not holding a seat that could still change is withdrawn (the game started or was
/// cancelled): its link stops working. The waiting list stays when `keep_waiting_list` (RULING
/// W61).
async fn withdraw_open_places(
    tx: &mut PgConnection,
    id: GameId,
    now: DateTime<Utc>,
    keep_waiting_list: bool,
) -> Result<(), ServiceError> {
    for p in store::waiting::places(tx, id).await? {
        let open =
            matches!(p.status, PlaceStatus::Pending | PlaceStatus::Unconfirmed | PlaceStatus::Unapproved);
        if open || (p.status == PlaceStatus::Waitlisted && !keep_waiting_list) {
            store::waiting::set_status(tx, p.id, PlaceStatus::Withdrawn, now).await?;
        }
    }
    Ok(())
}

/// A turn length from the GM's words, as a bad-input error.
fn turn_length(words: &str) -> Result<TurnLength, ServiceError> {
    words.trim().parse::<TurnLength>().map_err(|e| ServiceError::BadInput(format!("turn length: {e}")))
}
