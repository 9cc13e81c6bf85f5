//! Issue 34: every decision orderable — Special Events and offers "at any time" (RT 6.0, 1.0:
//! the window before another's activation phase, standing `WHEN` orders), another player's
//! General for an Offensive (RT 6.2), one General per Player Turn (RT 6.0), and the owner's
//! choice of the trains Engine Wear & Tear removes (RT 7.7).

use super::orders_tests::sheet;
use super::proptests::game;
use super::state::{Action, Chit, ChoiceKind, Stage, State, Task};
use super::tests::{apply, put, st, started};
use crate::engine::prelude::*;
use crate::engine::{Lasting, Seat};

fn answer(s: &State, lines: &[&str]) -> Option<Action> {
    game().answer_from(s, &mut sheet(lines)).action
}

/// Seat 1's Player Turn about to begin, seat 2 asked in the window before it.
fn window() -> State {
    let mut s = started(2);
    s.tasks = vec![Task::Window { seat: Seat(2) }];
    s
}

#[test]
fn rt_6_0_a_standing_offensive_is_played_in_the_window_before_another_players_turn() {
    let mut s = window();
    s.players[1].specials = vec![2];
    let line = "PLAY OFFENSIVE ON Nashville WHEN Nashville IS OCCUPIED";
    assert_eq!(answer(&s, &[line]), None, "Nashville is open: the standing order waits");
    s.occupied.insert(st("Nashville"));
    assert_eq!(answer(&s, &[line]), Some(Action::Offensive { station: st("Nashville"), general: None }));
    apply(game(), &mut s, Action::Offensive { station: st("Nashville"), general: None });
    assert!(s.players[1].specials.is_empty(), "seat 2 played it in seat 1's turn");
}

#[test]
fn rt_6_0_the_window_is_asked_of_every_other_seat_before_the_activation_phase() {
    let g = game();
    let mut s = started(3);
    s.pre_war = false;
    put(&mut s, Seat(1), 1, "Atlanta", None);
    apply(g, &mut s, Action::StartMoving); // seat 1's turn ends: seat 2's begins
    let asked: Vec<Seat> =
        s.tasks.iter().filter_map(|t| matches!(t, Task::Window { .. }).then(|| t.seat()).flatten()).collect();
    assert_eq!(asked, vec![Seat(3), Seat(1)], "from the active player's left, holding a counter or not");
    assert_eq!(s.active(), Seat(2));
}

#[test]
fn rt_6_2_another_player_may_add_his_general_to_an_offensive() {
    let g = game();
    let mut s = started(2);
    s.occupied.insert(st("Nashville"));
    s.players[0].specials = vec![2];
    s.players[1].specials = vec![1];
    apply(g, &mut s, Action::Offensive { station: st("Nashville"), general: None });
    let d = g.next_decision(&s).expect("a decision");
    assert_eq!(d.seat, Seat(2), "{}", d.prompt);
    assert!(d.prompt.contains("seat 1's Confederate Offensive on Nashville"), "{}", d.prompt);
    assert_eq!(answer(&s, &["PLAY LEE FOR OFFENSIVE ON Atlanta"]), None, "a line for another station");
    assert_eq!(answer(&s, &["PLAY LEE FOR OFFENSIVE ON Nashville"]), Some(Action::Support(1)));
    let ev =
        g.apply(&mut s, &Action::Support(1), &mut crate::engine::GameRng::for_action(1, 1)).expect("legal");
    assert!(s.players[1].specials.is_empty(), "seat 2 spent General Lee");
    assert!(ev.iter().any(|e| format!("{e:?}").contains("with seat 2's General Lee")), "{ev:?}");
}

#[test]
fn rt_6_0_a_general_that_cancelled_a_result_leaves_the_offensive_without_one() {
    let g = game();
    let mut s = started(2);
    s.occupied.insert(st("Nashville"));
    s.players[0].specials = vec![2, 3];
    s.players[0].played_this_turn = vec![1];
    let legal = g.legal_actions(&s);
    assert!(legal.contains(&Action::Offensive { station: st("Nashville"), general: None }));
    assert!(
        !legal.contains(&Action::Offensive { station: st("Nashville"), general: Some(3) }),
        "Lee, then Jackson"
    );
}

