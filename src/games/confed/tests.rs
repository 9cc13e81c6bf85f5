//! Rules cases of Confederate Rails, one test per case, named after it; positions are made from
//! a game set up by default answers, then arranged by hand.

use super::Confed;
use super::board;
use super::proptests::game;
use super::state::{Action, Chit, Contract, Place, Stage, State};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Numbered, OrderSheet, Seat, SetupSpec, Viewer};

pub(super) fn st(name: &str) -> usize {
    game().data().map.station(name).unwrap_or_else(|| panic!("station {name}"))
}

/// A game of `seats` through its set-up (default answers), at seat 1's activation phase, with
/// every train taken off the map and the pile's top chit a plain load.
pub(super) fn started(seats: u8) -> State {
    let g = game();
    let spec = SetupSpec { seats, options: serde_json::Value::Null };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(5)).expect("setup");
    let mut n = 0;
    while !matches!(s.stage, Stage::Activate) {
        let a = g.default_action(&s).expect("a default");
        g.apply(&mut s, &a, &mut GameRng::for_action(5, n)).expect("default is legal");
        n += 1;
    }
    s.order = s.seats_from(Seat(1));
    s.turn = 0;
    s.tasks.clear(); // the other seats' window before the activation phase (RT 6.0)
    for p in s.players.iter_mut() {
        p.trains.clear();
        p.rrcs.clear();
        p.specials.clear();
    }
    s
}

pub(super) fn put(s: &mut State, seat: Seat, id: u8, at: &str, line: Option<u8>) {
    if let Some(p) = s.player_mut(seat) {
        p.trains.push(super::apply::new_train(id, st(at)));
        if let Some(t) = p.trains.last_mut() {
            t.line = line;
        }
    }
}

/// Seat `seat`'s train `id` travels light to the pickup of a contract far away (Memphis to
/// Charleston): an empty train takes no step (RT 5.1, RULING F32).
pub(super) fn light(s: &mut State, seat: Seat, id: u8) {
    if let Some(t) = s.train_mut(seat, id) {
        t.load = Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: false });
    }
}

pub(super) fn moving(s: &mut State, id: u8, mp: u32) {
    s.stage = Stage::Move { train: id };
    s.mp = mp;
}

pub(super) fn apply(g: &Confed, s: &mut State, a: Action) {
    g.apply(s, &a, &mut GameRng::for_action(9, 9)).unwrap_or_else(|e| panic!("{a:?}: {e}"));
}

#[test]
fn case_5_4_2_a_train_entering_a_station_with_two_trains_pays_three_mp() {
    let g = game();
    let mut s = started(2);
    s.players[0].rrcs.extend([11, 12]);
    put(&mut s, Seat(1), 1, "East Point", Some(12));
    put(&mut s, Seat(2), 1, "Atlanta", None);
    put(&mut s, Seat(2), 2, "Atlanta", None);
    light(&mut s, Seat(1), 1);
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Step { to: st("Atlanta"), fee: false });
    assert_eq!(s.mp, 7);
}

#[test]
fn case_5_3_1_activating_a_train_costs_100_paid_to_the_bank() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    let before = s.players[0].money;
    apply(g, &mut s, Action::Activate(1));
    assert_eq!(s.players[0].money, before - 100);
    assert_eq!(s.to_move, vec![1]);
}

/// Seat 1's train 1 at Griffin with a load picked up, about to move along seat 2's line #12.
pub(super) fn on_foreign_line() -> State {
    let mut s = started(2);
    s.players[1].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: true });
    moving(&mut s, 1, 10);
    s
}

#[test]
fn case_5_6_a_loaded_train_paying_the_fee_moves_at_one_mp_and_the_owner_gets_200() {
    let g = game();
    let mut s = on_foreign_line();
    let (m1, m2) = (s.players[0].money, s.players[1].money);
    let legal = g.legal_actions(&s);
    assert!(legal.contains(&Action::Step { to: st("Jonesboro"), fee: false }), "2 MP without the fee");
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: true });
    assert_eq!((s.mp, s.players[0].money, s.players[1].money), (9, m1 - 200, m2 + 200));
    apply(g, &mut s, Action::Step { to: st("East Point"), fee: false });
    assert_eq!(s.mp, 8, "RT 5.6.2: the fee holds until the train leaves the line");
}

