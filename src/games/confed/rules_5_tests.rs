//! The Load Phase's rule items (RT 5.1-5.4, 5.8), one test per item, each on a position
//! arranged by hand from a game set up by default answers.

use super::board;
use super::proptests::game;
use super::state::{Action, Chit, Contract, Stage, State};
use super::tests::{apply, moving, put, st, started};
use crate::engine::Seat;
use crate::engine::prelude::*;

/// Seat `seat`'s train `id` holds `chit` from `pickup` to `dropoff`.
fn load(s: &mut State, seat: Seat, id: u8, chit: u32, pickup: &str, dropoff: &str, picked: bool) {
    if let Some(t) = s.train_mut(seat, id) {
        t.load = Some(Contract { chit, pickup: st(pickup), dropoff: st(dropoff), picked });
    }
}

/// A 2-player game in which seat 1's train 1 stands at `at` with `mp` MP left, carrying load 1
/// (Cotton from Memphis) picked up for `dropoff`.
fn carrying(at: &str, dropoff: &str, mp: u32) -> State {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, at, None);
    load(&mut s, Seat(1), 1, 1, "Memphis", dropoff, true);
    moving(&mut s, 1, mp);
    s
}

/// Seat 1's train 1 at `at` begins its activation empty (RT 5.1.1-5.1.2), no Troops on the
/// display.
fn undertaking(at: &str) -> State {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, at, None);
    s.stage = Stage::Undertake { train: 1 };
    s.display.retain(|n| !super::chits::is_troops(game().data(), *n));
    s
}

/// Seat 1's train 1 at Griffin on its own #12, `mp` left, with load 1 for `dropoff` (picked
/// up or not); Jonesboro, the next station, holds seat 2's two trains (its limit: RT 5.4.1).
fn before_full_jonesboro(dropoff: &str, picked: bool, mp: u32) -> State {
    let mut s = started(2);
    s.players[0].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    load(&mut s, Seat(1), 1, 1, "Memphis", dropoff, picked);
    put(&mut s, Seat(2), 1, "Jonesboro", None);
    put(&mut s, Seat(2), 2, "Jonesboro", None);
    moving(&mut s, 1, mp);
    s
}

fn steps(s: &State) -> Vec<Action> {
    game().legal_actions(s).into_iter().filter(|a| matches!(a, Action::Step { .. })).collect()
}

/// A Troops chit (RT 5.2).
const TROOPS: u32 = 74;

#[test]
fn rule_5_4_1_lets_a_train_pass_through_a_full_station() {
    let g = game();
    let mut s = before_full_jonesboro("Charleston", false, 10);
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    assert_eq!(s.mp, 7, "1 MP + 2 for the traffic (RT 5.4.2)");
    let legal = g.legal_actions(&s);
    assert!(!legal.contains(&Action::EndMove), "it may not end its movement over the limit");
    assert!(legal.iter().all(|a| matches!(a, Action::Step { .. })), "{legal:?}");
    apply(g, &mut s, Action::Step { to: st("East Point"), fee: false });
    assert!(g.legal_actions(&s).contains(&Action::EndMove));
}

#[test]
fn rule_5_4_1_refuses_a_full_station_the_train_could_not_leave() {
    let mut s = before_full_jonesboro("Charleston", false, 3); // 3 MP to enter: none to move on
    assert!(!steps(&s).contains(&Action::Step { to: st("Jonesboro"), fee: false }));
    moving(&mut s, 1, 4);
    assert!(steps(&s).contains(&Action::Step { to: st("Jonesboro"), fee: false }));
}

#[test]
fn rule_5_4_1_forbids_a_drop_off_that_would_leave_the_train_in_a_full_station() {
    let g = game();
    let mut s = before_full_jonesboro("Jonesboro", true, 10);
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    let legal = g.legal_actions(&s);
    assert!(!legal.contains(&Action::DropOff) && !legal.contains(&Action::Abandon), "{legal:?}");
}

#[test]
fn rule_5_2_troops_may_take_any_step_of_a_cheapest_route_in_mp() {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Weldon", None);
    load(&mut s, Seat(1), 1, TROOPS, "Richmond", "Norfolk", false);
    s.congested.insert(st("Hicksford"));
    moving(&mut s, 1, 10);
    // Weldon -> Franklin (VA) -> ... -> Richmond costs 5 MP; through the congested Hicksford 6,
    // though Hicksford is a station nearer Richmond and Franklin (VA) is not.
    assert_eq!(steps(&s), vec![Action::Step { to: st("Franklin (VA)"), fee: false }]);
}

