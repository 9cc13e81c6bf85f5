//! The turn loop with a small game made of rounds: two seats move once each per round, a PBEM
//! turn covers two rounds. Order lines: `PLAY n` (n 0–3), `REFER` (the rules refer the seat's
//! next decision to the GM with candidates 2 then 1), `ONE ROUND` (HR 14 request), `MISFIT`
//! (the seat's orders no longer fit once a round has ended).

use super::*;
use crate::engine::outcome::{Checkpoint, QuestionKind};
use crate::engine::{
    Answer, Decision, Event, GameRng, Illegal, LineNote, Numbered, OrderError, OrderSheet, Referral, Seat,
    SetupError, SetupSpec, Standing, Viewer,
};
use crate::engine::{Apply, Draw, Game, Orders, Rules, Scoring, Setup, View};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Rounds {
    round: u32,
    moved: u8,
    played: Vec<(u8, u8)>,
    /// A draw from the action's RNG stream, so determinism covers the RNG too.
    luck: Vec<u64>,
}

/// The game of these tests (also used by the registry's tests of the JSON face).
#[derive(Debug)]
pub(crate) struct RoundsGame;

const LAST_ROUND: u32 = 6;

impl Rules for RoundsGame {
    type State = Rounds;
    type Action = u8;
    fn next_decision(&self, s: &Rounds) -> Option<Decision> {
        (s.round < LAST_ROUND).then(|| Decision { seat: Seat(s.moved + 1), prompt: "play 0 to 3".into() })
    }
    fn legal_actions(&self, _s: &Rounds) -> Vec<u8> {
        (0..=3).collect()
    }
    fn default_action(&self, _s: &Rounds) -> Option<u8> {
        Some(0)
    }
}

impl Setup for RoundsGame {
    fn setup(&self, _spec: &SetupSpec, _rng: &mut GameRng) -> Result<Rounds, SetupError> {
        Ok(Rounds { round: 0, moved: 0, played: Vec::new(), luck: Vec::new() })
    }
}

impl Apply for RoundsGame {
    fn apply(&self, s: &mut Rounds, n: &u8, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        if *n > 3 {
            return Err(Illegal(format!("{n} is more than 3")));
        }
        s.played.push((s.moved + 1, *n));
        s.luck.push(rng.below(1000));
        s.moved += 1;
        if s.moved == 2 {
            s.moved = 0;
            s.round += 1;
        }
        Ok(vec![Event::public(format!("played {n}"))])
    }
}

impl Orders for RoundsGame {
    type Order = String;
    fn parse_order(&self, line: &str) -> Result<String, OrderError> {
        Ok(line.to_string())
    }
    fn answer(&self, _s: &Rounds, _d: &Decision, sheet: &mut OrderSheet<String>) -> Answer<u8> {
        let next = sheet.unused().find(|(_, o)| o.order.starts_with("PLAY ") || o.order == "REFER");
        let Some((i, o)) = next.map(|(i, o)| (i, o.clone())) else {
            return Answer { action: None, notes: Vec::new() };
        };
        sheet.used[i] = true;
        let action = o.order.strip_prefix("PLAY ").and_then(|n| n.parse().ok());
        let note = LineNote { line: o.line, executed: action.is_some(), note: o.order.clone() };
        Answer { action, notes: vec![note] }
    }
    fn public_lines(&self, _sheet: &OrderSheet<String>, _notes: &[LineNote]) -> BTreeSet<usize> {
        BTreeSet::new()
    }
    fn refer(&self, _s: &Rounds, _d: &Decision, sheet: &OrderSheet<String>) -> Option<Referral<u8>> {
        let referred = sheet.orders.iter().zip(&sheet.used).any(|(o, used)| *used && o.order == "REFER");
        referred.then(|| Referral { prompt: "which number follows the plan?".into(), candidates: vec![2, 1] })
    }
    fn wants_one_round(&self, sheet: &OrderSheet<String>) -> bool {
        sheet.orders.iter().any(|o| o.order == "ONE ROUND")
    }
    fn misfit(&self, _s: &Rounds, _seat: Seat, sheet: &OrderSheet<String>) -> Option<String> {
        sheet.unused().any(|(_, o)| o.order == "MISFIT").then(|| "the position changed".to_string())
    }
}

impl View for RoundsGame {
    fn view(&self, s: &Rounds, _viewer: Viewer) -> serde_json::Value {
        serde_json::to_value(s).unwrap_or_default()
    }
    fn describe(&self, s: &Rounds, _viewer: Viewer) -> String {
        format!("{s:?}")
    }
}

