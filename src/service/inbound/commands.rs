//! Carrying out an authenticated order mail: its orders (through the same `submit_for` as the
//! web, a trailing sign-off ignored — RULING M5; a line not understood marked, never costing
//! the mail — HR 16), FINAL, STATUS, RESEND and HELP, each adding a section to the answer; a
//! mail in which nothing was found is told which lines were taken for quote (RULING M22).

use super::decided::Decided;
use super::reply::{self, Section};
use super::route::Routed;
use crate::domain::InboundStatus;
use crate::inbound_mail::{BodyKind, MailCommands, ParsedMail, sign_off};
use crate::orders::OrderText;
use crate::service::submit::{check_for, mark_final_in, submit_for};
use crate::service::{Ctx, SeatAuth, ServiceError, Source, Submitted};
use crate::store::games::GameRow;
use sqlx::PgConnection;

/// Runs the mail's commands for an authenticated seat.
pub(super) async fn carry_out(
    ctx: &Ctx,
    tx: &mut PgConnection,
    routed: Routed,
    game: GameRow,
    mail: &ParsedMail,
    c: &MailCommands,
) -> Result<Decided, ServiceError> {
    let (seat, generation, turn) = (routed.auth, routed.generation, game.current_turn);
    let mut sections = Vec::new();
    let mut status = InboundStatus::Accepted;
    let mut outcome = Vec::new();
    let mut finalised = false;
    let mut deadline = None;
    let mut ignored = None;
    if mail.body_kind == BodyKind::None && !c.has_orders() {
        sections.push(Section::new("Your mail was not accepted", vec!["it has no readable text part (an attachment or an empty HTML mail?); write your orders in the mail itself".into()]));
        return Ok(Decided {
            status: InboundStatus::Rejected,
            outcome: "refused: no readable text".into(),
            seat: Some(seat),
            generation,
            game: Some(game),
            turn: Some(turn),
            deadline: None,
            sections,
            finalised,
            notice: None,
            unrouted: false,
        });
    }
    if let Some(line) = c.bad_token_line {
        sections.push(Section::new(
            "Not understood",
            vec![format!("line {line}: an ORDERS line is ORDERS <game> <seat> <token>")],
        ));
    }
    if c.has_orders() {
        // RULING M5: a trailing sign-off ("Dan") is no order and no line not understood.
        let signed = match check_for(tx, &game, &seat, &c.order_text).await? {
            Some(echo) => sign_off(&echo, &seat.player_name),
            None => None,
        };
        let text = signed.as_ref().map_or_else(|| c.order_text.clone(), |s| s.remove_from(&c.order_text));
        let submitted = submit_text(ctx, tx, &game, &seat, &text, c.final_).await;
        if let (Some(signed), true) = (&signed, submitted.is_ok()) {
            outcome.push(format!("{} trailing line(s) ignored as a sign-off", signed.lines.len()));
            ignored = Some(Section::new("Ignored", signed.explained()));
        }
        match submitted {
            Ok(done) => {
                finalised = done.is_final;
                deadline = Some((done.turn, done.deadline, done.deadline_version));
                outcome.push(format!("orders stored as version {}", done.version));
                if done.echo.errors > 0 {
                    // HR 16: the mail is not bounced for a line; the echo marks it.
                    outcome.push(format!("{} line(s) not understood", done.echo.errors));
                }
                sections.push(reply::echo_section(&done));
                sections.extend(ignored.take());
            }
            Err(ServiceError::Rejected(echo)) => {
                status = InboundStatus::Rejected;
                outcome.push(format!("orders refused: none of {} line(s) understood", echo.errors));
                sections.push(reply::refused_section(&echo));
            }
            Err(ServiceError::Conflict(why)) => {
                status = InboundStatus::Rejected;
                outcome.push(format!("too late: {why}"));
                sections.push(Section::new("Too late", vec![format!("{why}."), "Your mail is kept, but its orders were not applied — not to this turn, and not to the next one.".into()]));
            }
            Err(ServiceError::BadInput(why)) => {
                status = InboundStatus::Rejected;
                outcome.push(format!("orders refused: {why}"));
                sections.push(Section::new("Your orders were not accepted", vec![why]));
            }
            Err(e) => return Err(e),
        }
    } else if c.final_ {
        match mark_final_in(ctx, tx, &seat).await {
            Ok(v) => {
                finalised = true;
                outcome.push(format!("version {v} marked final"));
                sections.push(Section::new(
                    "Final",
                    vec![format!("Your orders (version {v}) are marked final.")],
                ));
            }
            Err(e @ (ServiceError::Conflict(_) | ServiceError::NoOrders { .. })) => {
                outcome.push(format!("final refused: {e}"));
                sections.push(Section::new("Not marked final", vec![e.to_string()]));
            }
            Err(e) => return Err(e),
        }
    }
    if c.status {
        sections.push(reply::status_section(tx, &seat).await?);
        outcome.push("status sent".into());
    }
    if c.resend {
        sections.push(reply::resend(ctx, tx, &seat, generation, mail).await?);
        outcome.push("last report resent".into());
    }
    let nothing_found = sections.is_empty();
    if c.help {
        outcome.push("help sent".into());
    } else if nothing_found {
        status = InboundStatus::Rejected;
        outcome.push("no orders or commands found".into());
        // RULING M22: say which lines were taken for quote or signature (by count only in the
        // record, which the GM reads: the quote may hold the seat's hidden hand).
        if let Some(section) = reply::set_aside_section(mail) {
            let n: usize = mail.set_aside.iter().map(|s| s.last - s.first + 1).sum();
            outcome.push(format!("{n} line(s) taken for quote or signature"));
            sections.push(section);
        }
    }
    if c.help || nothing_found {
        sections.push(reply::help_section());
    }
    Ok(Decided {
        status,
        outcome: outcome.join("; "),
        seat: Some(seat),
        generation,
        game: Some(game),
        turn: Some(turn),
        deadline,
        sections,
        finalised,
        notice: None,
        unrouted: false,
    })
}

/// Checks order text at the edge and submits it for the seat.
async fn submit_text(
    ctx: &Ctx,
    tx: &mut PgConnection,
    game: &GameRow,
    seat: &SeatAuth,
    text: &str,
    final_now: bool,
) -> Result<Submitted, ServiceError> {
    match OrderText::parse(text) {
        Ok(text) => submit_for(ctx, tx, game, seat, &text, Source::Mail, final_now).await,
        Err(e) => Err(ServiceError::BadInput(e.to_string())),
    }
}
