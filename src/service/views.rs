//! Read-only views: a seat's own orders, published orders with salts, the export of a game.

use super::{ServiceError, SeatAuth, load_game};
use crate::domain::GameId;
use crate::engine::{LoggedAction, Seat, SetupSpec};
use crate::store;
use crate::store::orders::OrderVersionRow;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// Every version of a seat's orders for the game's current turn (only that seat may see them).
pub async fn seat_orders(conn: &mut PgConnection, who: &SeatAuth) -> Result<(i32, Vec<OrderVersionRow>), ServiceError> {
    let game = load_game(conn, who.game).await?;
    let v = store::orders::versions_of_seat(conn, who.game.0, game.current_turn, i16::from(who.seat.0)).await?;
    Ok((game.current_turn, v))
}

/// Every order version of a turn, with salts — only once the turn is published; before that,
/// sealed orders are nobody's business but their seat's.
pub async fn published_orders(conn: &mut PgConnection, game: GameId, turn: i32) -> Result<Vec<OrderVersionRow>, ServiceError> {
    let t = store::turns::get_turn(conn, game.0, turn).await?.ok_or(ServiceError::TurnNotFound(game, turn))?;
    if t.status != "published" {
        return Err(ServiceError::Forbidden(format!(
            "the orders of turn {turn} are sealed until the turn is published"
        )));
    }
    Ok(store::orders::all_of_turn(conn, game.0, turn).await?)
}

/// A seat as exported (names only; addresses and tokens stay on the server).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedSeat {
    pub seat: Seat,
    pub name: String,
}

/// A game as setup + action log: enough to replay it anywhere (`stationmaster replay`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameExport {
    pub engine: String,
    pub rules_version: u32,
    pub name: String,
    pub seed: u64,
    pub setup: SetupSpec,
    pub seats: Vec<ExportedSeat>,
    pub actions: Vec<LoggedAction>,
}

/// Exports a game's published history.
pub async fn export_game(conn: &mut PgConnection, game: GameId) -> Result<GameExport, ServiceError> {
    let g = load_game(conn, game).await?;
    let setup: SetupSpec =
        serde_json::from_value(g.setup.clone()).map_err(|e| ServiceError::Internal(format!("stored setup: {e}")))?;
    let seats = store::games::seats(conn, game.0)
        .await?
        .into_iter()
        .map(|s| ExportedSeat { seat: Seat(u8::try_from(s.seat).unwrap_or(0)), name: s.player_name })
        .collect();
    let actions = store::games::actions(conn, game.0)
        .await?
        .into_iter()
        .map(|a| LoggedAction {
            seq: u64::try_from(a.seq).unwrap_or(0),
            seat: Seat(u8::try_from(a.seat).unwrap_or(0)),
            action: a.action,
            by_default: a.by_default,
        })
        .collect();
    Ok(GameExport {
        engine: g.engine,
        rules_version: u32::try_from(g.rules_version).unwrap_or(0),
        name: g.name,
        seed: g.seed as u64,
        setup,
        seats,
        actions,
    })
}
