//! Benchmark: random full games of 1800 per second (issue 18 target: at least 100/s).
//!
//! Games: 2 to 8 players by seed, played to the end of round 24 by the engine's random player
//! (`games::r1800::sim`), every action through `apply` (which checks it and works on a copy).
//! Plain Rust with `std::time::Instant`. Run: `cargo bench --bench engine_1800 [games] [runs]`.

use stationmaster::engine::prelude::*;
use stationmaster::games::r1800::R1800;
use std::time::{Duration, Instant};

fn main() {
    let g = R1800::standard().expect("1800 data");
    let arg =
        |i: usize, default: u64| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, runs) = (arg(1, 100), arg(2, 3));
    let mut best = Duration::MAX;
    let mut actions = 0;
    for _ in 0..runs {
        let t = Instant::now();
        actions = 0;
        for seed in 0..games {
            let (end, n) = g.sim_game(2 + (seed % 7) as u8, seed).expect("a legal game that ends");
            std::hint::black_box(g.standings(&end).expect("standings"));
            actions += n;
        }
        best = best.min(t.elapsed());
    }
    let secs = best.as_secs_f64();
    println!(
        "random full games: {:.0} games/s, {:.0} actions/s (best of {runs}: {games} games of 2-8 players, {actions} actions, in {best:.2?})",
        games as f64 / secs,
        actions as f64 / secs
    );
}
