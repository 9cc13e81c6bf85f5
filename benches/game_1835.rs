//! Benchmark: whole 1835 games with operating rounds (issue 14), and every company turn's
//! optimal revenue in them (issue 13's sweep).
//!
//! Until a full scripted game exists, the games are random whole games played by the engine's
//! rules from the start packet to the final ranking, as the property test
//! `random_whole_games_end_and_conserve_money_and_trains` plays them: at each decision the
//! seat's default (what a silent seat does) or a random legal action, half and half; seeds
//! 0–9, 3 to 7 players. Each game's actions are recorded, then:
//! - replay: set-up and every action through `apply` (a run without routes computes the optimum
//!   inside `apply`), best of three;
//! - sweep: at every company turn that reached its run step with trains, the track graph built
//!   and the optimum computed for its trains, summed over the game.
//!
//! Plain Rust with `std::time::Instant`. Run: `cargo bench --bench game_1835`.

use stationmaster::engine::prelude::*;
use stationmaster::engine::{GameRng, Pick, SetupSpec};
use stationmaster::games::r1835::board::{Graph, optimal};
use stationmaster::games::r1835::data::TrainType;
use stationmaster::games::r1835::state::{Entity, Round, Step};
use stationmaster::games::r1835::{Action, R1835, State};
use std::time::{Duration, Instant};

/// A random legal action: pass one time in three where it is legal, else any other.
fn choose(legal: &[Action], pick: &mut Pick) -> Option<Action> {
    let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::Pass).collect();
    if legal.contains(&Action::Pass) && (others.is_empty() || pick.next(3) == 0) {
        return Some(Action::Pass);
    }
    others.get(pick.next(others.len())).map(|a| (*a).clone())
}

/// The operating company's id and trains when it stands at its run step with trains.
fn at_run(g: &R1835, s: &State) -> Option<(String, Vec<TrainType>)> {
    if !matches!(s.round, Round::Operating { .. }) || s.or.turn.step != Step::Run {
        return None;
    }
    let (id, names) = match *s.or.queue.first()? {
        Entity::Minor(m) => (s.minors[usize::from(m)].id.clone(), s.minors[usize::from(m)].trains.clone()),
        Entity::Major(c) => (s.majors[usize::from(c)].id.clone(), s.majors[usize::from(c)].trains.clone()),
    };
    let trains: Vec<TrainType> =
        names.iter().filter_map(|n| g.data().trains.iter().find(|t| t.name == *n).cloned()).collect();
    (!trains.is_empty()).then_some((id, trains))
}

/// Plays one whole game: its actions, and the states at each company's run step.
fn play(g: &R1835, seats: u8, seed: u64) -> (Vec<Action>, Vec<State>) {
    let spec = SetupSpec { seats, options: serde_json::json!({}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).expect("setup");
    let mut pick = Pick(seed);
    let (mut actions, mut runs) = (Vec::new(), Vec::new());
    while g.next_decision(&s).is_some() {
        assert!(actions.len() < 20_000, "seed {seed}: the game does not end");
        if at_run(g, &s).is_some() {
            runs.push(s.clone());
        }
        let legal = g.legal_actions(&s);
        let action = if pick.next(2) == 0 { g.default_action(&s) } else { choose(&legal, &mut pick) };
        let action = action.expect("an action");
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, actions.len() as u64)).expect("legal");
        actions.push(action);
    }
    (actions, runs)
}

fn replay(g: &R1835, seats: u8, seed: u64, actions: &[Action]) -> Duration {
    let t = Instant::now();
    let spec = SetupSpec { seats, options: serde_json::json!({}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).expect("setup");
    for (n, a) in actions.iter().enumerate() {
        g.apply(&mut s, a, &mut GameRng::for_action(seed, n as u64)).expect("replays");
    }
    assert!(g.next_decision(&s).is_none(), "the replay ends the game");
    t.elapsed()
}

fn sweep(g: &R1835, runs: &[State]) -> (Duration, Duration) {
    let (mut total, mut slowest) = (Duration::ZERO, Duration::ZERO);
    for s in runs {
        let (id, trains) = at_run(g, s).expect("a run");
        let phase = &g.data().phases[usize::from(s.phase)];
        let t = Instant::now();
        let graph = Graph::build(g.data(), &s.board, phase);
        std::hint::black_box(optimal(&graph, &id, &trains));
        let took = t.elapsed();
        total += took;
        slowest = slowest.max(took);
    }
    (total, slowest)
}

fn main() {
    let g = R1835::standard().expect("1835 data");
    println!("seed seats actions runs  replay(best of 3)  actions/s   sweep  slowest run");
    for seed in 0..10u64 {
        let seats = 3 + (seed % 5) as u8;
        let (actions, runs) = play(&g, seats, seed);
        let best = (0..3).map(|_| replay(&g, seats, seed, &actions)).min().unwrap_or_default();
        let (total, slowest) = sweep(&g, &runs);
        println!(
            "{seed:>4} {seats:>5} {:>7} {:>4}  {best:>16.2?}  {:>9.0}  {total:>7.2?}  {slowest:>10.2?}",
            actions.len(),
            runs.len(),
            actions.len() as f64 / best.as_secs_f64(),
        );
    }
}