#[test]
fn case_5_6_1_a_train_travelling_light_pays_no_fee_and_one_mp() {
    let g = game();
    let mut s = started(2);
    s.players[1].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    light(&mut s, Seat(1), 1);
    moving(&mut s, 1, 10);
    assert!(!g.legal_actions(&s).contains(&Action::Step { to: st("Jonesboro"), fee: true }));
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    assert_eq!(s.mp, 9);
}

#[test]
fn case_5_3_3_a_loaded_train_declining_the_fee_pays_two_mp_per_station() {
    let g = game();
    let mut s = started(2);
    s.players[1].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: true });
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Step { to: st("Jonesboro"), fee: false });
    assert_eq!(s.mp, 8);
}

#[test]
fn case_5_1_6_dropping_off_costs_one_mp_pays_the_payout_and_discards_the_chit() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Charleston", None);
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: true });
    moving(&mut s, 1, 5);
    let m = s.players[0].money;
    apply(g, &mut s, Action::DropOff);
    assert_eq!(s.players[0].money, m + 1500);
    assert_eq!(s.mp, 4);
    assert!(s.players[0].trains[0].load.is_none());
    assert_eq!(s.discarded.last(), Some(&Chit::Load(1)));
}

#[test]
fn case_5_1_7_abandoning_costs_300_and_leaves_the_load_for_anyone() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: true });
    moving(&mut s, 1, 5);
    let m = s.players[0].money;
    apply(g, &mut s, Action::Abandon);
    assert_eq!(s.players[0].money, m - 300);
    assert_eq!(s.abandoned.first().map(|a| (a.chit, a.at)), Some((1, st("Atlanta"))));
}

#[test]
fn case_5_7_a_blockade_runner_is_seized_when_the_adjusted_roll_reaches_six() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Wilmington", None);
    s.players[0].trains[0].load =
        Some(Contract { chit: 67, pickup: st("Wilmington"), dropoff: st("Richmond"), picked: false });
    s.blockade = 5;
    moving(&mut s, 1, 5);
    apply(g, &mut s, Action::PickUp);
    assert!(s.players[0].trains[0].load.is_none(), "1d6 + 5 is always 6 or more");
    assert_eq!(s.mp, 4, "RULING F37");
}

#[test]
fn case_5_9_2_a_station_the_union_occupies_destroys_the_trains_in_it() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(2), 1, "Corinth", None);
    let mut ev = Vec::new();
    g.occupy(&mut s, st("Corinth"), &mut ev);
    assert!(s.players[1].trains.is_empty());
    assert!(s.occupied.contains(&st("Corinth")));
}

#[test]
fn case_5_8_a_disabled_train_goes_to_raleigh_or_is_destroyed_when_cut_off() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    put(&mut s, Seat(1), 2, "Proctorville", None);
    s.occupied.insert(st("New Orleans"));
    let mut ev = Vec::new();
    g.disable(&mut s, Seat(1), 1, super::apply::moves::DisableLoad::Abandon, &mut ev);
    g.disable(&mut s, Seat(1), 2, super::apply::moves::DisableLoad::Abandon, &mut ev);
    assert_eq!(
        s.players[0].trains.iter().map(|t| (t.id, t.at)).collect::<Vec<_>>(),
        vec![(1, Place::RepairBox)]
    );
}

#[test]
fn case_5_8_a_repair_costs_300_and_the_train_starts_at_raleigh() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.players[0].trains[0].at = Place::RepairBox;
    let m = s.players[0].money;
    apply(g, &mut s, Action::Repair(1));
    assert_eq!(s.players[0].money, m - 300);
    assert_eq!(s.players[0].trains[0].station(), Some(board::raleigh(g.data())));
}

