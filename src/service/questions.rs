//! GM questions (issue #3): decisions an NMR policy leaves to the GM. The adjudication stops at
//! the first such decision; the turn is held with the question and its legal candidates, ranked
//! (the rules' default first); the GM's answer is appended to the turn's answers and the turn is
//! adjudicated again from its start — deterministically the same up to that point — and goes on
//! to the next question or to the draft.

use super::audit::{self, Actor};
use super::notices::{self, Notice, NoticeTo};
use super::turn::{CloseOutcome, adjudicate_locked};
use super::{Ctx, ServiceError, load_game};
use crate::domain::{GameId, TurnStatus};
use crate::engine::GmQuestion;
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use serde_json::{Value, json};
use sqlx::PgConnection;

/// Parks the turn on `q` and mails the GM the question with its candidates.
pub(crate) async fn ask_gm(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    q: GmQuestion,
    link: String,
) -> Result<CloseOutcome, ServiceError> {
    let now = ctx.now();
    let id = game.id;
    let why = format!("a decision for seat {} is yours to make: {}", q.seat.0, q.prompt);
    store::turns::set_question(conn, game.id, turn.number, Some((&q, now, &why))).await?;
    audit::record(
        conn,
        now,
        id,
        Actor::Server,
        "question for the GM",
        json!({"turn": turn.number, "number": q.number, "seat": q.seat.0}),
    )
    .await?;
    let list = q
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{:>3}. {}", i + 1, c.label))
        .collect::<Vec<_>>();
    let n = Notice {
        game: &game.name,
        greeting: "GM",
        paragraphs: vec![
            format!(
                "seat {} sent no usable orders for turn {}, and this game's NMR policy leaves its moves to you.",
                q.seat.0, turn.number
            ),
            format!("The decision: {}. The legal moves, the rules' default first:", q.prompt),
        ],
        block: Some(list.join("\n")),
        link: Some(link),
    };
    let mail = notices::notice(
        NoticeTo {
            key: notices::run_key(
                format!("gm-question:{}:{}:{}", game.id, turn.number, q.number),
                turn.reopened,
            ),
            kind: "gm-alert",
            game_id: id,
            to: &game.gm_email,
            name: None,
            subject: format!("[{}] Turn {}: a decision for you (seat {})", game.name, turn.number, q.seat.0),
            reply_to: None,
            calendar: None,
        },
        &n,
    )?;
    notices::queue(conn, &ctx.settings, &mail).await?;
    Ok(CloseOutcome::Asked { game: id, turn: turn.number, question: q })
}

/// The GM answers the turn's open question with candidate `choice` (1-based, as listed); the
/// turn is adjudicated again and goes on.
pub async fn answer_question(
    ctx: &Ctx,
    game: GameId,
    gm: &str,
    choice: usize,
) -> Result<CloseOutcome, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let g = load_game(&mut tx, game).await?;
    let t = store::turns::lock_turn(&mut tx, game, g.current_turn)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, g.current_turn))?;
    let q: GmQuestion = match (&t.question, t.status) {
        (Some(q), TurnStatus::Open) => q.0.clone(),
        _ => {
            return Err(ServiceError::Conflict(format!("turn {} has no question waiting for you", t.number)));
        }
    };
    let picked = choice.checked_sub(1).and_then(|i| q.candidates.get(i)).ok_or_else(|| {
        ServiceError::BadInput(format!("choose one of the moves 1 to {}", q.candidates.len()))
    })?;
    let mut answers: Vec<Value> = t.gm_answers.0.clone();
    answers.truncate(q.number);
    answers.push(picked.action.clone());
    store::turns::set_gm_answers(&mut tx, game, t.number, &answers).await?;
    store::turns::set_question(&mut tx, game, t.number, None).await?;
    let detail = json!({"turn": t.number, "number": q.number, "seat": q.seat.0, "move": picked.label});
    audit::record(&mut tx, now, game, Actor::Gm(gm), "question answered", detail).await?;
    let t = store::turns::lock_turn(&mut tx, game, t.number)
        .await?
        .ok_or(ServiceError::TurnNotFound(game, t.number))?;
    let out = adjudicate_locked(ctx, &mut tx, &g, &t, "closed: the GM answered", true).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(out)
}
