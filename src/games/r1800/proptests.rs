//! Property tests: whole random games (the random player of `sim`) for 2 to 8 players played
//! through the conformance harness (`crate::engine::conformance`: games end with standings,
//! listed actions are accepted, refusals change nothing, the log replays, views and event texts
//! hide the hands, decks and ambitions, published lines reveal nothing), with 1800's own
//! invariants: every card is somewhere exactly once (decks, hands, tableaux, offer, discard
//! piles), countrysides hold at most two pops, a province at most one regiment, a city at most
//! five factories, prosperity stays on its track.

use super::data::DevType;
use super::state::*;
use super::*;
use crate::engine::conformance::{self, Hidden, Play};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, SetupSpec, Viewer};
use proptest::prelude::*;

impl Hidden for R1800 {
    /// Re-deals the decks' order, the ambitions not dealt, and the hands and ambitions of the
    /// seats `viewer` cannot see (keeping how many cards each holds).
    fn redeal(&self, s: &State, viewer: Viewer, rng: &mut GameRng) -> State {
        let mut out = s.clone();
        if viewer == Viewer::Gm {
            return out;
        }
        rng.shuffle(&mut out.dev_deck);
        rng.shuffle(&mut out.admin_deck);
        rng.shuffle(&mut out.military_deck);
        rng.shuffle(&mut out.event_deck);
        let hidden: Vec<usize> =
            (0..s.players.len()).filter(|i| !viewer.may_see(Seat::from_index(*i))).collect();
        let mut admin: Vec<u8> = out.admin_deck.clone();
        let mut military: Vec<u8> = out.military_deck.clone();
        let mut ambitions: Vec<u8> = out.ambition_deck.clone();
        for i in &hidden {
            admin.extend(out.players[*i].admin.iter());
            military.extend(out.players[*i].military.iter());
            if !s.over() && !out.players[*i].revealed {
                ambitions.push(out.players[*i].ambition);
            }
        }
        rng.shuffle(&mut admin);
        rng.shuffle(&mut military);
        rng.shuffle(&mut ambitions);
        for i in &hidden {
            let pl = &mut out.players[*i];
            let n = pl.admin.len();
            pl.admin = admin.drain(..n).collect();
            pl.admin.sort_unstable();
            let n = pl.military.len();
            pl.military = military.drain(..n).collect();
            pl.military.sort_unstable();
            if !s.over() && !pl.revealed {
                pl.ambition = ambitions.pop().unwrap_or(pl.ambition);
            }
        }
        out.admin_deck = admin;
        out.military_deck = military;
        out.ambition_deck = ambitions;
        out
    }

    /// The echo says of every line which decision it answers; a warning follows after "; "
    /// (`orders::echo`, RULING E97).
    fn echo_accepts(&self, advice: &str) -> bool {
        advice.starts_with("answers ") && !advice.contains("; ")
    }
}

pub(super) fn game() -> &'static R1800 {
    shared().expect("the standard data loads")
}

/// Cards conserved, limits held.
pub(super) fn check(g: &R1800, s: &State) -> Result<(), String> {
    let d = g.data();
    let mut dev = vec![0usize; d.dev.len()];
    for c in s.dev_deck.iter().chain(&s.dev_discard).chain(&s.offer).chain(&s.later_techs) {
        dev[usize::from(*c)] += 1;
    }
    for pl in &s.players {
        for h in &pl.cards {
            if !d.dev[usize::from(h.card)].start {
                dev[usize::from(h.card)] += 1;
            }
        }
    }
    for (i, c) in d.dev.iter().enumerate() {
        if dev[i] != usize::from(c.count) {
            return Err(format!("{} copies of {} instead of {}", dev[i], c.name, c.count));
        }
    }
    let mut admin = vec![0usize; d.admin.len()];
    for c in s.admin_deck.iter().chain(&s.admin_discard).chain(s.players.iter().flat_map(|p| &p.admin)) {
        admin[usize::from(*c)] += 1;
    }
    if admin.iter().zip(&d.admin).any(|(n, c)| *n != usize::from(c.count)) {
        return Err(format!("admin cards not conserved: {admin:?}"));
    }
    let mut mil = vec![0usize; d.military.len()];
    for c in s
        .military_deck
        .iter()
        .chain(&s.military_discard)
        .chain(s.players.iter().flat_map(|p| p.military.iter().chain(p.tradition.iter())))
    {
        mil[usize::from(*c)] += 1;
    }
    if mil.iter().zip(&d.military).any(|(n, c)| *n != usize::from(c.count)) {
        return Err(format!("military cards not conserved: {mil:?}"));
    }
    for (i, p) in s.provinces.iter().enumerate() {
        let pops: u32 = p.pops.iter().map(|n| u32::from(*n)).sum();
        if !d.provinces[i].is_city() && pops > 2 {
            return Err(format!("{} pops in the countryside {}", pops, d.provinces[i].name));
        }
        if p.factories > d.provinces[i].improvement_places() || (!d.provinces[i].is_city() && p.factories > 0)
        {
            return Err(format!("{} factories in {}", p.factories, d.provinces[i].name));
        }
    }
    for (i, pl) in s.players.iter().enumerate() {
        if pl.prosperity > MAX_PROSPERITY {
            return Err(format!("seat {} has prosperity {}", i + 1, pl.prosperity));
        }
        for slot in 0..3 {
            if board::active(s, d, i, DevType::Policy, slot).is_none() {
                return Err(format!("seat {} has no policy in slot {slot}", i + 1));
            }
        }
        for h in &pl.cards {
            let c = &d.dev[usize::from(h.card)];
            if (0..3).any(|r| h.res[r] > c.slots[r]) {
                return Err(format!("seat {} has too much on {}", i + 1, c.name));
            }
        }
    }
    Ok(())
}