#[test]
fn case_3_1_to_3_6_trains_money_and_special_events_follow_the_player_count() {
    let g = game();
    for (seats, trains, specials) in [(2u8, 7usize, 6usize), (3, 5, 4), (4, 4, 3), (5, 3, 2)] {
        let s = g
            .setup(&SetupSpec { seats, options: serde_json::Value::Null }, &mut GameRng::for_setup(1))
            .expect("setup");
        for p in &s.players {
            assert_eq!((p.unplaced.len(), p.specials.len(), p.money), (trains, specials, 2500));
        }
        if seats == 5 {
            assert!(s.players.iter().all(|p| !p.specials.contains(&8) && !p.specials.contains(&4)));
        }
    }
}

#[test]
fn case_3_4_every_rrc_is_handed_out_for_every_player_count() {
    for seats in 2..=5u8 {
        let s = started(seats);
        let _ = s;
    }
    let g = game();
    let spec = SetupSpec { seats: 5, options: serde_json::Value::Null };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(3)).expect("setup");
    let mut n = 0;
    while matches!(s.stage, Stage::ChooseRrc { .. }) {
        let a = g.default_action(&s).expect("default");
        g.apply(&mut s, &a, &mut GameRng::for_action(3, n)).expect("legal");
        n += 1;
    }
    let counts: Vec<usize> =
        s.order.iter().map(|x| s.player(*x).map(|p| p.rrcs.len()).unwrap_or(0)).collect();
    assert_eq!(counts, vec![4, 5, 5, 5, 5], "RT 3.4: the 5-player initiative player is dealt 3");
}

#[test]
fn case_6_0_special_events_are_hidden_from_the_table_and_shown_to_their_holder() {
    let g = game();
    let mut s = started(2);
    s.players[0].specials = vec![1];
    let public = g.describe(&s, Viewer::Public);
    let own = g.describe(&s, Viewer::Seat(Seat(1)));
    let other = g.describe(&s, Viewer::Seat(Seat(2)));
    assert!(!public.contains("General Lee") && !other.contains("General Lee"));
    assert!(own.contains("General Lee"));
}

#[test]
fn case_6_1_a_general_standing_order_is_played_when_its_station_would_fall() {
    let g = game();
    let mut s = started(2);
    s.players[1].specials = vec![1];
    s.tasks = vec![super::state::Task::Cancel { seat: Seat(2), station: st("Atlanta") }];
    let orders =
        vec![Numbered { line: 1, order: g.parse_order("PLAY LEE WHEN Atlanta FALLS").expect("parses") }];
    let mut sheet = OrderSheet::new(orders);
    let d = g.next_decision(&s).expect("decision");
    let a = g.answer(&s, &d, &mut sheet);
    assert_eq!(a.action, Some(Action::Cancel(1)));
    assert!(sheet.used[0]);
}

#[test]
fn case_7_7_engine_wear_and_tear_needs_two_victory_depots_occupied() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.stage = Stage::Undertake { train: 1 };
    let k = g.data().tables.events.iter().position(|e| e.case == "7.7").expect("7.7");
    s.pile.push(Chit::Event(k));
    let m = s.players[0].money;
    apply(g, &mut s, Action::Draw);
    assert_eq!(s.players[0].money, m, "no Victory Depot is occupied: not enacted");
}

#[test]
fn case_5_1_2_drawing_an_event_ends_the_trains_activation() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    put(&mut s, Seat(1), 2, "Macon (GA)", None);
    s.stage = Stage::Undertake { train: 1 };
    s.to_move = vec![2];
    s.players[0].trains[1].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: false });
    let k = g.data().tables.events.iter().position(|e| e.case == "7.5").expect("7.5");
    s.pile.push(Chit::Event(k));
    apply(g, &mut s, Action::Draw);
    // The War Progress roll may ask for a Choice and open windows: answer them by default.
    while !s.tasks.is_empty() {
        let a = g.default_action(&s).expect("a default");
        apply(g, &mut s, a);
    }
    assert!(s.embargo);
    assert!(matches!(s.stage, Stage::Move { train: 2 }), "{:?}", s.stage);
}

