//! The seeded, portable random number generator handed to engines.
//!
//! Engines never touch a global RNG. Every random draw in a game comes from a [`GameRng`]
//! derived from the game's seed and a *stream label* (setup, or the sequence number of the
//! action being applied), so that replaying setup + action log reproduces the game exactly.
//! The generator is ChaCha20 (documented portable by `rand_chacha`); the range and shuffle
//! algorithms are our own so that an upgrade of `rand` can never change a replay. Dice have a
//! stream of their own per action ([`GameRng::roll`], [`dice_key`]) whose key may be revealed.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

/// A deterministic random source for one step of one game. The generator is keyed on first
/// use: most actions draw nothing, and deriving the key (SHA-256) is most of the cost of one.
pub struct GameRng {
    seed: u64,
    label: &'static [u8],
    index: u64,
    inner: Option<ChaCha20Rng>,
    /// The action's dice stream ([`GameRng::roll`]), keyed apart so that its key can be revealed
    /// after the turn without revealing any shuffle (`engine::dice`).
    dice: Option<ChaCha20Rng>,
}

impl GameRng {
    fn derive(seed: u64, label: &'static [u8], index: u64) -> Self {
        GameRng { seed, label, index, inner: None, dice: None }
    }

    /// The keyed generator (keyed now if this is the first draw).
    fn stream(&mut self) -> &mut ChaCha20Rng {
        let (seed, label, index) = (self.seed, self.label, self.index);
        self.inner.get_or_insert_with(|| {
            let mut h = Sha256::new();
            h.update(b"stationmaster/rng/v1\0");
            h.update(seed.to_le_bytes());
            h.update(label);
            h.update(index.to_le_bytes());
            let key: [u8; 32] = h.finalize().into();
            ChaCha20Rng::from_seed(key)
        })
    }

    /// The generator used by `setup`.
    pub fn for_setup(seed: u64) -> Self {
        Self::derive(seed, b"setup", 0)
    }

    /// The generator used while applying the action with log sequence number `seq`.
    pub fn for_action(seed: u64, seq: u64) -> Self {
        Self::derive(seed, b"action", seq)
    }

    /// A uniformly distributed integer in `0..n` (unbiased, by rejection). `n` must be > 0;
    /// `below(0)` returns 0 rather than panicking.
    pub fn below(&mut self, n: u64) -> u64 {
        if n <= 1 {
            return 0;
        }
        // Reject the top partial zone so every residue is equally likely.
        below_on(self.stream(), n)
    }

    /// A roll of one die with `sides` sides (1..=sides), from the action's dice stream: the
    /// stream whose key the server commits to when the turn opens and reveals in its report, so
    /// players can check every roll (`engine::dice`). Dice only: a shuffle or a hidden draw must
    /// use [`GameRng::below`] / [`GameRng::shuffle`], whose stream is never revealed.
    pub fn roll(&mut self, sides: u8) -> u8 {
        let (seed, index) = (self.seed, self.index);
        let stream = self.dice.get_or_insert_with(|| ChaCha20Rng::from_seed(dice_key(seed, index)));
        // `below` on the dice stream; sides ≤ 255 so the result fits.
        u8::try_from(below_on(stream, u64::from(sides.max(1)))).unwrap_or(0) + 1
    }

    /// Shuffles a slice in place (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// The key of the dice stream of the action with log sequence number `seq` in a game with
/// `seed`: SHA-256 of `"stationmaster/dice/v1\0"`, the seed and `seq` (little-endian u64 each).
/// A player given the key re-creates the rolls: ChaCha20 (`rand_chacha::ChaCha20Rng::from_seed`)
/// draws u64s; a roll of an n-sided die takes the first draw below `u64::MAX - u64::MAX % n` and
/// is that draw mod n, plus 1.
pub fn dice_key(seed: u64, seq: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"stationmaster/dice/v1\0");
    h.update(seed.to_le_bytes());
    h.update(seq.to_le_bytes());
    h.finalize().into()
}

