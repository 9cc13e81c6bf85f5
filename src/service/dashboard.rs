//! What the GM dashboard shows: the game, its current turn, each seat's submission status and,
//! once the turn is closed, the draft — every order as interpreted and what happened.

use super::gm_access::Gm;
use super::listings::{AbsenceRequest, InboundView};
use super::turn::draft_of;
use super::{ServiceError, engine_of};
use crate::domain::{GameId, Review, TurnStatus};
use crate::engine::{LineNote, Viewer};
use crate::store;
use crate::store::games::GameRow;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// One seat as the GM sees it.
pub struct SeatStatus {
    pub seat: u8,
    pub player: String,
    pub email: String,
    pub nmr_count: i32,
    /// Number of order versions this turn (0 = nothing submitted yet).
    pub versions: usize,
    pub is_final: bool,
    pub acting: bool,
    /// The latest orders (shown to the GM once the turn is closed).
    pub orders: Option<String>,
    /// How the adjudication read this seat's orders (draft only).
    pub notes: Vec<LineNote>,
    pub nmr_this_turn: bool,
    /// Flagged for replacement by the NMR policy.
    pub flagged: bool,
}

/// The game as its dashboard shows it.
pub struct DashboardGame {
    pub id: GameId,
    pub name: String,
    pub review: Review,
    pub paused_at: Option<DateTime<Utc>>,
    /// Whether the rules' referrals are asked (RULINGS S18).
    pub gm_referrals: bool,
}

/// The current turn as the dashboard shows it.
pub struct DashboardTurn {
    pub number: i32,
    pub status: TurnStatus,
    pub close_reason: Option<String>,
    pub failure: Option<String>,
    /// Why the turn is held for the GM, if it is.
    pub held_reason: Option<String>,
}

/// The dashboard of one game.
pub struct Dashboard {
    pub game: DashboardGame,
    pub title: &'static str,
    pub turn: DashboardTurn,
    pub seats: Vec<SeatStatus>,
    /// What happened in the draft, as the GM sees it.
    pub events: Vec<String>,
    /// The state after the draft (or now), as the GM sees it.
    pub table: String,
    /// The same as a drawing (an SVG document), when the game has one (issue 36: the GM reviews
    /// the picture players will get, not text only).
    pub drawing: Option<String>,
    pub standings: Vec<String>,
    /// The game's inbound mail, newest first, with outcomes.
    pub inbound: Vec<InboundView>,
    /// The deadline in the game's zone.
    pub deadline: String,
    /// The draft's changes to the table as the GM sees it ("- before", "+ after").
    pub changes: Vec<String>,
    /// The question the adjudication waits on, if any.
    pub question: Option<crate::registry::GmQuestion>,
    /// The open turn's starting state, pretty JSON, for writing corrections.
    pub state_json: String,
    /// The rhythm and the NMR policy in words.
    pub rhythm: String,
    pub policy: String,
    /// The game's mail that failed and has not gone out (retrying or given up), without bodies.
    pub undelivered: Vec<store::outbox::Undelivered>,
    /// Absences players asked for that wait for the GM's approval (RULING S9): seat, first and
    /// last day.
    pub pending_absences: Vec<AbsenceRequest>,
    /// The GM's chat webhook for this game, masked (RULING W14), if one is registered.
    pub webhook: Option<String>,
    /// The game's co-GMs (RULING W42).
    pub co_gms: Vec<String>,
    /// How many players wait for a seat the GM may offer as a replacement (RULING W61).
    pub waiting_list: i64,
}

/// Checks that `gm` (signed in) runs `game` — its GM, a co-GM or the operator; returns the game.
pub async fn authorize_gm(conn: &mut PgConnection, game: GameId, gm: &Gm) -> Result<GameRow, ServiceError> {
    super::gm_access::authorize(conn, game, gm).await
}

