//! The War Progress Table (RT 5.9.1) and the Congestion Table (RT 5.5), one test per result
//! and rule: the dice are chosen by picking an action's dice stream that rolls them.

use super::board;
use super::data::{StationKind, WarResult};
use super::proptests::game;
use super::state::{Action, ChoiceKind, State, Task, Then};
use super::tests::{apply, st, started};
use crate::engine::{Event, GameRng, Seat};

/// An action's generator whose dice stream starts with `dice` (d6 each).
pub(super) fn rigged(dice: &[u8]) -> GameRng {
    (0..1_000_000u64)
        .find(|seq| {
            let mut r = GameRng::for_action(34, *seq);
            dice.iter().all(|d| r.roll(6) == *d)
        })
        .map(|seq| GameRng::for_action(34, seq))
        .expect("some stream rolls these dice")
}

/// Two dice totalling `total`.
fn pair(total: u8) -> [u8; 2] {
    let a = total.saturating_sub(6).max(1);
    [a, total - a]
}

/// The War Progress roll with these dice, from a fresh Player Turn of seat 1.
fn roll(s: &mut State, dice: &[u8]) -> Vec<Event> {
    let mut ev = Vec::new();
    game().war_roll(s, Then::EndActivation, &mut rigged(dice), &mut ev);
    ev
}

/// The Union holds the first `k` of these Victory Depots (then the War Progress column is `k`).
fn occupy_vds(s: &mut State, k: usize) {
    let order = [
        "Richmond",
        "Wilmington",
        "Charleston",
        "Mobile",
        "Atlanta",
        "Nashville",
        "Vicksburg",
        "New Orleans",
    ];
    for name in order.iter().take(k) {
        s.occupied.insert(st(name));
    }
}

fn choice_options(s: &State) -> Option<Vec<usize>> {
    s.tasks.iter().find_map(|t| match t {
        Task::Choose { kind: ChoiceKind::Occupy, options, .. } => Some(options.clone()),
        _ => None,
    })
}

fn is_vd(station: usize) -> bool {
    game().data().map.stations[station].kind == StationKind::VictoryDepot
}

#[test]
fn rule_5_9_1_a_named_station_falls_to_the_union_once_no_general_cancels() {
    let g = game();
    let mut s = started(2);
    roll(&mut s, &[1, 1]); // 2 with no Victory Depot taken: Norfolk
    let window: Vec<Seat> =
        s.tasks.iter().filter_map(|t| matches!(t, Task::Cancel { .. }).then(|| t.seat()).flatten()).collect();
    assert_eq!(window, vec![Seat(1), Seat(2)], "RULING F22: every seat from the active player");
    assert!(s.tasks.contains(&Task::Occupy { station: st("Norfolk") }));
    apply(g, &mut s, Action::Pass);
    apply(g, &mut s, Action::Pass);
    assert!(s.occupied.contains(&st("Norfolk")));
}

#[test]
fn rule_5_9_1_a_named_station_already_occupied_is_rolled_again() {
    let mut s = started(2);
    s.occupied.insert(st("Norfolk"));
    let ev = roll(&mut s, &[1, 1, 2, 3]); // Norfolk again, then 5: no station taken
    assert!(ev.iter().any(|e| e.public.contains("already occupied: roll again")));
    assert!(ev.iter().any(|e| e.public.contains("2+3=5") && e.public.contains("no station taken")));
    assert_eq!(s.tasks, vec![Task::Then(Then::EndActivation)]);
}

#[test]
fn rule_5_9_1_choice_takes_a_station_within_two_of_the_union_but_no_victory_depot() {
    let mut s = started(2);
    s.occupied.insert(st("Corinth"));
    roll(&mut s, &[1, 3]); // 4: Choice
    let options = choice_options(&s).expect("a Choice is asked of the active player");
    let d = game().data();
    let dist = board::union_distance(d, &s);
    assert!(options.contains(&st("Grand Junction")) || options.iter().any(|o| dist[*o] == Some(1)));
    for o in &options {
        assert!(dist[*o].is_some_and(|x| x <= 2), "{} is too far", board::name(d, *o));
        assert!(!is_vd(*o) && !s.occupied.contains(o), "{}", board::name(d, *o));
    }
}

#[test]
fn rule_5_9_1_choice_v_may_take_a_victory_depot() {
    let mut s = started(2);
    occupy_vds(&mut s, 2); // Richmond, Wilmington: column 2
    s.occupied.insert(st("Marietta"));
    roll(&mut s, &[6, 6]); // 12 with 2 taken: Choice (V)
    let options = choice_options(&s).expect("a Choice (V) is asked");
    assert!(options.contains(&st("Atlanta")), "a Victory Depot within 2 stations is offered");
}

#[test]
fn rule_5_9_1_choice_counts_the_union_army_entry_points() {
    let mut s = started(2);
    roll(&mut s, &[1, 3]); // 4: Choice, with no marker on the map but the four entry points
    let options = choice_options(&s).expect("the entry points make stations eligible");
    let d = game().data();
    for e in &d.map.entries {
        assert!(options.contains(&e.joins), "{} joins an entry point", board::name(d, e.joins));
    }
}

