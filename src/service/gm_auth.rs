//! GM sign-in: one-time links mailed to the GM's address, or a password (Argon2id). Sessions
//! are random tokens kept as hashes. A seat token never opens anything here.

use super::password_check;
use super::signin_limits::{self, Origin};
use super::signin_links;
use super::{Ctx, ServiceError};
use crate::domain::{EmailAddress, Realm, SecretToken};
use crate::store;

/// How long a mailed sign-in link works.
pub const LOGIN_LINK_MINUTES: i64 = signin_links::LINK_MINUTES;
/// How long a GM session lasts.
pub const SESSION_DAYS: i64 = signin_links::SESSION_DAYS;

/// A GM signed in: the session, and the device token the browser keeps (RULING W2b).
pub use signin_links::SignedIn;

/// Mails a one-time sign-in link when the address runs a game or may create games (RULING
/// W42), answering the same either way (RULING W3; `signin_links::request_link`). The mail is
/// stored with [`super::mail_secrets::SIGN_IN_LINK`]; the link is derived from the server key and
/// the mail's nonce when it is sent, and only its hash is stored (RULING P8).
pub async fn request_login_link(
    ctx: &Ctx,
    email: &EmailAddress,
    origin: &Origin,
) -> Result<(), ServiceError> {
    signin_links::request_link(ctx, Realm::Gm, email, origin).await
}

/// Uses a mailed link (once) and opens a session. Every other unused link of the GM dies with
/// it (RULING W3); the client and device it was used from become known (RULING W2b).
pub async fn login_with_link(
    ctx: &Ctx,
    link_token: &SecretToken,
    origin: &Origin,
) -> Result<SignedIn, ServiceError> {
    signin_links::use_link(ctx, Realm::Gm, link_token, origin).await
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
    let signed_in = signin_links::open_session(&mut tx, ctx, Realm::Gm, email.as_str(), origin).await?;
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

/// The GM address a session belongs to, if it is valid (a home session is none, RULING W51).
pub async fn session_gm(ctx: &Ctx, session: &SecretToken) -> Result<Option<String>, ServiceError> {
    signin_links::session_owner(ctx, Realm::Gm, session).await
}

/// Ends a session.
pub async fn logout(ctx: &Ctx, session: &SecretToken) -> Result<(), ServiceError> {
    signin_links::end_session(ctx, Realm::Gm, session).await
}
