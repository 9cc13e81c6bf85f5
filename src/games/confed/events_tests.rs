//! The effect of each event chit (RT 7.1-7.5, 7.8-7.15; 7.6 and 7.7 have their own tests in
//! `iron_tests` and `specials_tests`), one test per event, named after its case. The event is
//! enacted directly (its War Progress and Congestion rolls are tested in `war_table_tests`);
//! the dice are chosen by picking a dice stream that rolls them.

use super::board;
use super::chits::{self, payout};
use super::proptests::game;
use super::state::{Action, Chit, ChoiceKind, Contract, Place, State, Task};
use super::tests::{apply, light, moving, put, st, started};
use super::war_table_tests::rigged;
use crate::engine::prelude::*;
use crate::engine::{Event, Seat};

/// The index of the event kind of a case.
fn kind(case: &str) -> usize {
    game().data().tables.events.iter().position(|e| e.case == case).expect("an event of that case")
}

/// Enacts the event of `case` for the active seat with these dice and this choice.
fn enact(s: &mut State, case: &str, choice: Option<usize>, dice: &[u8]) -> Vec<Event> {
    let mut ev = Vec::new();
    game().enact(s, kind(case), choice, &mut rigged(dice), &mut ev);
    ev
}

/// The choice task the event asked for: its kind and options.
fn asked(s: &State) -> Option<(ChoiceKind, Vec<usize>)> {
    s.tasks.iter().find_map(|t| match t {
        Task::Choose { kind, options, .. } => Some((kind.clone(), options.clone())),
        _ => None,
    })
}

fn segment(a: &str, b: &str) -> usize {
    game().data().map.segments_between(st(a), st(b))[0]
}

fn carrying(s: &mut State, seat: Seat, id: u8, chit: u32, picked: bool) {
    let at = s.train(seat, id).and_then(|t| t.station()).expect("on the map");
    if let Some(t) = s.train_mut(seat, id) {
        t.load = Some(Contract { chit, pickup: at, dropoff: st("Charleston"), picked });
    }
}

#[test]
fn rule_7_1_bad_rails_go_on_the_line_four_dice_total_rolling_again_for_a_line_that_has_them() {
    let g = game();
    let mut s = started(2);
    enact(&mut s, "7.1", None, &[4, 2, 5, 1]);
    assert_eq!(s.bad_rails.iter().copied().collect::<Vec<_>>(), vec![12], "the text's example: 4+2+5+1");
    enact(&mut s, "7.1", None, &[4, 2, 5, 1]);
    assert_eq!(s.bad_rails.len(), 2, "12 has them already: rolled again, another line got them");
    // "All travel along that line now costs an additional +1 MP for each station."
    s.players[0].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    light(&mut s, Seat(1), 1);
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    assert_eq!(s.mp, 8);
}

#[test]
fn rule_7_2_a_collapsed_bridge_stops_all_movement_on_its_segment() {
    let g = game();
    let mut s = started(2);
    enact(&mut s, "7.2", None, &[]);
    let (k, options) = asked(&s).expect("the player chooses the bridge");
    let bridge = segment("Richmond", "Petersburg");
    assert_eq!(k, ChoiceKind::BridgeCollapse);
    assert!(options.contains(&bridge) && !options.contains(&segment("Griffin", "Jonesboro")), "bridges only");
    apply(g, &mut s, Action::Choose(bridge));
    assert!(s.bridges_out.contains(&bridge));
    put(&mut s, Seat(1), 1, "Richmond", None);
    light(&mut s, Seat(1), 1);
    moving(&mut s, 1, 10);
    let into = |fee| Action::Step { to: st("Petersburg"), fee };
    assert!(!g.legal_actions(&s).iter().any(|a| *a == into(false) || *a == into(true)));
}

