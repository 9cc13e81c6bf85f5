//! Dice players can check (issue 17): when a turn opens, the server publishes a commitment to
//! the dice keys of the turn's actions; the turn's report reveals the keys its actions used, so
//! every player can re-create every roll ([`super::rng::dice_key`], `docs/DICE.md`) and check
//! that the keys were fixed before anyone's orders were read.
//!
//! The keys are a function of the game's seed and the action's log sequence number, so the
//! server cannot change them after the commitment, and revealing them neither reveals the seed
//! nor any shuffle (those come from another stream). A turn's number of actions is not known
//! when it opens, so the commitment covers a window of [`WINDOW`] keys as a hash chain from its
//! end: `c[end] = SHA-256("stationmaster/dice-chain/v1")`, `c[i] = SHA-256(key[i] ‖ c[i+1])`,
//! and the commitment is `c[first]`. The report reveals the keys used and `c[first + used]`;
//! a player recomputes the chain's head from them. The keys after the turn stay secret.

use super::rng::dice_key;
use sha2::{Digest, Sha256};

/// Actions per turn a commitment covers (a turn with more has its later rolls unchecked; no
/// game here comes near: a whole 1835 game is about 2,000 actions).
pub const WINDOW: u64 = 4096;

/// A turn's revealed dice: the keys of its actions in order and the rest of the chain.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reveal {
    /// The log sequence number of the turn's first action.
    pub first_seq: u64,
    /// One key per action of the turn (hex), the first for `first_seq`.
    pub keys: Vec<String>,
    /// The chain's link after the last revealed key (hex).
    pub rest: String,
}

fn end() -> [u8; 32] {
    Sha256::digest(b"stationmaster/dice-chain/v1").into()
}

fn link(key: &[u8; 32], next: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(key);
    h.update(next);
    h.finalize().into()
}

/// The chain's links from `from` (inclusive) to the window's end, computed backwards; returns
/// the link at `from`.
fn chain_from(seed: u64, first_seq: u64, from: u64) -> [u8; 32] {
    let last = first_seq.saturating_add(WINDOW);
    let mut c = end();
    let mut seq = last;
    while seq > from {
        seq -= 1;
        c = link(&dice_key(seed, seq), &c);
    }
    c
}

/// The commitment published when a turn whose first action will be `first_seq` opens (hex).
pub fn commitment(seed: u64, first_seq: u64) -> String {
    data_encoding::HEXLOWER.encode(&chain_from(seed, first_seq, first_seq))
}

/// What the report of a turn of `used` actions from `first_seq` reveals.
pub fn reveal(seed: u64, first_seq: u64, used: u64) -> Reveal {
    let used = used.min(WINDOW);
    let keys =
        (first_seq..first_seq + used).map(|s| data_encoding::HEXLOWER.encode(&dice_key(seed, s))).collect();
    let rest = data_encoding::HEXLOWER.encode(&chain_from(seed, first_seq, first_seq + used));
    Reveal { first_seq, keys, rest }
}

/// Whether a reveal matches a commitment (what a player checks; the keys then re-create the
/// rolls). Malformed hex is a mismatch.
pub fn verify(commitment: &str, r: &Reveal) -> bool {
    let decode = |h: &str| -> Option<[u8; 32]> {
        data_encoding::HEXLOWER_PERMISSIVE.decode(h.as_bytes()).ok()?.try_into().ok()
    };
    let Some(mut c) = decode(&r.rest) else { return false };
    for k in r.keys.iter().rev() {
        let Some(key) = decode(k) else { return false };
        c = link(&key, &c);
    }
    data_encoding::HEXLOWER.encode(&c) == commitment.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameRng;

    #[test]
    fn a_reveal_matches_the_commitment_made_before_the_turn() {
        let c = commitment(42, 100);
        let r = reveal(42, 100, 7);
        assert_eq!(r.keys.len(), 7);
        assert!(verify(&c, &r));
        // The next turn's commitment is another chain; its keys stay secret in this reveal.
        assert!(!r.keys.contains(&data_encoding::HEXLOWER.encode(&dice_key(42, 107))));
    }

    #[test]
    fn a_changed_key_or_rest_does_not_verify() {
        let c = commitment(1, 0);
        let mut r = reveal(1, 0, 3);
        r.keys[1] = data_encoding::HEXLOWER.encode(&dice_key(2, 1));
        assert!(!verify(&c, &r));
        let mut r = reveal(1, 0, 3);
        r.rest = "zz".into();
        assert!(!verify(&c, &r));
        assert!(!verify(&commitment(1, 1), &reveal(1, 0, 3)), "another turn's commitment");
    }

    #[test]
    fn the_revealed_key_recreates_the_engines_rolls_by_the_documented_recipe() {
        use rand_chacha::ChaCha20Rng;
        use rand_chacha::rand_core::{Rng, SeedableRng};
        let r = reveal(9, 30, 2);
        let mut rng = GameRng::for_action(9, 31);
        let engine: Vec<u8> = (0..20).map(|_| rng.roll(6)).collect();
        // docs/DICE.md: ChaCha20 from the key, u64 draws, reject the top partial zone, mod n, +1.
        let key: [u8; 32] = data_encoding::HEXLOWER.decode(r.keys[1].as_bytes()).unwrap().try_into().unwrap();
        let mut player = ChaCha20Rng::from_seed(key);
        let zone = u64::MAX - u64::MAX % 6;
        let recreated: Vec<u8> = std::iter::from_fn(|| Some(player.next_u64()))
            .filter(|x| *x < zone)
            .take(20)
            .map(|x| (x % 6) as u8 + 1)
            .collect();
        assert_eq!(engine, recreated);
    }
}