#[test]
fn a_move_order_is_followed_station_by_station_and_used_up_at_its_end() {
    let g = game();
    let mut s = started(2);
    s.players[0].rrcs.insert(12);
    put(&mut s, Seat(1), 1, "Griffin", Some(12));
    light(&mut s, Seat(1), 1);
    moving(&mut s, 1, 10);
    let orders =
        vec![Numbered { line: 1, order: g.parse_order("MOVE 1 Jonesboro, East Point").expect("parses") }];
    let mut sheet = OrderSheet::new(orders);
    for want in ["Jonesboro", "East Point"] {
        let d = g.next_decision(&s).expect("decision");
        let a = g.answer(&s, &d, &mut sheet).action.expect("an action");
        assert_eq!(a, Action::Step { to: st(want), fee: false });
        apply(g, &mut s, a);
    }
    assert!(sheet.used[0]);
}

#[test]
fn missing_orders_activate_nothing_and_the_trains_stand_still() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(g.default_action(&s), Some(Action::StartMoving));
}

#[test]
fn every_order_form_of_the_guide_parses_and_prints_back() {
    let g = game();
    for line in [
        "RRC 12",
        "PLACE 1 AT Atlanta ON 11",
        "SELECT 23",
        "ACTIVATE 1 2",
        "ACTIVATE ALL",
        "REPAIR 3",
        "REPAIR BRIDGE Richmond, Petersburg",
        "CLEAR Knoxville, Loudon",
        "PAY 200 TO 3 IF Atlanta IS OPEN",
        "PAY 100 TO 2 IF NOT TRAIN 2 1 IS AT Macon",
        "PAY 300 TO 1 IF LINE 12 HAS BAD RAILS",
        "BID 500 ON 12",
        "BID UP TO 900 ON 12",
        "REPLACE 23",
        "ACCEPT 200 FROM 1",
        "TAKE DRAWN",
        "TAKE 17",
        "DELIVER 48 TO Corinth",
        "TROOPS FROM Raleigh TO Norfolk",
        "MOVE 2 Petersburg, Weldon, Goldsboro",
        "MOVE 2 SHORTEST TO Weldon",
        "PAY FEES",
        "ABANDON 2 AT Weldon",
        "LEAVE 2 AT Goldsboro",
        "AGAIN 2",
        "PLAY OFFENSIVE ON Nashville WITH LEE",
        "PLAY TREASURE ON 12",
        "PLAY RAID",
        "PLAY LEE WHEN Atlanta FALLS",
        "PLAY JACKSON WHEN A VICTORY DEPOT FALLS",
        "PLAY MCCLELLAN WHEN ANY FALLS",
        "PLAY INTERVENTION",
        "DONATE 1",
        "CHOOSE UNION Corinth",
        "CHOOSE DEPOT Corinth",
        "CHOOSE COLLAPSE Knoxville, Loudon",
        "CHOOSE SABOTAGE BRIDGE Knoxville, Loudon",
        "CHOOSE SABOTAGE RIP Knoxville, Loudon",
        "CHOOSE HUNT Knoxville, Loudon",
        "CHOOSE RAID RIP Knoxville, Loudon",
        "CHOOSE RAID TRAIN 2 3",
        "CHOOSE SEIZE TRAIN 2 E",
        "CHOOSE IRON LINE 14",
        "CHOOSE IRON TRAIN 2 3",
        "CHOOSE BREAKDOWN 3",
        "DECLINE DEPOT",
        "DECLINE IRON",
        "DECLINE SEIZE",
    ] {
        let o = g.parse_order(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(o.to_string(), line, "{line}");
    }
    assert!(g.parse_order("FLY 2 TO Richmond").is_err());
    assert!(
        g.parse_order("PAY 200 TO 3 IF you leave Atlanta alone").is_err(),
        "an unreadable condition is refused"
    );
}

#[test]
fn the_engine_is_registered_for_2_to_5_players() {
    let e = crate::registry::find("confederate-rails").expect("registered");
    assert_eq!(e.title(), "Confederate Rails");
}
