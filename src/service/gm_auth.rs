//! GM sign-in: one-time links mailed to the GM's address, or a password (Argon2id). Sessions
//! are random tokens kept as hashes. A seat token never opens anything here.

use super::signin_limits::{self, Origin};
use super::{Ctx, ServiceError};
use super::{mail_secrets, notices, password_check};
use crate::domain::{EmailAddress, SecretToken};
use crate::store;
use chrono::Duration;

/// How long a mailed sign-in link works.
pub const LOGIN_LINK_MINUTES: i64 = 15;
/// How long a GM session lasts.
pub const SESSION_DAYS: i64 = 14;

/// A GM signed in: the session, and the device token the browser keeps so that the account
/// knows it at the next sign-in (RULING W2b).
#[derive(Debug)]
pub struct SignedIn {
    pub session: SecretToken,
    pub device: SecretToken,
}

/// Mails a one-time sign-in link when the address is a GM's or may create games. Answers the same either way, so
/// the form does not reveal who runs games — also when a limit holds the link back (RULING W3):
/// the newest link mailed to the address in the last 15 minutes, if any, then works for a full
/// lifetime from now, so a GM whose own request strangers' requests held back still has a
/// working link in the mailbox. A stranger's requests do not use up those of the account's
/// known clients and devices. The mail is stored with [`mail_secrets::SIGN_IN_LINK`]; the link is
/// derived from the server key and the mail's nonce when it is sent, and only its hash is stored
/// (RULING P8).
pub async fn request_login_link(
    ctx: &Ctx,
    email: &EmailAddress,
    origin: &Origin,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let expires = now + Duration::minutes(LOGIN_LINK_MINUTES);
    if !signin_limits::allow_link_request(&mut tx, email.as_str(), origin, now).await? {
        tracing::warn!(client = ?origin.client, "sign-in link request over the limit: nothing sent");
        // RULING W3: alike for every address, whether or not it has a link to extend.
        store::gm::extend_newest_login_token(&mut tx, email.as_str(), now, expires).await?;
        tx.commit().await?;
        return Ok(());
    }
    // RULING W42: an address that may create games signs in before it runs one.
    if !super::gm_access::may_sign_in(&mut tx, &ctx.settings.creation, email.as_str()).await? {
        tracing::info!("sign-in link requested for an address that runs no game and may create none");
        tx.commit().await?;
        return Ok(());
    }
    // RULING P8: the mail names a random nonce; the token is the key's tag of it.
    let nonce = SecretToken::generate();
    let token = ctx.sign_in_token(nonce.reveal());
    store::gm::insert_login_token(&mut tx, &token.hash(), email.as_str(), expires).await?;
    let mail =
        notices::gm_login(email.as_str(), nonce.reveal(), mail_secrets::SIGN_IN_LINK, LOGIN_LINK_MINUTES)?;
    notices::queue(&mut tx, &ctx.settings, &mail).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// Uses a mailed link (once) and opens a session. Every other unused link of the GM dies with
/// it (RULING W3); the client and device it was used from become known (RULING W2b).
pub async fn login_with_link(
    ctx: &Ctx,
    link_token: &SecretToken,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let email = store::gm::consume_login_token(&mut tx, &link_token.hash(), now).await?.ok_or_else(|| {
        ServiceError::Forbidden("this sign-in link is not valid: it was used already or has expired".into())
    })?;
    store::gm::void_login_tokens(&mut tx, &email, now).await?;
    let signed_in = open_session(&mut tx, ctx, &email, origin).await?;
    tx.commit().await?;
    Ok(signed_in)
}

/// Checks a password and opens a session. Failures are limited per account and source, per
/// client and, for strangers, per account (RULINGS W2, W2b); an address without a password
/// costs the same check as a wrong password.
pub async fn login_with_password(
    ctx: &Ctx,
    email: &EmailAddress,
    password: &str,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    let now = ctx.now();
    let mut conn = ctx.pool.acquire().await?;
    signin_limits::begin_password_attempt(&mut conn, email.as_str(), origin, now).await?;
    let stored = store::gm::password_hash(&mut conn, email.as_str()).await?;
    // The pooled connection is not held while Argon2 runs.
    drop(conn);
    if !password_check::verify_password(stored, password).await? {
        return Err(ServiceError::Forbidden("wrong address or password".into()));
    }
    let mut tx = ctx.pool.begin().await?;
    let signed_in = open_session(&mut tx, ctx, email.as_str(), origin).await?;
    tx.commit().await?;
    Ok(signed_in)
}

/// Sets (or replaces) a GM's password.
pub async fn set_password(ctx: &Ctx, email: &EmailAddress, password: &str) -> Result<(), ServiceError> {
    if password.chars().count() < 10 {
        return Err(ServiceError::BadInput("a GM password has at least 10 characters".into()));
    }
    let hash = password_check::hash_password(password).await?;
    let mut conn = ctx.pool.acquire().await?;
    store::gm::set_password(&mut conn, email.as_str(), &hash).await?;
    Ok(())
}

/// The GM address a session belongs to, if it is valid.
pub async fn session_gm(ctx: &Ctx, session: &SecretToken) -> Result<Option<String>, ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    Ok(store::gm::session_email(&mut conn, &session.hash(), ctx.now()).await?)
}

/// Ends a session.
pub async fn logout(ctx: &Ctx, session: &SecretToken) -> Result<(), ServiceError> {
    let mut conn = ctx.pool.acquire().await?;
    store::gm::delete_session(&mut conn, &session.hash()).await?;
    Ok(())
}

/// Opens a session for a GM who just signed in from `origin`, which the account then knows.
async fn open_session(
    conn: &mut sqlx::PgConnection,
    ctx: &Ctx,
    email: &str,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    let device = signin_limits::signed_in(conn, email, origin, ctx.now()).await?;
    let session = SecretToken::generate();
    store::gm::insert_session(conn, &session.hash(), email, ctx.now() + Duration::days(SESSION_DAYS)).await?;
    Ok(SignedIn { session, device })
}
