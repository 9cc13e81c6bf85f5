//! Per-seat signed reply addresses: `orders+<game>-<seat>.<tag>@<domain>`.
//!
//! `<game>` is the game id in lower-case base32 (26 characters), `<tag>` the first 80 bits of an
//! HMAC over game, seat and token generation, also lower-case base32 (16 characters) — so the
//! whole local part stays under 64 characters and survives MTAs that change its case. This type
//! only reads and writes the shape; the server key that signs and checks tags lives in
//! `service::Ctx`.

use super::GameId;
use uuid::Uuid;

/// The parts of a reply address, as read from a recipient (tag not yet checked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyAddress {
    pub game: GameId,
    pub seat: u8,
    pub tag: String,
}

const PREFIX: &str = "orders+";

impl ReplyAddress {
    /// The local part (before the @).
    pub fn local_part(&self) -> String {
        let game = data_encoding::BASE32_NOPAD.encode(self.game.0.as_bytes()).to_lowercase();
        format!("{PREFIX}{game}-{}.{}", self.seat, self.tag)
    }

    /// Reads a reply address out of a full address (any case). `None` for anything else.
    pub fn parse(address: &str) -> Option<ReplyAddress> {
        let lower = address.trim().trim_matches(['<', '>']).to_ascii_lowercase();
        let (local, _domain) = lower.rsplit_once('@')?;
        let rest = local.strip_prefix(PREFIX)?;
        let (game, rest) = rest.split_once('-')?;
        let (seat, tag) = rest.split_once('.')?;
        let bytes = data_encoding::BASE32_NOPAD.decode(game.to_ascii_uppercase().as_bytes()).ok()?;
        let game = GameId(Uuid::from_slice(&bytes).ok()?);
        let seat: u8 = seat.parse().ok().filter(|s| *s >= 1)?;
        let tag_ok =
            tag.len() == 16 && tag.chars().all(|c| c.is_ascii_lowercase() || ('2'..='7').contains(&c));
        tag_ok.then(|| ReplyAddress { game, seat, tag: tag.to_string() })
    }
}

impl ReplyAddress {
    /// The signed address of a seat under `key` (the server key).
    pub fn sign(key: &[u8], game: GameId, seat: u8, generation: i32) -> ReplyAddress {
        ReplyAddress { game, seat, tag: tag(key, game, seat, generation) }
    }

    /// Whether the tag is right for this game, seat and token generation under `key`
    /// (compared in constant time).
    pub fn verify(&self, key: &[u8], generation: i32) -> bool {
        constant_time_eq(&self.tag, &tag(key, self.game, self.seat, generation))
    }
}

/// 80 bits of HMAC-SHA256 over "reply:{game}:{seat}:{generation}", lower-case base32.
fn tag(key: &[u8], game: GameId, seat: u8, generation: i32) -> String {
    use hmac::{KeyInit, Mac};
    // HMAC takes keys of any length: new_from_slice cannot fail.
    let Ok(mut mac) = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key) else {
        return String::new();
    };
    mac.update(format!("reply:{game}:{seat}:{generation}").as_bytes());
    data_encoding::BASE32_NOPAD.encode(&mac.finalize().into_bytes()[..10]).to_lowercase()
}

/// Compares two strings in time that does not depend on where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sample(seat: u8) -> ReplyAddress {
        ReplyAddress {
            game: GameId(Uuid::from_u128(0x0192_f0c4_5d1e_7c7a_9b6a_2f1e_0d9c_8b7a)),
            seat,
            tag: "abcdefgh234567ab".into(),
        }
    }

    #[test]
    fn a_reply_address_fits_in_a_local_part() {
        assert!(sample(7).local_part().len() <= 64, "{}", sample(7).local_part());
    }

    #[test]
    fn a_reply_address_reads_back_in_any_case() {
        let a = sample(3);
        let upper = format!("{}@Example.ORG", a.local_part()).to_uppercase();
        assert_eq!(ReplyAddress::parse(&upper), Some(a));
    }

    #[test]
    fn other_addresses_are_not_reply_addresses() {
        for s in ["anna@example.org", "orders@example.org", "orders+x-1.abc@e.org", "orders+@e.org", ""] {
            assert_eq!(ReplyAddress::parse(s), None, "{s}");
        }
    }

    proptest! {
        #[test]
        fn a_signed_address_verifies_and_any_altered_character_is_rejected(
            g in any::<u128>(), seat in 1u8..=7, pos in 0usize..200, c in "[a-z0-9+.@-]",
        ) {
            let key = b"server key";
            let game = GameId(Uuid::from_u128(g));
            let full = format!("{}@play.example.org", ReplyAddress::sign(key, game, seat, 1).local_part());
            let parsed = ReplyAddress::parse(&full).unwrap();
            prop_assert!(parsed.verify(key, 1));
            prop_assert!(!parsed.verify(key, 2), "another token generation");
            prop_assert!(!parsed.verify(b"another key", 1));
            let local_len = full.find('@').unwrap();
            let pos = pos % local_len;
            let replacement = c.chars().next().unwrap();
            prop_assume!(full.as_bytes()[pos] as char != replacement);
            let mut altered = full.clone();
            altered.replace_range(pos..pos + 1, &replacement.to_string());
            let still_valid = ReplyAddress::parse(&altered).is_some_and(|a| a.verify(key, 1) && a.game == game && a.seat == seat);
            prop_assert!(!still_valid, "{altered} still verifies");
        }

        #[test]
        fn any_reply_address_round_trips(g in any::<u128>(), seat in 1u8..=20, tag in "[a-z2-7]{16}") {
            let a = ReplyAddress { game: GameId(Uuid::from_u128(g)), seat, tag };
            prop_assert_eq!(ReplyAddress::parse(&format!("{}@x.org", a.local_part())), Some(a));
        }
    }
}
