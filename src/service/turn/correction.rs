//! GM corrections of a game's state (issue #3; HR 15, RULING S7): a misplaced tile, wrong cash, a wrong
//! holding. A correction is a JSON merge patch on the state, checked by the engine (the result
//! must still be a state of the game), applied to the open turn's starting point, and logged as
//! an action of the game's log (seat 0, the GM) so replay reproduces it. It is allowed only while
//! a turn is open — once the next adjudication has run, the result stands (HR 15). The table is
//! told what changed, as the public sees it.

use super::draft::lock_current;
use super::state::TurnPhase;
use crate::domain::GameId;
use crate::engine::{GM_SEAT, Viewer};
use crate::service::audit::{self, Actor};
use crate::service::{Ctx, ServiceError, deadlines, diff, engine_of};
use crate::store;
use crate::store::games::ActionRow;
use serde_json::{Value, json};

/// Applies a GM correction to the game's current state; returns the changed lines (GM view).
pub async fn correct_state(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    patch: &Value,
    note: &str,
) -> Result<Vec<String>, ServiceError> {
    let note = note.trim();
    if note.is_empty() || note.chars().count() > 500 {
        return Err(ServiceError::BadInput(
            "say in a few words (up to 500 characters) what the correction fixes".into(),
        ));
    }
    if !patch.is_object() {
        return Err(ServiceError::BadInput(
            "a correction is a JSON object (a merge patch of the state)".into(),
        ));
    }
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = store::games::lock_game(&mut tx, game).await?.ok_or(ServiceError::GameNotFound(game))?;
    let engine = engine_of(&g)?;
    let t = lock_current(&mut tx, &g).await?;
    if !TurnPhase::of(&t).is_open() {
        return Err(ServiceError::Conflict(
            "corrections are made while a turn is open: once a turn is adjudicated its result stands (HR 15)"
                .into(),
        ));
    }
    let corrected = engine
        .correct(&t.start_state, patch)
        .map_err(|e| ServiceError::BadInput(format!("the correction does not fit the game: {e}")))?;
    if corrected == t.start_state {
        return Err(ServiceError::BadInput("the correction changes nothing".into()));
    }
    let gm_changes = diff::changes(
        &engine.describe(&t.start_state, Viewer::Gm)?,
        &engine.describe(&corrected, Viewer::Gm)?,
    );
    let public_changes = diff::changes(
        &engine.describe(&t.start_state, Viewer::Public)?,
        &engine.describe(&corrected, Viewer::Public)?,
    );
    let row = ActionRow {
        seq: t.first_seq,
        // Logged with the turn whose result it corrects, so a rollback to this turn keeps it.
        turn: t.number - 1,
        seat: GM_SEAT,
        action: json!({"gm_correction": patch, "note": note}),
        by_default: false,
    };
    store::games::append_actions(&mut tx, game, row.turn, std::slice::from_ref(&row)).await?;
    store::lifecycle::apply_correction(&mut tx, game, t.number, &corrected, t.first_seq).await?;
    audit::record(
        &mut tx,
        now,
        game,
        Actor::Gm(gm),
        "state corrected",
        json!({"seq": t.first_seq, "note": note, "patch": patch}),
    )
    .await?;
    let mut news =
        vec![format!("the GM has corrected the game before turn {} is adjudicated: {note}", t.number)];
    if !public_changes.is_empty() {
        news.push(format!("What changed:\n{}", public_changes.join("\n")));
    }
    deadlines::tell_table(
        ctx,
        &mut tx,
        &g,
        &format!("correction-{}", t.first_seq),
        "The GM corrected the game",
        &news,
    )
    .await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(gm_changes)
}
