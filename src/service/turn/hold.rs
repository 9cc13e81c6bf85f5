//! Holding a turn for the GM instead of adjudicating it to the end: a seat without orders under
//! the strict NMR policy, or a question: a decision the policy leaves to the GM (its legal moves,
//! ranked), a decision the rules refer to the GM (HR 17 B, RULINGS S18), or whether a multi-round
//! turn goes on after a round (HR 14, RULINGS S19). Nothing is published; the GM is mailed.

use super::state::{CloseOutcome, Hold, Step, next_phase};
use crate::engine::outcome::QuestionKind;
use crate::registry::GmQuestion;
use crate::service::audit::{self, Actor};
use crate::service::notices::{self, GmAlert, Notice, NoticeTo};
use crate::service::{Ctx, ServiceError};
use crate::store;
use crate::store::games::GameRow;
use crate::store::turns::TurnRow;
use serde_json::json;
use sqlx::PgConnection;

/// Holds a turn with missing orders for the GM (NMR policy "wait for the GM"): nothing is
/// adjudicated; the GM enters orders for the seat, extends the deadline, or closes the turn.
pub(super) async fn hold_for_gm(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    missing: Vec<u8>,
    link: String,
) -> Result<CloseOutcome, ServiceError> {
    next_phase(turn, Step::Hold(Hold::ForGm))?;
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

/// Parks the turn on `q` and mails the GM the question with its candidates.
pub(super) async fn ask_gm(
    ctx: &Ctx,
    conn: &mut PgConnection,
    game: &GameRow,
    turn: &TurnRow,
    q: GmQuestion,
    link: String,
) -> Result<CloseOutcome, ServiceError> {
    next_phase(turn, Step::Hold(Hold::Question))?;
    let now = ctx.now();
    let id = game.id;
    let why = match q.kind {
        QuestionKind::Checkpoint => {
            format!("a round ended and the turn goes on only if you say so: {}", q.prompt)
        }
        _ => format!("a decision for seat {} is yours to make: {}", q.seat.0, q.prompt),
    };
    store::turns::set_question(conn, game.id, turn.number, Some((&q, now, &why))).await?;
    let kind = q.kind;
    audit::record(
        conn,
        now,
        id,
        Actor::Server,
        "question for the GM",
        json!({"turn": turn.number, "number": q.number, "seat": q.seat.0, "kind": kind}),
    )
    .await?;
    let list = q
        .candidates
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{:>3}. {}", i + 1, c.label))
        .collect::<Vec<_>>();
    let choices = match q.first_note() {
        Some(first) => format!("The decision: {}. The choices, {first} first:", q.prompt),
        None => format!("{} Your choices:", q.prompt),
    };
    let by_mail = by_mail_hint(&q);
    let n = Notice {
        game: &game.name,
        greeting: "GM",
        paragraphs: vec![format!("Turn {}: {}", turn.number, q.why()), choices, by_mail],
        block: Some(list.join("\n")),
        link: Some(link),
    };
    let subject = match kind {
        QuestionKind::Checkpoint => {
            format!("[{}] Turn {}: go on with the next round?", game.name, turn.number)
        }
        _ => format!("[{}] Turn {}: a decision for you (seat {})", game.name, turn.number, q.seat.0),
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
            subject,
            // RULING P8: the GM's reply address is derived when the mail is sent.
            reply_to: Some(notices::ReplyTo::Gm),
            calendar: None,
        },
        &n,
    )?;
    notices::queue(conn, &ctx.settings, &mail).await?;
    Ok(CloseOutcome::Asked { game: id, turn: turn.number, question: q })
}

/// How to answer by replying to the question mail (`gm_mail`): the question's number as the GM
/// writes it is its place among the turn's questions, from 1.
fn by_mail_hint(q: &GmQuestion) -> String {
    let n = q.number + 1;
    match q.kind {
        QuestionKind::Checkpoint => format!(
            "To answer by mail, reply with the line ANSWER {n} CONTINUE or ANSWER {n} STOP (or ANSWER {n} 1 / 2)."
        ),
        _ => format!(
            "To answer by mail, reply with the line ANSWER {n} <number of your choice>, e.g. ANSWER {n} 1."
        ),
    }
}
