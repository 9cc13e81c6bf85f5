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
        fn any_reply_address_round_trips(g in any::<u128>(), seat in 1u8..=20, tag in "[a-z2-7]{16}") {
            let a = ReplyAddress { game: GameId(Uuid::from_u128(g)), seat, tag };
            prop_assert_eq!(ReplyAddress::parse(&format!("{}@x.org", a.local_part())), Some(a));
        }
    }
}
