//! Mail the service layer queues: welcome mails with order links, GM login links, GM alerts.
//! Every mail is rendered from askama templates (text + HTML) and queued in the outbox with a
//! Message-ID derived from its idempotency key, so re-queueing or re-sending is harmless. A mail
//! to a seat carries its link and reply address as placeholders, filled when it is sent
//! (`super::mail_secrets`, RULING P8).

use super::ServiceError;
pub use super::mail_secrets::{ReplyTo, SEAT_LINK};
use crate::config::Settings;
use crate::domain::{GameId, Mailbox, TurnLength};
use crate::store::outbox::{self, NewMail};
use askama::Template;
use sha2::{Digest, Sha256};
use sqlx::PgConnection;

/// A rendered mail ready for the outbox.
#[derive(Debug, Clone)]
pub struct OutgoingMail {
    pub key: String,
    pub kind: &'static str,
    pub game_id: Option<GameId>,
    pub to_addr: String,
    pub to_name: Option<String>,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// Where replies go: a seat's signed reply address (which also names the seat whose link
    /// [`SEAT_LINK`] stands for), or the GM's; derived when the mail is sent.
    pub reply_to: Option<ReplyTo>,
    /// The Message-ID this mail answers (threads the echo of an order mail).
    pub in_reply_to: Option<String>,
    /// An iCalendar attachment (mails that announce a deadline).
    pub calendar: Option<String>,
}

/// Our Message-ID for an idempotency key (stable: a re-send carries the same id).
pub fn message_id(key: &str, domain: &str) -> String {
    let h = data_encoding::HEXLOWER.encode(&Sha256::digest(key.as_bytes()));
    format!("{}.{}@{}", key.split(':').next().unwrap_or("mail"), &h[..24], domain)
}

/// The idempotency key of a mail about a turn's adjudication: a turn re-opened by a rollback
/// (`reopened` > 0) mails again, under a new key.
pub fn run_key(base: String, reopened: i32) -> String {
    if reopened == 0 { base } else { format!("{base}:r{reopened}") }
}

/// Queues a mail in the caller's transaction; a second call with the same key does nothing. Its
/// secrets stay placeholders (RULING P8).
pub async fn queue(
    conn: &mut PgConnection,
    settings: &Settings,
    m: &OutgoingMail,
) -> Result<(), ServiceError> {
    outbox::enqueue(
        conn,
        &NewMail {
            idempotency_key: m.key.clone(),
            game_id: m.game_id,
            kind: m.kind.to_string(),
            to_addr: m.to_addr.clone(),
            to_name: m.to_name.clone(),
            subject: m.subject.clone(),
            body_text: m.text.clone(),
            body_html: Some(m.html.clone()),
            message_id: message_id(&m.key, &settings.mail_domain()),
            in_reply_to: m.in_reply_to.clone(),
            reply_to: m.reply_to.map(|r| r.placeholder().to_string()),
            seat: m.reply_to.and_then(ReplyTo::seat).map(|(seat, _)| seat),
            token_generation: m.reply_to.and_then(ReplyTo::seat).map(|(_, generation)| generation),
            calendar: m.calendar.clone(),
        },
    )
    .await?;
    Ok(())
}

pub(crate) fn render<T: Template>(t: &T) -> Result<String, ServiceError> {
    t.render().map_err(|e| ServiceError::Internal(format!("template: {e}")))
}

/// The data of a welcome mail.
pub struct Welcome<'a> {
    pub game: &'a str,
    pub public: String,
    pub title: &'a str,
    pub seat: u8,
    pub player: &'a str,
    pub link: &'a str,
    pub api: String,
    pub turn_length: String,
    pub deadline: String,
    /// The game's order guide on the server, when it has one.
    pub guide: Option<String>,
    /// The first turn's dice commitment (games that roll dice; docs/DICE.md).
    pub dice: Option<String>,
}

#[derive(Template)]
#[template(path = "mail/welcome.txt")]
struct WelcomeText<'a> {
    w: &'a Welcome<'a>,
}

#[derive(Template)]
#[template(path = "mail/welcome.html")]
struct WelcomeHtml<'a> {
    w: &'a Welcome<'a>,
}

/// The welcome mail of a new seat (token generation 1), with its private order link.
#[allow(clippy::too_many_arguments)]
pub fn welcome(
    settings: &Settings,
    game: &str,
    game_id: GameId,
    engine: &dyn crate::registry::DynGame,
    seat: u8,
    player: &Mailbox,
    turn_length: &TurnLength,
    deadline: &str,
    dice: Option<String>,
) -> Result<OutgoingMail, ServiceError> {
    let w = Welcome {
        game,
        public: format!("{}/games/{}", settings.base(), game_id),
        title: engine.title(),
        seat,
        player: &player.name,
        link: SEAT_LINK,
        api: format!("{}/api/v1/games/{}/orders", settings.base(), game_id),
        turn_length: turn_length.to_string(),
        deadline: deadline.to_string(),
        guide: super::guides::guide_path(engine).map(|path| format!("{}{path}", settings.base())),
        dice,
    };
    Ok(OutgoingMail {
        key: format!("welcome:{game_id}:{seat}"),
        kind: "welcome",
        game_id: Some(game_id),
        to_addr: player.email.to_string(),
        to_name: Some(player.name.clone()),
        subject: format!("[{game}] You are seat {seat} — your private order link"),
        text: render(&WelcomeText { w: &w })?,
        html: render(&WelcomeHtml { w: &w })?,
        in_reply_to: None,
        reply_to: Some(ReplyTo::Seat { seat: crate::engine::Seat(seat), generation: 1 }),
        calendar: None,
    })
}

