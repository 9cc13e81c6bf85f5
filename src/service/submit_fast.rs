//! The short path of a player's orders (issue 32, RULING W19): one statement (two when the
//! game's open turn is not remembered, `super::intake_cache`) and no transaction for the common
//! case — a seat sending a new version before the deadline of an open turn. The orders are
//! checked against the turn read without a lock; the append then stores them only if that turn
//! is unchanged and still takes them (`store::intake`). When it
//! is not (closed, corrected, rolled back, past the deadline, the cap reached, the seat's own
//! concurrent submission), nothing was stored and the locked path of [`super::submit`] answers,
//! so every refusal reads the same whichever path saw it first. Appends that arrive together
//! share one statement (`super::intake_batch`, RULING W60).

use super::deadlines::{stored_rhythm, words_in};
use super::order_pages::MAX_VERSIONS_PER_TURN;
use super::submit::{Submitted, check_prepared};
use super::{Ctx, ServiceError, Source, stored_engine};
use crate::domain::GameId;
use crate::orders::OrderText;
use crate::store;
use crate::store::intake::{AsRead, BatchItem, SeatKey};

/// Stores a player's new (not final) version on the short path, or answers `None` when the
/// locked path must decide (and, for a token, authenticate). Orders the game's language refuses
/// are refused here as there.
pub(super) async fn try_submit(
    ctx: &Ctx,
    game: GameId,
    key: SeatKey<'_>,
    text: &OrderText,
    source: Source,
) -> Result<Option<Submitted>, ServiceError> {
    let now = ctx.now();
    let remembered = ctx.intake.lookup(game, key);
    let from_memory = remembered.is_some();
    let (seat, turn) = match remembered {
        Some(known) => known,
        None => {
            let mut conn = ctx.pool.acquire().await?;
            let Some(row) = store::intake::view(&mut conn, game, key).await? else {
                return Ok(None);
            };
            if !row.open || now >= row.deadline || row.sent >= MAX_VERSIONS_PER_TURN {
                return Ok(None);
            }
            // Decoded once here, not for every sheet checked against it.
            let prepared = stored_engine(&row.engine, row.rules_version)?.prepare(&row.start_state)?;
            ctx.intake.remember(game, key, row, prepared)
        }
    };
    if !turn.acting_seats.contains(&seat) {
        return Ok(None);
    }
    let engine = stored_engine(&turn.engine, turn.rules_version)?;
    let checked = match check_prepared(engine, &turn.start_state, seat, text) {
        Ok(checked) => checked,
        // A refusal is never judged on a remembered state alone: the turn may have changed
        // since, and no append is there to tell. The locked path judges it afresh.
        Err(_) if from_memory => {
            ctx.intake.forget(game);
            return Ok(None);
        }
        Err(refused) => return Err(refused),
    };
    let token_hash = match key {
        SeatKey::TokenHash(hash) => Some(hash),
        SeatKey::Seat(_) => None,
    };
    let read = AsRead {
        first_seq: turn.first_seq,
        reopened: turn.reopened,
        opened_at: turn.opened_at,
        cap: MAX_VERSIONS_PER_TURN,
        token_hash,
    };
    let new = checked.version(game, seat, turn.number, text, source, now);
    let item = BatchItem::new(&read, &new).map_err(|e| ServiceError::Internal(e.to_string()))?;
    let done = match ctx.appender.append(&ctx.pool, item).await {
        Ok(Some(done)) => done,
        Ok(None) => {
            // Closed, corrected, past its deadline, the cap, a token replaced: whatever it was,
            // what was remembered of the game is no longer to be used.
            ctx.intake.forget(game);
            return Ok(None);
        }
        // The seat's other submission took the number first, or two appends met clearing the
        // "all final" mark: the locked path decides this one.
        Err(e) if store::intake::is_race(&e) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    crate::metrics::order_stored(source.as_str());
    tracing::info!(game.id = %game, turn.number = turn.number, seat = seat.0, version = done.version, source = source.as_str(), not_understood = checked.echo.errors, "orders stored");
    let rhythm = stored_rhythm(done.rhythm.as_ref().map(|r| &r.0), done.turn_length_secs);
    Ok(Some(Submitted {
        game,
        turn: turn.number,
        seat,
        version: done.version,
        digest: checked.digest,
        is_final: false,
        deadline: done.deadline,
        deadline_local: words_in(&rhythm, done.time_zone.as_deref(), done.deadline),
        echo: checked.echo,
        deadline_version: done.deadline_version,
    }))
}
