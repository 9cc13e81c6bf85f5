//! The limits of sign-in (rulings W2, W2b, W3; a player's home, W52, and `GAMES` by mail, M27):
//! failed passwords and mailed links, counted per account and source (the client address, or a
//! device the account signed in from before), per client address, and per account for strangers
//! alone — so that a stranger's attempts never use up what the account's own client or device
//! may do.

use super::ServiceError;
use crate::domain::{Realm, SecretToken};
use crate::store::gm::{self, Attempt, AttemptCounts};
use chrono::{DateTime, Duration, Utc};
use sqlx::{Connection, PgConnection};
use std::net::IpAddr;

/// The window the limits count in.
pub const WINDOW_MINUTES: i64 = 15;
/// How long a client address the account signed in from stays known (RULING W2b).
pub const KNOWN_CLIENT_DAYS: i64 = 30;
/// How long a device (its cookie) the account signed in from stays known (RULING W2b).
pub const KNOWN_DEVICE_DAYS: i64 = 365;

/// The limits of one kind of attempt in the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Attempts at one account from one source: a client address, or a known device.
    pub per_source: i64,
    /// A stranger's attempts from one client address, at all accounts together.
    pub per_client: i64,
    /// Strangers' attempts at one account, from all clients together: a backstop against many
    /// addresses at once, which the account's known clients and devices are not held by.
    pub strangers_per_account: i64,
}

/// Failed passwords (RULING W2).
pub const PASSWORD_LIMITS: Limits = Limits { per_source: 10, per_client: 30, strangers_per_account: 100 };
/// Sign-in links asked for (RULING W3; a player's home link alike, RULING W52).
pub const LINK_LIMITS: Limits = Limits { per_source: 3, per_client: 10, strangers_per_account: 3 };
/// `GAMES` mails answered (RULING M27): per address, and from all senders together (mail has no
/// client address: every sender counts as the one client [`Client::by_mail`]).
pub const GAMES_LIMITS: Limits = Limits { per_source: 3, per_client: 100, strangers_per_account: 3 };

/// Requests to join a game, each mailing a confirmation (RULING W46).
pub const JOIN_LIMITS: Limits = Limits { per_source: 3, per_client: 10, strangers_per_account: 3 };

impl Limits {
    /// Whether one more attempt is over the limits: a known client or device is held only by its
    /// own attempts, a stranger also by its address's and by all strangers' at the account.
    fn reached(&self, standing: &Standing, n: &AttemptCounts) -> bool {
        n.source >= self.per_source
            || (*standing == Standing::Stranger
                && (n.client >= self.per_client || n.strangers >= self.strangers_per_account))
    }
}

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

    /// The one client every mail counts as (RULING M27).
    pub fn by_mail() -> Self {
        Client("mail".into())
    }

    fn as_str(&self) -> &str {
        &self.0
    }
}

/// Where a sign-in attempt came from: the client address, and the device cookie the browser
/// presented, if any (RULING W2b).
#[derive(Debug, Clone)]
pub struct Origin {
    pub client: Client,
    pub device: Option<SecretToken>,
}

/// What the account knows of where an attempt comes from (RULING W2b).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Standing {
    /// A device the account signed in from before: its attempts are counted by themselves.
    KnownDevice(SecretToken),
    /// A client address the account signed in from before.
    KnownClient,
    /// Anyone else.
    Stranger,
}

/// What a device is stored and counted as: never the cookie itself.
fn device_source(device: &SecretToken) -> String {
    format!("device:{}", device.hash())
}

impl Standing {
    /// The source the attempt is counted under.
    fn source(&self, origin: &Origin) -> String {
        match self {
            Standing::KnownDevice(device) => device_source(device),
            Standing::KnownClient | Standing::Stranger => origin.client.as_str().to_owned(),
        }
    }
}

fn window_start(now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::minutes(WINDOW_MINUTES)
}

