//! The context every service function runs in: the pool, settings, the server key, the clock,
//! and the wake-up signals of the background workers; and the one shutdown signal every worker
//! (scheduler, outbox worker, IMAP poller, ingest socket) takes beside it.

use crate::clock::Clock;
use crate::config::Settings;
use crate::domain::{GameId, Realm, ReplyAddress, SealedSecrets, SecretToken};
use crate::engine::Seat;
use anyhow::Context as _;
use chrono::{DateTime, Utc};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use sqlx::PgPool;
use std::sync::{Arc, RwLock};
use tokio::sync::{Notify, watch};

/// Shared by web handlers, console commands and workers.
#[derive(Clone)]
pub struct Ctx {
    pub pool: PgPool,
    /// Shared: a request's copy of the context does not copy the settings.
    pub settings: Arc<Settings>,
    pub clock: Clock,
    /// The server key; replaced when another process rotates it ([`Ctx::follow_rotation`]).
    key: Arc<RwLock<Arc<Vec<u8>>>>,
    /// Poked after a commit that queued mail.
    pub mail_wake: Arc<Notify>,
    /// Poked after a commit that may have made a turn due (e.g. all orders final).
    pub turn_wake: Arc<Notify>,
    /// The open turns and token hashes the intake's short path remembers (RULING W19).
    pub(crate) intake: Arc<super::intake_cache::IntakeCache>,
    /// The short path's append tasks, which store appends arriving together in one statement
    /// (RULING W60).
    pub(crate) appender: Arc<super::intake_batch::Appender>,
    /// How drawings become PNGs, outside any publishing transaction (RULING O23).
    pub renderer: super::pictures::Renderer,
    /// The PNGs of the drawings rendered or read last, for the next mail that shows them
    /// (RULING O29).
    pub(crate) held_pngs: Arc<super::held_pngs::HeldPngs>,
}

impl Ctx {
    /// Builds the context; the server key is the configured one, or the key file's — created on
    /// first start, or moved out of an old database (`super::server_key::load`).
    pub async fn new(pool: PgPool, settings: Settings, clock: Clock) -> anyhow::Result<Ctx> {
        let key = super::server_key::load(&pool, &settings).await.context("cannot load the server key")?;
        Ok(Ctx::with_key(pool, settings, clock, key))
    }

    /// The context of a process that may only read the key (`mail ingest` run by the MTA as
    /// another user); `None` when it cannot read it (the server then processes what it stored).
    pub async fn reading_key(pool: PgPool, settings: Settings, clock: Clock) -> Option<Ctx> {
        let key = super::server_key::existing(&pool, &settings).await?;
        Some(Ctx::with_key(pool, settings, clock, key))
    }

    /// A context with the given key.
    pub(crate) fn with_key(pool: PgPool, settings: Settings, clock: Clock, key: Vec<u8>) -> Ctx {
        Ctx {
            pool,
            settings: Arc::new(settings),
            clock,
            key: Arc::new(RwLock::new(Arc::new(key))),
            mail_wake: Arc::new(Notify::new()),
            turn_wake: Arc::new(Notify::new()),
            intake: Arc::default(),
            appender: Arc::default(),
            renderer: super::pictures::Renderer::default(),
            held_pngs: Arc::default(),
        }
    }

    /// Statements the intake's short path has run in this process, and the appends they carried
    /// (RULING W60; the same figures as the metrics `stationmaster_intake_*_total`).
    pub fn intake_counts(&self) -> (u64, u64) {
        self.appender.counts()
    }

    /// Forgets the PNGs held in memory (drawings were removed after the retention period,
    /// RULING O29).
    pub(crate) fn forget_held_pngs(&self) {
        self.held_pngs.forget_all();
    }

