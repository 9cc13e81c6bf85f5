//! GM sign-in: one-time links mailed to the GM's address, or a password (Argon2id). Sessions
//! are random tokens kept as hashes. A seat token never opens anything here.

use super::notices;
use super::{Ctx, ServiceError};
use crate::domain::{EmailAddress, SecretToken};
use crate::store;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use chrono::Duration;

/// How long a mailed sign-in link works.
pub const LOGIN_LINK_MINUTES: i64 = 15;
/// How long a GM session lasts.
pub const SESSION_DAYS: i64 = 14;
/// Sign-in links mailed per address per hour at most.
const LINKS_PER_HOUR: i64 = 5;

/// Mails a one-time sign-in link when the address is a GM's. Answers the same either way, so
/// the form does not reveal who runs games.
pub async fn request_login_link(ctx: &Ctx, email: &EmailAddress) -> Result<(), ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    if !store::gm::is_gm(&mut tx, email.as_str()).await? {
        tracing::info!("sign-in link requested for an address that runs no game");
        return Ok(());
    }
    if store::gm::recent_login_tokens(&mut tx, email.as_str(), now - Duration::hours(1)).await?
        >= LINKS_PER_HOUR
    {
        return Err(ServiceError::Conflict(
            "too many sign-in links were requested for this address; try again in an hour".into(),
        ));
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

/// Uses a mailed link (once) and opens a session; returns the session token.
pub async fn login_with_link(ctx: &Ctx, link_token: &SecretToken) -> Result<SecretToken, ServiceError> {
    let now = ctx.now();
    let mut tx = ctx.pool.begin().await?;
    let email = store::gm::consume_login_token(&mut tx, &link_token.hash(), now).await?.ok_or_else(|| {
        ServiceError::Forbidden("this sign-in link is not valid: it was used already or has expired".into())
    })?;
    let session = open_session(&mut tx, ctx, &email).await?;
    tx.commit().await?;
    Ok(session)
}

/// Checks a password and opens a session.
pub async fn login_with_password(
    ctx: &Ctx,
    email: &EmailAddress,
    password: &str,
) -> Result<SecretToken, ServiceError> {
    let refused = || ServiceError::Forbidden("wrong address or password".into());
    let mut tx = ctx.pool.begin().await?;
    let stored = store::gm::password_hash(&mut tx, email.as_str()).await?.ok_or_else(refused)?;
    let parsed = PasswordHash::new(&stored)
        .map_err(|e| ServiceError::Internal(format!("stored password hash: {e}")))?;
    Argon2::default().verify_password(password.as_bytes(), &parsed).map_err(|_| refused())?;
    let session = open_session(&mut tx, ctx, email.as_str()).await?;
    tx.commit().await?;
    Ok(session)
}

/// Sets (or replaces) a GM's password.
pub async fn set_password(ctx: &Ctx, email: &EmailAddress, password: &str) -> Result<(), ServiceError> {
    if password.chars().count() < 10 {
        return Err(ServiceError::BadInput("a GM password has at least 10 characters".into()));
    }
    let hash = Argon2::default()
        .hash_password(password.as_bytes())
        .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))?
        .to_string();
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
