//! The answer to an order mail: sections (the echo, errors by line, status, help…) rendered into
//! one mail to the seat's registered address, threaded to the player's message.

use crate::inbound_mail::ParsedMail;
use crate::orders::Echo;
use crate::service::notices::{OutgoingMail, ReplyTo, SEAT_LINK, render};
use crate::service::{Ctx, SeatAuth, ServiceError, Submitted, load_game};
use crate::store;
use askama::Template;
use sqlx::PgConnection;

/// Said whenever a mail was refused.
pub const NOTHING_CHANGED: &str = "Nothing was changed: any orders you sent before still stand.";

/// One part of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub title: String,
    pub lines: Vec<String>,
}

impl Section {
    /// A section with a title and lines.
    pub fn new(title: impl Into<String>, lines: Vec<String>) -> Self {
        Section { title: title.into(), lines }
    }
}

#[derive(Template)]
#[template(path = "mail/inbound_reply.txt")]
struct ReplyText<'a> {
    player: &'a str,
    sections: &'a [Section],
    link: &'a str,
}

#[derive(Template)]
#[template(path = "mail/inbound_reply.html")]
struct ReplyHtml<'a> {
    player: &'a str,
    sections: &'a [Section],
    link: &'a str,
}

/// The answer mail for inbound message `id`.
pub fn answer(
    id: i64,
    seat: &SeatAuth,
    generation: i32,
    mail: &ParsedMail,
    sections: &[Section],
) -> Result<OutgoingMail, ServiceError> {
    // RULING P8: the link and the reply address are placeholders until the mail is sent.
    let link = SEAT_LINK;
    let subject = if mail.subject.is_empty() {
        "Your orders".to_string()
    } else if mail.subject.to_ascii_lowercase().starts_with("re:") {
        mail.subject.clone()
    } else {
        format!("Re: {}", mail.subject)
    };
    Ok(OutgoingMail {
        key: format!("inbound-reply:{id}"),
        kind: "order-echo",
        game_id: Some(seat.game),
        to_addr: seat.email.clone(),
        to_name: Some(seat.player_name.clone()),
        subject,
        text: render(&ReplyText { player: &seat.player_name, sections, link })?,
        html: render(&ReplyHtml { player: &seat.player_name, sections, link })?,
        reply_to: Some(ReplyTo::Seat { seat: seat.seat, generation }),
        in_reply_to: mail.message_id.clone(),
        calendar: None,
    })
}

fn echo_lines(echo: &Echo) -> Vec<String> {
    echo.lines
        .iter()
        .map(|l| match (&l.understood, &l.error) {
            (Some(u), _) => match &l.advice {
                Some(a) => format!("line {}: {u}   (note: {a})", l.line),
                None => format!("line {}: {u}", l.line),
            },
            (None, Some(e)) => match &l.suggestion {
                Some(hint) => format!("line {}: NOT UNDERSTOOD: {} — {e} ({hint})", l.line, l.text),
                None => format!("line {}: NOT UNDERSTOOD: {} — {e}", l.line, l.text),
            },
            (None, None) => match &l.advice {
                Some(a) => format!("line {}: {} — {a}", l.line, l.text),
                None => format!("line {}: {}", l.line, l.text),
            },
        })
        .collect()
}

/// The echo of accepted orders.
pub fn echo_section(done: &Submitted) -> Section {
    let mut lines = vec![format!(
        "Stored as version {} of your orders for turn {}{}. Receipt: {}",
        done.version,
        done.turn,
        if done.is_final { ", marked final" } else { "" },
        done.digest
    )];
    lines.extend(echo_lines(&done.echo));
    if done.echo.errors > 0 {
        lines.push(not_understood_words(done.echo.errors));
    }
    lines.push(format!("Deadline: {}. The last version you send counts.", done.deadline_local));
    Section::new("Your orders, as understood", lines)
}

/// What a player is told of the lines not understood on a stored sheet (HR 16).
pub fn not_understood_words(n: usize) -> String {
    format!(
        "{n} line(s) marked NOT UNDERSTOOD will be ignored; the rest of your orders stand and will be \
         played (this is no missed turn). If you meant something by them, send a corrected version \
         before the deadline."
    )
}

