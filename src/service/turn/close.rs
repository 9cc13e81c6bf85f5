//! Closing a turn: adjudicating it from the sealed orders into a draft, at the deadline, when all
//! orders are final, or when the GM says so. With review `auto` the draft is published at once.

use super::draft::lock_current;
use super::state::{CloseOutcome, Step, next_phase};
use super::{hold, intentions, nmr, preview, publish};
use crate::domain::{Fallback, GameId, Review, TimerKind};
use crate::engine::Seat;
use crate::registry::{Adjudication, GmTurn};
use crate::service::audit::{self, Actor};
use crate::service::notices::{self, GmAlert};
use crate::service::{Ctx, ServiceError, engine_of, load_game};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use futures_util::StreamExt;
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet};

/// Closes the current turn of a game now (the GM's "adjudicate now").
pub async fn close_turn(ctx: &Ctx, game: GameId) -> Result<CloseOutcome, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    let turn = lock_current(&mut tx, &g).await?;
    next_phase(&turn, Step::Adjudicate)?;
    let out = adjudicate_locked(ctx, &mut tx, &g, &turn, "closed by the GM", true).await?;
    audit::record(
        &mut tx,
        ctx.now(),
        game,
        Actor::Gm(&g.gm_email),
        "turn closed",
        json!({"turn": turn.number}),
    )
    .await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(out)
}

/// How many due turns one pass adjudicates at once, each in its own transaction. Every commit
/// waits for the write-ahead log to reach the disk; concurrent commits share that wait (group
/// commit), so a storm of same-minute deadlines is not bound by one disk flush per game.
const CLOSE_CONCURRENCY: usize = 8;

/// Closes every turn that is due now, one transaction per turn; safe to run in several processes
/// at once (each turn is claimed with `FOR UPDATE SKIP LOCKED`). Returns what happened.
pub async fn close_due_turns(ctx: &Ctx, max: usize) -> Result<Vec<CloseOutcome>, ServiceError> {
    let candidates = {
        let mut conn = ctx.pool.acquire().await?;
        store::turns::due_candidates(&mut conn, ctx.now(), i64::try_from(max).unwrap_or(i64::MAX)).await?
    };
    let results: Vec<Result<Option<CloseOutcome>, ServiceError>> = futures_util::stream::iter(candidates)
        .map(|key| close_candidate(ctx, key.game_id, key.number))
        .buffer_unordered(CLOSE_CONCURRENCY)
        .collect()
        .await;
    let mut done = Vec::new();
    let mut first_error = None;
    for r in results {
        match r {
            Ok(Some(out)) => done.push(out),
            Ok(None) => {}
            Err(e) => {
                tracing::error!(error = %e, "a due turn could not be closed; it stays due");
                first_error.get_or_insert(e);
            }
        }
    }
    if !done.is_empty() {
        ctx.mail_wake.notify_one();
    }
    match first_error {
        Some(e) if done.is_empty() => Err(e),
        _ => Ok(done),
    }
}

/// Claims and closes one candidate turn in its own transaction; `None` when another process
/// has it or it is no longer due.
async fn close_candidate(
    ctx: &Ctx,
    game_id: GameId,
    number: i32,
) -> Result<Option<CloseOutcome>, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let Some(reason) = store::turns::claim_due_turn(&mut tx, game_id, number, ctx.now()).await? else {
        return Ok(None);
    };
    let game = load_game(&mut tx, game_id).await?;
    let turn = store::turns::get_turn(&mut tx, game_id, number)
        .await?
        .ok_or(ServiceError::TurnNotFound(game_id, number))?;
    let out = adjudicate_locked(ctx, &mut tx, &game, &turn, &format!("closed: {reason}"), false).await?;
    tx.commit().await?;
    Ok(Some(out))
}

