//! Benchmark: random full games of 1833 per second.
//!
//! Each game is set up for 2 to 6 players (by seed) and played to the final score by a random
//! player choosing uniformly among `legal_actions` at every decision (the snake selection, every
//! turn action, every pick-up offer), applying each through the engine's `apply`, and scoring
//! with `standings`. Plain Rust with `std::time::Instant`. Run: `cargo bench --bench engine_1833`.

use stationmaster::engine::{Game, GameRng, SetupSpec};
use stationmaster::games::r1833::{Action, R1833};
use std::time::{Duration, Instant};

struct Pick(u64);
impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }
}

/// Plays one random game to the end; returns the number of actions.
fn play(g: &R1833, seed: u64) -> usize {
    let seats = 2 + (seed % 5) as u8;
    let spec = SetupSpec { seats, options: serde_json::Value::Null };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).expect("setup");
    let mut pick = Pick(seed);
    let mut n = 0;
    while let Some(d) = g.next_decision(&s) {
        let legal = g.legal_actions(&s, &d);
        let a = match legal.iter().find(|a| **a == Action::EndTurn) {
            Some(end) if pick.next(3) == 0 => end.clone(),
            _ => legal[pick.next(legal.len())].clone(),
        };
        g.apply(&mut s, &a, &mut GameRng::for_action(seed, n as u64)).expect("legal");
        n += 1;
    }
    std::hint::black_box(g.standings(&s).expect("final score"));
    n
}

fn main() {
    let g = R1833::standard().expect("1833 deck");
    let games = 1000u64;
    let mut best = Duration::MAX;
    let mut actions = 0;
    for _ in 0..3 {
        let t = Instant::now();
        actions = (0..games).map(|seed| play(&g, seed)).sum::<usize>();
        best = best.min(t.elapsed());
    }
    let secs = best.as_secs_f64();
    println!(
        "random full games: {:.0} games/s, {:.0} actions/s (best of 3: {games} games of 2-6 players, {actions} actions, in {best:.2?})",
        games as f64 / secs,
        actions as f64 / secs
    );
}
