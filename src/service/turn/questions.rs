//! GM questions (issues #3, #15): decisions an NMR policy leaves to the GM, decisions the rules
//! refer to the GM (HR 17 B, RULINGS S18; the game's setting [`set_referrals`] says whether they
//! are asked), and whether a multi-round turn goes on after a round (HR 14 checkpoints, RULINGS
//! S19: the answer is "continue" or "stop after this round"). The adjudication stops at the first
//! such decision; the turn is held with the question and its legal candidates, ranked
//! (the rules' default first); the GM's answer is appended to the turn's answers and the turn is
//! adjudicated again from its start — deterministically the same up to that point — and goes on
//! to the next question or to the draft.

use super::close::adjudicate_locked;
use super::draft::lock_current;
use super::state::{CloseOutcome, Step, TurnPhase, step_from};
use crate::domain::GameId;
use crate::engine::outcome::{Candidate, Checkpoint, QuestionKind};
use crate::registry::GmQuestion;
use crate::service::audit::{self, Actor};
use crate::service::{Ctx, ServiceError, load_game};
use crate::store;
use serde_json::{Value, json};
use sqlx::PgConnection;

/// The GM answers the turn's open question with candidate `choice` (1-based, as listed); the
/// turn is adjudicated again and goes on.
pub async fn answer_question(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    choice: usize,
) -> Result<CloseOutcome, ServiceError> {
    answer_question_saying(ctx, game, gm, choice).await.map(|(out, _)| out)
}

/// [`answer_question`], with what the answer did in words ([`answered`]) for the console.
pub async fn answer_question_saying(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    choice: usize,
) -> Result<(CloseOutcome, String), ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    let done = answer_in(ctx, &mut tx, game, gm, None, choice).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(done)
}

/// What the GM's answer did, in words for the console and the GM's mail (issue 33): at an HR 14
/// checkpoint whether the turn stopped after the round or went on, else the move chosen; then
/// where the turn stands after the adjudication that followed.
pub fn answered(turn: i32, q: &GmQuestion, picked: &Candidate, out: &CloseOutcome) -> String {
    let did = match Checkpoint::from_answer(&picked.action).filter(|_| q.kind == QuestionKind::Checkpoint) {
        Some(Checkpoint::Stop) => {
            format!("Turn {turn} stopped after this round: it ends with the round just played (HR 14)")
        }
        Some(Checkpoint::Continue) => {
            format!("Turn {turn} went on: the next round is played from the orders as they stand (HR 14)")
        }
        None => format!("Question {} is answered: {}; turn {turn} went on", q.number + 1, picked.label),
    };
    let then = match out {
        CloseOutcome::Drafted { .. } => "the draft waits for your review (turn publish)".to_string(),
        CloseOutcome::Published { .. } => "the turn is adjudicated and published; reports are queued".into(),
        CloseOutcome::Failed { reason, .. } => format!("the adjudication then failed: {reason}"),
        CloseOutcome::Held { missing, .. } => {
            format!("it is held for you: no orders from seat(s) {missing:?}")
        }
        CloseOutcome::Asked { question, .. } => {
            format!("it stops again at question {}", question.number + 1)
        }
    };
    format!("{did}. Then {then}.")
}

/// [`answer_question`] inside the caller's transaction (the GM's answer by mail, which records
/// its inbound message in the same one). `number`: the question the GM means (as numbered in its
/// mail), refused when another one is waiting. Returns the outcome and what the answer did
/// ([`answered`]).
pub(crate) async fn answer_in(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: GameId,
    gm: &str,
    number: Option<usize>,
    choice: usize,
) -> Result<(CloseOutcome, String), ServiceError> {
    let now = ctx.now();
    let g = load_game(tx, game).await?;
    let t = lock_current(tx, &g).await?;
    let phase = TurnPhase::of(&t);
    let q: GmQuestion = match &t.question {
        // A question stays answerable when the GM released the hold by moving the deadline.
        Some(q) if phase.is_open() => q.0.clone(),
        _ => {
            return Err(ServiceError::Conflict(format!("turn {} has no question waiting for you", t.number)));
        }
    };
    if let Some(n) = number.filter(|n| *n != q.number + 1) {
        return Err(ServiceError::Conflict(format!(
            "question {n} of turn {} is not the one waiting for you: question {} is",
            t.number,
            q.number + 1
        )));
    }
    let picked = choice.checked_sub(1).and_then(|i| q.candidates.get(i)).ok_or_else(|| {
        ServiceError::BadInput(format!("choose one of the moves 1 to {}", q.candidates.len()))
    })?;
    let mut answers: Vec<Value> = t.gm_answers.0.clone();
    answers.truncate(q.number);
    answers.push(picked.action.clone());
    store::turns::set_gm_answers(tx, game, t.number, &answers).await?;
    if let TurnPhase::Held(_) = phase {
        step_from(t.number, phase, Step::Release)?;
    }
    store::turns::set_question(tx, game, t.number, None).await?;
    let detail = json!({"turn": t.number, "number": q.number, "seat": q.seat.0, "move": picked.label});
    audit::record(tx, now, game, Actor::Gm(gm), "question answered", detail).await?;
    let t = store::turns::lock_turn(tx, game, t.number)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, t.number))?;
    let out = adjudicate_locked(ctx, tx, &g, &t, "closed: the GM answered", true).await?;
    let said = answered(t.number, &q, picked, &out);
    Ok((out, said))
}

/// The GM decides whether the rules' referrals stop the turn for the GM's choice (`ask`) or are
/// played by their best-ranked candidate (RULINGS S18). Applies from the next adjudication on.
pub async fn set_referrals(ctx: &Ctx, game: GameId, gm: &str, ask: bool) -> Result<(), ServiceError> {
    let mut tx = ctx.pool.begin().await?;
    load_game(&mut tx, game).await?;
    store::games::set_gm_referrals(&mut tx, game, ask).await?;
    let detail = json!({"ask": ask});
    audit::record(&mut tx, ctx.now(), game, Actor::Gm(gm), "referrals setting changed", detail).await?;
    tx.commit().await?;
    Ok(())
}
