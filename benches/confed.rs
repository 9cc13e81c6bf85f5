//! Benchmark: random full games of Confederate Rails per second, and the cheapest-path search
//! of a "shortest to" order on the full map.
//!
//! Games: 2 to 5 players by seed, played to the end by the engine's random player
//! (`games::confed::sim`), every action through `apply` (which checks it against the legal
//! list). Paths: `movement::cheapest_path` between station pairs spread over the map.
//! Plain Rust with `std::time::Instant`. The outcome digest (a hash of every final state) shows
//! whether two builds played the same games. Run: `cargo bench --bench confed [games] [runs]`.

use stationmaster::engine::prelude::*;
use stationmaster::games::confed::Confed;
use stationmaster::games::confed::movement::{Board, Mover, cheapest_path};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// A fingerprint of a final state (its JSON), to show that a faster engine plays the same games.
fn outcome(s: &stationmaster::games::confed::State) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(s).expect("a state serialises").hash(&mut h);
    h.finish()
}

fn main() {
    let g = Confed::standard().expect("Confederate Rails data");
    let arg =
        |i: usize, default: u64| std::env::args().nth(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (games, runs) = (arg(1, 200), arg(2, 3));
    let mut best = Duration::MAX;
    let mut actions = 0;
    let mut digest = 0u64;
    for _ in 0..runs {
        let t = Instant::now();
        actions = 0;
        digest = 0;
        for seed in 0..games {
            let (end, n) = g.sim_game(2 + (seed % 4) as u8, seed).expect("a legal game that ends");
            std::hint::black_box(g.standings(&end).expect("standings"));
            actions += n;
            digest = digest.rotate_left(5) ^ outcome(&end);
        }
        best = best.min(t.elapsed());
    }
    let secs = best.as_secs_f64();
    println!(
        "random full games: {:.0} games/s, {:.0} actions/s (best of {runs}: {games} games of 2-5 players, {actions} actions, in {best:.2?})",
        games as f64 / secs,
        actions as f64 / secs
    );
    // The same digest before and after an optimisation: the games came out the same.
    println!("outcome digest: {digest:016x}");
    let d = g.data();
    let n = d.map.stations.len();
    let pairs: Vec<(usize, usize)> =
        (0..200).map(|k| ((k * 37) % n, (k * 101 + 13) % n)).filter(|(a, b)| a != b).collect();
    let mover = Mover { owned: [5u8, 6, 7].into_iter().collect(), ..Mover::default() };
    let board = Board::default();
    let t = Instant::now();
    let mut found = 0;
    for _ in 0..10 {
        for &(a, b) in &pairs {
            found += usize::from(
                std::hint::black_box(cheapest_path(&d.map, &board, &mover, None, a, b)).is_some(),
            );
        }
    }
    let per = t.elapsed() / (10 * pairs.len() as u32);
    println!("cheapest path: {per:.2?} per search ({} searches, {found} routes found)", 10 * pairs.len());
}
