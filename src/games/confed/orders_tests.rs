//! Issue 34: a line answers only the decision it names (each choice its own qualifier, a
//! `TROOPS` line only a Troops chit, a `DELIVER` only its own load), the echo checks names,
//! holdings and phase at submission with "did you mean", and prompts name the choice.

use super::proptests::game;
use super::state::{Action, ChoiceKind, Stage, State, Task};
use super::tests::{put, st, started};
use crate::engine::prelude::*;
use crate::engine::{OrderSheet, Seat, SetupSpec};

/// A sheet of these lines, read as the server reads a sheet.
pub(super) fn sheet(lines: &[&str]) -> OrderSheet<super::Order> {
    crate::orders::parse_sheet(game(), &lines.join("\n"), None).0
}

fn answer(s: &State, lines: &[&str]) -> (Option<Action>, Vec<bool>) {
    let mut sh = sheet(lines);
    let a = game().answer_from(s, &mut sh).action;
    (a, sh.used)
}

fn segment(a: &str, b: &str) -> usize {
    let d = game().data();
    d.map.segments_between(st(a), st(b))[0]
}

fn choice(s: &mut State, kind: ChoiceKind, options: Vec<usize>, optional: bool) {
    s.tasks = vec![Task::Choose { seat: Seat(1), kind, options, optional }];
}

#[test]
fn a_choose_line_answers_only_the_choice_it_names() {
    let mut s = started(2);
    choice(&mut s, ChoiceKind::DepotConstruction, vec![st("Corinth"), st("Dalton")], true);
    let (a, used) = answer(&s, &["CHOOSE UNION Dalton", "CHOOSE DEPOT Corinth"]);
    assert_eq!(a, Some(Action::Choose(st("Corinth"))));
    assert_eq!(used, vec![false, true], "the Union's Choice line is kept for the Union's Choice");
}

#[test]
fn a_decline_line_answers_only_the_voluntary_event_it_names() {
    let mut s = started(2);
    choice(&mut s, ChoiceKind::Seizure, vec![17], true);
    let (a, used) = answer(&s, &["DECLINE DEPOT", "DECLINE SEIZE"]);
    assert_eq!(a, Some(Action::Pass));
    assert_eq!(used, vec![false, true]);
}

#[test]
fn a_bare_choose_is_refused_with_the_forms_that_name_the_choice() {
    let g = game();
    for line in ["CHOOSE Corinth", "CHOOSE Knoxville, Loudon", "CHOOSE TRAIN 2 3", "DECLINE"] {
        let e = g.parse_order(line).expect_err(line).0;
        assert!(e.contains("CHOOSE UNION") || e.contains("DECLINE DEPOT"), "{line}: {e}");
    }
    assert_eq!(
        g.parse_order("CHOOSE LINE 14").expect("the one unambiguous old form").to_string(),
        "CHOOSE IRON LINE 14"
    );
}

#[test]
fn rt_7_9_partisan_sabotage_may_rip_up_a_segment_instead_of_blowing_its_bridge() {
    let mut s = started(2);
    let g = segment("Knoxville", "Loudon");
    choice(&mut s, ChoiceKind::Sabotage, vec![g * 2, g * 2 + 1], false);
    let (a, _) = answer(&s, &["CHOOSE SABOTAGE RIP Knoxville, Loudon"]);
    assert_eq!(a, Some(Action::Choose(g * 2 + 1)), "the rip-up, not the bridge");
    let (a, _) = answer(&s, &["CHOOSE SABOTAGE BRIDGE Knoxville, Loudon"]);
    assert_eq!(a, Some(Action::Choose(g * 2)));
    super::tests::apply(game(), &mut s, Action::Choose(g * 2 + 1));
    assert_eq!(s.ripped.get(&g), Some(&1), "ripped up");
    assert!(!s.bridges_out.contains(&g), "the bridge stands");
}

#[test]
fn rt_7_15_a_cavalry_raid_line_names_a_rip_up_or_a_train() {
    let mut s = started(2);
    let g = segment("Knoxville", "Loudon");
    let train = (Seat(2).index() * 16 + 3) * 2 + 1;
    choice(&mut s, ChoiceKind::Raid, vec![g * 2, train], false);
    assert_eq!(answer(&s, &["CHOOSE RAID TRAIN 2 3"]).0, Some(Action::Choose(train)));
    assert_eq!(answer(&s, &["CHOOSE RAID RIP Loudon, Knoxville"]).0, Some(Action::Choose(g * 2)));
    assert_eq!(
        answer(&s, &["CHOOSE COLLAPSE Knoxville, Loudon"]).0,
        None,
        "a Bridge Collapse line does not answer it"
    );
}