impl Scoring for RoundsGame {
    fn standings(&self, _s: &Rounds) -> Option<Vec<Standing>> {
        None
    }
}

/// No picture.
impl Draw for RoundsGame {}

impl Game for RoundsGame {
    fn slug(&self) -> &'static str {
        "rounds"
    }
    fn title(&self) -> &'static str {
        "Rounds"
    }
    fn rules_version(&self) -> u32 {
        1
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=2
    }
    fn acting_seats(&self, _s: &Rounds) -> Vec<Seat> {
        vec![Seat(1), Seat(2)]
    }
    fn turn_complete(&self, start: &Rounds, now: &Rounds) -> bool {
        self.rounds_since(start, now) >= 2
    }
    fn rounds_since(&self, start: &Rounds, now: &Rounds) -> u32 {
        now.round - start.round
    }
}

pub(crate) fn start() -> Rounds {
    Rounds { round: 0, moved: 0, played: Vec::new(), luck: Vec::new() }
}

fn sheets(orders: &[(u8, &[&str])]) -> BTreeMap<Seat, OrderSheet<String>> {
    orders
        .iter()
        .map(|(seat, lines)| {
            let numbered = lines
                .iter()
                .enumerate()
                .map(|(i, l)| Numbered { line: i + 1, order: l.to_string() })
                .collect();
            (Seat(*seat), OrderSheet::new(numbered))
        })
        .collect()
}

fn gm(answers: Vec<GmAnswer<u8>>) -> GmInput<u8> {
    GmInput { ask_for: BTreeSet::new(), referrals: true, checkpoints: true, answers }
}

fn run(orders: &[(u8, &[&str])], gm: &GmInput<u8>) -> Adjudicated<RoundsGame> {
    run_turn_asking(&RoundsGame, &start(), 9, 1, sheets(orders), gm).expect("adjudicates")
}

fn done(a: Adjudicated<RoundsGame>) -> TurnResult<RoundsGame> {
    match a {
        Adjudicated::Done(r) => r,
        Adjudicated::Ask(q) => panic!("unexpected question {q:?}"),
    }
}

fn asked(a: Adjudicated<RoundsGame>) -> Question<u8> {
    match a {
        Adjudicated::Ask(q) => q,
        Adjudicated::Done(r) => panic!("no question; played {:?}", r.state.played),
    }
}

fn noted(r: &TurnResult<RoundsGame>, seat: u8, words: &str) -> bool {
    r.notes.get(&Seat(seat)).is_some_and(|n| n.iter().any(|n| n.note.contains(words)))
}

const FULL: &[&str] = &["PLAY 1", "PLAY 1"];

#[test]
fn a_turn_of_a_game_with_rounds_covers_its_rounds() {
    let r = done(run(&[(1, FULL), (2, FULL)], &gm(Vec::new())));
    assert_eq!(r.state.round, 2);
    assert_eq!(r.actions.len(), 4);
    assert!(r.nmr.is_empty());
}

#[test]
fn a_referral_stops_the_turn_with_the_referrals_candidates() {
    let q = asked(run(&[(1, &["REFER", "PLAY 1"]), (2, FULL)], &gm(Vec::new())));
    assert_eq!(q.kind, QuestionKind::Referral);
    assert_eq!((q.number, q.seat), (0, Seat(1)));
    assert_eq!(q.prompt, "which number follows the plan?");
    assert_eq!(q.candidates, vec![2, 1], "ranked as the engine ranked them");
}

#[test]
fn the_gms_answer_to_a_referral_is_played_and_is_no_nmr() {
    let r = done(run(&[(1, &["REFER", "PLAY 1"]), (2, FULL)], &gm(vec![GmAnswer::Move(1)])));
    assert_eq!(r.state.played[0], (1, 1));
    assert!(r.actions[0].2, "the move is not the seat's own order");
    assert!(!r.nmr.contains(&Seat(1)) && !r.defaulted.contains(&Seat(1)));
    assert!(noted(&r, 1, "the GM decided under the rules' referral"), "{:?}", r.notes);
}

#[test]
fn a_referral_is_played_by_its_first_candidate_when_the_gm_chose_not_to_be_asked() {
    let input = GmInput { referrals: false, ..gm(Vec::new()) };
    let r = done(run(&[(1, &["REFER", "PLAY 1"]), (2, FULL)], &input));
    assert_eq!(r.state.played[0], (1, 2));
    assert!(noted(&r, 1, "the GM chose not to be asked"), "{:?}", r.notes);
    assert!(r.nmr.is_empty());
}

