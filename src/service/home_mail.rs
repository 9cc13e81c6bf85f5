//! The mails of a player's home (issue 37): the sign-in link asked for on the home page, and the
//! answer to `GAMES` — the address's games and seats, with a sign-in link to the home page in
//! place of the seats' own links, which no stored mail may hold (RULINGS P8, M26). Both are
//! sign-in mails of the realm `Home`: stored with [`SIGN_IN_LINK`] and filled when sent.

use super::ServiceError;
use super::home::HomeSeat;
use super::mail_secrets::SIGN_IN_LINK;
use super::notices::{OutgoingMail, render};
use crate::domain::Realm;
use askama::Template;

/// What both mails say.
struct HomeLink<'a> {
    link: &'a str,
    minutes: i64,
    /// The seats, for the `GAMES` answer; `None` for the plain sign-in mail.
    seats: Option<&'a [HomeSeat]>,
}

#[derive(Template)]
#[template(path = "mail/home_login.txt")]
struct HomeLinkText<'a> {
    l: &'a HomeLink<'a>,
}

#[derive(Template)]
#[template(path = "mail/home_login.html")]
struct HomeLinkHtml<'a> {
    l: &'a HomeLink<'a>,
}

/// The mail of the realm `Home` for the link derived from `nonce`.
fn mail(to: &str, nonce: &str, subject: &str, l: &HomeLink<'_>) -> Result<OutgoingMail, ServiceError> {
    Ok(OutgoingMail {
        key: format!("{}{nonce}", Realm::Home.key_prefix()),
        kind: Realm::Home.mail_kind(),
        game_id: None,
        to_addr: to.to_string(),
        to_name: None,
        subject: subject.into(),
        text: render(&HomeLinkText { l })?,
        html: render(&HomeLinkHtml { l })?,
        in_reply_to: None,
        reply_to: None,
        calendar: None,
    })
}

/// A one-time sign-in link to the player's home (RULING W50).
pub fn sign_in(to: &str, nonce: &str, minutes: i64) -> Result<OutgoingMail, ServiceError> {
    let l = HomeLink { link: SIGN_IN_LINK, minutes, seats: None };
    mail(to, nonce, "Your Stationmaster sign-in link", &l)
}

/// The answer to `GAMES`: the seats, and a one-time sign-in link to the home page (RULING M26).
pub fn games(to: &str, nonce: &str, minutes: i64, seats: &[HomeSeat]) -> Result<OutgoingMail, ServiceError> {
    let l = HomeLink { link: SIGN_IN_LINK, minutes, seats: Some(seats) };
    mail(to, nonce, "Your games on Stationmaster", &l)
}
