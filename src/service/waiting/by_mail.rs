//! Invitations and requests to join answered by mail (RULINGS M23–M25): the mail of an invitation
//! or a join confirmation replies to the place's signed address (`place+<id>.<tag>@…`); a reply
//! from the invited (or joining) address whose first word is `ACCEPT` or `JOIN` takes the place,
//! `DECLINE` declines it — carried out as the link's button is, once, in the transaction that
//! records the mail, and the sender is told what happened.

use super::places::{PlaceAnswer, PlaceOutcome, carry_out as answer_in, live_game};
use crate::domain::{InboundStatus, PlaceKind, SecretToken};
use crate::inbound_mail::ParsedMail;
use crate::service::mail_secrets::{parse_place_address, place_reply_tag};
use crate::service::notices::{self, Notice, NoticeTo};
use crate::service::turn::gm_mail::{addressed, not_own};
use crate::service::{Ctx, ServiceError};
use crate::store;
use crate::store::inbound::{InboundRow, Outcome};
use sqlx::PgConnection;

/// The answer a mail's own text gives: its first word (RULING M24).
fn command(body: &str) -> Option<PlaceAnswer> {
    let word = body.split_whitespace().next()?.trim_matches(|c: char| !c.is_ascii_alphabetic());
    match word.to_ascii_uppercase().as_str() {
        "ACCEPT" | "JOIN" => Some(PlaceAnswer::Accept),
        "DECLINE" => Some(PlaceAnswer::Decline),
        _ => None,
    }
}

/// Carries out a mail sent to a place's reply address, recording its outcome on the inbound row.
/// `Ok(None)`: the mail is not for a place address.
pub(crate) async fn carry_out(
    ctx: &Ctx,
    tx: &mut PgConnection,
    row: &InboundRow,
    mail: &ParsedMail,
) -> Result<Option<(InboundStatus, String)>, ServiceError> {
    let Some((id, presented)) = addressed(ctx, row, mail).into_iter().find_map(|a| parse_place_address(a))
    else {
        return Ok(None);
    };
    if !mail.readable {
        return Ok(None);
    }
    let place = store::waiting::place_by_id(tx, id).await?;
    // RULING M11: the stored address holds a placeholder; the row says what it stands for. RULING
    // P9: a reply address made under a key since rotated is one whose hash the place kept.
    let kept = store::waiting::reply_tag_hashes(tx, id).await?;
    let valid = place.is_some()
        && (row.secrets().holds(&presented, &place_reply_tag(ctx, id))
            || kept.contains(&row.secrets().digest(&presented)));
    let (status, outcome, reply) = match place {
        Some(p) if valid => {
            // The reply goes to the place's own address, about its game.
            let to = (p.email.clone().unwrap_or_default(), p.game_id);
            if let Some(why) = not_own(ctx, &to.0, "the invited", mail) {
                (
                    InboundStatus::Rejected,
                    format!("refused: {why}"),
                    Some((to, format!("Your mail was not taken: {why}."))),
                )
            } else {
                let words = if p.kind == PlaceKind::Invited { "ACCEPT or DECLINE" } else { "JOIN" };
                match (command(&mail.body), live_game(ctx, tx, &p).await?) {
                    (None, _) => (
                        InboundStatus::Rejected,
                        "refused: no ACCEPT, JOIN or DECLINE".into(),
                        Some((to, format!("Your mail was not understood: reply with {words} alone."))),
                    ),
                    (Some(_), None) => (
                        InboundStatus::Rejected,
                        "refused: the place was answered already, expired, or its game started or was cancelled".into(),
                        Some((to, "This invitation or request can no longer be answered.".into())),
                    ),
                    (Some(answer), Some(w)) => {
                        let done = answer_in(ctx, tx, &p, &w, answer).await?;
                        (InboundStatus::Accepted, format!("accepted: {done:?}"), Some((to, said(done))))
                    }
                }
            }
        }
        // A forged, stale or unknown address: no answer (it may reach nobody we know).
        _ => (
            InboundStatus::Rejected,
            "refused: a place reply address whose signature is not valid".into(),
            None,
        ),
    };
    let auth = mail.auth.as_ref().and_then(|a| serde_json::to_value(a).ok());
    let record = Outcome {
        status,
        message_id: mail.message_id.as_deref(),
        from_addr: mail.from.as_deref(),
        game_id: None,
        seat: None,
        turn: None,
        auth_results: auth.as_ref(),
        outcome: &outcome,
        notice: None,
        unrouted: false,
    };
    store::inbound::record_outcome(tx, row.id, &record, ctx.now()).await?;
    if let Some(((to, game), text)) = reply {
        let n = Notice {
            game: "your invitation",
            greeting: &to,
            paragraphs: vec![text],
            block: None,
            link: None,
        };
        let to = NoticeTo {
            key: format!("place-answer:{}:{}", row.id, SecretToken::generate().reveal()),
            kind: "place-answer",
            game_id: game,
            to: &to,
            name: None,
            subject: "Your answer".into(),
            reply_to: None,
            calendar: None,
        };
        let mut m = notices::notice(to, &n)?;
        m.game_id = None;
        notices::queue(tx, &ctx.settings, &m).await?;
    }
    tracing::info!(inbound.id = row.id, %status, %outcome, "mail to a place processed");
    Ok(Some((status, outcome)))
}

/// What the player is told.
fn said(done: PlaceOutcome) -> String {
    match done {
        PlaceOutcome::Seated { started: true } => {
            "You have a seat, and the game has started: your welcome mail brings your private order link.".into()
        }
        PlaceOutcome::Seated { started: false } => {
            "You have a seat. When every seat is taken the game starts, and your welcome mail brings your link.".into()
        }
        PlaceOutcome::Waitlisted => "Every seat is taken: you are on the waiting list.".into(),
        PlaceOutcome::AwaitsApproval => "Your request waits for the GM's approval.".into(),
        PlaceOutcome::Declined => "You declined; thank you.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_word_answers_in_any_case() {
        assert_eq!(command("accept\n"), Some(PlaceAnswer::Accept));
        assert_eq!(command("  Join please"), Some(PlaceAnswer::Accept));
        assert_eq!(command("DECLINE."), Some(PlaceAnswer::Decline));
        assert_eq!(command("maybe accept"), None);
        assert_eq!(command(""), None);
    }
}
