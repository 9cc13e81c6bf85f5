//! The limits of GM sign-in (rulings W2, W3): failed passwords per account and per client
//! address, mailed links per account and per client address, and Argon2 run on the blocking pool,
//! a few at a time, at the same cost whether the account exists or not.

use super::ServiceError;
use crate::store::gm::{self, Attempt};
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;
use std::net::IpAddr;
use std::sync::OnceLock;
use tokio::sync::Semaphore;

/// The window the limits count in.
pub const WINDOW_MINUTES: i64 = 15;
/// Failed passwords per account in the window before password sign-in stops for it.
pub const PASSWORD_FAILURES_PER_ACCOUNT: i64 = 10;
/// Failed passwords per client address in the window before it is stopped.
pub const PASSWORD_FAILURES_PER_CLIENT: i64 = 30;
/// Sign-in links mailed per account in the window.
pub const LINKS_PER_ACCOUNT: i64 = 3;
/// Sign-in links asked for per client address in the window.
pub const LINKS_PER_CLIENT: i64 = 10;

/// Password checks running at once (each takes a core for tens of milliseconds).
const HASHERS: usize = 2;
/// How long a password check waits for a free hasher before the attempt is refused.
const HASHER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);
static HASHING: Semaphore = Semaphore::const_new(HASHERS);

/// Where a sign-in attempt came from: an IPv4 address, an IPv6 /64 (one host's share of
/// addresses), or "unknown" (requests that did not come through the listener).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client(String);

impl Client {
    /// The client key of a peer address.
    pub fn from_ip(ip: Option<IpAddr>) -> Self {
        Client(match ip.map(|ip| ip.to_canonical()) {
            Some(IpAddr::V4(v4)) => v4.to_string(),
            Some(IpAddr::V6(v6)) => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
            None => "unknown".into(),
        })
    }

    fn as_str(&self) -> &str {
        &self.0
    }
}

fn window_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::minutes(WINDOW_MINUTES)
}

/// Refuses a password attempt while the account or the client has too many recent failures.
pub(super) async fn check_password_attempt(
    conn: &mut PgConnection,
    email: &str,
    client: &Client,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let (account, from_client) =
        gm::recent_attempts(conn, Attempt::Password, email, client.as_str(), window_start(now)).await?;
    if account >= PASSWORD_FAILURES_PER_ACCOUNT || from_client >= PASSWORD_FAILURES_PER_CLIENT {
        return Err(ServiceError::TooMany(format!(
            "too many failed sign-ins; password sign-in is paused for up to {WINDOW_MINUTES} minutes. \
             A sign-in link by mail (leave the password empty) still works."
        )));
    }
    Ok(())
}

/// Records a failed password.
pub(super) async fn record_password_failure(
    conn: &mut PgConnection,
    email: &str,
    client: &Client,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    Ok(gm::record_attempt(conn, Attempt::Password, email, client.as_str(), now).await?)
}

/// Counts a link request against the limits; false (nothing recorded) when over either of them.
pub(super) async fn allow_link_request(
    conn: &mut PgConnection,
    email: &str,
    client: &Client,
    now: DateTime<Utc>,
) -> Result<bool, ServiceError> {
    let (account, from_client) =
        gm::recent_attempts(conn, Attempt::Link, email, client.as_str(), window_start(now)).await?;
    if account >= LINKS_PER_ACCOUNT || from_client >= LINKS_PER_CLIENT {
        return Ok(false);
    }
    gm::record_attempt(conn, Attempt::Link, email, client.as_str(), now).await?;
    Ok(true)
}

/// A hash of nothing anyone knows, checked for addresses without a password so that they cost
/// the same time as a wrong password.
fn stand_in_hash() -> Result<&'static str, ServiceError> {
    static HASH: OnceLock<String> = OnceLock::new();
    if let Some(h) = HASH.get() {
        return Ok(h);
    }
    let h = Argon2::default()
        .hash_password(uuid::Uuid::new_v4().as_bytes())
        .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))?
        .to_string();
    Ok(HASH.get_or_init(|| h))
}

/// Checks a password against a stored hash (or the stand-in when there is none) on the
/// blocking pool, at most [`HASHERS`] at a time. True only for a stored hash that matches.
pub(super) async fn verify_password(stored: Option<String>, password: &str) -> Result<bool, ServiceError> {
    let busy =
        || ServiceError::TooMany("the server is busy checking passwords; try again in a moment".into());
    let _permit = tokio::time::timeout(HASHER_WAIT, HASHING.acquire())
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let hash = match stored {
            Some(h) => h,
            None => stand_in_hash()?.to_owned(),
        };
        let parsed = PasswordHash::new(&hash)
            .map_err(|e| ServiceError::Internal(format!("stored password hash: {e}")))?;
        Ok(Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && known)
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("password check: {e}")))?
}

/// Hashes a new password on the blocking pool.
pub(super) async fn hash_password(password: &str) -> Result<String, ServiceError> {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))
    })
    .await
    .map_err(|e| ServiceError::Internal(format!("password hashing: {e}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_clients_are_counted_by_their_64_prefix_and_mapped_ipv4_as_ipv4() {
        let a = Client::from_ip("2001:db8:1:2:aaaa::1".parse().ok());
        let b = Client::from_ip("2001:db8:1:2:bbbb::9".parse().ok());
        assert_eq!(a, b);
        assert_eq!(a.as_str(), "2001:db8:1:2::/64");
        assert_eq!(Client::from_ip("::ffff:192.0.2.1".parse().ok()).as_str(), "192.0.2.1");
        assert_eq!(Client::from_ip(None).as_str(), "unknown");
    }

    #[tokio::test]
    async fn only_a_stored_hash_that_matches_lets_a_password_in() {
        let stored = hash_password("a long enough secret").await.unwrap();
        assert!(verify_password(Some(stored.clone()), "a long enough secret").await.unwrap());
        assert!(!verify_password(Some(stored), "wrong").await.unwrap());
        assert!(!verify_password(None, "a long enough secret").await.unwrap());
    }
}
