//! The GM answers questions by mail (issue 15): each question mail (`hold::ask_gm`) carries the
//! game's signed GM reply address (`gm_address`: a new GM gets a new address and the old one
//! stops working). A mail to it from the GM's own address (and, under the `require`
//! mail policy, one that passes authentication, RULING M3) holds `ANSWER <n> <choice>`: the
//! choice is the candidate's number as listed, or `CONTINUE` / `STOP` for an HR 14 checkpoint. It
//! is carried out by the same function as the dashboard's button, in the transaction that records
//! the mail; a refused answer changes nothing, and the GM is told why by mail either way.

use super::gm_address::{parse_address, tag};
use super::questions::answer_in;
use crate::config::MailAuth;
use crate::domain::{GameId, InboundStatus};
use crate::engine::outcome::{Checkpoint, QuestionKind};
use crate::inbound_mail::{GmAnswer, GmChoice, GmCommands, ParsedMail};
use crate::service::notices::{self, Notice, NoticeTo};
use crate::service::{Ctx, ServiceError, load_game};
use crate::store;
use crate::store::inbound::{InboundRow, Outcome};
use sqlx::PgConnection;

/// Carries out a mail sent to a GM reply address, recording its outcome on the inbound row.
/// `Ok(None)`: the mail is not for a GM address (the seats' path takes it); else its status,
/// its outcome and the game.
pub(crate) async fn carry_out(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &InboundRow,
    mail: &ParsedMail,
) -> Result<Option<(InboundStatus, String, GameId)>, ServiceError> {
    let Some((game_id, presented)) = addressed(ctx, row, mail).into_iter().find_map(|a| parse_address(a))
    else {
        return Ok(None);
    };
    if !mail.readable {
        return Ok(None);
    }
    let Some(game) = store::games::get_game(tx, game_id).await? else { return Ok(None) };
    // RULING M11: the stored address holds a placeholder; the row says what it stands for.
    let valid = row.secrets().holds(&presented, &tag(ctx, game_id, &game.gm_email));
    let (status, outcome, reply) = if !valid {
        // A forged or stale address: no answer (the GM may have changed), the outcome is kept.
        (
            InboundStatus::Rejected,
            "refused: a GM reply address whose signature is not valid".to_string(),
            None,
        )
    } else if let Some(why) = not_own(ctx, &game.gm_email, "the GM's", mail) {
        let text = format!("Your mail was not accepted: {why}. Nothing was changed.");
        (InboundStatus::Rejected, format!("refused: {why}"), Some(text))
    } else {
        match answer(ctx, tx, game_id, &game.gm_email, &GmCommands::parse(&mail.body)).await? {
            Ok(text) => (InboundStatus::Accepted, "accepted: the GM answered a question".into(), Some(text)),
            Err(why) => (
                InboundStatus::Rejected,
                format!("refused: {why}"),
                Some(format!("Your answer was not taken: {why}. Nothing was changed.")),
            ),
        }
    };
    let auth = mail.auth.as_ref().and_then(|a| serde_json::to_value(a).ok());
    let outcome_row = Outcome {
        status,
        message_id: mail.message_id.as_deref(),
        from_addr: mail.from.as_deref(),
        game_id: Some(game_id),
        seat: None,
        turn: Some(game.current_turn),
        auth_results: auth.as_ref(),
        outcome: &outcome,
        notice: None,
        unrouted: false,
    };
    store::inbound::record_outcome(tx, row.id, &outcome_row, ctx.now()).await?;
    if let Some(text) = reply {
        let n = Notice { game: &game.name, greeting: "GM", paragraphs: vec![text], block: None, link: None };
        let to = NoticeTo {
            key: format!("gm-answer:{}", row.id),
            kind: "gm-alert",
            game_id,
            to: &game.gm_email,
            name: None,
            subject: format!("[{}] Your answer", game.name),
            reply_to: Some(notices::ReplyTo::Gm),
            calendar: None,
        };
        notices::queue(tx, &ctx.settings, &notices::notice(to, &n)?).await?;
    }
    tracing::info!(inbound.id = row.id, %status, %outcome, "GM mail processed");
    Ok(Some((status, outcome, game_id)))
}

