//! Creating a game: seats, secret order links, turn 1, welcome mails.

use super::audit::{self, Actor};
use super::deadlines;
use super::notices;
use super::{Ctx, ServiceError};
use crate::domain::{EmailAddress, GameId, Mailbox, SecretToken, TurnLength};
use crate::engine::Seat;
use crate::engine::SetupSpec;
use crate::registry;
use crate::schedule::GameClock;
use crate::store;
use chrono::{DateTime, Utc};
use serde_json::json;

pub use crate::domain::Review;

/// A game to create.
#[derive(Debug, Clone)]
pub struct CreateGame {
    pub engine: String,
    pub name: String,
    pub gm: EmailAddress,
    pub players: Vec<Mailbox>,
    pub seed: Option<u64>,
    pub turn_length: TurnLength,
    pub review: Review,
    pub options: serde_json::Value,
    /// Deadlines, reminders and NMR handling; `GameClock::default()` for the server's defaults.
    pub clock: GameClock,
}

/// A created seat, with the only copy of its secret.
#[derive(Debug, Clone)]
pub struct CreatedSeat {
    pub seat: u8,
    pub player: Mailbox,
    pub token: SecretToken,
    pub link: String,
}

/// What creating a game returns.
#[derive(Debug, Clone)]
pub struct CreatedGame {
    pub id: GameId,
    pub seed: u64,
    pub deadline: DateTime<Utc>,
    pub seats: Vec<CreatedSeat>,
}

/// A game's name, trimmed: 1 to 200 characters of text.
pub(super) fn game_name(name: &str) -> Result<&str, ServiceError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err(ServiceError::BadInput("a game name is 1 to 200 characters of text".into()));
    }
    Ok(name)
}

/// Creates a game, its seats and turn 1, and queues a welcome mail with the private order link
/// to every player — all in one transaction.
pub async fn create_game(ctx: &Ctx, req: CreateGame) -> Result<CreatedGame, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let created = create_game_in(ctx, &mut tx, GameId::new(), req).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    tracing::info!(game.id = %created.id, seats = created.seats.len(), "game created");
    Ok(created)
}

/// [`create_game`] in the caller's transaction, under a given id: a game that waited for its
/// seats starts under the id it waited with (issue 37), its audit log going on.
pub(super) async fn create_game_in(
    ctx: &Ctx,
    tx: &mut sqlx::PgConnection,
    id: GameId,
    req: CreateGame,
) -> Result<CreatedGame, ServiceError> {
    let now = ctx.now();
    let engine = registry::find(&req.engine).map_err(|e| ServiceError::BadInput(e.to_string()))?;
    let name = game_name(&req.name)?;
    let seats_n = u8::try_from(req.players.len()).unwrap_or(u8::MAX);
    let seed = req.seed.unwrap_or_else(rand::random);
    let spec = SetupSpec { seats: seats_n, options: req.options.clone() };
    let state = engine.setup(&spec, seed).map_err(|e| ServiceError::BadInput(e.to_string()))?;
    let acting: Vec<Seat> = engine.acting_seats(&state)?;
    let spec_json = serde_json::to_value(&spec).map_err(|e| ServiceError::Internal(e.to_string()))?;

    store::games::insert_game(
        &mut *tx,
        &store::games::NewGame {
            id,
            name,
            engine: engine.slug(),
            rules_version: i32::try_from(engine.rules_version()).unwrap_or(i32::MAX),
            seed: seed as i64,
            setup: &spec_json,
            gm_email: req.gm.as_str(),
            review: req.review,
            turn_length_secs: req.turn_length.seconds(),
            state: &state,
            clock: &req.clock,
        },
    )
    .await?;
    store::lifecycle::set_absence_approval(&mut *tx, id, req.clock.absence_approval).await?;
    let mut seats = Vec::new();
    for (i, player) in req.players.into_iter().enumerate() {
        let seat = u8::try_from(i + 1).unwrap_or(u8::MAX);
        let token = ctx.seat_token(id, Seat(seat), 1);
        store::games::insert_seat(
            &mut *tx,
            id,
            Seat(seat),
            &player.name,
            player.email.as_str(),
            &token.hash(),
        )
        .await?;
        seats.push(CreatedSeat { seat, link: ctx.seat_link(&token), player, token });
    }
    let g = super::load_game(&mut *tx, id).await?;
    let deadline = super::turn::open_turn(&mut *tx, &g, 1, &state, 0, &acting, now).await?;
    let detail = json!({
        "engine": engine.slug(), "seed": seed.to_string(), "seats": seats.len(),
        "rhythm": g.rhythm, "nmr_policy": g.nmr_policy, "review": g.review,
    });
    audit::record(&mut *tx, now, id, Actor::Gm(req.gm.as_str()), "game created", detail).await?;
    let calendar = deadlines::calendar(ctx, &g, 1, deadline, 0);
    for s in &seats {
        // RULING P8: the welcome mail is stored with placeholders for the link and reply address.
        let mut mail = notices::welcome(
            &ctx.settings,
            name,
            id,
            engine,
            s.seat,
            &s.player,
            &req.turn_length,
            &deadlines::words(&g, None, deadline),
            super::dice::commitment_line(engine, &g, 1, 0),
        )?;
        mail.calendar = Some(calendar.clone());
        notices::queue(&mut *tx, &ctx.settings, &mail).await?;
    }
    Ok(CreatedGame { id, seed, deadline, seats })
}