#[test]
fn rule_7_3_depot_construction_makes_the_chosen_station_a_depot() {
    let d = game().data();
    let mut s = started(2);
    let griffin = st("Griffin");
    assert!(!board::is_depot(d, &s, griffin));
    enact(&mut s, "7.3", Some(griffin), &[]);
    assert!(board::is_depot(d, &s, griffin), "treated like any other Depot");
    assert_eq!(board::stack_limit(d, &s, griffin), 3, "RT 5.4.1: three trains at a Depot");
}

#[test]
fn rule_7_4_after_collisions_a_train_passing_through_an_occupied_station_collides_on_matching_dice() {
    let g = game();
    let through = |dice: &[u8]| {
        let mut s = started(2);
        enact(&mut s, "7.4", None, &[]);
        assert_eq!(s.collisions, 1);
        put(&mut s, Seat(1), 1, "Griffin", None);
        put(&mut s, Seat(2), 1, "Jonesboro", None);
        carrying(&mut s, Seat(2), 1, 4, true);
        light(&mut s, Seat(1), 1);
        moving(&mut s, 1, 10);
        apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false }); // into: no roll
        assert_eq!(s.collisions, 1, "entering is not passing through");
        g.apply(&mut s, &Action::Step { to: st("East Point"), fee: false }, &mut rigged(dice))
            .expect("legal");
        s
    };
    let money = started(2).players.iter().map(|p| p.money).collect::<Vec<_>>();
    let s = through(&[4, 4]);
    assert_eq!(s.players[0].trains[0].at, Place::RepairBox, "doubles: both trains disabled");
    assert_eq!(s.players[1].trains[0].at, Place::RepairBox);
    assert!(s.discarded.contains(&Chit::Load(1)), "the moving train's load is discarded");
    assert!(s.discarded.contains(&Chit::Load(4)), "and the other train's");
    assert!(s.abandoned.is_empty(), "discarded, not abandoned");
    let paid: Vec<u32> = s.players.iter().zip(&money).map(|(p, m)| m - p.money).collect();
    assert_eq!(paid, vec![300, 300], "each owner pays the Penalty Tariff");
    let s = through(&[4, 5]);
    assert_eq!(s.players[0].trains[0].station(), Some(st("East Point")), "no doubles: it passes");
    assert!(!s.discarded.contains(&Chit::Load(4)), "the other train keeps its load");
    assert_eq!(s.collisions, 0, "the chit applies to the next train passing through only");
}

#[test]
fn rule_7_5_the_cotton_embargo_halves_cotton_payouts() {
    let d = game().data();
    let mut s = started(2);
    let cotton = 1;
    let other = d.loads.iter().find(|l| l.goods != "Cotton").expect("a load of other goods").number;
    let (c, o) = (payout(d, &s, cotton), payout(d, &s, other));
    enact(&mut s, "7.5", None, &[]);
    assert!(s.embargo);
    assert_eq!(payout(d, &s, cotton), c / 2 / 100 * 100, "halved, in $100s (RULING F19)");
    assert_eq!(payout(d, &s, other), o);
}

#[test]
fn rule_7_8_a_blockade_increase_adds_one_to_every_blockade_runner_roll() {
    let g = game();
    let pick_up_rolling = |blockade: bool, die: u8| {
        let mut s = started(2);
        if blockade {
            enact(&mut s, "7.8", None, &[]);
            assert_eq!(s.blockade, 1);
        }
        put(&mut s, Seat(1), 1, "Wilmington", None);
        s.players[0].trains[0].load =
            Some(Contract { chit: 67, pickup: st("Wilmington"), dropoff: st("Richmond"), picked: false });
        moving(&mut s, 1, 5);
        g.apply(&mut s, &Action::PickUp, &mut rigged(&[die])).expect("legal");
        s.players[0].trains[0].load.as_ref().is_some_and(|c| c.picked)
    };
    assert!(chits::is_blockade(game().data(), 67));
    assert!(pick_up_rolling(false, 5), "5 runs the blockade");
    assert!(!pick_up_rolling(true, 5), "5 + 1 is seized by Union warships");
}