/// Builds the dashboard of a game for its GM. `gm` is the signed-in address; anyone else is
/// refused.
pub async fn dashboard(conn: &mut PgConnection, game: GameId, gm: &Gm) -> Result<Dashboard, ServiceError> {
    let g = authorize_gm(conn, game, gm).await?;
    let engine = engine_of(&g)?;
    let turn = store::turns::get_turn(conn, game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    let draft = if turn.status == TurnStatus::Draft { Some(draft_of(&turn)?) } else { None };
    let closed = turn.status != TurnStatus::Open;
    let mut seats = Vec::new();
    for s in store::games::seats(conn, game).await? {
        let versions = store::orders::count_of_seat(conn, game, turn.number, s.seat).await?;
        let latest = store::orders::latest_of_seat(conn, game, turn.number, s.seat).await?;
        let seat = s.seat;
        seats.push(SeatStatus {
            seat: s.seat.0,
            player: s.player_name,
            email: s.email,
            nmr_count: s.nmr_count,
            versions: usize::try_from(versions).unwrap_or(0),
            is_final: latest.as_ref().is_some_and(|v| v.is_final),
            acting: turn.acting_seats.contains(&s.seat),
            orders: if closed { latest.map(|v| v.body) } else { None },
            notes: draft.as_ref().and_then(|d| d.notes.get(&seat).cloned()).unwrap_or_default(),
            nmr_this_turn: draft.as_ref().is_some_and(|d| d.nmr.contains(&seat)),
            flagged: s.flagged_at.is_some(),
        });
    }
    let changes = match &draft {
        Some(d) => super::diff::changes(
            &engine.describe(&turn.start_state, Viewer::Gm)?,
            &engine.describe(&d.state, Viewer::Gm)?,
        ),
        None => Vec::new(),
    };
    let (events, table, drawing, standings) = match &draft {
        Some(d) => (
            d.events.iter().map(|e| e.text_for(Viewer::Gm)).collect(),
            engine.describe(&d.state, Viewer::Gm)?,
            engine.draw(&d.state, Viewer::Gm)?,
            d.standings.iter().flatten().map(|s| format!("{}. {} — {}", s.place, s.seat, s.score)).collect(),
        ),
        None => (
            Vec::new(),
            engine.describe(&g.state, Viewer::Gm)?,
            engine.draw(&g.state, Viewer::Gm)?,
            Vec::new(),
        ),
    };
    let inbound =
        store::inbound::of_game(conn, game, 200).await?.into_iter().map(InboundView::from).collect();
    let turn_state = turn.start_state.clone();
    let question = turn.question.as_ref().map(|q| q.0.clone());
    let deadline = super::deadlines::words(&g, None, turn.deadline);
    let rhythm = match &g.rhythm {
        Some(_) => super::deadlines::rhythm_of(&g).describe(),
        None => format!("every {}", crate::domain::TurnLength::from_seconds(g.turn_length_secs)),
    };
    let policy = g.nmr_policy.0.describe();
    let undelivered = super::undelivered::of_game(conn, game).await?;
    let pending_absences =
        store::lifecycle::pending_absences(conn, game).await?.into_iter().map(AbsenceRequest::from).collect();
    Ok(Dashboard {
        title: engine.title(),
        game: DashboardGame {
            id: g.id,
            name: g.name,
            review: g.review,
            paused_at: g.paused_at,
            gm_referrals: g.gm_referrals,
        },
        turn: DashboardTurn {
            number: turn.number,
            status: turn.status,
            close_reason: turn.close_reason,
            failure: turn.failure,
            held_reason: turn.held_reason,
        },
        seats,
        events,
        table,
        drawing,
        standings,
        inbound,
        changes,
        state_json: serde_json::to_string_pretty(&turn_state).unwrap_or_default(),
        question,
        deadline,
        rhythm,
        policy,
        undelivered,
        pending_absences,
        webhook: super::webhooks::shown_hook(conn, game, super::webhooks::HookOwner::Gm).await?,
        co_gms: super::gm_access::co_gms(conn, game).await?,
        waiting_list: store::waiting::waitlisted(conn, game).await?,
    })
}

/// One inbound message of a game, raw, for its GM.
pub async fn inbound_raw(
    conn: &mut PgConnection,
    game: GameId,
    gm: &Gm,
    id: i64,
) -> Result<String, ServiceError> {
    authorize_gm(conn, game, gm).await?;
    let row = store::inbound::get(conn, id)
        .await?
        .filter(|r| r.game_id == Some(game))
        .ok_or_else(|| ServiceError::BadInput(format!("game {game} has no inbound mail {id}")))?;
    Ok(String::from_utf8_lossy(&row.raw).into_owned())
}