#[test]
fn rule_5_2_troops_may_not_end_their_move_while_an_expeditious_step_is_open() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Weldon", None);
    load(&mut s, Seat(1), 1, TROOPS, "Richmond", "Norfolk", false);
    moving(&mut s, 1, 10);
    let legal = g.legal_actions(&s);
    assert!(!legal.contains(&Action::EndMove), "{legal:?}");
    assert!(matches!(g.default_action(&s), Some(Action::Step { fee: false, .. })));
    moving(&mut s, 1, 0);
    assert!(g.legal_actions(&s).contains(&Action::EndMove), "out of MP it stops");
}

#[test]
fn rule_5_2_1_the_troops_pickup_is_a_depot_six_stations_from_the_union() {
    let g = game();
    let d = g.data();
    let mut s = undertaking("Atlanta");
    s.display.insert(0, TROOPS);
    apply(g, &mut s, Action::Draw);
    let Stage::TroopsPickup { options, .. } = s.stage.clone() else { panic!("{:?}", s.stage) };
    let dist = board::union_distance(d, &s);
    assert!(!options.is_empty());
    for o in options {
        assert!(board::is_depot(d, &s, o) && dist[o].is_some_and(|x| x >= 6), "{}", board::name(d, o));
    }
}

#[test]
fn rule_5_2_2_the_troops_dropoff_is_within_three_stations_of_the_union_and_not_the_pickup() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.stage = Stage::TroopsPickup { train: 1, chit: TROOPS, options: vec![st("Atlanta")] };
    s.occupied.insert(st("Knoxville"));
    apply(g, &mut s, Action::Designate(st("Atlanta")));
    let Stage::Dropoff { options, .. } = s.stage.clone() else { panic!("{:?}", s.stage) };
    let dist = board::union_distance(d, &s);
    assert!(options.contains(&st("Loudon")));
    for o in options {
        assert!(o != st("Atlanta") && !s.occupied.contains(&o) && dist[o].is_some_and(|x| x <= 3));
    }
}

#[test]
fn rule_5_2_troops_pay_a_100_line_fee_and_are_paid_1000() {
    let g = game();
    let mut s = started(2);
    s.players[1].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    load(&mut s, Seat(1), 1, TROOPS, "Atlanta", "Jonesboro", true);
    moving(&mut s, 1, 10);
    let (m1, m2) = (s.players[0].money, s.players[1].money);
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: true });
    assert_eq!((s.players[0].money, s.players[1].money), (m1 - 100, m2 + 100));
    apply(g, &mut s, Action::DropOff);
    assert_eq!(s.players[0].money, m1 - 100 + 1000);
}

#[test]
fn rule_5_1_1_a_troops_chit_on_the_display_must_be_undertaken_and_is_replaced() {
    let g = game();
    let mut s = undertaking("Atlanta");
    s.display[0] = TROOPS;
    let k = g.data().tables.events.iter().position(|e| e.case == "7.5").expect("7.5");
    s.pile.push(Chit::Load(3));
    s.pile.push(Chit::Event(k));
    assert_eq!(g.legal_actions(&s), vec![Action::Draw], "nothing else may be undertaken");
    let events = s.pile.iter().filter(|c| matches!(c, Chit::Event(_))).count();
    apply(g, &mut s, Action::Draw);
    assert!(matches!(s.stage, Stage::TroopsPickup { chit: TROOPS, .. }));
    assert!(!s.display.contains(&TROOPS) && s.display.contains(&3), "refilled with the next load");
    assert_eq!(s.pile.iter().filter(|c| matches!(c, Chit::Event(_))).count(), events, "the event went back");
}

#[test]
fn rule_5_1_2_a_drawn_troops_chit_must_be_undertaken() {
    let g = game();
    let mut s = undertaking("Atlanta");
    s.pile.push(Chit::Load(TROOPS));
    apply(g, &mut s, Action::Draw);
    assert!(matches!(s.stage, Stage::TroopsPickup { chit: TROOPS, .. }), "{:?}", s.stage);
}

#[test]
fn rule_5_1_2_a_drawn_load_may_be_exchanged_for_a_displayed_one() {
    let g = game();
    let mut s = undertaking("Macon (GA)");
    s.display[0] = 6; // Cotton, Macon -> Augusta
    s.pile.push(Chit::Load(3));
    apply(g, &mut s, Action::Draw);
    assert_eq!(s.stage, Stage::ChooseLoad { train: 1, drawn: 3 });
    apply(g, &mut s, Action::TakeDisplay(6));
    assert_eq!(s.display[0], 3, "the drawn chit takes the displayed one's place");
    assert_eq!(s.players[0].trains[0].load.as_ref().map(|c| c.chit), Some(6));
}