#[test]
fn rule_7_9_partisan_sabotage_blows_a_bridge_or_rips_up_a_segment_inside_the_sabotage_area() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    enact(&mut s, "7.9", None, &[]);
    let (k, options) = asked(&s).expect("the player chooses");
    assert_eq!(k, ChoiceKind::Sabotage);
    let inside = |seg: usize| {
        let x = &d.map.segments[seg];
        [x.a, x.b].iter().any(|st| d.map.stations[*st].sabotage)
    };
    assert!(options.iter().all(|o| inside(o / 2)), "only inside the outlined area");
    let (bridge, rip) = (segment("Ringgold", "Chattanooga"), segment("Knoxville", "Loudon"));
    assert!(options.contains(&(bridge * 2)) && options.contains(&(rip * 2 + 1)));
    assert!(!options.contains(&(segment("Richmond", "Petersburg") * 2)), "a bridge outside the area");
    apply(g, &mut s, Action::Choose(rip * 2 + 1));
    assert_eq!(s.ripped.get(&rip), Some(&1));
    enact(&mut s, "7.9", None, &[]);
    apply(g, &mut s, Action::Choose(bridge * 2));
    assert!(s.bridges_out.contains(&bridge));
}

#[test]
fn rule_7_10_rrc_6_construction_makes_danville_to_greensboro_usable() {
    let d = game().data();
    let mut s = started(2);
    let seg = segment("Danville", "Greensboro");
    assert!(!board::usable(d, &s, seg), "unbuilt at the start");
    enact(&mut s, "7.10", None, &[]);
    assert!(board::usable(d, &s, seg));
}

#[test]
fn rule_7_11_rrc_24_construction_makes_meridian_to_mcdowells_bluff_usable() {
    let d = game().data();
    let mut s = started(2);
    let seg = segment("Meridian", "McDowell's Bluff");
    assert!(!board::usable(d, &s, seg), "unbuilt at the start");
    enact(&mut s, "7.11", None, &[]);
    assert!(board::usable(d, &s, seg));
}

#[test]
fn rule_7_12_a_railroad_convention_ends_the_embargo_and_adds_100_to_every_payout_but_passengers() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    let passengers = d.loads.iter().find(|l| l.goods == "Passengers").expect("passengers").number;
    let (cotton, p) = (payout(d, &s, 1), payout(d, &s, passengers));
    s.embargo = true;
    enact(&mut s, "7.12", None, &[]);
    assert!(!s.embargo, "the Cotton Embargo is cancelled");
    assert_eq!((payout(d, &s, 1), payout(d, &s, passengers)), (cotton + 100, p));
    enact(&mut s, "7.12", None, &[]);
    assert_eq!(payout(d, &s, 1), cotton + 200, "cumulative");
    // After the Through-Freight Law a Convention drawn is a Trains Seizure (RT 6.8, 7.12).
    s.through_freight = true;
    s.players[0].rrcs.insert(12);
    put(&mut s, Seat(2), 1, "Jonesboro", None);
    let mut ev = Vec::new();
    g.draw_event(&mut s, kind("7.12"), &mut rigged(&[]), &mut ev);
    assert_eq!(asked(&s).map(|(k, _)| k), Some(ChoiceKind::Seizure), "{ev:?}");
}

#[test]
fn rule_7_13_a_train_breaks_down_to_the_repair_box_abandoning_a_load_only_if_all_carry_one() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Griffin", None);
    put(&mut s, Seat(1), 2, "Atlanta", None);
    carrying(&mut s, Seat(1), 2, 1, true);
    enact(&mut s, "7.13", None, &[]);
    assert_eq!(asked(&s), Some((ChoiceKind::BreakDown, vec![1])), "the empty train breaks down");
    let mut empty = s.clone();
    let m = empty.players[0].money;
    apply(g, &mut empty, Action::Choose(1));
    assert_eq!(empty.train(Seat(1), 1).map(|t| t.at), Some(Place::RepairBox));
    assert_eq!(empty.players[0].money, m, "no load given up, no tariff");
    assert!(empty.abandoned.is_empty() && empty.train(Seat(1), 2).is_some_and(|t| t.load.is_some()));
    carrying(&mut s, Seat(1), 1, 4, true);
    s.tasks.clear();
    enact(&mut s, "7.13", None, &[]);
    assert_eq!(asked(&s), Some((ChoiceKind::BreakDown, vec![1, 2])), "all carry freight: any");
    let m = s.players[0].money;
    apply(g, &mut s, Action::Choose(2));
    assert_eq!(s.train(Seat(1), 2).map(|t| t.at), Some(Place::RepairBox));
    assert_eq!(s.players[0].money, m - 300, "the Penalty Tariff");
    assert!(s.abandoned.iter().any(|a| a.chit == 1 && a.at == st("Atlanta")), "{:?}", s.abandoned);
}