/// Orders refused because no line of them could be read (HR 16 keeps a sheet with one readable
/// order).
pub fn refused_section(echo: &Echo) -> Section {
    let mut lines = echo_lines(echo);
    lines.push(NOTHING_CHANGED.into());
    Section::new("Your orders were not accepted", lines)
}

/// What is on file for the seat now.
pub async fn status_section(tx: &mut PgConnection, seat: &SeatAuth) -> Result<Section, ServiceError> {
    let game = load_game(tx, seat.game).await?;
    let turn = store::turns::get_turn(tx, seat.game, game.current_turn).await?;
    let latest = store::orders::latest_of_seat(tx, seat.game, game.current_turn, seat.seat).await?;
    let mut lines = vec![format!(
        "Game \"{}\", turn {}, {}.",
        game.name,
        game.current_turn,
        turn.as_ref().map_or("?", |t| t.status.as_str())
    )];
    if let Some(t) = &turn {
        lines.push(format!(
            "Deadline: {}.",
            crate::service::deadlines::words(&game, seat.time_zone.as_deref(), t.deadline)
        ));
    }
    match latest {
        Some(v) => {
            lines.push(format!(
                "On file: version {}{}, receipt {}:",
                v.version,
                if v.is_final { " (final)" } else { "" },
                v.digest
            ));
            lines.extend(v.canonical.lines().map(|l| format!("  {l}")));
        }
        None => lines.push("No orders on file for this turn yet.".into()),
    }
    Ok(Section::new("Status", lines))
}

/// Queues the seat's latest report again, and says so; the copy's link and reply address are
/// the seat's own for its token `generation` (RULING P8).
pub async fn resend(
    ctx: &Ctx,
    tx: &mut PgConnection,
    seat: &SeatAuth,
    generation: i32,
    mail: &ParsedMail,
) -> Result<Section, ServiceError> {
    let reports = store::games::reports_of_seat(tx, seat.game, seat.seat).await?;
    let Some(last) = reports.last() else {
        return Ok(Section::new(
            "Resend",
            vec!["There is no report yet: the first turn has not been published.".into()],
        ));
    };
    let copy = OutgoingMail {
        key: format!("resend:{}:{}:{}", seat.game, seat.seat.0, mail.message_id.as_deref().unwrap_or("none")),
        kind: "report",
        game_id: Some(seat.game),
        to_addr: seat.email.clone(),
        to_name: Some(seat.player_name.clone()),
        subject: format!("{} (sent again)", last.subject),
        text: last.body_text.clone(),
        html: last.body_html.clone(),
        reply_to: Some(ReplyTo::Seat { seat: seat.seat, generation }),
        in_reply_to: None,
        calendar: None,
    };
    crate::service::notices::queue(tx, &ctx.settings, &copy).await?;
    Ok(Section::new("Resend", vec![format!("Your report of turn {} is on its way again.", last.turn)]))
}

/// When nothing in a mail was read: the lines taken for quote, forwarded message or signature,
/// by number and first words, and how to write so that they count (RULING M22). `None` when
/// nothing was set aside.
pub fn set_aside_section(mail: &ParsedMail) -> Option<Section> {
    if mail.set_aside.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = mail.set_aside.iter().map(|s| s.explained()).collect();
    lines.push(
        "Nothing else in your mail could be read as orders. Write your orders on lines of their own, \
         outside the quoted text: above or below it, or between quoted lines. Text below a quote that \
         is not marked with \">\" (Outlook's \"From: … Sent: …\" header) or below a forwarded \
         message's header counts as part of it, so write your orders above those."
            .into(),
    );
    Some(Section::new("Taken for quote or signature", lines))
}

/// How to write an order mail.
pub fn help_section() -> Section {
    Section::new(
        "How to send orders by mail",
        vec![
            "Reply to any mail from us (the reply address is your seat's signed address) and write your orders in the mail, one per line, as on the web page.".into(),
            "Commands, each alone on a line: FINAL (mark your orders final), STATUS (what is on file, and the deadline), RESEND (your last report again), HELP (this text).".into(),
            "Instead of replying, you may start the mail with a line ORDERS <game> <seat> <token> (the token is the end of your private link).".into(),
            "Mail is only taken from your registered address. Quoted text (\">\" lines), forwarded messages and signatures are ignored; your own lines count above, below or between quoted lines.".into(),
        ],
    )
}
