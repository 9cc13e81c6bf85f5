//! The picture of the table after a published turn, for its stable address
//! (`/games/{id}/turns/{n}/table.svg`, issue 16): always the public drawing, never a seat's.

use super::{ServiceError, engine_of, load_game};
use crate::domain::{GameId, TurnStatus};
use crate::engine::Viewer;
use crate::store;
use sqlx::PgConnection;

/// The public drawing of the state after published turn `turn` of `game`. A turn that is not
/// published (open, held, a draft, failed) or does not exist is [`ServiceError::TurnNotFound`],
/// and so is a game whose engine draws nothing.
pub async fn turn_picture(conn: &mut PgConnection, game: GameId, turn: i32) -> Result<String, ServiceError> {
    let g = load_game(conn, game).await?;
    let engine = engine_of(&g)?;
    let row = store::turns::get_turn(conn, game, turn).await?;
    let outcome = row
        .filter(|t| t.status == TurnStatus::Published)
        .and_then(|t| t.draft)
        .ok_or(ServiceError::TurnNotFound(game, turn))?;
    engine.draw(&outcome.state, Viewer::Public)?.ok_or(ServiceError::TurnNotFound(game, turn))
}
