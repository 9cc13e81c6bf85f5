//! The order language: parsing with readable errors, the draft by ranked preferences, IF/ELSE,
//! the silent seat's default, and what is published.

use super::super::proptests::game;
use super::super::state::*;
use super::*;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Numbered, OrderSheet, SetupSpec};

/// An order sheet of these lines, numbered from 1.
pub(in crate::games::r1800) fn sheet(lines: &[&str]) -> OrderSheet<Order> {
    OrderSheet::new(
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| Numbered { line: i + 1, order: game().parse_order(l).expect(l) })
            .collect(),
    )
}

fn new() -> State {
    game()
        .setup(&SetupSpec { seats: 2, options: serde_json::Value::Null }, &mut GameRng::for_setup(7))
        .expect("setup")
}

fn card(name: &str) -> u16 {
    game().data().dev_named(name).expect(name)
}

#[test]
fn orders_name_cards_and_provinces_in_any_case_and_spacing() {
    let o = game().parse_order("move pop st petersburg to livonia").expect("parses");
    let d = game().data();
    assert_eq!(
        o.kind,
        Kind::MovePop {
            from: d.province_named("St. Petersburg").unwrap(),
            to: d.province_named("Livonia").unwrap()
        }
    );
    assert!(matches!(
        game().parse_order("PLACE 3 p ON standing army").unwrap().kind,
        Kind::Place { n: 3, res: 1, .. }
    ));
    assert!(matches!(
        game().parse_order("PLAY Seize Production MILITARY").unwrap().kind,
        Kind::Play { args: PlayArgs { option: 1, .. }, .. }
    ));
}

#[test]
fn the_parser_refuses_a_line_with_a_multibyte_character_where_a_keyword_ends() {
    // The orders fuzz target's first finding (2026-11-27): trying a five-letter keyword such as
    // `PLACE` on this line cut it at byte 5, inside the two-byte '۶', and the slice panicked.
    for line in ["PLAY\u{6f6}F NORTH ELRE P\\T", "IF\u{e9} x THEN PASS", "é", "MOVE\u{1f682}"] {
        let e = game().parse_order(line).expect_err(line);
        assert!(!e.0.is_empty(), "{line}: a reason the player can read");
    }
}

#[test]
fn a_line_the_game_cannot_read_says_why() {
    let e = game().parse_order("PLACE 2 X ON Autocracy").unwrap_err();
    assert!(e.0.contains("not a resource"), "{e}");
    let e = game().parse_order("BUILD Atlantis").unwrap_err();
    assert!(e.0.contains("no province \"Atlantis\""), "{e}");
    let e = game().parse_order("FLY Paris").unwrap_err();
    assert!(e.0.contains("unknown order"), "{e}");
    let e = game().parse_order("PLAY Espionage").unwrap_err();
    assert!(e.0.contains("PLAY Espionage STEAL <power> FROM"), "{e}");
}