    /// The key in force.
    fn key(&self) -> Arc<Vec<u8>> {
        // A writer cannot panic while holding the lock (it only swaps an Arc), but a poisoned
        // lock still holds a whole key.
        self.key.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Switches every clone of this context to `key`.
    pub(crate) fn set_key(&self, key: Vec<u8>) {
        *self.key.write().unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(key);
    }

    /// The fingerprint of this context's key (as `server_secrets` keeps it).
    pub(crate) fn key_check(&self) -> String {
        super::server_key::key_check(&self.key())
    }

    /// Takes up a key another process rotated to (`stationmaster key rotate`), so a running
    /// server neither mails dead links nor refuses the new ones; true when it switched.
    pub async fn follow_rotation(&self) -> anyhow::Result<bool> {
        match super::server_key::rotated(&self.pool, &self.settings, &self.key_check()).await? {
            Some(key) => {
                self.set_key(key);
                tracing::info!("switched to the rotated server key");
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The current time.
    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// HMAC-SHA256 of `message` under the server key.
    pub fn sign(&self, message: &str) -> [u8; 32] {
        // HMAC accepts keys of any length, so this cannot fail.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.key())
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
        mac.update(message.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The secret order token of a seat (derived, never stored; only its hash is). A new
    /// generation (a replacement player) gets a new token and the old one stops working
    /// (RULING S3).
    pub fn seat_token(&self, game: GameId, seat: Seat, generation: i32) -> SecretToken {
        let tag = self.sign(&format!("seat-token:{game}:{}:{generation}", seat.0));
        SecretToken::presented(&data_encoding::BASE32_NOPAD.encode(&tag))
    }

    /// The sign-in token of `realm` a sign-in mail with `nonce` carries (RULING P8): the key's tag
    /// of the realm and the nonce, so the stored mail holds only the nonce and the database only
    /// the token's hash.
    pub fn sign_in_token(&self, realm: Realm, nonce: &str) -> SecretToken {
        let tag = self.sign(&format!("{realm}-sign-in:{nonce}"));
        SecretToken::presented(&data_encoding::BASE32_NOPAD.encode(&tag))
    }

    /// The sign-in link of `realm` for a sign-in token.
    pub fn sign_in_link(&self, realm: Realm, token: &SecretToken) -> String {
        format!("{}{}{}", self.settings.base(), realm.link_path(), token.reveal())
    }

    /// The signed reply address of a seat: a player just replies to any mail from us.
    pub fn reply_address(&self, game: GameId, seat: Seat, generation: i32) -> String {
        let a = ReplyAddress::sign(&self.key(), game, seat.0, generation);
        format!("{}@{}", a.local_part(), self.settings.reply_domain())
    }

    /// Whether a reply address read from a stored message carries the right tag for its seat and
    /// token generation, as written or through the message's placeholder (RULING M11).
    pub fn reply_tag_valid(&self, a: &ReplyAddress, generation: i32, sealed: &SealedSecrets) -> bool {
        sealed.holds(&a.tag, &ReplyAddress::sign(&self.key(), a.game, a.seat, generation).tag)
    }

    /// The private order page of a seat.
    pub fn seat_link(&self, token: &SecretToken) -> String {
        format!("{}{}", self.settings.base(), Self::seat_path(token))
    }

    /// The path of a seat page (a link within our own pages, whatever host they were reached at).
    pub fn seat_path(token: &SecretToken) -> String {
        format!("/play/{}", token.reveal())
    }
}

/// The signal that tells a background worker to stop. Every worker takes one, cloned from the
/// same [`Shutdown::new`]; [`ShutdownSwitch::stop`] sets it for all of them.
#[derive(Debug, Clone)]
pub struct Shutdown(watch::Receiver<bool>);

/// The side that sets a [`Shutdown`].
#[derive(Debug)]
pub struct ShutdownSwitch(watch::Sender<bool>);

impl Shutdown {
    /// A signal, not yet set, and the switch that sets it.
    pub fn new() -> (ShutdownSwitch, Shutdown) {
        let (tx, rx) = watch::channel(false);
        (ShutdownSwitch(tx), Shutdown(rx))
    }

    /// Whether the worker should stop now (also when the switch is gone).
    pub fn is_set(&self) -> bool {
        *self.0.borrow() || self.0.has_changed().is_err()
    }

    /// Returns once the signal is set (at once if it is). A switch dropped without being used
    /// counts as set: nobody is left to keep the worker running.
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|stop| *stop).await;
    }
}

impl ShutdownSwitch {
    /// Sets the signal for every [`Shutdown`] cloned from this switch's.
    pub fn stop(&self) {
        self.0.send_replace(true);
    }
}

#[cfg(test)]
mod tests {
    use super::Shutdown;

    #[tokio::test]
    async fn a_shutdown_reaches_every_clone_and_a_dropped_switch_counts_as_set() {
        let (switch, mut first) = Shutdown::new();
        let mut second = first.clone();
        assert!(!first.is_set() && !second.is_set());
        switch.stop();
        first.wait().await;
        second.wait().await;
        assert!(first.is_set() && second.is_set());

        let (switch, mut orphan) = Shutdown::new();
        drop(switch);
        assert!(orphan.is_set(), "nobody is left to keep the worker running");
        orphan.wait().await;
    }
}
