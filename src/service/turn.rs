//! Closing a turn: adjudicating it from the sealed orders into a draft, at the deadline, when all
//! orders are final, or when the GM says so. With review `auto` the draft is published at once.

use super::audit::{self, Actor};
use super::notices::{self, GmAlert};
use super::policy::{Fallback, NmrPolicy};
use super::{Ctx, ServiceError, engine_of, load_game, publish};
use crate::domain::{GameId, Review, TimerKind, TurnStatus};
use crate::engine::{Adjudication, GmQuestion, LineNote, Seat, TurnOutcome};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::json;
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet};

/// What closing a turn led to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CloseOutcome {
    /// A draft waits for the GM.
    Drafted { game: GameId, turn: i32 },
    /// The draft was published at once (review `auto`).
    Published { game: GameId, turn: i32 },
    /// The adjudication failed; the turn waits for the GM, nothing was published.
    Failed { game: GameId, turn: i32, reason: String },
    /// The NMR policy holds the turn for the GM: some seat sent no orders.
    Held { game: GameId, turn: i32, missing: Vec<u8> },
    /// The adjudication stopped at a decision for the GM (answer it to go on).
    Asked { game: GameId, turn: i32, question: GmQuestion },
}

/// Closes the current turn of a game now (the GM's "adjudicate now").
pub async fn close_turn(ctx: &Ctx, game: GameId) -> Result<CloseOutcome, ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    let turn = store::turns::lock_turn(&mut tx, game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    if turn.status != TurnStatus::Open {
        return Err(ServiceError::Conflict(format!(
            "turn {} is already closed (its status is {})",
            turn.number, turn.status
        )));
    }
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
    let policy = NmrPolicy::of_game(game)?;
    let mut orders: BTreeMap<Seat, String> = store::orders::latest_of_turn(conn, game.id, turn.number)
        .await?
        .into_iter()
        .map(|v| (v.seat, v.body))
        .collect();
    let acting: &[Seat] = &turn.acting_seats;
    let mut from_standing = BTreeSet::new();
    if policy.use_standing_orders {
        // HR 12: stated intentions stand in for missing orders.
        for store::lifecycle::StandingRow { seat, body } in
            store::lifecycle::standing_in_force(conn, game.id).await?
        {
            if acting.contains(&seat) && !orders.contains_key(&seat) {
                orders.insert(seat, body);
                from_standing.insert(seat);
            }
        }
    }
    let missing: Vec<u8> = acting.iter().filter(|s| !orders.contains_key(s)).map(|s| s.0).collect();
    let link = format!("{}/gm/games/{}", ctx.settings.base(), id);
    if !forced && !missing.is_empty() && policy.fallback == Fallback::WaitForGm {
        return hold_for_gm(ctx, conn, game, turn, missing, link).await;
    }
    let ask_for: BTreeSet<Seat> = match policy.fallback {
        Fallback::AskGm => missing.iter().map(|s| Seat(*s)).collect(),
        _ => BTreeSet::new(),
    };
    let answers = &turn.gm_answers.0;
    let (seed, first_seq) = (game.seed as u64, turn.first_seq as u64);
    match engine.adjudicate_asking(&turn.start_state, seed, first_seq, &orders, &ask_for, answers) {
        Ok(Adjudication::Ask(q)) => super::questions::ask_gm(ctx, conn, game, turn, q, link).await,
        Ok(Adjudication::Done(mut outcome)) => {
            for seat in &from_standing {
                let note = LineNote {
                    line: 0,
                    executed: true,
                    note: "no orders for this turn: your standing orders were used".into(),
                };
                outcome.notes.entry(*seat).or_default().insert(0, note);
                if policy.standing_counts_as_nmr {
                    outcome.nmr.insert(*seat); // HR 12 "this would still count as the first NMR"
                }
            }
            let detail = json!({"turn": turn.number, "reason": reason, "missing": missing,
                "standing": from_standing.iter().map(|s| s.0).collect::<Vec<_>>()});
            audit::record(conn, now, id, Actor::Server, "turn adjudicated", detail).await?;
            store::turns::set_draft(conn, game.id, turn.number, now, reason, &outcome).await?;
            tracing::info!(game.id = %id, turn.number = turn.number, reason, "turn adjudicated");
            if game.review == Review::Auto {
                publish::publish_locked(ctx, conn, game, turn, &outcome).await?;
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
            let text = super::preview::preview_text(engine, turn, &outcome, &seats)?;
            notices::queue(conn, &ctx.settings, &super::preview::preview_mail(game, turn, text, link)?)
                .await?;
            Ok(CloseOutcome::Drafted { game: id, turn: turn.number })
        }
        Err(e) => {
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

/// Holds a turn with missing orders for the GM (NMR policy "wait for the GM"): nothing is
/// adjudicated; the GM enters orders for the seat, extends the deadline, or closes the turn.
async fn hold_for_gm(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    missing: Vec<u8>,
    link: String,
) -> Result<CloseOutcome, ServiceError> {
    let now = ctx.now();
    let id = game.id;
    let seats = missing.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    let why = format!("no orders from seat(s) {seats}");
    store::lifecycle::set_hold(conn, game.id, turn.number, Some((now, &why))).await?;
    audit::record(
        conn,
        now,
        id,
        Actor::Server,
        "turn held for the GM",
        json!({"turn": turn.number, "missing": missing}),
    )
    .await?;
    let what = format!("waiting for you: {why} (enter their orders, extend the deadline, or close the turn)");
    let alert = GmAlert { game: &game.name, turn: turn.number, what: &what, link };
    let key = format!("gm-held:{}:{}:{}", game.id, turn.number, turn.deadline_version);
    notices::queue(conn, &ctx.settings, &notices::gm_alert(key, &game.gm_email, id, &alert)?).await?;
    tracing::info!(game.id = %id, turn.number = turn.number, %why, "turn held for the GM");
    Ok(CloseOutcome::Held { game: id, turn: turn.number, missing })
}

/// The draft of a closed turn, decoded.
pub(crate) fn draft_of(turn: &TurnRow) -> Result<TurnOutcome, ServiceError> {
    let draft = turn
        .draft
        .as_ref()
        .ok_or_else(|| ServiceError::Conflict(format!("turn {} has no draft", turn.number)))?;
    Ok(draft.0.clone())
}

/// Whether `game` is the current turn's game and the turn is closed with a draft.
pub(crate) async fn lock_draft(
    conn: &mut PgConnection,
    game: GameId,
) -> Result<(GameRow, TurnRow, TurnOutcome), ServiceError> {
    let g = load_game(conn, game).await?;
    let turn = store::turns::lock_turn(conn, game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    if turn.status != TurnStatus::Draft {
        return Err(ServiceError::Conflict(format!(
            "turn {} has no draft to publish (its status is {})",
            turn.number, turn.status
        )));
    }
    let outcome = draft_of(&turn)?;
    Ok((g, turn, outcome))
}
