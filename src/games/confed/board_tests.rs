//! The network searches and the live movement board against their plain counterparts: a search
//! stopped early knows every nearer station exactly, a reachability test agrees with the full
//! reachable set, the live board costs every step as the copied board does, and the random
//! player's memory does not change the games it plays.

use super::board::{self, Hops};
use super::movement::{self, Mover};
use super::proptests::game;
use super::tests::{put, started};
use crate::engine::{Apply, GameRng, Pick, Rules, Seat};
use proptest::prelude::*;

/// A position with the Union in `occupied`, `cut` segments disrupted and some trains about.
fn position(occupied: &[usize], cut: &[usize]) -> super::state::State {
    let d = game().data();
    let mut s = started(4);
    s.occupied = occupied.iter().map(|o| o % d.map.stations.len()).collect();
    s.bridges_out = cut.iter().map(|g| g % d.map.segments.len()).collect();
    for (k, name) in ["Atlanta", "Richmond", "Macon (GA)", "Weldon"].into_iter().enumerate() {
        put(&mut s, Seat(1 + (k % 2) as u8), k as u8 + 1, name, None);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_search_stopped_at_a_station_knows_every_nearer_station_exactly(
        from in 0usize..236, until in 0usize..236,
        occupied in proptest::collection::vec(0usize..236, 0..12),
        cut in proptest::collection::vec(0usize..400, 0..6),
    ) {
        let d = game().data();
        let s = position(&occupied, &cut);
        let full = board::usable_hops(d, &s, from, None);
        let part = board::usable_hops(d, &s, from, Some(until));
        prop_assert_eq!(part[until], full[until]);
        for x in 0..full.len() {
            prop_assert!(part[x] == full[x] || (part[x] == u32::MAX && full[x] >= full[until]), "station {}", x);
        }
        // The resumable search, asked for one station after another, ends where the full one does.
        let mut hops = Hops::new(d, &s, from);
        for x in [until, (until + 17) % full.len(), (until + 91) % full.len()] {
            prop_assert_eq!(hops.reach(d, x), full[x]);
        }
    }

    #[test]
    fn a_reachability_test_agrees_with_the_reachable_set(
        from in 0usize..236, to in 0usize..236, usable_only: bool,
        occupied in proptest::collection::vec(0usize..236, 0..12),
        cut in proptest::collection::vec(0usize..400, 0..6),
    ) {
        let d = game().data();
        let s = position(&occupied, &cut);
        prop_assert_eq!(
            board::reaches(d, &s, from, to, usable_only),
            board::reachable(d, &s, from, usable_only).contains(&to)
        );
    }

    #[test]
    fn the_live_board_costs_every_step_as_the_copied_board(
        occupied in proptest::collection::vec(0usize..236, 0..8),
        cut in proptest::collection::vec(0usize..400, 0..6),
        congested in proptest::collection::vec(0usize..236, 0..8),
        bad in proptest::collection::vec(1u8..=24, 0..4),
        light: bool,
    ) {
        let d = game().data();
        let mut s = position(&occupied, &cut);
        s.congested = congested.into_iter().collect();
        s.bad_rails = bad.into_iter().collect();
        let me = Some((Seat(1), 1));
        let (copied, live) = (board::board(&s, me), board::live(&s, me));
        let mover = Mover { owned: [3u8, 12].into_iter().collect(), light, ..Mover::default() };
        for (g, seg) in d.map.segments.iter().enumerate() {
            for &line in &seg.owners {
                for to in [seg.a, seg.b] {
                    for prev in [None, Some(line), Some(line % 24 + 1)] {
                        prop_assert_eq!(
                            movement::step_cost(&d.map, &copied, &mover, g, to, line, prev),
                            movement::step_cost(&d.map, &live, &mover, g, to, line, prev)
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_random_player_plays_the_same_game_with_its_memory_as_without() {
    let g = game();
    for (seats, seed) in [(2u8, 3u64), (4, 11)] {
        let (remembered, n) = g.sim_game(seats, seed).expect("a game that ends");
        // The same game, choosing from the full legal list with no memory between steps.
        let spec = crate::engine::SetupSpec { seats, options: serde_json::Value::Null };
        let mut s = crate::engine::Setup::setup(g, &spec, &mut GameRng::for_setup(seed)).expect("setup");
        let mut pick = Pick(seed);
        let mut k = 0u64;
        while s.ended.is_none() {
            let legal = g.legal_actions(&s);
            let a = g.sim_pick(&s, &legal, &mut pick);
            g.apply(&mut s, &a, &mut GameRng::for_action(seed, k)).expect("a legal choice");
            k += 1;
        }
        assert_eq!(k as usize, n, "{seats} seats, seed {seed}");
        assert_eq!(s, remembered, "{seats} seats, seed {seed}");
    }
}
