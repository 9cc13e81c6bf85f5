//! Benchmark and equivalence check (issue 38): the engine's time for one storm turn of 1835 —
//! a PBEM turn adjudicated with no orders from any seat (every move the rules' default, HR 17's
//! ladder included), through the registry as the server calls it (the state decoded from JSON,
//! the turn loop, the outcome encoded).
//!
//! Positions (`common/positions_1835.rs`): every company-turn start in an operating round of
//! the committed four-player fixture logs, and of random games (4 and 5 players, seeds 0 to
//! RANDOM-1, every third cut). Each turn's outcome (actions, events, notes, state) is digested
//! (SHA-256 of its JSON): `--write` keeps the digests in `tests/data/1835/nmr_turns.txt`,
//! `--check` compares them with it action by action's result, so that a speed-up is shown to
//! change no result. The test `tests/api/nmr_turns_1835.rs` checks a sample of the same file.
//!
//! Run: `cargo bench --bench turn_1835 -- [RANDOM] [--check | --write]` (default RANDOM 12).

#[path = "common/positions_1835.rs"]
mod positions;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The digest file, one line per position: `name actions digest`.
const DIGESTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/1835/nmr_turns.txt");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let random: u64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(12);
    let (check, write) = (args.iter().any(|a| a == "--check"), args.iter().any(|a| a == "--write"));
    let g = stationmaster::games::r1835::R1835::standard().expect("1835 data");
    let engine = stationmaster::registry::find("1835").expect("the 1835 engine");

    let t = Instant::now();
    let all = positions::check_set(&g, random);
    let fixtures = all.iter().take_while(|p| !p.source.starts_with("random")).count();
    println!(
        "{} positions ({fixtures} from the fixtures, {} from {random} random games) in {:.1?}",
        all.len(),
        all.len() - fixtures,
        t.elapsed()
    );

    let mut times: Vec<(Duration, String)> = Vec::new();
    let mut lines = Vec::new();
    let (mut actions, mut wall) = (0, Duration::ZERO);
    for p in &all {
        let (t, cpu) = (Instant::now(), stationmaster::metrics::thread_cpu());
        let outcome = positions::storm_turn(engine, p);
        times.push((stationmaster::metrics::thread_cpu().saturating_sub(cpu), p.name()));
        wall += t.elapsed();
        actions += outcome.split(' ').next().and_then(|n| n.parse::<usize>().ok()).unwrap_or(0);
        lines.push(format!("{} {outcome}", p.name()));
    }
    let total: Duration = times.iter().map(|t| t.0).sum();
    times.sort();
    let pct = |q: usize| times.get(times.len() * q / 100).map_or(Duration::ZERO, |t| t.0);
    println!(
        "storm turns: {} in {total:.2?} of CPU ({wall:.2?} wall), {actions} actions; CPU per turn mean {:.2?}, median {:.2?}, p90 {:.2?}, max {:.2?} ({})",
        times.len(),
        total / times.len().max(1) as u32,
        pct(50),
        pct(90),
        times.last().map_or(Duration::ZERO, |t| t.0),
        times.last().map_or("", |t| t.1.as_str()),
    );

    let text = lines.join("\n") + "\n";
    if write {
        std::fs::write(DIGESTS, &text).expect("writing the digests");
        println!("wrote {} digests to {DIGESTS}", lines.len());
    }
    if check {
        let kept = std::fs::read_to_string(DIGESTS).expect("the digest file");
        let kept: BTreeMap<&str, &str> = kept.lines().filter_map(|l| l.split_once(' ')).collect();
        let mut differ = 0;
        for l in &lines {
            let (name, rest) = l.split_once(' ').expect("a line");
            match kept.get(name) {
                Some(k) if *k == rest => {}
                Some(k) => {
                    differ += 1;
                    println!("DIFFERS {name}: kept {k}, now {rest}");
                }
                None => println!("not kept: {name}"),
            }
        }
        println!("check: {} of {} turns identical to the kept digests", lines.len() - differ, lines.len());
        if differ > 0 {
            std::process::exit(1);
        }
    }
}