#[test]
fn rule_5_9_1_no_station_taken_places_no_marker() {
    let mut s = started(2);
    let ev = roll(&mut s, &[2, 3]); // 5 with none taken: no station
    assert!(ev.iter().any(|e| e.public.contains("no station taken")));
    assert_eq!(s.tasks, vec![Task::Then(Then::EndActivation)]);
}

#[test]
fn rule_5_9_1_the_column_is_the_number_of_victory_depots_the_union_holds() {
    let mut s = started(2);
    roll(&mut s, &[4, 6]); // 10 with none taken: Choice
    assert!(choice_options(&s).is_some());
    let mut s = started(2);
    occupy_vds(&mut s, 1);
    roll(&mut s, &[4, 6]); // 10 with one taken: Nashville
    assert!(s.tasks.contains(&Task::Occupy { station: st("Nashville") }));
}

#[test]
fn rule_5_9_1_every_cell_of_the_table_has_its_effect() {
    let d = game().data();
    for total in 2..=12u8 {
        for column in 0..=7usize {
            let mut s = started(2);
            occupy_vds(&mut s, column);
            let cell = d.tables.war_progress[usize::from(total) - 2][column].clone();
            // A station already held rolls again: 1+1 (never a named cell held in column 0) then.
            let ev = roll(&mut s, &[pair(total)[0], pair(total)[1], 2, 3]);
            let at = format!("roll {total}, column {column}: {cell:?}");
            match cell {
                WarResult::Station(x) if s.occupied.contains(&x) => {
                    assert!(ev.iter().any(|e| e.public.contains("roll again")), "{at}")
                }
                WarResult::Station(x) => assert!(s.tasks.contains(&Task::Occupy { station: x }), "{at}"),
                WarResult::Choice => {
                    let o = choice_options(&s).unwrap_or_default();
                    assert!(!o.is_empty() && o.iter().all(|x| !is_vd(*x)), "{at}")
                }
                WarResult::ChoiceV => assert!(!choice_options(&s).unwrap_or_default().is_empty(), "{at}"),
                WarResult::Nothing => assert_eq!(s.tasks, vec![Task::Then(Then::EndActivation)], "{at}"),
            }
        }
    }
}

#[test]
fn rule_5_9_2_a_station_the_union_takes_eliminates_its_trains_and_discards_their_loads() {
    let g = game();
    let mut s = started(2);
    super::tests::put(&mut s, Seat(2), 1, "Norfolk", None);
    s.players[1].trains[0].load = Some(super::state::Contract {
        chit: 1,
        pickup: st("Memphis"),
        dropoff: st("Charleston"),
        picked: true,
    });
    let money = s.players[1].money;
    roll(&mut s, &[1, 1]);
    apply(g, &mut s, Action::Pass);
    apply(g, &mut s, Action::Pass);
    assert!(s.players[1].trains.is_empty());
    assert!(s.discarded.contains(&super::state::Chit::Load(1)));
    assert_eq!(s.players[1].money, money, "no Penalty Tariff");
}

#[test]
fn rule_5_5_the_congestion_roll_replaces_the_old_markers_with_the_rolled_row() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    s.congested.insert(st("Corinth"));
    let mut ev = Vec::new();
    g.congestion_roll(&mut s, &mut rigged(&[3, 4]), &mut ev); // 7
    let row: std::collections::BTreeSet<usize> = d.tables.congestion[5].iter().copied().collect();
    assert_eq!(s.congested, row);
    assert!(s.congested.contains(&st("Atlanta")) && !s.congested.contains(&st("Corinth")));
}

#[test]
fn rule_5_5_congestion_is_rolled_only_once_per_player_turn() {
    let g = game();
    let mut s = started(2);
    let mut ev = Vec::new();
    g.congestion_roll(&mut s, &mut rigged(&[3, 4]), &mut ev);
    let first = s.congested.clone();
    g.congestion_roll(&mut s, &mut rigged(&[6, 6]), &mut ev);
    assert_eq!(s.congested, first, "a second enacted event in the same Player Turn rolls no Congestion");
}

#[test]
fn rule_5_5_a_union_occupied_station_gets_no_congested_marker() {
    let g = game();
    let mut s = started(2);
    s.occupied.insert(st("Atlanta"));
    let mut ev = Vec::new();
    g.congestion_roll(&mut s, &mut rigged(&[3, 4]), &mut ev);
    assert!(!s.congested.contains(&st("Atlanta")) && s.congested.contains(&st("Savannah")));
}

#[test]
fn rule_5_5_an_enacted_event_rolls_congestion_before_it_applies() {
    let g = game();
    let mut s = started(2);
    super::tests::put(&mut s, Seat(1), 1, "Atlanta", None);
    s.stage = super::state::Stage::Undertake { train: 1 };
    let k = g.data().tables.events.iter().position(|e| e.case == "7.5").expect("7.5");
    s.pile.push(super::state::Chit::Event(k));
    assert!(!s.congestion_rolled);
    apply(g, &mut s, Action::Draw);
    assert!(s.congestion_rolled && !s.congested.is_empty());
}
