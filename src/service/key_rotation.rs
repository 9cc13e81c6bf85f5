//! Rotating the server key (RULING P6): a new key, every seat's token hash re-derived under it,
//! and every player of a running game mailed their new link — old links and reply addresses stop
//! working at once; a GM's sign-in mail still to be sent keeps a working link (its token gets the
//! new key's hash beside the old one, for its own lifetime), and so do the invitations and join
//! confirmations still to be answered, links and reply addresses (RULING P9).
//!
//! Crash-safe in three steps: the new key is written to `<key file>.next`; one transaction
//! re-derives the hashes, queues the mails and switches the database's key fingerprint; then the
//! `.next` file replaces the key file. A crash before the commit changes nothing; one after it is
//! completed by the next start (`server_key::load` finds the `.next` file matching the database).

use super::mail_secrets::{PLACE_KEY_PREFIX, place_reply_tag, place_token};
use super::notices::{self, Notice, SeatMail};
use super::server_key::{self, key_file, new_key, next_file, write_key};
use super::{Ctx, ServiceError};
use crate::domain::{GameStatus, SecretToken};
use crate::store;
use crate::store::secrets::KEY_CHECK;
use serde::Serialize;

/// What a rotation did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rotated {
    pub key_file: String,
    /// Seats whose token hash was re-derived.
    pub seats: usize,
    /// Players mailed their new link (seats of games not finished).
    pub mailed: usize,
    /// Sign-in mails not yet sent whose link was derived again under the new key.
    pub sign_in_links: usize,
    /// Invitations and join confirmations still to be answered, whose links and reply addresses
    /// keep working (RULING P9).
    pub places: usize,
}

fn internal(e: anyhow::Error) -> ServiceError {
    ServiceError::Internal(format!("{e:#}"))
}

/// Switches the server to a new key. Only for a key kept in the key file: a key given by
/// `STATIONMASTER_SECRET_KEY` is changed where it is configured. A running server takes up the
/// new key on its next scheduler pass ([`Ctx::follow_rotation`]).
pub async fn rotate_key(ctx: &Ctx) -> Result<Rotated, ServiceError> {
    if ctx.settings.secret_key.as_deref().is_some_and(|k| !k.trim().is_empty()) {
        return Err(ServiceError::BadInput(
            "the server key is given by STATIONMASTER_SECRET_KEY; rotation changes the key file only".into(),
        ));
    }
    let path = key_file(&ctx.settings);
    let next = next_file(&path);
    let key = new_key();
    write_key(&next, &key, true).map_err(internal)?;
    let new = Ctx::with_key(
        ctx.pool.clone(),
        crate::config::Settings::clone(&ctx.settings),
        ctx.clock.clone(),
        key.clone(),
    );
    let fingerprint = server_key::key_check(&key);

    let mut tx = ctx.pool.begin().await?;
    if store::secrets::get_for_update(&mut tx, KEY_CHECK).await?.as_deref() != Some(&ctx.key_check()) {
        return Err(ServiceError::Conflict("the server key changed meanwhile; nothing was rotated".into()));
    }
    let (mut seats, mut mailed) = (0, 0);
    for game in store::games::list_games(&mut tx, i64::MAX).await? {
        let id = game.id;
        for seat in store::games::seats(&mut tx, game.id).await? {
            let s = seat.seat;
            let token = new.seat_token(id, s, seat.token_generation);
            store::secrets::set_token_hash(&mut tx, game.id, seat.seat, &token.hash()).await?;
            seats += 1;
            if game.status == GameStatus::Finished {
                continue;
            }
            let n = Notice {
                game: &game.name,
                greeting: &seat.player_name,
                paragraphs: vec![
                    "The server's key was changed, so your private order link and the address you reply \
                     to with orders have changed. The old link and old reply addresses no longer work."
                        .into(),
                    "Your new order link is below; to send orders by mail, reply to this mail.".into(),
                ],
                block: None,
                // RULING P8: filled with the new key's link when sent (the worker checks that
                // it holds the new key first).
                link: Some(notices::SEAT_LINK.into()),
            };
            let m = SeatMail {
                key: format!("key-rotated:{fingerprint}:{id}:{}", seat.seat.0),
                kind: "notice",
                subject: format!("[{}] Your new order link", game.name),
                calendar: None,
            };
            notices::queue_to_seat(&new, &mut tx, id, &seat, m, &n).await?;
            mailed += 1;
        }
    }
    let sign_in_links = carry_sign_in_links(ctx, &new, &mut tx).await?;
    let places = carry_places(ctx, &new, &mut tx).await?;
    store::secrets::set(&mut tx, KEY_CHECK, &fingerprint).await?;
    tx.commit().await?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    std::fs::rename(&next, &path)
        .and_then(|()| std::fs::File::open(dir)?.sync_all())
        .map_err(|e| ServiceError::Internal(format!("cannot replace {}: {e}", path.display())))?;
    ctx.set_key(key);
    ctx.mail_wake.notify_one();
    tracing::info!(key_file = %path.display(), seats, mailed, sign_in_links, places, "the server key was rotated");
    Ok(Rotated { key_file: path.display().to_string(), seats, mailed, sign_in_links, places })
}

/// RULING P6 (amended): a sign-in mail (of either realm) queued before the rotation and not yet sent goes out with
/// a link derived under the new key; that link's hash is added to its token's, for the same GM
/// and lifetime, so it works — and so does the old key's, for a mail that was on its way.
async fn carry_sign_in_links(
    old: &Ctx,
    new: &Ctx,
    tx: &mut sqlx::PgConnection,
) -> Result<usize, ServiceError> {
    let now = old.now();
    let mut carried = 0;
    for realm in crate::domain::Realm::ALL.iter().copied() {
        for mail in store::outbox::unsent_of_kind(tx, realm.mail_kind()).await? {
            let Some((realm, nonce)) = super::mail_secrets::sign_in_nonce(&mail) else { continue };
            let (was, is) = (old.sign_in_token(realm, nonce).hash(), new.sign_in_token(realm, nonce).hash());
            if store::gm::add_login_token_hash(tx, &was, &is, now).await? {
                carried += 1;
            }
        }
    }
    Ok(carried)
}

/// RULING P9: an invitation or a join confirmation still to be answered survives the rotation. Its
/// reply address under the old key is kept as a hash, so a reply to the mail the player has still
/// answers; a mail still to be sent goes out with a link derived under the new key, whose hash is
/// added beside the old one (the link already mailed keeps working: its hash never changes).
async fn carry_places(old: &Ctx, new: &Ctx, tx: &mut sqlx::PgConnection) -> Result<usize, ServiceError> {
    let live = store::waiting::live_places(tx, old.now()).await?;
    for &id in &live {
        let tag = SecretToken::presented(&place_reply_tag(old, id));
        store::waiting::add_reply_tag_hash(tx, id, &tag.hash()).await?;
    }
    for kind in ["invitation", "join-confirmation"] {
        for mail in store::outbox::unsent_of_kind(tx, kind).await? {
            let Some(nonce) = mail.idempotency_key.strip_prefix(PLACE_KEY_PREFIX) else { continue };
            let (was, is) = (place_token(old, nonce).hash(), place_token(new, nonce).hash());
            store::waiting::carry_token_hash(tx, &was, &is).await?;
        }
    }
    Ok(live.len())
}
