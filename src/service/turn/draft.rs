//! Reading a turn for a step of its lifecycle: the game's current turn locked, its draft decoded.

use super::state::{Step, next_phase};
use crate::domain::GameId;
use crate::registry::TurnOutcome;
use crate::service::{ServiceError, load_game};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use sqlx::PgConnection;

/// The draft of a closed turn, decoded.
pub(crate) fn draft_of(turn: &TurnRow) -> Result<TurnOutcome, ServiceError> {
    let draft = turn
        .draft
        .as_ref()
        .ok_or_else(|| ServiceError::Conflict(format!("turn {} has no draft", turn.number)))?;
    Ok(draft.0.clone())
}

/// The current turn of `g`, locked for a change.
pub(crate) async fn lock_current(conn: &mut PgConnection, g: &GameRow) -> Result<TurnRow, ServiceError> {
    store::turns::lock_turn(conn, g.id, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(g.id, g.current_turn))
}

/// The game's current turn, locked, with its draft, when its phase allows `step` (publishing).
pub(crate) async fn lock_draft(
    conn: &mut PgConnection,
    game: GameId,
    step: Step,
) -> Result<(GameRow, TurnRow, TurnOutcome), ServiceError> {
    let g = load_game(conn, game).await?;
    let turn = lock_current(conn, &g).await?;
    next_phase(&turn, step)?;
    let outcome = draft_of(&turn)?;
    Ok((g, turn, outcome))
}
