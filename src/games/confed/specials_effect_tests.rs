//! The effect of each Special Event counter (RT 6.1-6.8), one test per counter, named after its
//! case (when and by whom they may be played is tested in `specials_tests`). The dice are chosen
//! by picking a dice stream that rolls them.

use super::proptests::game;
use super::state::{Action, Contract, E_TRAIN, State, Task};
use super::tests::{apply, moving, put, st, started};
use super::war_table_tests::rigged;
use crate::engine::Seat;
use crate::engine::prelude::*;

/// Applies `a` with a dice stream that rolls `dice`.
fn roll(s: &mut State, a: Action, dice: &[u8]) {
    game().apply(s, &a, &mut rigged(dice)).unwrap_or_else(|e| panic!("{a:?}: {e}"));
}

/// Whether seat 1's `general` saves Atlanta from the Union on this die.
fn cancels(general: u8, die: u8) -> bool {
    let mut s = started(2);
    s.players[0].specials = vec![general];
    let atlanta = st("Atlanta");
    s.tasks = vec![Task::Cancel { seat: Seat(1), station: atlanta }, Task::Occupy { station: atlanta }];
    roll(&mut s, Action::Cancel(general), &[die]);
    assert!(s.players[0].specials.is_empty(), "the counter is spent either way");
    !s.occupied.contains(&atlanta)
}

#[test]
fn rule_6_1_general_lee_cancels_a_war_progress_result_on_1_to_3() {
    assert!(cancels(1, 1) && cancels(1, 3));
    assert!(!cancels(1, 4), "4 fails: the Union takes the station");
}

#[test]
fn rule_6_3_general_jackson_cancels_a_war_progress_result_on_1_to_2() {
    assert!(cancels(3, 2));
    assert!(!cancels(3, 3));
}

#[test]
fn rule_6_5_general_mcclellan_cancels_a_war_progress_result_on_1_to_4() {
    assert!(cancels(5, 4));
    assert!(!cancels(5, 5));
}

#[test]
fn rule_6_2_an_offensive_retakes_a_union_station_on_6_or_on_5_with_a_general() {
    let nashville = st("Nashville");
    let attack = |general: Option<u8>, die: u8| {
        let mut s = started(2);
        s.occupied.insert(nashville);
        s.players[0].specials = vec![2, 1];
        let a = Action::Offensive { station: nashville, general };
        match general {
            Some(_) => roll(&mut s, a, &[die]),
            None => {
                apply(game(), &mut s, a);
                roll(&mut s, Action::Pass, &[die]); // seat 2 adds no General (RT 6.2)
            }
        }
        let spent = !s.players[0].specials.contains(&2);
        let lee_kept = s.players[0].specials.contains(&1);
        assert!(
            spent && lee_kept == general.is_none(),
            "the counters played are spent: {:?}",
            s.players[0].specials
        );
        !s.occupied.contains(&nashville)
    };
    assert!(attack(None, 6));
    assert!(!attack(None, 5), "5 alone fails");
    assert!(attack(Some(1), 5), "5 + 1 with General Lee");
}

#[test]
fn rule_6_4_foreign_intervention_after_a_victory_depot_is_retaken_discards_every_blockade_increase() {
    let richmond = st("Richmond");
    let mut s = started(2);
    s.occupied.insert(richmond);
    s.blockade = 2;
    s.players[0].specials = vec![2, 1];
    s.players[1].specials = vec![4];
    roll(&mut s, Action::Offensive { station: richmond, general: Some(1) }, &[6]);
    assert!(!s.occupied.contains(&richmond) && s.vd_retaken, "a Victory Depot retaken");
    let asked: Vec<Option<Seat>> = s.tasks.iter().map(Task::seat).collect();
    assert_eq!(asked, vec![Some(Seat(1)), Some(Seat(2))], "every seat may play it now");
    apply(game(), &mut s, Action::Pass);
    apply(game(), &mut s, Action::Intervene);
    assert_eq!(s.blockade, 0);
    assert!(s.players[1].specials.is_empty());
}

#[test]
fn rule_6_6_the_treasure_hunt_cancels_bad_rails_and_the_others_rip_up_three_segments_from_the_left() {
    let mut s = started(3);
    s.bad_rails.insert(12);
    s.players[0].specials = vec![6];
    apply(game(), &mut s, Action::TreasureHunt(12));
    assert!(s.bad_rails.is_empty(), "the Bad Rails chit is discarded");
    let choosers: Vec<Option<Seat>> = s.tasks.iter().map(Task::seat).collect();
    assert_eq!(
        choosers,
        vec![Some(Seat(2)), Some(Seat(3)), Some(Seat(2))],
        "the others, one segment at a time, starting to the left of the player"
    );
    let Some(Task::Choose { options, .. }) = s.tasks.first().cloned() else { panic!("a choice") };
    apply(game(), &mut s, Action::Choose(options[0]));
    assert_eq!(s.ripped.get(&options[0]), Some(&1), "no cost; the segment is ripped up");
}

#[test]
fn rule_6_7_the_great_train_raid_places_the_e_train_in_staunton() {
    let mut s = started(2);
    s.players[0].specials = vec![7];
    apply(game(), &mut s, Action::GreatTrainRaid);
    let e = s.train(Seat(1), E_TRAIN).expect("the E train is in play");
    assert_eq!(e.station(), Some(st("Staunton")));
    assert!(!s.players[0].e_available, "one more train than the limit, once");
    assert!(s.players[0].specials.is_empty(), "the counter is spent");
}

#[test]
fn rule_6_8_the_through_freight_law_passes_on_7_with_donations_and_ends_line_usage_fees() {
    let g = game();
    let mut s = started(2);
    s.players[0].specials = vec![8];
    s.players[0].money = 5000;
    apply(g, &mut s, Action::ThroughFreight);
    assert!(s.players[0].specials.is_empty(), "the counter is spent");
    apply(g, &mut s, Action::Donate(1));
    assert_eq!(s.players[0].money, 2000, "$3000 to the bank for +1");
    roll(&mut s, Action::Donate(0), &[6]);
    assert!(s.through_freight, "6 + 1 = 7 passes the law");
    // On another player's line a loaded train moves at 1 MP a station and pays no fee.
    s.players[1].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: true });
    moving(&mut s, 1, 10);
    assert!(!g.legal_actions(&s).contains(&Action::Step { to: st("Jonesboro"), fee: true }));
    let m = s.players[0].money;
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    assert_eq!((s.mp, s.players[0].money), (9, m));
    let mut t = started(2);
    t.players[0].specials = vec![8];
    apply(g, &mut t, Action::ThroughFreight);
    apply(g, &mut t, Action::Donate(0));
    roll(&mut t, Action::Donate(0), &[6]);
    assert!(!t.through_freight, "6 alone fails");
}
