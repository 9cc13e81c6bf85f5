//! The service layer: what a GM or player can do, as functions over the database and an engine.
//!
//! Web handlers, console commands and the scheduler (and later inbound mail) are thin and call
//! these same functions. Each function that changes a game runs in one transaction; mail is
//! queued in the outbox inside it and sent after commit.

mod absences;
pub mod audit;
mod create;
mod ctx;
mod dashboard;
mod deadlines;
pub mod dice;
pub mod diff;
mod error;
pub mod export;
pub mod feeds;
pub mod gm_access;
pub mod gm_auth;
mod guides;
pub mod health;
mod held_pngs;
pub mod home;
mod home_mail;
pub mod inbound;
mod intake_batch;
mod intake_cache;
mod key_rotation;
pub mod lifecycle;
mod listings;
pub mod mail_secrets;
mod notices;
pub mod order_pages;
pub mod orders_preview;
mod password_check;
pub mod pictures;
mod published;
pub mod server_key;
pub mod signin_limits;
pub mod signin_links;
mod submit;
mod submit_fast;
pub mod turn;
pub mod undelivered;
mod views;
pub mod waiting;
pub mod webhooks;
mod your_move;

pub use crate::domain::nmr_policy as policy;
pub use crate::schedule::GameClock;
pub use create::{CreateGame, CreatedGame, CreatedSeat, Review, create_game};
pub use ctx::{Ctx, Shutdown, ShutdownSwitch};
pub use dashboard::{
    Dashboard, DashboardGame, DashboardTurn, SeatStatus, authorize_gm, dashboard, inbound_raw,
};
pub use error::ServiceError;
pub use guides::{OrderGuide, order_guide};
pub use held_pngs::Picture;
pub use key_rotation::{Rotated, rotate_key};
pub use listings::{AbsenceRequest, GameSummary, InboundView, MailView, TurnSummary, VersionView};
pub use pictures::{Renderer, current_picture, turn_picture};
pub use published::{
    PublishedLine, PublishedPage, PublishedSheet, disclose, disclose_turn, published_orders,
};
pub use submit::{
    SeatAuth, Submitted, authenticate_seat, authenticate_seat_hash, mark_final, seat_by_number,
    submit_orders, submit_with_token,
};
pub use turn::{
    CloseOutcome, close_due_turns, close_turn, correct_state, guard_outage, publish_turn, questions,
    rollback, run_due_timers,
};
pub use views::{
    ExportedSeat, GameExport, PublicGame, SeatPage, SeatReport, export_game, games_of_gm, outbox_mail,
    outbox_recent, public_game, recent_games, seat_page, seat_report,
};

use crate::domain::GameId;
use crate::registry::{self, DynGame};
use crate::store::games::GameRow;
use sqlx::PgConnection;

/// Where a submission came from (stored with every order version).
pub use crate::domain::OrderSource as Source;

/// Loads a game row or says it does not exist.
pub(crate) async fn load_game(conn: &mut PgConnection, id: GameId) -> Result<GameRow, ServiceError> {
    crate::store::games::get_game(conn, id).await?.ok_or(ServiceError::GameNotFound(id))
}

/// The engine a stored game was created with, able to play the rules version it was stored
/// under (RULINGS S15).
pub(crate) fn engine_of(game: &GameRow) -> Result<&'static dyn DynGame, ServiceError> {
    stored_engine(&game.engine, game.rules_version)
}

/// [`engine_of`] from the two columns it reads.
pub(crate) fn stored_engine(engine: &str, rules_version: i32) -> Result<&'static dyn DynGame, ServiceError> {
    let version = u32::try_from(rules_version).unwrap_or(0);
    registry::for_stored(engine, version).map_err(|e| ServiceError::Internal(e.to_string()))
}
