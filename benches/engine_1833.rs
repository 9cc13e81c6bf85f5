//! Benchmark: random full games of 1833 per second.
//!
//! Each game is set up for 2 to 6 players (by seed) and played to the final score by a random
//! player choosing uniformly among `legal_actions` at every decision (the snake selection, every
//! turn action, every pick-up offer), applying each through the engine's `apply`, and scoring
//! with `standings`. Plain Rust with `std::time::Instant`. Run: `cargo bench --bench engine_1833`.

use stationmaster::engine::SetupSpec;
use stationmaster::engine::prelude::*;
use stationmaster::games::r1833::R1833;
use stationmaster::games::r1833::sim::random_game;
use std::time::{Duration, Instant};

/// Plays one random game to the end and scores it; returns the number of actions.
fn play(g: &R1833, seed: u64) -> u64 {
    let seats = 2 + (seed % 5) as u8;
    let spec = SetupSpec { seats, options: serde_json::Value::Null };
    let mut n = 0;
    let end = random_game(g, &spec, seed, 1_000_000, |_, _, _, _| {
        n += 1;
        Ok(())
    })
    .expect("a legal game");
    std::hint::black_box(g.standings(&end).expect("final score"));
    n
}

fn main() {
    let g = R1833::standard().expect("1833 deck");
    // Optional arguments: games per run (default 1,000) and runs (default 3), e.g. for a short
    // run under callgrind: `engine_1833 50 1`.
    let arg =
        |i: usize, default: u64| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, runs) = (arg(1, 1000), arg(2, 3));
    let mut best = Duration::MAX;
    let mut actions = 0;
    for _ in 0..runs {
        let t = Instant::now();
        actions = (0..games).map(|seed| play(&g, seed)).sum::<u64>();
        best = best.min(t.elapsed());
    }
    let secs = best.as_secs_f64();
    println!(
        "random full games: {:.0} games/s, {:.0} actions/s (best of {runs}: {games} games of 2-6 players, {actions} actions, in {best:.2?})",
        games as f64 / secs,
        actions as f64 / secs
    );
}