#[test]
fn rt_1_0_an_offer_made_in_anothers_turn_is_answered_when_that_turns_play_is_over() {
    let g = game();
    let mut s = window();
    s.pre_war = false;
    let (m1, m2) = (s.players[0].money, s.players[1].money);
    assert_eq!(answer(&s, &["PAY 200 TO 1"]), Some(Action::Offer { to: Seat(1), amount: 200, cond: None }));
    apply(g, &mut s, Action::Offer { to: Seat(1), amount: 200, cond: None });
    apply(g, &mut s, Action::Pass); // the window closes
    assert!(matches!((&s.stage, s.tasks.is_empty()), (Stage::Activate, true)), "seat 1 plays its turn first");
    apply(g, &mut s, Action::StartMoving);
    let d = g.next_decision(&s).expect("the offer");
    assert_eq!((d.seat, d.prompt.as_str()), (Seat(1), "accept $200 from seat 2, or pass"));
    assert_eq!(answer(&s, &["ACCEPT 200 FROM 2"]), Some(Action::Accept));
    apply(g, &mut s, Action::Accept);
    assert_eq!((s.players[0].money, s.players[1].money), (m1 + 200, m2 - 200));
}

#[test]
fn rt_7_7_the_owner_chooses_which_trains_wear_and_tear_removes() {
    let g = game();
    let mut s = started(2);
    for (id, at) in [(1, "Macon (GA)"), (2, "Augusta"), (3, "Savannah")] {
        put(&mut s, Seat(1), id, at, None);
    }
    s.occupied.extend([st("Richmond"), st("New Orleans")]);
    s.players[0].money = 700; // pays for two of three
    s.players[1].money = 5000;
    s.stage = Stage::Undertake { train: 1 };
    let k = g.data().tables.events.iter().position(|e| e.case == "7.7").expect("7.7");
    s.pile.push(Chit::Event(k));
    apply(g, &mut s, Action::Draw);
    for _ in 0..50 {
        if matches!(s.tasks.first(), Some(Task::Choose { kind: ChoiceKind::WearAndTear, .. })) {
            break;
        }
        let a = g.default_action(&s).expect("a default");
        apply(g, &mut s, a);
    }
    assert_eq!(g.next_decision(&s).map(|d| d.seat), Some(Seat(1)));
    let before = s.players[0].money;
    assert_eq!(answer(&s, &["CHOOSE SCRAP 1"]), Some(Action::Choose(1)));
    apply(g, &mut s, Action::Choose(1));
    let ids: Vec<u8> = s.players[0].trains.iter().map(|t| t.id).collect();
    assert_eq!(ids, vec![2, 3], "train 1 was not paid for, the others are kept");
    assert_eq!(s.players[0].money, before - 600);
}

#[test]
fn a_standing_play_line_lasts_until_played_or_withdrawn() {
    let g = game();
    let key = |l: &str| g.lasting(&g.parse_order(l).expect(l));
    let standing = |k: &str| Some(Lasting { key: k.into(), withdraws: false });
    assert_eq!(key("PLAY LEE WHEN Atlanta FALLS"), standing("PLAY LEE"));
    assert_eq!(key("PLAY OFFENSIVE ON Nashville WHEN Nashville IS OCCUPIED"), standing("PLAY OFFENSIVE"));
    assert_eq!(key("PLAY JACKSON FOR OFFENSIVE"), standing("PLAY JACKSON FOR OFFENSIVE"));
    assert_eq!(key("PLAY LEE NEVER"), Some(Lasting { key: "PLAY LEE".into(), withdraws: true }));
    assert_eq!(key("PLAY RAID"), None, "a play without a condition is for this turn");
    for line in [
        "PLAY OFFENSIVE ON Nashville WITH LEE WHEN Nashville IS OCCUPIED",
        "PLAY TREASURE ON 12 WHEN LINE 12 HAS BAD RAILS",
        "PLAY LEE FOR OFFENSIVE ON Nashville",
        "PLAY JACKSON FOR OFFENSIVE NEVER",
    ] {
        assert_eq!(g.parse_order(line).expect(line).to_string(), line);
    }
}