/// The key that shuffles a game's seating (RULING W44): SHA-256 of `"stationmaster/seating/v1\0"`
/// and the seed (little-endian u64). Its SHA-256 is published while the game waits for its seats
/// and the key itself when it starts; the key tells nothing of the seed's other streams.
pub fn seating_key(seed: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"stationmaster/seating/v1\0");
    h.update(seed.to_le_bytes());
    h.finalize().into()
}

/// Shuffles a seating with a [`seating_key`]: Fisher–Yates from the back, each swap partner drawn
/// as a die roll is (`ChaCha20Rng::from_seed(key)`, unbiased by rejection), so players can redo it.
pub fn shuffle_seating<T>(key: [u8; 32], items: &mut [T]) {
    let mut stream = ChaCha20Rng::from_seed(key);
    for i in (1..items.len()).rev() {
        let j = usize::try_from(below_on(&mut stream, i as u64 + 1)).unwrap_or(0);
        items.swap(i, j);
    }
}

/// A uniformly distributed integer in `0..n` from `stream` (unbiased: the top partial zone is
/// rejected so every residue is equally likely); 0 when `n` ≤ 1.
fn below_on(stream: &mut ChaCha20Rng, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = stream.next_u64();
        if x < zone {
            return x % n;
        }
    }
}

/// SplitMix64: a tiny deterministic generator for the *choices* of simulated players (property
/// tests, random players, benchmarks) — never for a game's own randomness, which is [`GameRng`].
pub struct Pick(pub u64);

impl Pick {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_stream_give_the_same_numbers() {
        let a: Vec<u64> = (0..8).map(|_| GameRng::for_action(7, 3).below(1000)).collect();
        let mut r = GameRng::for_action(7, 3);
        let first = r.below(1000);
        assert!(a.iter().all(|&x| x == first));
    }

    #[test]
    fn different_streams_give_different_shuffles() {
        let mut a: Vec<u32> = (0..52).collect();
        let mut b = a.clone();
        GameRng::for_action(1, 1).shuffle(&mut a);
        GameRng::for_action(1, 2).shuffle(&mut b);
        assert_ne!(a, b);
    }

    #[test]
    fn a_shuffle_is_a_permutation_and_pinned_across_versions() {
        let mut v: Vec<u32> = (0..10).collect();
        GameRng::for_setup(42).shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        // Pinned: if this changes, every stored game would replay differently.
        assert_eq!(v, PINNED_SETUP_42);
    }

    const PINNED_SETUP_42: [u32; 10] = [8, 4, 0, 9, 2, 3, 5, 6, 7, 1];

    #[test]
    fn dice_come_from_their_own_stream_and_leave_the_shuffle_stream_alone() {
        let mut plain = GameRng::for_action(5, 9);
        let mut rolled = GameRng::for_action(5, 9);
        let rolls: Vec<u8> = (0..50).map(|_| rolled.roll(6)).collect();
        assert!(rolls.iter().all(|r| (1..=6).contains(r)));
        assert!((1..=6).all(|face| rolls.contains(&face)), "{rolls:?}");
        assert_eq!(plain.below(1_000_000), rolled.below(1_000_000), "rolling does not move the other stream");
        // Pinned, and re-created independently by docs/dice_verify.py (Python's ChaCha20) from
        // the key: a player re-creates these from the revealed key (docs/DICE.md).
        let mut pinned = GameRng::for_action(42, 7);
        assert_eq!((0..6).map(|_| pinned.roll(6)).collect::<Vec<_>>(), PINNED_DICE_42_7);
    }

    const PINNED_DICE_42_7: [u8; 6] = [5, 4, 3, 1, 3, 4];

    #[test]
    fn below_stays_in_range() {
        let mut r = GameRng::for_setup(9);
        for n in 1..200u64 {
            assert!(r.below(n) < n);
        }
        assert_eq!(r.below(0), 0);
    }
}
