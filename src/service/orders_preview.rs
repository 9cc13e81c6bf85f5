//! "See your orders before the deadline" (issue 36): in a game of open information, a seat's
//! latest orders played now against the open turn's table, every other seat as if silent — the
//! table they would leave, what would happen, and each line's effect. Never in a game with hidden
//! information or dice: the preview would show what the seat may not know (another hand, a roll
//! still to come). RULING W41.

use super::{SeatAuth, ServiceError, engine_of, load_game};
use crate::domain::TurnStatus;
use crate::engine::{LineNote, Viewer};
use crate::store;
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// Previews computed at once, server-wide.
static PREVIEWS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// A seat's orders played against the current table.
pub struct OrdersPreview {
    pub game: String,
    pub turn: i32,
    /// The version previewed.
    pub version: i32,
    /// Each line of it as the seat wrote it, with what it would do (or why it would not).
    pub lines: Vec<(usize, String, Option<LineNote>)>,
    /// What would happen, as the seat would read it.
    pub events: Vec<String>,
    /// The table after, as the seat would see it (text, and a drawing when the game draws).
    pub table: String,
    pub drawing: Option<String>,
}

/// Whether the game of this engine may be previewed at all.
pub fn previewable(engine: &dyn crate::registry::DynGame) -> bool {
    engine.open_information() && !engine.rolls_dice()
}

/// Plays `who`'s latest orders for the open turn against its table (other seats silent).
pub async fn preview(conn: &mut PgConnection, who: &SeatAuth) -> Result<OrdersPreview, ServiceError> {
    let g = load_game(conn, who.game).await?;
    let engine = engine_of(&g)?;
    if !previewable(engine) {
        return Err(ServiceError::BadInput(format!(
            "{} keeps information hidden from some seats, so orders cannot be previewed",
            engine.title()
        )));
    }
    let turn = store::turns::get_turn(conn, who.game, g.current_turn)
        .await?
        .filter(|t| t.status == TurnStatus::Open && t.acting_seats.contains(&who.seat))
        .ok_or_else(|| ServiceError::BadInput("no turn is open for your orders".into()))?;
    let latest =
        store::orders::latest_of_seat(conn, who.game, turn.number, who.seat).await?.ok_or_else(|| {
            ServiceError::BadInput("send orders first: the preview plays your latest version".into())
        })?;
    let orders = BTreeMap::from([(who.seat, latest.body.clone())]);
    // A whole turn's adjudication (two operating rounds of revenue search in 1835): off the
    // request threads, and at most a few at once whoever asks, so previews cannot crowd out
    // the rest of the server.
    let _permit = PREVIEWS.acquire().await.map_err(|e| ServiceError::Internal(e.to_string()))?;
    let (start, seed, first_seq) = (turn.start_state.clone(), g.seed as u64, turn.first_seq as u64);
    let outcome = tokio::task::spawn_blocking(move || engine.adjudicate(&start, seed, first_seq, &orders))
        .await
        .map_err(|e| ServiceError::Internal(format!("the preview stopped: {e}")))??;
    let viewer = Viewer::Seat(who.seat);
    let notes = outcome.notes.get(&who.seat).cloned().unwrap_or_default();
    let lines = latest
        .body
        .lines()
        .enumerate()
        .map(|(i, text)| {
            let line = i + 1;
            (line, text.to_string(), notes.iter().rev().find(|n| n.line == line).cloned())
        })
        .filter(|(_, text, _)| !text.trim().is_empty())
        .collect();
    Ok(OrdersPreview {
        game: g.name,
        turn: turn.number,
        version: latest.version,
        lines,
        events: outcome.events.iter().map(|e| e.text_for(viewer)).collect(),
        table: engine.describe(&outcome.state, viewer)?,
        drawing: engine.draw(&outcome.state, viewer)?,
    })
}
