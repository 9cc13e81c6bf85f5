//! Read-only views: a seat's page, public games, the export of a game (order version lists are
//! in `order_pages`).

use super::listings::{GameSummary, MailView, TurnSummary, VersionView};
use super::{SeatAuth, ServiceError, load_game};
use crate::domain::{GameId, GameStatus, TurnStatus};
use crate::engine::{LoggedAction, Seat, SetupSpec};
use crate::store;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

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
    let setup: SetupSpec = serde_json::from_value(g.setup.clone())
        .map_err(|e| ServiceError::Internal(format!("stored setup: {e}")))?;
    let seats = store::games::seats(conn, game)
        .await?
        .into_iter()
        .map(|s| ExportedSeat { seat: s.seat, name: s.player_name })
        .collect();
    let actions = store::games::actions(conn, game)
        .await?
        .into_iter()
        .map(|a| LoggedAction {
            seq: u64::try_from(a.seq).unwrap_or(0),
            seat: a.seat,
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

/// What a seat sees on its private page.
pub struct SeatPage {
    pub game_id: GameId,
    pub game: String,
    pub title: &'static str,
    pub seat: Seat,
    pub player: String,
    pub turn: i32,
    pub turn_status: TurnStatus,
    pub deadline: chrono::DateTime<chrono::Utc>,
    /// The deadline in the player's zone (or the game's).
    pub deadline_local: String,
    /// The zone the player chose, if any.
    pub zone: Option<String>,
    pub acting: bool,
    /// The table as this seat may see it (its own hand included, nobody else's).
    pub table: String,
    /// This seat's latest order versions for the current turn (a page of them), newest first.
    pub versions: Vec<VersionView>,
    /// How many older versions are not on the page.
    pub older_versions: i64,
    pub finished: bool,
}

/// Builds a seat's private page.
pub async fn seat_page(conn: &mut PgConnection, who: &SeatAuth) -> Result<SeatPage, ServiceError> {
    let g = load_game(conn, who.game).await?;
    let engine = super::engine_of(&g)?;
    let turn = store::turns::get_turn(conn, who.game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(who.game, g.current_turn))?;
    let seat = who.seat;
    let page = super::order_pages::bound(super::order_pages::PAGE_SIZE);
    let versions = store::orders::page_of_seat(conn, who.game, turn.number, seat, None, page).await?;
    let total = store::orders::count_of_seat(conn, who.game, turn.number, seat).await?;
    Ok(SeatPage {
        older_versions: total - i64::try_from(versions.len()).unwrap_or(total),
        game_id: who.game,
        title: engine.title(),
        seat: who.seat,
        player: who.player_name.clone(),
        turn: turn.number,
        acting: turn.acting_seats.contains(&who.seat),
        turn_status: turn.status,
        deadline: turn.deadline,
        deadline_local: super::deadlines::words(&g, who.time_zone.as_deref(), turn.deadline),
        zone: who.time_zone.clone(),
        table: engine.describe(&g.state, crate::engine::Viewer::Seat(who.seat))?,
        versions: versions.into_iter().map(VersionView::from).collect(),
        finished: g.status == GameStatus::Finished,
        game: g.name,
    })
}

/// A game as anyone may see it.
pub struct PublicGame {
    pub game: GameSummary,
    pub title: &'static str,
    pub table: String,
    pub view: serde_json::Value,
    pub turns: Vec<TurnSummary>,
    pub seats: Vec<ExportedSeat>,
}

/// Builds the public view of a game (`viewer` may be a seat proven by its token, for the API).
pub async fn public_game(
    conn: &mut PgConnection,
    game: GameId,
    viewer: crate::engine::Viewer,
) -> Result<PublicGame, ServiceError> {
    let g = load_game(conn, game).await?;
    let engine = super::engine_of(&g)?;
    let turns = store::turns::turns_of_game(conn, game).await?.into_iter().map(TurnSummary::from).collect();
    let seats = store::games::seats(conn, game)
        .await?
        .into_iter()
        .map(|s| ExportedSeat { seat: s.seat, name: s.player_name })
        .collect();
    Ok(PublicGame {
        title: engine.title(),
        table: engine.describe(&g.state, viewer)?,
        view: engine.view(&g.state, viewer)?,
        game: g.into(),
        turns,
        seats,
    })
}

/// Recent games for the front page.
pub async fn recent_games(conn: &mut PgConnection) -> Result<Vec<GameSummary>, ServiceError> {
    Ok(store::games::list_games(conn, 100).await?.into_iter().map(GameSummary::from).collect())
}

/// The games a GM runs.
pub async fn games_of_gm(conn: &mut PgConnection, gm: &str) -> Result<Vec<GameSummary>, ServiceError> {
    Ok(store::games::games_of_gm(conn, gm).await?.into_iter().map(GameSummary::from).collect())
}

/// Recent outbox mail (dev mailbox).
pub async fn outbox_recent(conn: &mut PgConnection, limit: i64) -> Result<Vec<MailView>, ServiceError> {
    Ok(store::outbox::list_recent(conn, limit).await?.into_iter().map(MailView::from).collect())
}

/// One outbox mail (dev mailbox).
pub async fn outbox_mail(conn: &mut PgConnection, id: i64) -> Result<Option<MailView>, ServiceError> {
    Ok(store::outbox::get(conn, id).await?.map(MailView::from))
}
