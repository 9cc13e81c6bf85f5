//! Sign-in by a mailed one-time link and the sessions it opens, for both realms (`domain::Realm`):
//! the GM's pages (`gm_auth`) and a player's home (`home`). A link is the key's tag of a random
//! nonce (RULING P8), works once, for [`LINK_MINUTES`], and using it voids the address's other
//! links of its realm (RULING W3); a session is a random token kept as a hash. A link or session
//! of one realm never opens the other (RULING W51). Requests are limited by `signin_limits`.

use super::signin_limits::{self, Origin};
use super::{Ctx, ServiceError};
use super::{gm_access, home_mail, mail_secrets, notices};
use crate::config::CreationSettings;
use crate::domain::{EmailAddress, Realm, SecretToken};
use crate::store;
use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;

/// How long a mailed sign-in link works.
pub const LINK_MINUTES: i64 = 15;
/// How long a session lasts.
pub const SESSION_DAYS: i64 = 14;

/// Someone signed in: the session, and the device token the browser keeps so that the address
/// knows it at the next sign-in (RULING W2b).
#[derive(Debug)]
pub struct SignedIn {
    pub session: SecretToken,
    pub device: SecretToken,
}

/// Whether an address may be mailed a link of the realm: for the GM's pages, one that runs a
/// game or may create one (RULING W42); for a home, an address with a seat (RULING W50).
async fn may_have_link(
    conn: &mut PgConnection,
    settings: &CreationSettings,
    realm: Realm,
    email: &str,
) -> Result<bool, ServiceError> {
    Ok(match realm {
        // RULING W42: an address that may create games signs in before it runs one.
        Realm::Gm => gm_access::may_sign_in(conn, settings, email).await?,
        Realm::Home => store::home::has_seat(conn, email).await?,
    })
}

/// The sign-in mail of a realm, for the link derived from `nonce`.
fn link_mail(realm: Realm, to: &str, nonce: &str) -> Result<notices::OutgoingMail, ServiceError> {
    match realm {
        Realm::Gm => notices::gm_login(to, nonce, mail_secrets::SIGN_IN_LINK, LINK_MINUTES),
        Realm::Home => home_mail::sign_in(to, nonce, LINK_MINUTES),
    }
}

/// Stores a new link of the realm for `email`, valid for [`LINK_MINUTES`] from `now`: the hash of
/// the token derived from `nonce`, which the mail carries instead (RULING P8: the link is derived
/// from it when the mail is sent).
pub(super) async fn issue(
    conn: &mut PgConnection,
    ctx: &Ctx,
    realm: Realm,
    nonce: &SecretToken,
    email: &str,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let token = ctx.sign_in_token(realm, nonce.reveal());
    let expires = now + Duration::minutes(LINK_MINUTES);
    store::gm::insert_login_token(conn, realm, &token.hash(), email, expires).await?;
    Ok(())
}

/// Mails a one-time sign-in link of the realm when the address may have one. Answers the same
/// either way, so the form does not reveal who runs games or plays here — also when a limit
/// holds the link back (RULING W3): the newest link of the realm mailed to the address in the
/// last [`LINK_MINUTES`], if any, then works for a full lifetime from now, so an owner whose own
/// request strangers' requests held back still has a working link in the mailbox. A stranger's
/// requests do not use up those of the address's known clients and devices. An address that may
/// not have a link is mailed nothing (RULING W50), after the same work (RULING W54).
pub async fn request_link(
    ctx: &Ctx,
    realm: Realm,
    email: &EmailAddress,
    origin: &Origin,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    if !signin_limits::allow_link_request(&mut tx, realm, email.as_str(), origin, now).await? {
        tracing::warn!(client = ?origin.client, %realm, "sign-in link request over the limit: nothing sent");
        // RULING W3: alike for every address, whether or not it has a link to extend.
        let expires = now + Duration::minutes(LINK_MINUTES);
        store::gm::extend_newest_login_token(&mut tx, realm, email.as_str(), now, expires).await?;
        tx.commit().await?;
        return Ok(());
    }
    // RULING W54: the mail is made for every address, so both answers cost the same work.
    let nonce = SecretToken::generate();
    let mail = link_mail(realm, email.as_str(), nonce.reveal())?;
    if !may_have_link(&mut tx, &ctx.settings.creation, realm, email.as_str()).await? {
        tracing::info!(%realm, "sign-in link requested for an address that may not have one");
        tx.commit().await?;
        return Ok(());
    }
    issue(&mut tx, ctx, realm, &nonce, email.as_str(), now).await?;
    notices::queue(&mut tx, &ctx.settings, &mail).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// What the page says after a link request, to every address alike (RULINGS W3, W50).
pub fn requested_notice(realm: Realm, email: &EmailAddress) -> String {
    let who = match realm {
        Realm::Gm => "runs or may create games here",
        Realm::Home => "has a seat in a game here",
    };
    format!(
        "If {email} {who}, a sign-in link is on its way. It works once, for {m} minutes. \
         If no new one arrives, the newest sign-in link sent to it in the last {m} minutes works, \
         for {m} minutes from now.",
        m = LINK_MINUTES
    )
}

/// Uses a mailed link of the realm (once) and opens a session of that realm. Every other unused
/// link of the address in the realm dies with it (RULING W3); the client and device it was used
/// from become known (RULING W2b).
pub async fn use_link(
    ctx: &Ctx,
    realm: Realm,
    link_token: &SecretToken,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let email =
        store::gm::consume_login_token(&mut tx, realm, &link_token.hash(), now).await?.ok_or_else(|| {
            ServiceError::Forbidden(
                "this sign-in link is not valid: it was used already or has expired".into(),
            )
        })?;
    store::gm::void_login_tokens(&mut tx, realm, &email, now).await?;
    let signed_in = open_session(&mut tx, ctx, realm, &email, origin).await?;
    tx.commit().await?;
    Ok(signed_in)
}

/// Opens a session of the realm for an address that just signed in from `origin`, which the
/// address then knows (RULING W2b).
pub(super) async fn open_session(
    conn: &mut PgConnection,
    ctx: &Ctx,
    realm: Realm,
    email: &str,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    let device = signin_limits::signed_in(conn, email, origin, ctx.now()).await?;
    let session = SecretToken::generate();
    let expires = ctx.now() + Duration::days(SESSION_DAYS);
    store::gm::insert_session(conn, realm, &session.hash(), email, expires).await?;
    Ok(SignedIn { session, device })
}

/// The address a session of the realm belongs to, if it is valid.
pub async fn session_owner(
    ctx: &Ctx,
    realm: Realm,
    session: &SecretToken,
) -> Result<Option<String>, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    Ok(store::gm::session_email(&mut conn, realm, &session.hash(), ctx.now()).await?)
}

/// Ends a session of the realm.
pub async fn end_session(ctx: &Ctx, realm: Realm, session: &SecretToken) -> Result<(), ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    store::gm::delete_session(&mut conn, realm, &session.hash()).await?;
    Ok(())
}
