//! The secrets of stored mail (RULING P8): no private order link and no signed reply address is
//! ever written to the database. A mail to a seat is stored with [`SEAT_LINK`] where its link
//! goes and [`SEAT_REPLY_TO`] as its Reply-To, and its outbox row names the seat and the token
//! generation they stand for; a GM mail that may be answered stores [`GM_REPLY_TO`]. Both are
//! derived from the server key — the seat's token is HMAC-derived, never stored — only when the
//! mail is built for sending ([`as_sent`]), in memory. A stored report keeps [`SEAT_LINK`]; the
//! seat page and the seat's feed fill in the reader's own link ([`with_link`]). A sign-in mail (a
//! GM's, or a player's home link and `GAMES` answer: `domain::Realm`) is stored with
//! [`SIGN_IN_LINK`] and a random nonce in its idempotency key; its link is the key's tag of the
//! realm and nonce, filled in the same way, and the database holds only its hash.

use super::Ctx;
use crate::domain::{Realm, SecretToken};
use crate::engine::Seat;
use crate::store::outbox::OutboxRow;

pub use crate::domain::SEAT_LINK;
/// Stands for the seat's signed reply address in `outbox.reply_to`.
pub const SEAT_REPLY_TO: &str = "seat-reply-address";
/// Stands for the GM's signed reply address (for the game and the mail's addressee).
pub const GM_REPLY_TO: &str = "gm-reply-address";

/// Stands for the one-time sign-in link in a stored sign-in mail.
pub const SIGN_IN_LINK: &str = "[your sign-in link]";

/// Stands for the link of an invitation or a request to join a game in its stored mail (issue 37;
/// RULING W45): like [`SIGN_IN_LINK`], the link is the key's tag of the nonce in the mail's key.
pub const PLACE_LINK: &str = "[your place link]";
/// An invitation's or a join confirmation's idempotency key: this, then the nonce.
pub const PLACE_KEY_PREFIX: &str = "place:";

/// The token of a place link: the server key's tag of the mail's nonce (only its hash is stored).
pub fn place_token(ctx: &Ctx, nonce: &str) -> SecretToken {
    let tag = ctx.sign(&format!("seat-place:{nonce}"));
    SecretToken::presented(&data_encoding::BASE32_NOPAD.encode(&tag))
}

/// Stands for the signed reply address of an invitation or a join confirmation (RULING M23).
pub const PLACE_REPLY_TO: &str = "place-reply-address";

/// The 80-bit tag of a place's reply address: HMAC under the server key over the place's id,
/// lower-case base32.
pub fn place_reply_tag(ctx: &Ctx, place: i64) -> String {
    let mac = ctx.sign(&format!("place-reply:{place}"));
    data_encoding::BASE32_NOPAD.encode(&mac[..10]).to_lowercase()
}

/// The signed address a player answers an invitation or a join confirmation at:
/// `place+<id>.<tag>@<reply domain>` (RULING M23).
pub fn place_reply_address(ctx: &Ctx, place: i64) -> String {
    format!("place+{place}.{}@{}", place_reply_tag(ctx, place), ctx.settings.reply_domain())
}

/// The place id and tag of a place reply address (tag not yet checked); none for any other.
pub fn parse_place_address(address: &str) -> Option<(i64, String)> {
    let lower = address.trim().trim_matches(['<', '>']).to_ascii_lowercase();
    let (local, _domain) = lower.rsplit_once('@')?;
    let (id, tag) = local.strip_prefix("place+")?.split_once('.')?;
    Some((id.parse().ok()?, tag.to_string()))
}

/// The page a place token opens.
pub fn place_link(ctx: &Ctx, token: &SecretToken) -> String {
    format!("{}/places/{}", ctx.settings.base(), token.reveal())
}

/// Where replies to a mail go: a signed address, derived when the mail is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyTo {
    /// The seat's own reply address for its token generation; the mail's [`SEAT_LINK`] is that
    /// seat's link.
    Seat { seat: Seat, generation: i32 },
    /// The game's GM reply address for the GM the mail is addressed to.
    Gm,
    /// The reply address of the place whose link the mail carries (RULING M23).
    Place,
}

impl ReplyTo {
    /// What `outbox.reply_to` holds for it.
    pub fn placeholder(self) -> &'static str {
        match self {
            ReplyTo::Seat { .. } => SEAT_REPLY_TO,
            ReplyTo::Gm => GM_REPLY_TO,
            ReplyTo::Place => PLACE_REPLY_TO,
        }
    }

    /// The seat and token generation, for a mail to a seat.
    pub fn seat(self) -> Option<(Seat, i32)> {
        match self {
            ReplyTo::Seat { seat, generation } => Some((seat, generation)),
            ReplyTo::Gm | ReplyTo::Place => None,
        }
    }
}