/// Adjudicates a locked open turn into a draft (or a failure for the GM) and publishes it when
/// the game's review is `auto`. The game's NMR policy decides about seats without orders:
/// their standing orders, the rules' default, or (unless the GM `forced` the close) holding the
/// turn for the GM.
pub(crate) async fn adjudicate_locked(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    reason: &str,
    forced: bool,
) -> Result<CloseOutcome, ServiceError> {
    let now = ctx.now();
    let id = game.id;
    let engine = engine_of(game)?;
    let policy = game.nmr_policy.0;
    let orders: BTreeMap<Seat, String> = store::orders::latest_of_turn(conn, game.id, turn.number)
        .await?
        .into_iter()
        .map(|v| (v.seat, v.body))
        .collect();
    let acting: &[Seat] = &turn.acting_seats;
    let standing = if policy.use_standing_orders {
        store::lifecycle::standing_in_force(conn, game.id).await?
    } else {
        Vec::new()
    };
    let standing = standing.into_iter().map(|r| (r.seat, r.body));
    let intents = intentions::in_force(conn, engine, game.id, turn.number).await?;
    let lasting = |text: &str| engine.lasting_lines(text);
    let nmr::SheetsAtClose { orders, carried, from_standing, intentions_only, missing } =
        nmr::sheets_at_close(&policy, acting, orders, standing, &intents, &lasting);
    let link = format!("{}/gm/games/{}", ctx.settings.base(), id);
    if !forced && !missing.is_empty() && policy.fallback == Fallback::WaitForGm {
        return hold::hold_for_gm(ctx, conn, game, turn, missing, link).await;
    }
    let ask_for: BTreeSet<Seat> = match policy.fallback {
        Fallback::AskGm => missing.iter().map(|s| Seat(*s)).collect(),
        _ => BTreeSet::new(),
    };
    let gm = GmTurn { ask_for: &ask_for, referrals: game.gm_referrals, answers: &turn.gm_answers.0 };
    let (seed, first_seq) = (game.seed as u64, turn.first_seq as u64);
    let adjudicate = || engine.adjudicate_asking(&turn.start_state, seed, first_seq, &orders, &carried, gm);
    match crate::metrics::adjudication(&game.engine, adjudicate) {
        Ok(Adjudication::Ask(q)) => hold::ask_gm(ctx, conn, game, turn, q, link).await,
        Ok(Adjudication::Done(mut outcome)) => {
            let drafted = next_phase(turn, Step::Adjudicate)?;
            nmr::settle(&policy, &mut outcome, &from_standing, &intentions_only);
            let detail = json!({"turn": turn.number, "reason": reason, "missing": missing,
                "standing": from_standing.iter().map(|s| s.0).collect::<Vec<_>>()});
            audit::record(conn, now, id, Actor::Server, "turn adjudicated", detail).await?;
            store::turns::set_draft(conn, game.id, turn.number, now, reason, &outcome).await?;
            tracing::info!(game.id = %id, turn.number = turn.number, reason, "turn adjudicated");
            if game.review == Review::Auto {
                publish::publish_locked(ctx, conn, game, turn, drafted, &outcome).await?;
                return Ok(CloseOutcome::Published { game: id, turn: turn.number });
            }
            if let Some(secs) = game.auto_release_secs {
                let due = now + chrono::Duration::seconds(secs);
                store::lifecycle::arm_timer(
                    conn,
                    game.id,
                    turn.number,
                    TimerKind::AutoRelease,
                    Some(secs),
                    due,
                )
                .await?;
            }
            let seats = store::games::seats(conn, game.id).await?;
            let text = preview::preview_text(engine, turn, &outcome, &seats)?;
            notices::queue(conn, &ctx.settings, &preview::preview_mail(game, turn, text, link)?).await?;
            Ok(CloseOutcome::Drafted { game: id, turn: turn.number })
        }
        Err(e) => {
            next_phase(turn, Step::Fail)?;
            let reason = e.to_string();
            tracing::error!(game.id = %id, turn.number = turn.number, error = %reason, "adjudication failed");
            store::turns::set_failed(conn, game.id, turn.number, now, &reason).await?;
            audit::record(
                conn,
                now,
                id,
                Actor::Server,
                "adjudication failed",
                json!({"turn": turn.number, "error": reason}),
            )
            .await?;
            let alert = GmAlert {
                game: &game.name,
                turn: turn.number,
                what: "adjudication failed — needs the GM",
                link,
            };
            let key = notices::run_key(format!("gm-failed:{}:{}", game.id, turn.number), turn.reopened);
            notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
            Ok(CloseOutcome::Failed { game: id, turn: turn.number, reason })
        }
    }
}
