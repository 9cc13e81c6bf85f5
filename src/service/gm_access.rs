//! Who may create and run games (issue 37, RULING W42): the operator (a setting) may create games
//! and sees and changes every game; an address the operator invited (`gm invite`), or any
//! confirmed address when the operator opened creation to all, may create games; a game's GM and
//! its co-GMs see and change that game alone.

use super::audit::{self, Actor};
use super::{Ctx, ServiceError, load_game};
use crate::config::CreationSettings;
use crate::domain::{EmailAddress, GameId};
use crate::store;
use crate::store::games::GameRow;
use serde_json::json;
use sqlx::PgConnection;

/// A signed-in GM: the address, and whether it is the operator's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gm {
    pub email: String,
    /// The operator sees and changes every game.
    pub operator: bool,
}

impl Gm {
    /// The GM signed in as `email`, under the server's settings.
    pub fn new(settings: &CreationSettings, email: &str) -> Gm {
        Gm { email: email.to_string(), operator: settings.is_operator(email) }
    }

    /// A GM who is not the operator (tests, the console acting for a named GM).
    pub fn plain(email: &str) -> Gm {
        Gm { email: email.to_string(), operator: false }
    }
}

/// Checks that `gm` runs `game` (its GM, a co-GM, or the operator); returns the game. Anyone
/// else gets the same refusal whether or not the game exists beyond its id.
pub async fn authorize(conn: &mut PgConnection, game: GameId, gm: &Gm) -> Result<GameRow, ServiceError> {
    let g = load_game(conn, game).await?;
    if !gm.operator && !store::gm_roles::runs_game(conn, game, &gm.email).await? {
        return Err(ServiceError::Forbidden("only the game's GM can open its dashboard or act on it".into()));
    }
    Ok(g)
}

/// Whether the address may create games: the operator, an invited address, or — when creation
/// is open — any address that signed in (a mailed link confirms it; RULING W42).
pub async fn may_create(
    conn: &mut PgConnection,
    settings: &CreationSettings,
    email: &str,
) -> Result<bool, ServiceError> {
    Ok(settings.open_creation
        || settings.is_operator(email)
        || store::gm_roles::is_invited_creator(conn, email).await?)
}

/// Whether the address may sign in to the GM's pages: it runs a game, or may create one.
pub async fn may_sign_in(
    conn: &mut PgConnection,
    settings: &CreationSettings,
    email: &str,
) -> Result<bool, ServiceError> {
    Ok(store::gm::is_gm(conn, email).await? || may_create(conn, settings, email).await?)
}

/// `gm invite`: the address may create games from now on.
pub async fn invite_creator(ctx: &Ctx, email: &EmailAddress) -> Result<(), ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    store::gm_roles::invite_creator(&mut conn, email.as_str(), ctx.now()).await?;
    tracing::info!("an address was invited to create games");
    Ok(())
}

/// `gm revoke`: the address may no longer create games (the games it runs stay its own). False
/// when it had no invitation in force.
pub async fn revoke_creator(ctx: &Ctx, email: &EmailAddress) -> Result<bool, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    let revoked = store::gm_roles::revoke_creator(&mut conn, email.as_str(), ctx.now()).await?;
    tracing::info!(revoked, "an invitation to create games was revoked");
    Ok(revoked)
}

/// Adds a co-GM to a game, by one who runs it (or the console, `by` = None); recorded in the
/// game's audit log. Adding one twice changes nothing. True when the game still waits for its
/// seats (RULING W62).
pub async fn add_co_gm(
    ctx: &Ctx,
    game: GameId,
    by: Option<&Gm>,
    co_gm: &EmailAddress,
) -> Result<bool, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let running = store::games::get_game(&mut tx, game).await?;
    let waiting = running.is_none();
    let gm_email = match (running, by) {
        (Some(_), Some(gm)) => authorize(&mut tx, game, gm).await?.gm_email,
        (Some(g), None) => g.gm_email,
        // RULING W62: a game still waiting for its seats has co-GMs too.
        (None, Some(gm)) => super::waiting::authorized(&mut tx, game, gm).await?.gm_email,
        (None, None) => {
            store::waiting::get(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?.gm_email
        }
    };
    if gm_email.eq_ignore_ascii_case(co_gm.as_str()) {
        return Err(ServiceError::BadInput(format!("{co_gm} is this game's GM already")));
    }
    let by_label = by.map_or("console", |gm| gm.email.as_str());
    if store::gm_roles::add_co_gm(&mut tx, game, co_gm.as_str(), by_label, now).await? {
        audit::record(
            &mut tx,
            now,
            game,
            Actor::Gm(by_label),
            "co-GM added",
            json!({ "co_gm": co_gm.as_str() }),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(waiting)
}

/// A game's co-GMs, for its dashboard.
pub async fn co_gms(conn: &mut PgConnection, game: GameId) -> Result<Vec<String>, ServiceError> {
    Ok(store::gm_roles::co_gms(conn, game).await?)
}
