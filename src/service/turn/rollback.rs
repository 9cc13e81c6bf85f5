//! Rolling a game back to an earlier turn (issue #3): the turn is re-opened as it stood before
//! its adjudication, held for the GM, who corrects what needs correcting (orders entered for a
//! seat, a moved deadline) and adjudicates it again. Everything undone is archived first.
//!
//! RULING S4: "keeping or discarding the orders submitted since" reads as the orders of the turn
//! rolled back to: kept (the default), the re-run uses them and — the engines being
//! deterministic — reproduces the same result unless something was corrected; discarded, the
//! players send new orders. Orders of later turns were given against a state that no longer
//! exists, so they are always archived with those turns.

use super::nmr;
use super::state::{Step, TurnPhase, step_from};
use crate::domain::GameId;
use crate::service::audit::{self, Actor};
use crate::service::{Ctx, ServiceError, deadlines, load_game};
use crate::store;
use serde::Serialize;
use serde_json::json;

/// What a rollback did.
#[derive(Debug, Clone, Serialize)]
pub struct RolledBack {
    pub game: GameId,
    pub turn: i32,
    pub turns_undone: i32,
    pub orders_kept: bool,
    pub archive: i64,
}

/// Rolls `game` back to turn `to` (see the module docs). The table is told.
pub async fn rollback(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    to: i32,
    keep_orders: bool,
) -> Result<RolledBack, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = store::games::lock_game(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    if to < 1 || to > g.current_turn {
        return Err(ServiceError::BadInput(format!(
            "turn {to} cannot be rolled back to: the game is at turn {}",
            g.current_turn
        )));
    }
    let target =
        store::turns::lock_turn(&mut tx, game, to).await?.ok_or(ServiceError::TurnNotFound(game, to))?;
    let phase = TurnPhase::of(&target);
    if phase == TurnPhase::Open && target.number == g.current_turn && keep_orders {
        return Err(ServiceError::Conflict(format!("turn {to} is open: there is nothing to roll back")));
    }
    step_from(to, phase, Step::Reopen)?;
    // NMRs were counted when these turns were published; take them back.
    let later: Vec<_> =
        store::turns::turns_of_game(&mut tx, game).await?.into_iter().filter(|t| t.number >= to).collect();
    nmr::uncount(&mut tx, game, &later).await?;
    let archive = store::rollback::archive(&mut tx, game, to, !keep_orders, now).await?;
    store::rollback::undo(&mut tx, game, to, !keep_orders, now).await?;
    let undone = g.current_turn - to + 1;
    let detail =
        json!({"to_turn": to, "from_turn": g.current_turn, "orders_kept": keep_orders, "archive": archive});
    audit::record(&mut tx, now, game, Actor::Gm(gm), "rolled back", detail).await?;
    let g = load_game(&mut tx, game).await?;
    let mut news = vec![format!(
        "the GM has rolled the game back to turn {to}, as it stood before it was adjudicated; the results \
         published since then no longer stand. The GM will adjudicate turn {to} again."
    )];
    news.push(if keep_orders {
        "Your orders on file for that turn stand; you may still change them.".to_string()
    } else {
        format!("Orders given for turn {to} were set aside: please send your orders for it again.")
    });
    deadlines::tell_table(
        ctx,
        &mut tx,
        &g,
        &format!("rollback-{archive}"),
        &format!("Rolled back to turn {to}"),
        &news,
    )
    .await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(RolledBack { game, turn: to, turns_undone: undone, orders_kept: keep_orders, archive })
}