#[test]
fn rule_5_1_3_a_load_with_two_dropoffs_is_designated_by_the_player() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Montgomery", None);
    s.stage = Stage::ChooseLoad { train: 1, drawn: 4 }; // Montgomery -> Wilmington or Charleston
    apply(g, &mut s, Action::TakeDrawn);
    let Stage::Dropoff { options, .. } = s.stage.clone() else { panic!("{:?}", s.stage) };
    assert_eq!(options, vec![st("Wilmington"), st("Charleston")]);
    apply(g, &mut s, Action::Designate(st("Charleston")));
    assert_eq!(s.players[0].trains[0].load.as_ref().map(|c| c.dropoff), Some(st("Charleston")));
}

#[test]
fn rule_5_1_3_a_dropoff_near_the_union_is_off_the_pickups_lines_when_it_can_be() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    s.occupied.insert(st("Petersburg"));
    let options = g.dropoff_options(&s, 48, st("Richmond")); // Ammunition, Richmond -> "*"
    let richmond = &d.map.stations[st("Richmond")].lines;
    assert!(!options.is_empty());
    assert!(options.iter().all(|o| d.map.stations[*o].lines.is_disjoint(richmond)));
}

#[test]
fn rule_5_1_4_a_load_whose_pickup_the_union_holds_is_discarded_and_the_move_is_over() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.stage = Stage::ChooseLoad { train: 1, drawn: 1 }; // Cotton, Memphis -> Charleston
    s.occupied.insert(st("Memphis"));
    apply(g, &mut s, Action::TakeDrawn);
    assert!(s.discarded.contains(&Chit::Load(1)));
    assert!(s.players[0].trains[0].load.is_none());
    assert!(!matches!(s.stage, Stage::Move { train: 1 }), "{:?}", s.stage);
}

#[test]
fn rule_5_1_4_a_war_materiel_load_rolls_on_the_war_progress_table_before_moving() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Augusta", None);
    s.stage = Stage::ChooseLoad { train: 1, drawn: 45 }; // Gunpowder, Augusta -> Richmond
    let ev =
        g.apply(&mut s, &Action::TakeDrawn, &mut super::war_table_tests::rigged(&[2, 3])).expect("legal");
    assert!(ev.iter().any(|e| e.public.contains("War Progress roll 2+3=5")), "{ev:?}");
}

#[test]
fn rule_5_1_6_a_train_empty_after_a_delivery_moves_on_only_with_a_new_load() {
    let g = game();
    let mut s = carrying("Charleston", "Charleston", 6);
    apply(g, &mut s, Action::DropOff);
    let legal = g.legal_actions(&s);
    assert!(steps(&s).is_empty(), "no step empty: {legal:?}");
    assert!(legal.contains(&Action::Draw) && legal.contains(&Action::EndMove));
}

#[test]
fn rule_5_1_7_a_train_empty_after_abandoning_its_load_takes_no_step() {
    let g = game();
    let mut s = carrying("Atlanta", "Charleston", 6);
    apply(g, &mut s, Action::Abandon);
    assert!(steps(&s).is_empty());
}

#[test]
fn rule_5_1_8_an_undeliverable_load_may_be_left_at_a_depot_with_no_payout_and_no_tariff() {
    let g = game();
    let mut s = carrying("Atlanta", "Charleston", 6);
    s.occupied.insert(st("Charleston"));
    let m = s.players[0].money;
    apply(g, &mut s, Action::DepotDrop);
    assert_eq!(s.players[0].money, m);
    assert!(s.discarded.contains(&Chit::Load(1)) && s.abandoned.is_empty());
}

#[test]
fn rule_5_1_8_an_undeliverable_load_abandoned_leaves_play_with_the_tariff() {
    let g = game();
    let mut s = carrying("Griffin", "Charleston", 6);
    s.occupied.insert(st("Charleston"));
    assert!(!g.legal_actions(&s).contains(&Action::DepotDrop), "Griffin is no Depot");
    let m = s.players[0].money;
    apply(g, &mut s, Action::Abandon);
    assert_eq!(s.players[0].money, m - 300);
    assert!(s.discarded.contains(&Chit::Load(1)) && s.abandoned.is_empty(), "not left on the map");
}