#[test]
fn rule_7_14_trains_seizure_replaces_anothers_train_on_your_line_with_your_e_train() {
    let g = game();
    let mut s = started(2);
    s.players[0].rrcs.insert(12);
    s.players[1].rrcs.insert(11);
    put(&mut s, Seat(2), 1, "Jonesboro", None); // on seat 1's line
    put(&mut s, Seat(2), 2, "Griffin", None);
    put(&mut s, Seat(2), 3, "Atlanta", None); // shared by 11 and 12: a safe haven for its owner
    carrying(&mut s, Seat(2), 1, 1, true);
    let war = (1..=89).find(|n| chits::is_war(g.data(), *n) && !chits::is_troops(g.data(), *n)).expect("war");
    carrying(&mut s, Seat(2), 2, war, true);
    let mut ev = Vec::new();
    g.draw_event(&mut s, kind("7.14"), &mut rigged(&[]), &mut ev);
    let code = |id: usize| 16 + id;
    assert_eq!(asked(&s), Some((ChoiceKind::Seizure, vec![code(1)])), "not war-matériel, not a haven");
    s.tasks.clear();
    enact(&mut s, "7.14", Some(code(1)), &[]);
    assert!(s.train(Seat(2), 1).is_none());
    let e = s.train(Seat(1), super::state::E_TRAIN).expect("seat 1's E train");
    assert_eq!(e.station(), Some(st("Jonesboro")));
    assert!(s.discarded.contains(&Chit::Load(1)), "the load is out of the game");
    assert!(s.abandoned.is_empty() && !s.players[0].e_available);
}

#[test]
fn rule_7_15_a_cavalry_raid_rips_up_or_disables_a_train_within_four_mp_of_the_union() {
    let g = game();
    let mut s = started(2);
    s.occupied.insert(st("Griffin"));
    put(&mut s, Seat(2), 1, "Jonesboro", None);
    put(&mut s, Seat(2), 2, "Charleston", None);
    carrying(&mut s, Seat(2), 1, 1, true);
    enact(&mut s, "7.15", None, &[]);
    let (k, options) = asked(&s).expect("the player chooses");
    assert_eq!(k, ChoiceKind::Raid);
    let train = |id: usize| (16 + id) * 2 + 1;
    assert!(options.contains(&train(1)) && !options.contains(&train(2)), "Charleston is far away");
    let near = segment("Jonesboro", "East Point");
    assert!(options.contains(&(near * 2)), "a segment near Griffin");
    let mut rip = s.clone();
    apply(g, &mut rip, Action::Choose(near * 2));
    assert_eq!(rip.ripped.get(&near), Some(&1), "the segment is ripped up");
    assert!(rip.train(Seat(2), 1).is_some_and(|t| t.at != Place::RepairBox), "and no train disabled");
    let m = s.players[1].money;
    apply(g, &mut s, Action::Choose(train(1)));
    assert_eq!(s.train(Seat(2), 1).map(|t| t.at), Some(Place::RepairBox));
    assert_eq!(s.players[1].money, m - 300, "its owner pays the Penalty Tariff");
    assert!(s.abandoned.iter().any(|a| a.chit == 1 && a.at == st("Jonesboro")));
}