#[test]
fn the_draft_takes_the_first_preference_still_offered_and_legal_and_says_why_others_were_skipped() {
    let mut s = new();
    s.offer = vec![card("Canning"), card("Oligarchy"), card("Great Works")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    let mut sh = sheet(&["DRAFT Standing Army, Canning, Oligarchy, Great Works"]);
    let a = game().answer_from(&s, &mut sh);
    assert_eq!(a.action, Some(Action::Pick(1)));
    let note = &a.notes[0].note;
    assert!(note.contains("took Oligarchy"), "{note}");
    assert!(note.contains("Standing Army is not offered"), "{note}");
    assert!(note.contains("needs 3 factories"), "{note}");
}

#[test]
fn a_draft_list_with_nothing_left_passes() {
    let mut s = new();
    s.offer = vec![card("Great Works")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    let a = game().answer_from(&s, &mut sheet(&["DRAFT Oligarchy"]));
    assert_eq!(a.action, Some(Action::PassPick));
}

#[test]
fn place_n_stays_in_force_until_n_went_on_the_card() {
    let mut s = new();
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(&mut s, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    s.players[0].supply = [0, 3, 0];
    game().adopt(&mut s, 0, card("Great Works"));
    game().adopt(&mut s, 0, card("State Ownership"));
    let mut sh = sheet(&["PLACE 2 P ON Great Works", "PLACE P ON Early Industrialization"]);
    for _ in 0..2 {
        let a = game().answer_from(&s, &mut sh).action.expect("a placement");
        assert!(matches!(a, Action::Place { .. }));
        game().apply(&mut s, &a, &mut GameRng::for_action(1, 2)).unwrap();
    }
    assert_eq!(sh.used, vec![true, false]);
}

#[test]
fn if_then_else_reads_the_position_when_the_line_is_tried() {
    let mut s = new();
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(&mut s, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    let lines = ["IF C >= 5 THEN PLACE C ON Autocracy ELSE PLACE P ON Early Industrialization"];
    let a = game().answer_from(&s, &mut sheet(&lines)).action.expect("the ELSE branch");
    let ei = s.players[0].cards.iter().position(|h| h.card == card("Early Industrialization")).unwrap() as u8;
    assert_eq!(a, Action::Place { card: ei, res: P as u8 });
}

#[test]
fn a_silent_seat_passes_collects_and_plays_nothing() {
    let s = new();
    assert!(game().next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(game().default_action(&s), Some(Action::PassPick));
    let mut t = s.clone();
    while matches!(t.stage, Stage::Draft { .. }) {
        game().apply(&mut t, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    assert!(game().next_decision(&t).is_some(), "a decision is pending");
    assert_eq!(game().default_action(&t), Some(Action::EndActions));
}

#[test]
fn draft_lists_and_if_lines_are_never_published() {
    let mut s = new();
    s.offer = vec![card("Oligarchy")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    let mut sh = sheet(&["DRAFT Standing Army, Oligarchy"]);
    let a = game().answer_from(&s, &mut sh);
    assert!(a.notes[0].executed);
    assert!(game().public_lines(&sh, &a.notes).is_empty());
}

#[test]
fn a_conquest_ambition_declares_war_by_order_at_the_end_of_its_turn() {
    let mut s = new();
    let d = game().data();
    s.players[0].ambition = d.ambitions.iter().position(|a| a.name == "Conquest").unwrap() as u8;
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(&mut s, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    let prussia = s.players[1].power;
    let mut sh = sheet(&["declare war on prussia"]);
    assert_eq!(game().answer_from(&s, &mut sh).action, None, "kept for the end of the turn");
    game().apply(&mut s, &Action::EndActions, &mut GameRng::for_action(1, 2)).unwrap();
    let a = game().answer_from(&s, &mut sh);
    assert_eq!(a.action, Some(Action::Declare(prussia)));
    game().apply(&mut s, &a.action.unwrap(), &mut GameRng::for_action(1, 3)).unwrap();
    assert!(s.players[0].revealed);
    let mut t = new();
    while matches!(t.stage, Stage::Draft { .. }) {
        game().apply(&mut t, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    t.players[0].ambition = d.ambitions.iter().position(|a| a.name == "Culture").unwrap() as u8;
    game().apply(&mut t, &Action::EndActions, &mut GameRng::for_action(1, 2)).unwrap();
    let a = game().answer_from(&t, &mut sheet(&["DECLARE Prussia"]));
    assert_eq!(a.action, None);
    assert!(a.notes[0].note.contains("needs the Conquest ambition"), "{}", a.notes[0].note);
}

#[test]
fn move_c_takes_commerce_off_a_financial_institution_by_name() {
    let mut s = new();
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(&mut s, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    game().adopt(&mut s, 0, card("Financial Institution"));
    let fi = s.players[0].cards.len() - 1;
    s.players[0].cards[fi].res[C] = 1;
    let a = game().answer_from(&s, &mut sheet(&["MOVE C FROM Financial Institution TO Autocracy"]));
    let autocracy = s.players[0].cards.iter().position(|h| h.card == card("Autocracy")).unwrap();
    assert_eq!(a.action, Some(Action::Shift { from: fi as u8, to: autocracy as u8 }));
    assert!(game().parse_order("MOVE C Autocracy").unwrap_err().0.contains("MOVE C FROM"));
}

fn admin(name: &str) -> u8 {
    game().data().admin_named(name).expect(name)
}

#[test]
fn a_card_with_several_options_is_played_by_naming_the_option() {
    let d = game().data();
    let p = |l: &str| match game().parse_order(l).expect(l).kind {
        Kind::Play { args, .. } => args,
        k => panic!("{k:?}"),
    };
    let a = p("PLAY Diplomatic Action CONQUEST Switzerland FROM Lyon DISCARD Expert Maneuver");
    assert_eq!((a.option, a.to, a.from), (1, d.province_named("Switzerland"), d.province_named("Lyon")));
    assert_eq!(a.military.len(), 1);
    assert_eq!(p("PLAY Diplomatic Action RETALIATE ON Prussia").option, 0);
    assert_eq!(p("PLAY Diplomatic Action TRADE WITH Prussia").power, Some(2));
    let a = p("PLAY Espionage SABOTAGE P ON Great Works OF Prussia FROM Autocracy");
    assert_eq!((a.option, a.res, a.power), (1, Some(P), Some(2)));
    assert_eq!(p("PLAY Espionage REBELLION IN Champagne FROM #1").to, d.province_named("Champagne"));
    assert_eq!(p("PLAY Free Enterprise MOVE C FROM Financial Institution TO Stock Exchange").option, 1);
    assert_eq!(p("PLAY Seize Production MILITARY").option, 1);
    assert_eq!(p("PLAY Accelerate Development").option, 0);
    assert_eq!(game().parse_order("RETALIATE ON Prussia").unwrap().kind, Kind::Retaliate(2));
}

#[test]
fn a_bad_order_for_a_new_card_says_how_to_write_it() {
    for (line, words) in [
        ("PLAY Espionage SABOTAGE X ON Great Works OF Prussia FROM Autocracy", "SABOTAGE [1|2|3] P|F ON"),
        ("PLAY Espionage STEAL Prussia", "STEAL <power> FROM"),
        ("PLAY Diplomatic Action CONQUEST", "CONQUEST <province>"),
        ("PLAY Policy Initiative NOW", "takes nothing more"),
        ("PLAY Free Enterprise MOVE C Autocracy", "MOVE C FROM"),
    ] {
        let e = game().parse_order(line).unwrap_err();
        assert!(e.0.contains(words), "{line}: {e}");
    }
}

#[test]
fn accelerate_development_by_order_is_played_before_the_draft_and_silence_declines() {
    let mut s = new();
    s.players[0].admin = vec![admin("Accelerate Development")];
    game().open_draft(&mut s);
    let mut sh = sheet(&["DRAFT Oligarchy", "PLAY Accelerate Development"]);
    let a = game().answer_from(&s, &mut sh);
    assert!(matches!(a.action, Some(Action::Admin { .. })), "{a:?}");
    let mut quiet = sheet(&["DRAFT Oligarchy"]);
    let d = game().next_decision(&s).unwrap();
    assert_eq!(game().answer(&s, &d, &mut quiet).action, Some(Action::Skip));
}

#[test]
fn a_draft_list_serves_both_picks_of_a_policy_initiative() {
    let mut s = new();
    s.offer = vec![card("Oligarchy"), card("Great Works"), card("Republic")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    s.players[0].admin = vec![admin("Policy Initiative")];
    let mut sh = sheet(&["PLAY Policy Initiative", "DRAFT Republic, Great Works"]);
    for want in ["Republic", "Great Works"] {
        let a = game().answer_from(&s, &mut sh).action.expect("an action");
        game().apply(&mut s, &a, &mut GameRng::for_action(1, 1)).unwrap();
        if matches!(a, Action::Admin { .. }) {
            let a = game().answer_from(&s, &mut sh).action.expect("a pick");
            game().apply(&mut s, &a, &mut GameRng::for_action(1, 2)).unwrap();
        }
        assert!(s.players[0].cards.iter().any(|h| h.card == card(want)), "{want}");
    }
}

#[test]
fn retaliate_by_order_plays_diplomatic_action_on_a_raider_at_the_round_end_and_explains_a_refusal() {
    let mut s = new();
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(&mut s, &Action::PassPick, &mut GameRng::for_action(1, 1)).unwrap();
    }
    game().grieve(&mut s, 1, 0, true);
    s.stage = Stage::Reprisal { to_ask: vec![1] };
    let diplomatic = game().data().admin_named("Diplomatic Action").unwrap();
    s.players[1].admin = vec![diplomatic];
    let mut sh = sheet(&["RETALIATE ON Austria", "RETALIATE ON France"]);
    let a = game().answer_from(&s, &mut sh);
    assert!(a.notes[0].note.contains("cannot be declared"), "{:?}", a.notes);
    let on_france = Target { seat: Some(0), ..Target::default() };
    assert_eq!(a.action, Some(Action::Admin { card: diplomatic, option: 0, target: on_france }));
}