#[test]
fn a_troops_line_does_not_answer_the_dropoff_of_an_ordinary_load() {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    let (x, y) = (st("Corinth"), st("Norfolk"));
    s.stage = Stage::Dropoff { train: 1, chit: 48, pickup: st("Atlanta"), options: vec![x, y], setup: false };
    let (a, used) =
        answer(&s, &["TROOPS FROM Raleigh TO Norfolk", "DELIVER 12 TO Norfolk", "DELIVER 48 TO Norfolk"]);
    assert_eq!(a, Some(Action::Designate(y)));
    assert_eq!(used, vec![false, false, true], "only the line naming load 48 answers its dropoff");
}

#[test]
fn take_with_a_load_not_on_the_display_does_not_keep_the_drawn_load() {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    let drawn = 30;
    s.display.retain(|n| *n != 99);
    s.stage = Stage::ChooseLoad { train: 1, drawn };
    let (a, used) = answer(&s, &["TAKE 99"]);
    assert_eq!((a, used), (None, vec![false]), "TAKE 99 is no order to keep load {drawn}");
}

#[test]
fn either_hanover_richmond_segment_can_be_cleared_by_naming_its_stations() {
    let d = game().data();
    let mut s = started(2);
    let both = d.map.segments_between(st("Hanover"), st("Richmond"));
    assert_eq!(both.len(), 2, "two parallel segments");
    let second = both[1];
    let owner = d.map.segments[second].owners[0];
    s.players[0].rrcs.insert(owner);
    s.ripped.insert(second, 1);
    let (a, _) = answer(&s, &["CLEAR Hanover, Richmond"]);
    assert_eq!(a, Some(Action::RemoveRipped(second)));
}

/// The game (3 players, seed 5) before any order.
fn seed_5() -> State {
    let spec = SetupSpec { seats: 3, options: serde_json::Value::Null };
    crate::engine::log::setup(game(), &spec, 5).expect("setup")
}

fn echo(s: &State, seat: u8, lines: &[&str]) -> Vec<String> {
    let sh = sheet(lines);
    game().advise_sheet(s, Seat(seat), &sh.orders).into_iter().map(Option::unwrap_or_default).collect()
}

#[test]
fn the_echo_checks_rrc_numbers_and_station_names_with_did_you_mean() {
    let e =
        echo(&seed_5(), 1, &["RRC 25", "PLACE 1 AT Atlantaa ON 12", "MOVE 2 Petersburg, Weldonn", "RRC 12"]);
    assert!(e[0].contains("there is no RRC #25"), "{}", e[0]);
    assert!(e[1].contains("unknown station \"Atlantaa\" (did you mean Atlanta?)"), "{}", e[1]);
    assert!(e[2].contains("did you mean Weldon?"), "{}", e[2]);
    assert!(!e[3].contains("unknown") && !e[3].contains("no RRC"), "{}", e[3]);
}

#[test]
fn the_echo_says_which_decision_a_line_answers_and_flags_lines_of_another_phase() {
    let s = seed_5();
    let e = echo(&s, 1, &["RRC 12", "ACTIVATE 1 2", "BID 500 ON 12"]);
    assert!(e[0].starts_with("answers the decision now: choose a railroad company"), "{}", e[0]);
    assert!(e[1].contains("will not be used: this turn is the set-up"), "{}", e[1]);
    assert!(e[2].contains("Extended Game"), "{}", e[2]);
}

#[test]
fn the_echo_checks_the_seats_trains_loads_and_counters() {
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    put(&mut s, Seat(2), 1, "Macon (GA)", None);
    s.players[1].trains[0].load = Some(super::state::Contract {
        chit: 48,
        pickup: st("Atlanta"),
        dropoff: st("Corinth"),
        picked: false,
    });
    let e = echo(
        &s,
        1,
        &["ACTIVATE 1 4", "DELIVER 48 TO Corinth", "PLAY LEE WHEN Atlanta FALLS", "MOVE 1 Atlanta, Corinth"],
    );
    assert!(e[0].contains("you have no train 4"), "{}", e[0]);
    assert!(e[1].contains("is on seat 2's train 1"), "{}", e[1]);
    assert!(e[2].contains("you do not hold General Lee"), "{}", e[2]);
    assert!(e[3].contains("no segment joins Atlanta and Corinth"), "{}", e[3]);
}

#[test]
fn the_prompt_of_a_choice_names_the_choice_and_its_options() {
    let g = game();
    let mut s = started(2);
    let k = segment("Knoxville", "Loudon");
    choice(&mut s, ChoiceKind::Sabotage, vec![k * 2, k * 2 + 1], false);
    let p = g.next_decision(&s).expect("a decision").prompt;
    assert_eq!(
        p, "Partisan Sabotage (RT 7.9): choose BRIDGE Knoxville, Loudon, RIP Knoxville, Loudon",
        "{p}"
    );
}
