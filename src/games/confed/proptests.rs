//! Property tests: whole random games (the random player of `sim`) for 2 to 5 players played
//! through the conformance harness (`crate::engine::conformance`: games end with standings,
//! listed actions are accepted, refusals change nothing, the log replays, views and event texts
//! hide the hands and the pile, published lines reveal nothing), with Confederate Rails' own
//! invariants: money is conserved except what the bank pays or takes, no train spends more
//! movement points than it has, stacking limits hold wherever a train ends its movement.

use super::board;
use super::state::{Action, Stage, State};
use super::*;
use crate::engine::conformance::{self, Hidden, Play};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, SetupSpec, Viewer};
use proptest::prelude::*;

impl Hidden for Confed {
    /// Re-deals the draw pile's order and the Special Events of the seats `viewer` cannot see
    /// (keeping how many each holds).
    fn redeal(&self, s: &State, viewer: Viewer, rng: &mut GameRng) -> State {
        let mut out = s.clone();
        if viewer == Viewer::Gm {
            return out;
        }
        rng.shuffle(&mut out.pile);
        let hidden: Vec<usize> =
            (0..s.players.len()).filter(|i| !viewer.may_see(Seat::from_index(*i))).collect();
        let mut pool: Vec<u8> = hidden.iter().flat_map(|i| out.players[*i].specials.clone()).collect();
        rng.shuffle(&mut pool);
        for i in &hidden {
            let n = out.players[*i].specials.len();
            let mut hand: Vec<u8> = pool.drain(..n.min(pool.len())).collect();
            hand.sort_unstable();
            out.players[*i].specials = hand;
        }
        out
    }

    /// The echo says of every line which decision it answers; a warning follows after "; "
    /// (`orders::echo`).
    fn echo_accepts(&self, advice: &str) -> bool {
        advice.starts_with("answers the decision now") && !advice.contains("; ")
    }
}

pub(super) fn game() -> &'static Confed {
    shared().expect("the standard data loads")
}

/// Money, movement points and stacking.
fn check(g: &Confed, before: &State, after: &State, a: &Action) -> Result<(), String> {
    let d = g.data();
    let start: u64 = d
        .tables
        .setup
        .iter()
        .find(|x| usize::from(x.players) == after.players.len())
        .map(|x| u64::from(if after.extended { x.extended_money } else { x.money }))
        .unwrap_or(0)
        * after.players.len() as u64;
    if after.total_money() + after.bank_in != start + after.bank_out {
        return Err(format!(
            "money not conserved: {} + {} != {start} + {}",
            after.total_money(),
            after.bank_in,
            after.bank_out
        ));
    }
    if let (Action::Step { to, fee }, Stage::Move { train }) = (a, &before.stage) {
        let opt = g
            .steps(before, before.active(), *train, before.mp)
            .into_iter()
            .find(|o| o.to == *to && o.fee == *fee);
        let Some(o) = opt else { return Err("a step not offered was taken".into()) };
        let collided = after.train(before.active(), *train).and_then(|t| t.station()) != Some(*to);
        if !collided && (o.cost > before.mp || after.mp != before.mp - o.cost) {
            return Err(format!("a step costing {} with {} MP left", o.cost, before.mp));
        }
    }
    if after.mp > d.tables.costs.movement_points {
        return Err("more movement points than a train has".into());
    }
    // RT 5.4.1: only the moving train may stand over a limit (passing through); none ends there.
    let mover = match after.stage {
        Stage::Move { train } => after.train(after.active(), train).and_then(|t| t.station()),
        _ => None,
    };
    for st in 0..d.map.stations.len() {
        let passing = usize::from(mover == Some(st));
        if after.trains_at(st) - passing > board::stack_limit(d, after, st) {
            return Err(format!("{} trains at {}", after.trains_at(st), board::name(d, st)));
        }
    }
    Ok(())
}

fn tamper(s: &State, p: &mut Pick) -> Vec<Action> {
    let st = p.next(200);
    let mut v =
        vec![Action::Step { to: st, fee: false }, Action::DropOff, Action::Activate(7), Action::Cancel(1)];
    if s.tasks.is_empty() {
        v.push(Action::Choose(st));
    }
    v
}