/// The account's standing of an attempt: its device if the account signed in from it within
/// [`KNOWN_DEVICE_DAYS`], else its client address if within [`KNOWN_CLIENT_DAYS`], else a
/// stranger. Looked up alike for every address, with or without an account.
async fn standing(
    conn: &mut PgConnection,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<Standing, ServiceError> {
    if let Some(device) = &origin.device {
        let since = now - Duration::days(KNOWN_DEVICE_DAYS);
        if gm::is_known_source(conn, email, &device_source(device), since).await? {
            return Ok(Standing::KnownDevice(device.clone()));
        }
    }
    let since = now - Duration::days(KNOWN_CLIENT_DAYS);
    if gm::is_known_source(conn, email, origin.client.as_str(), since).await? {
        return Ok(Standing::KnownClient);
    }
    Ok(Standing::Stranger)
}

/// Counts an attempt against `limits`: false (nothing recorded) when it is over them. Holds the
/// account's and the source's attempt locks until `conn`'s transaction ends, so concurrent
/// attempts cannot slip past a limit.
async fn count_attempt(
    conn: &mut PgConnection,
    kind: Attempt,
    limits: &Limits,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<bool, ServiceError> {
    let standing = standing(conn, email, origin, now).await?;
    let source = standing.source(origin);
    gm::lock_attempts(conn, email, &source).await?;
    let counts =
        gm::recent_attempts(conn, kind, email, &source, origin.client.as_str(), window_start(now)).await?;
    if limits.reached(&standing, &counts) {
        return Ok(false);
    }
    let stranger = standing == Standing::Stranger;
    gm::record_attempt(conn, kind, email, &source, stranger, now).await?;
    Ok(true)
}

/// Refuses a password attempt over the limits; otherwise records it as a failure before the
/// (slow) check, so that concurrent guesses count at once. A successful sign-in then forgets
/// its source's failures, this one included ([`signed_in`]).
pub(super) async fn begin_password_attempt(
    conn: &mut PgConnection,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let mut tx = conn.begin().await?;
    if !count_attempt(&mut tx, Attempt::Password, &PASSWORD_LIMITS, email, origin, now).await? {
        return Err(ServiceError::TooMany(format!(
            "too many failed sign-ins; password sign-in is paused for up to {WINDOW_MINUTES} minutes. \
             A sign-in link by mail (leave the password empty) still works."
        )));
    }
    Ok(tx.commit().await?)
}

/// Counts a link request of a realm against the limits; false (nothing recorded) when over them.
/// `conn` must be in a transaction (the caller's), which holds the attempt locks until it ends.
pub(super) async fn allow_link_request(
    conn: &mut PgConnection,
    realm: Realm,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<bool, ServiceError> {
    // RULING W52: a home link is counted apart from GM links, under the same limits.
    let kind = match realm {
        Realm::Gm => Attempt::Link,
        Realm::Home => Attempt::HomeLink,
    };
    count_attempt(conn, kind, &LINK_LIMITS, email, origin, now).await
}

/// Counts a `GAMES` answer to `email` against [`GAMES_LIMITS`]; false (nothing recorded) when
/// over them (RULING M27). `conn` must be in a transaction, as for [`allow_link_request`].
pub(super) async fn allow_games_answer(
    conn: &mut PgConnection,
    email: &str,
    now: DateTime<Utc>,
) -> Result<bool, ServiceError> {
    let origin = Origin { client: Client::by_mail(), device: None };
    count_attempt(conn, Attempt::Games, &GAMES_LIMITS, email, &origin, now).await
}

/// Counts a request to join a game against the limits; false (nothing recorded) when over them
/// (RULING W46). `conn` must be in the caller's transaction.
pub(super) async fn allow_join_request(
    conn: &mut PgConnection,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<bool, ServiceError> {
    count_attempt(conn, Attempt::Join, &JOIN_LIMITS, email, origin, now).await
}

/// After a sign-in (password or link) at `email` from `origin`: forgets the failed passwords of
/// the source it was counted under, and remembers its client address and its device. Returns
/// the device token for the browser to keep: the one it presented if the account knew it, else
/// a new one (RULING W2b).
pub(super) async fn signed_in(
    conn: &mut PgConnection,
    email: &str,
    origin: &Origin,
    now: DateTime<Utc>,
) -> Result<SecretToken, ServiceError> {
    let standing = standing(conn, email, origin, now).await?;
    gm::clear_password_failures(conn, email, &standing.source(origin)).await?;
    let device = match standing {
        Standing::KnownDevice(device) => device,
        Standing::KnownClient | Standing::Stranger => SecretToken::generate(),
    };
    let forget_before = now - Duration::days(KNOWN_DEVICE_DAYS);
    gm::remember_source(conn, email, &device_source(&device), now, forget_before).await?;
    gm::remember_source(conn, email, origin.client.as_str(), now, forget_before).await?;
    Ok(device)
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

    fn counts(source: i64, client: i64, strangers: i64) -> AttemptCounts {
        AttemptCounts { source, client, strangers }
    }

    #[test]
    fn a_stranger_is_held_by_its_own_its_addresss_and_all_strangers_attempts() {
        let stranger = Standing::Stranger;
        assert!(!PASSWORD_LIMITS.reached(&stranger, &counts(9, 29, 99)));
        assert!(PASSWORD_LIMITS.reached(&stranger, &counts(10, 10, 10)));
        assert!(PASSWORD_LIMITS.reached(&stranger, &counts(0, 30, 30)));
        assert!(PASSWORD_LIMITS.reached(&stranger, &counts(0, 0, 100)));
        assert!(LINK_LIMITS.reached(&stranger, &counts(0, 0, 3)));
    }

    #[test]
    fn a_known_client_or_device_is_held_only_by_its_own_attempts() {
        let device = Standing::KnownDevice(SecretToken::generate());
        for known in [Standing::KnownClient, device] {
            assert!(!PASSWORD_LIMITS.reached(&known, &counts(9, 500, 500)));
            assert!(PASSWORD_LIMITS.reached(&known, &counts(10, 0, 0)));
            assert!(!LINK_LIMITS.reached(&known, &counts(2, 50, 50)));
            assert!(LINK_LIMITS.reached(&known, &counts(3, 0, 0)));
        }
    }

    #[test]
    fn a_device_is_counted_by_its_hash_and_anyone_else_by_address() {
        let origin = Origin { client: Client::from_ip("192.0.2.1".parse().ok()), device: None };
        let device = SecretToken::generate();
        let source = Standing::KnownDevice(device.clone()).source(&origin);
        assert_eq!(source, format!("device:{}", device.hash()));
        assert!(!source.contains(device.reveal()));
        assert_eq!(Standing::Stranger.source(&origin), "192.0.2.1");
        assert_eq!(Standing::KnownClient.source(&origin), "192.0.2.1");
    }
}
