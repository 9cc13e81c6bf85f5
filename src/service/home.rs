//! A player's home (issue 37): every game and seat of one address, as its player may see them —
//! engine, game, turn, deadline in the seat's zone (as the seat page words it), whether orders
//! are in and final, the last report's subject — for the home page (`web::home`, reached by
//! signing in with a mailed link: `signin_links`, realm `Home`) and the `GAMES` mail
//! (`inbound::games`). Nothing another seat may not see (RULING W53).

use super::{Ctx, ServiceError, deadlines, engine_of, load_game};
use crate::domain::{GameId, GameStatus, TurnStatus};
use crate::engine::Seat;
use crate::store;
use sqlx::PgConnection;

/// A seat's orders for its game's current turn, as its home shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrdersOnFile {
    /// The seat does not act this turn (or no turn is open).
    NotNeeded,
    /// It acts and has sent nothing yet.
    Missing,
    /// Its latest version, not marked final.
    In(i32),
    /// Its latest version, marked final.
    Final(i32),
}

impl std::fmt::Display for OrdersOnFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrdersOnFile::NotNeeded => f.write_str("No orders needed"),
            OrdersOnFile::Missing => f.write_str("No orders yet"),
            OrdersOnFile::In(v) => write!(f, "Orders in (version {v}), not final"),
            OrdersOnFile::Final(v) => write!(f, "Orders in and final (version {v})"),
        }
    }
}

/// One seat on a player's home.
#[derive(Debug, Clone)]
pub struct HomeSeat {
    pub game_id: GameId,
    pub game: String,
    /// The engine's title.
    pub title: &'static str,
    pub seat: Seat,
    pub player: String,
    pub turn: i32,
    pub turn_status: TurnStatus,
    /// The turn's deadline in the seat's zone (or the game's), as the seat page shows it.
    pub deadline: String,
    pub finished: bool,
    pub orders: OrdersOnFile,
    /// The seat's last report: its turn and subject.
    pub last_report: Option<(i32, String)>,
    /// The seat page's path (its private link, derived from the key; never stored, RULING P8).
    pub link: String,
}

/// Every seat the address has now, the games still played first (RULING W53: a replaced seat is
/// its new address's, not the old one's).
pub async fn seats_of(
    conn: &mut PgConnection,
    ctx: &Ctx,
    email: &str,
) -> Result<Vec<HomeSeat>, ServiceError> {
    let mut out = Vec::new();
    for s in store::home::seats_of(conn, email).await? {
        let g = load_game(conn, s.game_id).await?;
        let engine = engine_of(&g)?;
        let turn = store::turns::get_turn(conn, g.id, g.current_turn)
            .await?
            .ok_or(ServiceError::TurnNotFound(g.id, g.current_turn))?;
        let finished = g.status == GameStatus::Finished;
        let orders = if finished || turn.status != TurnStatus::Open || !turn.acting_seats.contains(&s.seat) {
            OrdersOnFile::NotNeeded
        } else {
            match store::orders::latest_of_seat(conn, g.id, turn.number, s.seat).await? {
                None => OrdersOnFile::Missing,
                Some(v) if v.is_final => OrdersOnFile::Final(v.version),
                Some(v) => OrdersOnFile::In(v.version),
            }
        };
        let last_report = store::games::report_turns_of_seat(conn, g.id, s.seat).await?.pop();
        out.push(HomeSeat {
            game_id: g.id,
            title: engine.title(),
            seat: s.seat,
            player: s.player_name,
            turn: turn.number,
            turn_status: turn.status,
            deadline: deadlines::words(&g, s.time_zone.as_deref(), turn.deadline),
            finished,
            orders,
            last_report,
            link: Ctx::seat_path(&ctx.seat_token(g.id, s.seat, s.token_generation)),
            game: g.name,
        });
    }
    Ok(out)
}

/// The home of the address a home session belongs to.
pub async fn home_of(ctx: &Ctx, email: &str) -> Result<Vec<HomeSeat>, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    seats_of(&mut conn, ctx, email).await
}