#[test]
fn a_move_where_a_checkpoint_answer_was_expected_is_refused() {
    let err = run_turn_asking(
        &RoundsGame,
        &start(),
        9,
        1,
        sheets(&[(1, &["REFER"]), (2, FULL)]),
        &gm(vec![GmAnswer::Checkpoint(Checkpoint::Continue)]),
    )
    .expect_err("kinds differ");
    assert!(matches!(err, AdjudicationError::GmAnswerRefused { number: 0, .. }), "{err}");
}

#[test]
fn house_rule_14_a_seat_asking_for_one_round_ends_the_turn_after_the_first() {
    let r = done(run(&[(1, &["PLAY 1", "ONE ROUND", "PLAY 2"]), (2, FULL)], &gm(Vec::new())));
    assert_eq!(r.state.round, 1);
    assert_eq!(r.actions.len(), 2);
    assert!(noted(&r, 1, "you asked for a one-round turn"));
    assert!(r.events.iter().any(|e| e.public.contains("one-round turn")));
}

#[test]
fn house_rule_14_misfitting_orders_stop_the_turn_with_a_checkpoint_question() {
    let q = asked(run(&[(1, FULL), (2, &["PLAY 1", "MISFIT", "PLAY 3"])], &gm(Vec::new())));
    assert_eq!(q.kind, QuestionKind::Checkpoint);
    assert_eq!((q.number, q.seat), (0, Seat(2)));
    assert!(q.prompt.contains("seat 2: the position changed"), "{}", q.prompt);
    assert!(q.candidates.is_empty());
}

#[test]
fn house_rule_14_the_gm_continues_a_turn_at_its_checkpoint() {
    let r = done(run(
        &[(1, FULL), (2, &["PLAY 1", "MISFIT", "PLAY 3"])],
        &gm(vec![GmAnswer::Checkpoint(Checkpoint::Continue)]),
    ));
    assert_eq!(r.state.round, 2);
    assert_eq!(r.state.played[3], (2, 3));
    assert!(noted(&r, 2, "the turn went on"));
}

#[test]
fn house_rule_14_the_gm_stops_a_turn_after_its_first_round() {
    let r = done(run(
        &[(1, FULL), (2, &["PLAY 1", "MISFIT", "PLAY 3"])],
        &gm(vec![GmAnswer::Checkpoint(Checkpoint::Stop)]),
    ));
    assert_eq!(r.state.round, 1);
    assert!(noted(&r, 2, "the GM ended the turn there"));
    assert!(r.events.iter().any(|e| e.public.contains("The GM ends the turn")));
}

#[test]
fn a_one_round_request_beats_a_checkpoint() {
    let r = done(run(&[(1, &["PLAY 1", "ONE ROUND"]), (2, &["PLAY 1", "MISFIT"])], &gm(Vec::new())));
    assert_eq!(r.state.round, 1);
}

#[test]
fn without_a_gm_in_the_loop_a_misfit_turn_goes_on() {
    let r = run_turn(&RoundsGame, &start(), 9, 1, sheets(&[(1, FULL), (2, &["PLAY 1", "MISFIT"])]))
        .expect("adjudicates");
    assert_eq!(r.state.round, 2);
}

#[test]
fn an_nmr_seat_left_to_the_gm_is_asked_its_move_with_the_default_first() {
    let input = GmInput { ask_for: [Seat(2)].into(), ..gm(Vec::new()) };
    let q = asked(run(&[(1, FULL)], &input));
    assert_eq!((q.kind, q.seat, q.candidates.first()), (QuestionKind::Move, Seat(2), Some(&0)));
}

#[test]
fn answers_to_every_kind_of_question_replay_the_same_turn() {
    let orders: &[(u8, &[&str])] = &[(1, &["REFER", "PLAY 2"]), (2, &["PLAY 1", "MISFIT", "PLAY 3"])];
    let mut answers = Vec::new();
    let mut kinds = Vec::new();
    let first = loop {
        match run(orders, &gm(answers.clone())) {
            Adjudicated::Ask(q) => {
                assert_eq!(q.number, answers.len(), "questions are numbered in the order asked");
                kinds.push(q.kind);
                answers.push(match q.kind {
                    QuestionKind::Checkpoint => GmAnswer::Checkpoint(Checkpoint::Continue),
                    _ => GmAnswer::Move(q.candidates[0]),
                });
            }
            Adjudicated::Done(r) => break r,
        }
    };
    assert_eq!(kinds, vec![QuestionKind::Referral, QuestionKind::Checkpoint]);
    let again = done(run(orders, &gm(answers)));
    assert_eq!(again.state, first.state);
    assert_eq!(again.actions, first.actions);
    assert_eq!(again.notes, first.notes);
}