/// A stored mail as it is sent: its placeholders replaced by the seat's link and reply address,
/// or the GM's reply address, under the key in force. A placeholder the row cannot fill (no seat
/// named) is left as it is: an unfilled Reply-To makes the mail unsendable rather than wrong.
pub fn as_sent(ctx: &Ctx, row: &OutboxRow) -> OutboxRow {
    let mut row = row.clone();
    if let (Some(game), Some(seat), Some(generation)) = (row.game_id, row.seat, row.token_generation) {
        let link = ctx.seat_link(&ctx.seat_token(game, seat, generation));
        row.body_text = row.body_text.replace(SEAT_LINK, &link);
        row.body_html = row.body_html.map(|h| h.replace(SEAT_LINK, &html_escape(&link)));
        if row.reply_to.as_deref() == Some(SEAT_REPLY_TO) {
            row.reply_to = Some(ctx.reply_address(game, seat, generation));
        }
    }
    if let Some((realm, nonce)) = sign_in_nonce(&row) {
        let link = ctx.sign_in_link(realm, &ctx.sign_in_token(realm, nonce));
        row.body_text = row.body_text.replace(SIGN_IN_LINK, &link);
        row.body_html = row.body_html.map(|h| h.replace(SIGN_IN_LINK, &html_escape(&link)));
    }
    if let Some(nonce) = place_nonce(&row).map(str::to_string) {
        let link = place_link(ctx, &place_token(ctx, &nonce));
        row.body_text = row.body_text.replace(PLACE_LINK, &link);
        row.body_html = row.body_html.map(|h| h.replace(PLACE_LINK, &html_escape(&link)));
        // The nonce begins with the place's id.
        let place = nonce.split('.').next().and_then(|id| id.parse::<i64>().ok());
        if let (Some(PLACE_REPLY_TO), Some(place)) = (row.reply_to.as_deref(), place) {
            row.reply_to = Some(place_reply_address(ctx, place));
        }
    }
    if let (Some(GM_REPLY_TO), Some(game)) = (row.reply_to.as_deref(), row.game_id) {
        row.reply_to = Some(super::turn::gm_address::gm_reply_address(ctx, game, &row.to_addr));
    }
    row
}

/// Whether this process's key is the one the database's links are derived under, after taking
/// up a key another process rotated to (RULING P6): mail is filled only then, so mail queued by
/// `key rotate` never goes out with the old key's dead links — it waits for the new key.
pub async fn key_is_current(ctx: &Ctx) -> anyhow::Result<bool> {
    ctx.follow_rotation().await?;
    let mut conn = ctx.pool.acquire().await?;
    let check = crate::store::secrets::get(&mut conn, crate::store::secrets::KEY_CHECK).await?;
    Ok(check.is_none_or(|c| c == ctx.key_check()))
}

/// Whether a stored mail has a placeholder only the server key fills.
pub fn needs_key(row: &OutboxRow) -> bool {
    row.seat.is_some()
        || matches!(row.reply_to.as_deref(), Some(SEAT_REPLY_TO | GM_REPLY_TO))
        || sign_in_nonce(row).is_some()
        || place_nonce(row).is_some()
}

/// The nonce of a stored invitation or join confirmation whose link is still to be filled in.
fn place_nonce(row: &OutboxRow) -> Option<&str> {
    let nonce = row.idempotency_key.strip_prefix(PLACE_KEY_PREFIX)?;
    row.body_text.contains(PLACE_LINK).then_some(nonce)
}

/// The realm and nonce of a stored sign-in mail whose link is still to be filled in.
pub(crate) fn sign_in_nonce(row: &OutboxRow) -> Option<(Realm, &str)> {
    let realm = Realm::of_mail_kind(&row.kind)?;
    let nonce = row.idempotency_key.strip_prefix(realm.key_prefix())?;
    row.body_text.contains(SIGN_IN_LINK).then_some((realm, nonce))
}

/// A stored report's text for the reader whose own private link is `link`.
pub fn with_link(text: &str, link: &str) -> String {
    text.replace(SEAT_LINK, link)
}

/// The link as the HTML templates would have written it (the placeholder went in unescaped).
fn html_escape(s: &str) -> String {
    askama::filters::escape(s, askama::filters::Html).map(|e| e.to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_survive_html_escaping_and_are_no_links_or_addresses() {
        for p in [SEAT_LINK, SEAT_REPLY_TO, GM_REPLY_TO, SIGN_IN_LINK, PLACE_LINK, PLACE_REPLY_TO] {
            assert_eq!(html_escape(p), p, "askama writes {p} unchanged");
            assert!(!p.contains('/') && !p.contains('@'), "{p} opens nothing and reaches no one");
        }
        assert!(
            SEAT_REPLY_TO.parse::<lettre::message::Mailbox>().is_err(),
            "an unfilled Reply-To is refused"
        );
    }

    #[test]
    fn a_report_shows_its_reader_their_own_link() {
        let text = format!("Your order page: {SEAT_LINK} — or reply.");
        assert_eq!(with_link(&text, "https://x/play/abc"), "Your order page: https://x/play/abc — or reply.");
    }
}