/// The data of a GM login mail.
pub struct GmLogin<'a> {
    pub link: &'a str,
    pub minutes: i64,
}

#[derive(Template)]
#[template(path = "mail/gm_login.txt")]
struct GmLoginText<'a> {
    l: &'a GmLogin<'a>,
}

#[derive(Template)]
#[template(path = "mail/gm_login.html")]
struct GmLoginHtml<'a> {
    l: &'a GmLogin<'a>,
}

/// A one-time GM sign-in link.
pub fn gm_login(to: &str, nonce: &str, link: &str, minutes: i64) -> Result<OutgoingMail, ServiceError> {
    let l = GmLogin { link, minutes };
    Ok(OutgoingMail {
        key: format!("{}{nonce}", crate::domain::Realm::Gm.key_prefix()),
        kind: "gm-login",
        game_id: None,
        to_addr: to.to_string(),
        to_name: None,
        subject: "Your Stationmaster sign-in link".into(),
        text: render(&GmLoginText { l: &l })?,
        html: render(&GmLoginHtml { l: &l })?,
        in_reply_to: None,
        reply_to: None,
        calendar: None,
    })
}

/// The data of a GM alert about a turn.
pub struct GmAlert<'a> {
    pub game: &'a str,
    pub turn: i32,
    pub what: &'a str,
    pub link: String,
}

#[derive(Template)]
#[template(path = "mail/gm_alert.txt")]
struct GmAlertText<'a> {
    a: &'a GmAlert<'a>,
}

#[derive(Template)]
#[template(path = "mail/gm_alert.html")]
struct GmAlertHtml<'a> {
    a: &'a GmAlert<'a>,
}

/// A mail to the GM about a turn (a draft waiting for review, a failed adjudication).
pub fn gm_alert(
    key: String,
    gm: &str,
    game_id: GameId,
    a: &GmAlert<'_>,
) -> Result<OutgoingMail, ServiceError> {
    Ok(OutgoingMail {
        key,
        kind: "gm-alert",
        game_id: Some(game_id),
        to_addr: gm.to_string(),
        to_name: None,
        subject: format!("[{}] Turn {}: {}", a.game, a.turn, a.what),
        text: render(&GmAlertText { a })?,
        html: render(&GmAlertHtml { a })?,
        in_reply_to: None,
        reply_to: None,
        calendar: None,
    })
}

/// A short mail to one person about their game: a reminder, a moved deadline, a pause, an NMR
/// flag, a copy of orders the GM entered for them. Paragraphs are plain text; `block` is shown
/// preformatted (orders, a seat's history).
pub struct Notice<'a> {
    pub game: &'a str,
    pub greeting: &'a str,
    pub paragraphs: Vec<String>,
    pub block: Option<String>,
    pub link: Option<String>,
}

#[derive(Template)]
#[template(path = "mail/notice.txt")]
struct NoticeText<'a> {
    n: &'a Notice<'a>,
}

#[derive(Template)]
#[template(path = "mail/notice.html")]
struct NoticeHtml<'a> {
    n: &'a Notice<'a>,
}

/// Where a notice goes and how it is filed.
pub struct NoticeTo<'a> {
    /// Idempotency key: the same key is queued once.
    pub key: String,
    pub kind: &'static str,
    pub game_id: GameId,
    pub to: &'a str,
    pub name: Option<&'a str>,
    pub subject: String,
    /// The seat's signed reply address (for mail to a seat), or the GM's.
    pub reply_to: Option<ReplyTo>,
    pub calendar: Option<String>,
}

/// Renders a [`Notice`].
pub fn notice(to: NoticeTo<'_>, n: &Notice<'_>) -> Result<OutgoingMail, ServiceError> {
    Ok(OutgoingMail {
        key: to.key,
        kind: to.kind,
        game_id: Some(to.game_id),
        to_addr: to.to.to_string(),
        to_name: to.name.map(str::to_string),
        subject: to.subject,
        text: render(&NoticeText { n })?,
        html: render(&NoticeHtml { n })?,
        in_reply_to: None,
        reply_to: to.reply_to,
        calendar: to.calendar,
    })
}

/// How a [`Notice`] to a seat is filed.
pub struct SeatMail {
    /// Idempotency key: the same key is queued once.
    pub key: String,
    pub kind: &'static str,
    pub subject: String,
    pub calendar: Option<String>,
}

/// Queues a [`Notice`] to the player of a seat, replying to the seat's signed address; its
/// `link`, if any, is [`SEAT_LINK`].
pub async fn queue_to_seat(
    ctx: &super::Ctx,
    conn: &mut PgConnection,
    game: GameId,
    seat: &crate::store::games::SeatRow,
    m: SeatMail,
    n: &Notice<'_>,
) -> Result<(), ServiceError> {
    let s = seat.seat;
    let mail = notice(
        NoticeTo {
            key: m.key,
            kind: m.kind,
            game_id: game,
            to: &seat.email,
            name: Some(&seat.player_name),
            subject: m.subject,
            reply_to: Some(ReplyTo::Seat { seat: s, generation: seat.token_generation }),
            calendar: m.calendar,
        },
        n,
    )?;
    queue(conn, &ctx.settings, &mail).await
}
