//! A random player for simulations, property tests and the benchmark: plays a whole game by
//! choosing uniformly among `legal_actions` at every decision (ending a turn now and then so
//! turns stay short), with a deterministic generator per seed.

use super::R1833;
use super::state::{Action, State};
use crate::engine::{Game, GameRng, Seat, SetupSpec};

/// SplitMix64: a tiny deterministic generator for choices (not the game's RNG).
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

/// Plays a random game from set-up to the end; `each` sees every applied action (log sequence
/// number, seat, action, state after) and may stop the game with an error.
pub fn random_game(
    g: &R1833,
    spec: &SetupSpec,
    seed: u64,
    max_actions: u64,
    mut each: impl FnMut(u64, Seat, &Action, &State) -> Result<(), String>,
) -> Result<State, String> {
    let mut s = g.setup(spec, &mut GameRng::for_setup(seed)).map_err(|e| e.0)?;
    let mut pick = Pick(seed);
    let mut seq = 0u64;
    while let Some(d) = g.next_decision(&s) {
        if seq >= max_actions {
            return Err(format!("the game did not end within {max_actions} actions"));
        }
        let legal = g.legal_actions(&s, &d);
        let a = match legal.iter().find(|a| **a == Action::EndTurn) {
            Some(end) if pick.next(3) == 0 => end.clone(),
            _ => legal
                .get(pick.next(legal.len()))
                .cloned()
                .ok_or_else(|| format!("no legal action at {d:?}"))?,
        };
        g.apply(&mut s, &a, &mut GameRng::for_action(seed, seq)).map_err(|e| format!("{a:?}: {e}"))?;
        each(seq, d.seat, &a, &s)?;
        seq += 1;
    }
    Ok(s)
}