/// The addresses a mail was sent to: its envelope recipients in our reply domain, else its
/// recipient headers (RULING M6, as for seats).
pub(crate) fn addressed<'a>(ctx: &Ctx, row: &'a InboundRow, mail: &'a ParsedMail) -> Vec<&'a String> {
    let domain = format!("@{}", ctx.settings.reply_domain().trim().to_lowercase());
    let envelope: Vec<&String> =
        row.envelope_to.iter().filter(|s| s.trim().to_lowercase().ends_with(&domain)).collect();
    if envelope.is_empty() { mail.recipients.iter().collect() } else { envelope }
}

/// Why a mail to a GM's (or an invitation's) address is not from `expected` — `whose` address
/// it is, in words — if it is not (the seats' rule, RULINGS M3, M8).
pub(crate) fn not_own(ctx: &Ctx, expected: &str, whose: &str, mail: &ParsedMail) -> Option<String> {
    if let Some(problem) = mail.from_problem {
        return Some(problem.to_string());
    }
    let from = mail.from.as_deref().unwrap_or_default();
    if !expected.trim().eq_ignore_ascii_case(from) {
        return Some(format!("it came from {from}, which is not {whose} address"));
    }
    if ctx.settings.mail_auth() != MailAuth::Require {
        return None;
    }
    match &mail.auth {
        None => Some("our mail server recorded no authentication results for it".into()),
        Some(a) => a.verdict(from).err(),
    }
}

/// Carries out the mail's one `ANSWER` line; `Err` is the refusal in words (nothing changed).
async fn answer(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: GameId,
    gm: &str,
    c: &GmCommands,
) -> Result<Result<String, String>, ServiceError> {
    if let Some((line, text)) = c.not_understood.first() {
        return Ok(Err(format!(
            "line {line}, \"{text}\", is not understood: write ANSWER <question> <choice>, the choice a number \
             as listed, or CONTINUE / STOP for a round's checkpoint"
        )));
    }
    let [(_, GmAnswer { question, choice })] = c.answers.as_slice() else {
        return Ok(Err(format!("write exactly one ANSWER line (this mail has {})", c.answers.len())));
    };
    let g = load_game(tx, game).await?;
    let waiting = store::turns::get_turn(tx, game, g.current_turn).await?.and_then(|t| t.question);
    let kind = waiting.as_ref().map(|q| q.0.kind);
    let number = match (choice, kind) {
        (GmChoice::Listed(n), _) => *n,
        (GmChoice::Continue | GmChoice::Stop, Some(QuestionKind::Checkpoint)) => {
            let word = if *choice == GmChoice::Stop { Checkpoint::Stop } else { Checkpoint::Continue };
            let answers = Checkpoint::candidates();
            answers.iter().position(|c| c.action == word.to_answer()).map_or(0, |i| i + 1)
        }
        (GmChoice::Continue | GmChoice::Stop, _) => {
            return Ok(Err(
                "CONTINUE and STOP answer a round's checkpoint; this question lists numbered choices".into(),
            ));
        }
    };
    // A refusal must change nothing: try it at a savepoint and roll back to it when refused.
    sqlx::query("SAVEPOINT gm_answer").execute(&mut *tx).await?;
    match answer_in(ctx, tx, game, gm, Some(*question), number).await {
        Ok((_, said)) => Ok(Ok(said)),
        Err(e @ (ServiceError::BadInput(_) | ServiceError::Conflict(_))) => {
            sqlx::query("ROLLBACK TO SAVEPOINT gm_answer").execute(&mut *tx).await?;
            Ok(Err(e.to_string()))
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    #[test]
    fn a_gm_reply_address_reads_back_and_other_addresses_do_not() {
        let game = GameId(Uuid::from_u128(0x0192_f0c4_5d1e_7c7a_9b6a_2f1e_0d9c_8b7a));
        let id = data_encoding::BASE32_NOPAD.encode(game.0.as_bytes()).to_lowercase();
        let full = format!("GM+{}.abcdefgh234567ab@Play.Example.org", id.to_uppercase());
        assert_eq!(parse_address(&full), Some((game, "abcdefgh234567ab".into())));
        for other in ["gm@example.org", "orders+x-1.abc@e.org", "gm+nothing.x@e.org", ""] {
            assert_eq!(parse_address(other), None, "{other}");
        }
    }
}
