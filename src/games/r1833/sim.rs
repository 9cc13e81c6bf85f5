//! A random player for simulations, property tests and the benchmark: plays a whole game with
//! random legal actions from `legal_actions` at every decision, with a deterministic generator
//! per seed. In a turn it first picks a kind of action uniformly (draw, discard, route,
//! Re-Shuffle, end the turn — among the kinds that have a legal action), then one action of that
//! kind; elsewhere (selection, offers) one legal action uniformly.

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
        let mut kinds: Vec<u8> = legal.iter().map(kind_of).collect();
        kinds.sort_unstable();
        kinds.dedup();
        let want = kinds.get(pick.next(kinds.len())).copied().unwrap_or(0);
        let of_kind: Vec<&Action> = legal.iter().filter(|a| kind_of(a) == want).collect();
        let a = of_kind.get(pick.next(of_kind.len())).map(|a| (*a).clone());
        let a = a.ok_or_else(|| format!("no legal action at {d:?}"))?;
        g.apply(&mut s, &a, &mut GameRng::for_action(seed, seq)).map_err(|e| format!("{a:?}: {e}"))?;
        each(seq, d.seat, &a, &s)?;
        seq += 1;
    }
    Ok(s)
}

/// The kind of an action for the random player's first choice.
fn kind_of(a: &Action) -> u8 {
    match a {
        Action::DrawDeck | Action::DrawPool(_) | Action::DrawDiscard | Action::DrawToLimitAndEnd => 1,
        Action::Discard(_) => 2,
        Action::Create { .. } | Action::Extend { .. } => 3,
        Action::PlayReshuffle(_) => 4,
        Action::EndTurn => 5,
        _ => 0,
    }
}
