//! Closing a turn: adjudicating it from the sealed orders into a draft, at the deadline, when all
//! orders are final, or when the GM says so. With review `auto` the draft is published at once.

use super::notices::{self, GmAlert};
use super::{Ctx, ServiceError, engine_of, load_game, publish};
use crate::domain::GameId;
use crate::engine::{Seat, TurnOutcome};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use serde::Serialize;
use sqlx::PgConnection;
use std::collections::BTreeMap;

/// What closing a turn led to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CloseOutcome {
    /// A draft waits for the GM.
    Drafted { game: GameId, turn: i32 },
    /// The draft was published at once (review `auto`).
    Published { game: GameId, turn: i32 },
    /// The adjudication failed; the turn waits for the GM, nothing was published.
    Failed { game: GameId, turn: i32, reason: String },
}

/// Closes the current turn of a game now (the GM's "adjudicate now").
pub async fn close_turn(ctx: &Ctx, game: GameId) -> Result<CloseOutcome, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    let turn = store::turns::lock_turn(&mut tx, game.0, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    if turn.status != "open" {
        return Err(ServiceError::Conflict(format!(
            "turn {} is already closed (its status is {})",
            turn.number, turn.status
        )));
    }
    let out = adjudicate_locked(ctx, &mut tx, &g, &turn, "closed by the GM").await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(out)
}

/// Closes every turn that is due now, one transaction per turn; safe to run in several processes
/// at once (each turn is claimed with `FOR UPDATE SKIP LOCKED`). Returns what happened.
pub async fn close_due_turns(ctx: &Ctx, max: usize) -> Result<Vec<CloseOutcome>, ServiceError> {
    let mut done = Vec::new();
    while done.len() < max {
        let mut tx = ctx.pool.begin().await?;
        let Some((game_id, number, reason)) =
            store::turns::claim_due(&mut tx, ctx.now(), 1).await?.into_iter().next()
        else {
            break;
        };
        let game = load_game(&mut tx, GameId(game_id)).await?;
        let turn = store::turns::get_turn(&mut tx, game_id, number)
            .await?
            .ok_or(ServiceError::TurnNotFound(GameId(game_id), number))?;
        let out = adjudicate_locked(ctx, &mut tx, &game, &turn, &format!("closed: {reason}")).await?;
        tx.commit().await?;
        done.push(out);
    }
    if !done.is_empty() {
        ctx.mail_wake.notify_one();
    }
    Ok(done)
}

/// Adjudicates a locked open turn into a draft (or a failure for the GM) and publishes it when
/// the game's review is `auto`.
async fn adjudicate_locked(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    reason: &str,
) -> Result<CloseOutcome, ServiceError> {
    let now = ctx.now();
    let id = GameId(game.id);
    let engine = engine_of(game)?;
    let orders: BTreeMap<Seat, String> = store::orders::latest_of_turn(conn, game.id, turn.number)
        .await?
        .into_iter()
        .map(|v| (Seat(u8::try_from(v.seat).unwrap_or(0)), v.body))
        .collect();
    let link = format!("{}/gm/games/{}", ctx.settings.base(), id);
    match engine.adjudicate(&turn.start_state, game.seed as u64, turn.first_seq as u64, &orders) {
        Ok(outcome) => {
            let draft = serde_json::to_value(&outcome).map_err(|e| ServiceError::Internal(e.to_string()))?;
            store::turns::set_draft(conn, game.id, turn.number, now, reason, &draft).await?;
            tracing::info!(game.id = %id, turn.number = turn.number, reason, "turn adjudicated");
            if game.review == "auto" {
                publish::publish_locked(ctx, conn, game, turn, &outcome).await?;
                return Ok(CloseOutcome::Published { game: id, turn: turn.number });
            }
            let alert = GmAlert { game: &game.name, turn: turn.number, what: "draft ready for review", link };
            let key = format!("gm-draft:{}:{}", game.id, turn.number);
            notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
            Ok(CloseOutcome::Drafted { game: id, turn: turn.number })
        }
        Err(e) => {
            let reason = e.to_string();
            tracing::error!(game.id = %id, turn.number = turn.number, error = %reason, "adjudication failed");
            store::turns::set_failed(conn, game.id, turn.number, now, &reason).await?;
            let alert = GmAlert {
                game: &game.name,
                turn: turn.number,
                what: "adjudication failed — needs the GM",
                link,
            };
            let key = format!("gm-failed:{}:{}", game.id, turn.number);
            notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
            Ok(CloseOutcome::Failed { game: id, turn: turn.number, reason })
        }
    }
}

/// The draft of a closed turn, decoded.
pub(crate) fn draft_of(turn: &TurnRow) -> Result<TurnOutcome, ServiceError> {
    let draft = turn
        .draft
        .clone()
        .ok_or_else(|| ServiceError::Conflict(format!("turn {} has no draft", turn.number)))?;
    serde_json::from_value(draft).map_err(|e| ServiceError::Internal(format!("stored draft: {e}")))
}

/// Whether `game` is the current turn's game and the turn is closed with a draft.
pub(crate) async fn lock_draft(
    conn: &mut PgConnection,
    game: GameId,
) -> Result<(GameRow, TurnRow, TurnOutcome), ServiceError> {
    let g = load_game(conn, game).await?;
    let turn = store::turns::lock_turn(conn, game.0, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    if turn.status != "draft" {
        return Err(ServiceError::Conflict(format!(
            "turn {} has no draft to publish (its status is {})",
            turn.number, turn.status
        )));
    }
    let outcome = draft_of(&turn)?;
    Ok((g, turn, outcome))
}
