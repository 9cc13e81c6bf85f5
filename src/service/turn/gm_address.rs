//! The GM's reply address for a game's questions (issue 15): `gm+<game>.<tag>@<reply domain>`,
//! where `<tag>` is 80 bits of HMAC under the server key over the game and its GM's address, so a
//! new GM gets a new address and the old one stops working. `hold` puts it on every question mail;
//! `gm_mail` reads it back from the GM's answers.

use crate::domain::GameId;
use crate::service::Ctx;
use uuid::Uuid;

const PREFIX: &str = "gm+";

/// The GM's signed reply address for a game's questions.
pub fn gm_reply_address(ctx: &Ctx, game: GameId, gm_email: &str) -> String {
    let id = data_encoding::BASE32_NOPAD.encode(game.0.as_bytes()).to_lowercase();
    format!("{PREFIX}{id}.{}@{}", tag(ctx, game, gm_email), ctx.settings.reply_domain())
}

/// 80 bits of HMAC over the game and its GM's address, lower-case base32.
pub(super) fn tag(ctx: &Ctx, game: GameId, gm_email: &str) -> String {
    let mac = ctx.sign(&format!("gm-reply:{game}:{}", gm_email.trim().to_lowercase()));
    data_encoding::BASE32_NOPAD.encode(&mac[..10]).to_lowercase()
}

/// The game and tag of a GM reply address (tag not yet checked); `None` for any other address.
pub(super) fn parse_address(address: &str) -> Option<(GameId, String)> {
    let lower = address.trim().trim_matches(['<', '>']).to_ascii_lowercase();
    let (local, _domain) = lower.rsplit_once('@')?;
    let (game, tag) = local.strip_prefix(PREFIX)?.split_once('.')?;
    let bytes = data_encoding::BASE32_NOPAD.decode(game.to_ascii_uppercase().as_bytes()).ok()?;
    Some((GameId(Uuid::from_slice(&bytes).ok()?), tag.to_string()))
}