fn orders(s: &State, _seat: Seat, p: &mut Pick) -> Vec<String> {
    let stations = ["Atlanta", "Richmond", "Weldon", "Corinth", "Nashville"];
    let st = stations[p.next(stations.len())];
    let all = [
        "ACTIVATE 1 2".to_string(),
        format!("MOVE 1 SHORTEST TO {st}"),
        "PLAY LEE WHEN ANY FALLS".to_string(),
        format!("PLAY JACKSON WHEN {st} FALLS"),
        "TAKE DRAWN".to_string(),
        "DECLINE DEPOT".to_string(),
        format!("CHOOSE UNION {st}"),
        format!("CHOOSE DEPOT {st}"),
        "PAY 100 TO 2".to_string(),
        "ACCEPT 100 FROM 1".to_string(),
        format!("SELECT {}", s.offer.first().copied().unwrap_or(1)),
        "PAY FEES FOR 1 UP TO 200".to_string(),
        format!("TAKE DRAWN IF PAYOUT >= 800 AND NOT TO {st}"),
        format!("TAKE {} IF DRAWN GOODS Cotton", s.display.first().copied().unwrap_or(1)),
    ];
    (0..1 + p.next(3)).map(|_| all[p.next(all.len())].clone()).collect()
}

/// Plays one whole random game through the harness.
pub(super) fn play(seats: u8, seed: u64) -> Result<State, String> {
    play_with(seats, seed, serde_json::Value::Null)
}

/// [`play`] with set-up options.
pub(super) fn play_with(seats: u8, seed: u64, options: serde_json::Value) -> Result<State, String> {
    let g = game();
    let choose = |s: &State, legal: &[Action], p: &mut Pick| g.sim_pick(s, legal, p);
    let invariants = |b: &State, a: &State, x: &Action| check(g, b, a, x);
    let play = Play {
        spec: SetupSpec { seats, options },
        seed,
        choices: seed ^ 0x5a5a,
        max_actions: 60_000,
        choose: &choose,
        tamper: &tamper,
        invariants: &invariants,
        orders: Some(&orders),
        stop_after: None,
    };
    conformance::play(g, &play).map(|p| p.state)
}

/// One whole random game of `seats` through the harness (one test per table size, so that the
/// test threads share them).
fn a_full_game(seats: u8) {
    let s = play(seats, 100 + u64::from(seats)).unwrap_or_else(|e| panic!("{seats} players: {e}"));
    assert!(s.ended.is_some());
    assert!(game().standings(&s).is_some());
}

#[test]
fn a_full_random_game_for_2_players_conforms_and_ends() {
    a_full_game(2);
}

#[test]
fn a_full_random_game_for_3_players_conforms_and_ends() {
    a_full_game(3);
}

#[test]
fn a_full_random_game_for_4_players_conforms_and_ends() {
    a_full_game(4);
}

#[test]
fn a_full_random_game_for_5_players_conforms_and_ends() {
    a_full_game(5);
}

/// One whole random extended game of `seats` through the harness.
fn a_full_extended_game(seats: u8) {
    let s = play_with(seats, 200 + u64::from(seats), serde_json::json!({"extended": true}))
        .unwrap_or_else(|e| panic!("{seats} players: {e}"));
    assert!(s.ended.is_some());
    assert!(!s.pre_war, "the War started");
}

#[test]
fn a_full_random_extended_game_for_2_players_conforms_reaches_the_war_and_ends() {
    a_full_extended_game(2);
}

#[test]
fn a_full_random_extended_game_for_3_players_conforms_reaches_the_war_and_ends() {
    a_full_extended_game(3);
}

#[test]
fn a_full_random_extended_game_for_4_players_conforms_reaches_the_war_and_ends() {
    a_full_extended_game(4);
}

#[test]
fn a_full_random_extended_game_for_5_players_conforms_reaches_the_war_and_ends() {
    a_full_extended_game(5);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_money_respect_movement_points_and_stacking(seed in any::<u64>(), seats in 2u8..=5) {
        let s = play(seats, seed).map_err(TestCaseError::fail)?;
        prop_assert!(s.ended.is_some());
    }
}