fn tamper(s: &State, p: &mut Pick) -> Vec<Action> {
    let k = p.next(40) as u8;
    vec![
        Action::Pick(k),
        Action::Place { card: k, res: (k % 4) },
        Action::Activate { card: k % 12, discard: vec![k % 14] },
        Action::Build(u16::from(k)),
        Action::EndTurn,
        Action::MoveRegiment { from: u16::from(k), to: u16::from(k) + 1 },
        Action::Admin { card: k % 14, option: 0, target: Target::default() },
        if s.pending.is_empty() { Action::Skip } else { Action::PassPick },
    ]
}

fn orders(_s: &State, _seat: Seat, p: &mut Pick) -> Vec<String> {
    let all = [
        "DRAFT Standing Army, Canning, Oligarchy, PASS",
        "DRAFT Industrial Agriculture, Steel Plough",
        "PLACE 3 P ON Standing Army",
        "PLACE C ON Autocracy",
        "ACTIVATE Autocracy",
        "IF HOLD Urbanization THEN ACTIVATE Landed Gentry DISCARD Urbanization",
        "IF C >= 1 THEN PLACE C ON #1 ELSE PLACE P ON Early Industrialization",
        "PLAY Seize Production FACTORY",
        "PLAY Establish Trade Route North America",
        "BUILD Paris, Berlin, Vienna, London",
        "GROW Paris, Champagne, Berlin",
        "RECRUIT Champagne, Hesse, Bohemia",
        "MOVE POP Paris TO Champagne",
        "DECLINE TRADE",
        "DECLINE CONVERT",
        "TRADE TECH Telegraph, Steel Plough",
        "DEFICIT SACRIFICE Paris, Berlin",
        "DEFICIT PAY",
        "UPKEEP DISCARD Urbanization, Conscription",
        "EVENT Unrest Overseas PAY",
        "EVENT Liberal Revolution ACCEPT",
        "REBELLION LOSE",
        "MIGRATE Paris TO Champagne",
    ];
    (0..1 + p.next(4)).map(|_| all[p.next(all.len())].to_string()).collect()
}

/// Plays one whole random game through the harness.
pub(super) fn play(seats: u8, seed: u64, stop_after: Option<usize>) -> Result<State, String> {
    let g = game();
    let choose = |s: &State, legal: &[Action], p: &mut Pick| g.sim_pick(s, legal, p);
    let invariants = |_: &State, a: &State, _: &Action| check(g, a);
    let play = Play {
        spec: SetupSpec { seats, options: serde_json::Value::Null },
        seed,
        choices: seed ^ 0x1800,
        max_actions: 200_000,
        choose: &choose,
        tamper: &tamper,
        invariants: &invariants,
        orders: Some(&orders),
        stop_after,
    };
    conformance::play(g, &play).map(|p| p.state)
}

#[test]
fn a_full_random_game_for_2_players_conforms_and_ends_with_a_winner() {
    let s = play(2, 1802, None).unwrap_or_else(|e| panic!("2 players: {e}"));
    let st = game().standings(&s).expect("standings");
    assert_eq!(st[0].place, 1);
}

#[test]
fn the_first_rounds_of_a_random_game_for_8_players_conform() {
    // The whole game by `sim` below.
    play(8, 1808, Some(1_500)).unwrap_or_else(|e| panic!("8 players: {e}"));
}

#[test]
fn whole_random_games_for_3_to_8_players_conform_through_the_harness_with_orders() {
    // Issue 35: every table size through the full harness (orders by sheet, determinism,
    // tampering, hidden information), not the simple player only.
    for seats in 3..=8u8 {
        let s = play(seats, 3500 + u64::from(seats), None).unwrap_or_else(|e| panic!("{seats} players: {e}"));
        assert!(s.over(), "{seats} players: the game ends");
    }
}

#[test]
fn random_games_for_every_table_size_end_with_a_winner() {
    for seats in 2..=8u8 {
        let (s, _) = game().sim_game(seats, 77 + u64::from(seats)).unwrap_or_else(|e| panic!("{seats}: {e}"));
        check(game(), &s).unwrap_or_else(|e| panic!("{seats}: {e}"));
        assert!(game().standings(&s).is_some_and(|st| st.len() == usize::from(seats) && st[0].place == 1));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_cards_and_hold_the_limits(seed in any::<u64>(), seats in 2u8..=8) {
        let s = play(seats, seed, Some(800)).map_err(TestCaseError::fail)?;
        prop_assert!(check(game(), &s).is_ok());
    }
}
