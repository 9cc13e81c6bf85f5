//! The picture of the table after a published turn, for its stable address
//! (`/games/{id}/turns/{n}/table.svg`, issue 16): always the public drawing, never a seat's; and
//! the whole picture of the table now as a viewer may see it, the full size of the parts a page
//! shows (issue 36).

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

/// The whole picture of `game`'s table now as `viewer` may see it (a seat's own, with its hand,
/// only for that seat: the caller has proven who it is). A game whose engine draws nothing is
/// `None`.
pub async fn current_picture(
    conn: &mut PgConnection,
    game: GameId,
    viewer: Viewer,
) -> Result<Option<String>, ServiceError> {
    let g = load_game(conn, game).await?;
    Ok(engine_of(&g)?.draw(&g.state, viewer)?)
}
