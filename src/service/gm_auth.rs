//! GM sign-in: one-time links mailed to the GM's address, or a password (Argon2id). Sessions
//! are random tokens kept as hashes. A seat token never opens anything here.

use super::notices;
use super::signin_limits::{self, Client};
use super::{Ctx, ServiceError};
use crate::domain::{EmailAddress, SecretToken};
use crate::store;
use chrono::Duration;

/// How long a mailed sign-in link works.
pub const LOGIN_LINK_MINUTES: i64 = 15;
/// How long a GM session lasts.
pub const SESSION_DAYS: i64 = 14;
/// Mails a one-time sign-in link when the address is a GM's. Answers the same either way, so
/// the form does not reveal who runs games — also when a limit holds the link back (RULING W3).
pub async fn request_login_link(
    ctx: &Ctx,
    email: &EmailAddress,
    client: &Client,
) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    if !signin_limits::allow_link_request(&mut tx, email.as_str(), client, now).await? {
        tracing::warn!(client = ?client, "sign-in link request over the limit: nothing sent");
        return Ok(());
    }
    if !store::gm::is_gm(&mut tx, email.as_str()).await? {
        tracing::info!("sign-in link requested for an address that runs no game");
        tx.commit().await?;
        return Ok(());
    }
    let token = SecretToken::generate();
    let expires = now + Duration::minutes(LOGIN_LINK_MINUTES);
    store::gm::insert_login_token(&mut tx, &token.hash(), email.as_str(), expires).await?;
    let link = format!("{}/gm/magic/{}", ctx.settings.base(), token.reveal());
    let mail = notices::gm_login(email.as_str(), &token.hash(), &link, LOGIN_LINK_MINUTES)?;
    notices::queue(&mut tx, &ctx.settings, &mail).await?;
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    Ok(())
}

/// Uses a mailed link (once) and opens a session; returns the session token. Every other
/// unused link of the GM dies with it (RULING W3).
pub async fn login_with_link(ctx: &Ctx, link_token: &SecretToken) -> Result<SecretToken, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let email = store::gm::consume_login_token(&mut tx, &link_token.hash(), now).await?.ok_or_else(|| {
        ServiceError::Forbidden("this sign-in link is not valid: it was used already or has expired".into())
    })?;
    store::gm::void_login_tokens(&mut tx, &email, now).await?;
    let session = open_session(&mut tx, ctx, &email).await?;
    tx.commit().await?;
    Ok(session)
}

/// Checks a password and opens a session. Failures are limited per account and per client
/// (RULING W2); an address without a password costs the same check as a wrong password.
pub async fn login_with_password(
    ctx: &Ctx,
    email: &EmailAddress,
    password: &str,
    client: &Client,
) -> Result<SecretToken, ServiceError> {
    let now = ctx.now();
    let mut conn = ctx.pool.acquire().await?;
    signin_limits::begin_password_attempt(&mut conn, email.as_str(), client, now).await?;
    let stored = store::gm::password_hash(&mut conn, email.as_str()).await?;
    // The pooled connection is not held while Argon2 runs.
    drop(conn);
    if !signin_limits::verify_password(stored, password).await? {
        return Err(ServiceError::Forbidden("wrong address or password".into()));
    }
    let mut tx = ctx.pool.begin().await?;
    store::gm::clear_password_failures(&mut tx, email.as_str()).await?;
    let session = open_session(&mut tx, ctx, email.as_str()).await?;
    tx.commit().await?;
    Ok(session)
}

/// Sets (or replaces) a GM's password.
pub async fn set_password(ctx: &Ctx, email: &EmailAddress, password: &str) -> Result<(), ServiceError> {
    if password.chars().count() < 10 {
        return Err(ServiceError::BadInput("a GM password has at least 10 characters".into()));
    }
    let hash = signin_limits::hash_password(password).await?;
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

async fn open_session(
    conn: &mut sqlx::PgConnection,
    ctx: &Ctx,
    email: &str,
) -> Result<SecretToken, ServiceError> {
    let session = SecretToken::generate();
    store::gm::insert_session(conn, &session.hash(), email, ctx.now() + Duration::days(SESSION_DAYS)).await?;
    Ok(session)
}
