//! `GAMES` by mail (issue 37): a mail whose own text is the one word `GAMES`, sent to any of our
//! addresses, is answered with the sender's games and seats and a sign-in link to the home page
//! (`service::home_mail`) — mailed to the From address alone, and only when the mail is
//! authenticated as a seat's mail must be (RULING M26). An unknown or unauthenticated sender, or
//! one over the limits (RULING M27), is not answered at all: nothing tells it whether the address
//! plays here. The mail itself is then mail for no seat, under the flood bounds of `limits`.

use super::authentic;
use super::decided::Decided;
use crate::domain::{InboundStatus, Realm, SecretToken};
use crate::inbound_mail::ParsedMail;
use crate::service::{Ctx, ServiceError, home, home_mail, notices, signin_limits, signin_links};
use crate::store;
use sqlx::PgConnection;

/// The command word.
const GAMES: &str = "GAMES";

/// Whether the mail's own text (quotes and signatures set aside) is just `GAMES`: one line, any
/// case; blank and comment lines aside. Anything more is not a `GAMES` mail (RULING M26).
pub(super) fn asked(body: &str) -> bool {
    let mut lines =
        body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"));
    matches!((lines.next(), lines.next()), (Some(line), None) if line.eq_ignore_ascii_case(GAMES))
}

/// Answers a `GAMES` mail from `from`, or records why it was not answered.
pub(super) async fn answer(
    ctx: &Ctx,
    tx: &mut PgConnection,
    from: &str,
    mail: &ParsedMail,
) -> Result<Decided, ServiceError> {
    // RULING M26: the From must be one address, authenticated as a seat's mail must be.
    if let Some(problem) = mail.from_problem {
        return Ok(Decided::silent(InboundStatus::Rejected, format!("GAMES not answered: From: {problem}")));
    }
    if let Some(why) = authentic::failure(ctx, from, mail) {
        return Ok(Decided::silent(
            InboundStatus::Rejected,
            format!("GAMES not answered: authentication: {why}"),
        ));
    }
    let now = ctx.now();
    // RULING M27: counted before anyone looks whether the address plays here.
    if !signin_limits::allow_games_answer(tx, from, now).await? {
        return Ok(Decided::silent(
            InboundStatus::Rejected,
            "GAMES not answered: over the limit on GAMES answers",
        ));
    }
    if !store::home::has_seat(tx, from).await? {
        return Ok(Decided::silent(
            InboundStatus::Ignored,
            "GAMES from an address with no seat: not answered",
        ));
    }
    let seats = home::seats_of(tx, ctx, from).await?;
    let nonce = SecretToken::generate();
    signin_links::issue(tx, ctx, Realm::Home, &nonce, from, now).await?;
    let answer = home_mail::games(from, nonce.reveal(), signin_links::LINK_MINUTES, &seats)?;
    notices::queue(tx, &ctx.settings, &answer).await?;
    let n = seats.len();
    Ok(Decided::silent(
        InboundStatus::Accepted,
        format!("GAMES answered to the sender: {n} seat{} listed", if n == 1 { "" } else { "s" }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_is_a_mail_of_that_one_word_and_nothing_else() {
        assert!(asked("GAMES"));
        assert!(asked("\n  games  \n\n# my games please\n"));
        assert!(!asked("GAMES\nCLAIM 7H NORTH"), "with order lines it is an order mail");
        assert!(!asked("GAMES please"));
        assert!(!asked(""));
    }
}
