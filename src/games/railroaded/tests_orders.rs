//! Tests of the order language: parsing and printing, answering from a sheet (ELSE, later
//! lines, notes), advice, and a whole PBEM turn through the generic turn loop.

use super::cards::Dir;
use super::state::{Action, Phase};
use super::tests::{CHAINS, act, claim_table, f, game, table};
use crate::adjudication::run_turn;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Numbered, OrderSheet, Seat, SetupSpec};
use crate::orders::parse_sheet;
use std::collections::BTreeMap;

fn canon(line: &str) -> String {
    game().parse_order(line).map(|o| o.to_string()).unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn orders_print_in_canonical_form_and_parse_back() {
    let cases = [
        ("claim 7h north", "CLAIM 7H NORTH"),
        ("CLAIM hearts n", "CLAIM HEARTS NORTH"),
        ("claim spade", "CLAIM SPADES"),
        ("claim 7H", "CLAIM 7H"),
        ("play ts e", "PLAY 10S EAST"),
        ("PLAY 7♥ N", "PLAY 7H NORTH"),
        ("Play 10s East else link 9S w", "PLAY 10S EAST ELSE LINK 9S WEST"),
        ("move station n to e", "MOVE STATION NORTH TO EAST"),
        ("move station s", "MOVE STATION SOUTH"),
        ("jump ah south", "JUMP AH SOUTH"),
        ("draw", "DRAW"),
        ("PLAY QD W ELSE DRAW", "PLAY QD WEST ELSE DRAW"),
    ];
    let g = game();
    for (line, want) in cases {
        assert_eq!(canon(line), want, "{line}");
        assert_eq!(g.parse_order(want).ok(), g.parse_order(line).ok(), "{want} parses back");
    }
}

#[test]
fn order_errors_say_what_was_expected() {
    let cases = [
        ("PLAY ZH NORTH", "unknown card 'ZH': a card is a rank A,2-10,J,Q,K and a suit H,D,C,S"),
        ("PLAY 7H UP", "unknown compass point 'UP'"),
        ("PLAY 7H", "PLAY needs a compass point"),
        ("LINK NORTH", "unknown card 'NORTH'"),
        ("JUMP 7H SOUTH", "JUMP needs an Ace, not 7H"),
        ("FLY 7H", "unknown order 'FLY'"),
        ("PLAY 7H NORTH ELSE", "an empty alternative"),
        ("DRAW 2", "unexpected '2'"),
        ("MOVE 7H", "write MOVE STATION"),
        ("CLAIM 1H", "or name a suit"),
        ("MOVE STATION NORTH TO", "TO needs a compass point"),
    ];
    for (line, want) in cases {
        let got = canon(line);
        assert!(got.starts_with("error: ") && got.contains(want), "{line}: {got}");
    }
}

fn sheet(lines: &[&str]) -> OrderSheet<super::Order> {
    let g = game();
    OrderSheet::new(
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| Numbered { line: i + 1, order: g.parse_order(l).expect("test order") })
            .collect(),
    )
}

#[test]
fn answer_falls_through_else_and_later_lines_and_says_why() {
    let g = game();
    let s = table(CHAINS, ["8H 9S 2C", "", "", ""], "3D 4D");
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&["PLAY 7D NORTH", "DRAW ELSE PLAY 2C NORTH ELSE PLAY 9S EAST", "PLAY 8H NORTH"]);
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Play { card: f("9S"), dir: Dir::East }));
    assert_eq!(sh.used, vec![false, true, false]);
    assert_eq!((a.notes[0].line, a.notes[0].executed), (1, false));
    assert_eq!(a.notes[0].note, "PLAY 7D NORTH: you do not hold 7D");
    assert!(a.notes[1].executed);
    assert!(
        a.notes[1].note.starts_with("play 9S on the East chain (not DRAW: you can play 8H"),
        "{}",
        a.notes[1].note
    );
    assert!(a.notes[1].note.contains("not PLAY 2C NORTH: 2C does not fit the North chain (ends in 7H)"));
    // The used line is not consulted again; an unusable sheet gives no action.
    let a = g.answer(&s, &d, &mut sheet(&["PLAY 2C WEST"]));
    assert_eq!(a.action, None);
}

#[test]
fn move_station_without_from_needs_a_single_candidate() {
    let g = game();
    let s = table(["7H 10S!", "9D 9S", "4C", "QS 9D~"], ["2C", "", "", ""], "3D 4D");
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(
        &s,
        &d,
        &mut sheet(&["MOVE STATION EAST", "MOVE STATION SOUTH", "MOVE STATION WEST TO EAST"]),
    );
    assert_eq!(a.action, Some(Action::MoveStation { from: Dir::West, to: Dir::East }));
    assert!(
        a.notes[0].note.contains("ambiguous: the Stations on the North and West chains"),
        "{}",
        a.notes[0].note
    );
    assert!(a.notes[0].note.contains("MOVE STATION NORTH TO EAST"));
    assert!(
        a.notes[1].note.contains("the Station 10S on the North chain does not fit the South chain"),
        "{}",
        a.notes[1].note
    );
    let a = g.answer(&s, &d, &mut sheet(&["MOVE STATION NORTH"]));
    assert_eq!(a.action, None);
    assert!(a.notes[0].note.contains("placed by a linking play"), "{}", a.notes[0].note);
}

#[test]
fn a_claim_may_leave_out_the_compass_point_only_when_one_is_left() {
    let g = game();
    let s = g
        .setup(&SetupSpec { seats: 4, options: serde_json::Value::Null }, &mut GameRng::for_setup(5))
        .unwrap();
    let d = g.next_decision(&s).unwrap();
    let card = s.hand(Seat(1))[0].face;
    let a = g.answer(&s, &d, &mut sheet(&[&format!("CLAIM {card}")]));
    assert_eq!(a.action, None);
    assert!(
        a.notes[0].note.contains("name a compass point: NORTH, EAST, SOUTH, WEST are free"),
        "{:?}",
        a.notes
    );
    let a = g.answer(&s, &d, &mut sheet(&["PLAY 7H NORTH", &format!("CLAIM {card} WEST")]));
    assert_eq!(a.action, Some(Action::Claim { card, dir: Dir::West }));
    assert!(a.notes[0].note.contains("it is the claim round"));
}

#[test]
fn advice_warns_about_cards_not_held() {
    let g = game();
    let s = table(CHAINS, ["8H", "", "", ""], "3D 4D");
    let o = g.parse_order("PLAY 8D NORTH ELSE JUMP AD EAST ELSE PLAY 8H NORTH").unwrap();
    assert_eq!(
        g.advise(&s, Seat(1), &o).as_deref(),
        Some("you do not hold 8D; AD is not the Ace of your suit (Hearts); you do not hold AD")
    );
    assert_eq!(g.advise(&s, Seat(1), &g.parse_order("PLAY 8H NORTH").unwrap()), None);
}

#[test]
fn a_whole_round_runs_through_the_turn_loop_with_a_default_for_the_silent_seat() {
    let g = game();
    let mut s = table(CHAINS, ["3C 2S", "9H", "KS", "8H 9C"], "3D 4D 5D 6D 7D 8D 9D 10D");
    s.to_move = Seat(4);
    let texts = [
        (Seat(4), "PLAY 9C NORTH ELSE PLAY 8H NORTH"),
        (Seat(1), "DRAW\nPLAY 3C SOUTH # my only play"),
        (Seat(3), "PLAY KS WEST"),
    ];
    let sheets: BTreeMap<Seat, _> =
        texts.iter().map(|(seat, t)| (*seat, parse_sheet(&g, t, None).0)).collect();
    let r = run_turn(&g, &s, 7, 10, sheets).expect("the turn runs");
    let acted: Vec<(u8, Action, bool)> = r.actions.iter().map(|(seat, a, d)| (seat.0, *a, *d)).collect();
    assert_eq!(
        acted,
        vec![
            (4, Action::Play { card: f("8H"), dir: Dir::North }, false),
            (1, Action::Play { card: f("3C"), dir: Dir::South }, false),
            (2, Action::Play { card: f("9H"), dir: Dir::North }, true),
            (3, Action::Play { card: f("KS"), dir: Dir::West }, false),
        ]
    );
    assert_eq!(r.nmr.iter().copied().collect::<Vec<_>>(), vec![Seat(2)]);
    assert_eq!(r.state.to_move, Seat(4));
    assert_eq!(r.state.terminal.len(), 4);
    let notes1 = &r.notes[&Seat(1)];
    assert!(!notes1[0].executed && notes1[0].note.contains("you must play if you can"));
    assert!(notes1[1].executed);
    assert!(r.events.iter().any(|e| e.public == "seat 2 played 9H on the North chain"));
}

#[test]
fn a_pbem_turn_is_the_claim_round_then_rounds_of_four_player_turns() {
    let g = game();
    let claim = claim_table();
    let mut after = claim.clone();
    after.phase = Phase::Play;
    assert!(g.turn_complete(&claim, &after));
    let start = table(CHAINS, ["", "", "", ""], "3D 4D 5D 6D 7D 8D 9D 10D 2S");
    let mut now = start.clone();
    for _ in 0..3 {
        act(&g, &mut now, Action::DrawTwo).unwrap();
        assert!(!g.turn_complete(&start, &now));
    }
    act(&g, &mut now, Action::DrawTwo).unwrap();
    assert!(g.turn_complete(&start, &now));
}

#[test]
fn house_rule_16_orders_that_cannot_be_carried_out_are_reported_but_not_an_nmr() {
    let g = game();
    let mut s = table(CHAINS, ["3C 2S", "9H", "KS", "8H 9C"], "3D 4D 5D 6D 7D 8D 9D 10D");
    s.to_move = Seat(4);
    let texts = [(Seat(4), "PLAY 8H NORTH"), (Seat(1), "DRAW"), (Seat(3), "PLAY KS WEST")];
    let sheets: BTreeMap<Seat, _> =
        texts.iter().map(|(seat, t)| (*seat, parse_sheet(&g, t, None).0)).collect();
    let r = run_turn(&g, &s, 7, 10, sheets).expect("the turn runs");
    assert!(r.defaulted.contains(&Seat(1)), "seat 1's only line could not be carried out");
    assert_eq!(r.nmr.iter().copied().collect::<Vec<_>>(), vec![Seat(2)], "only the silent seat is NMR");
    assert!(r.notes[&Seat(1)].iter().any(|n| !n.executed && n.line == 1), "{:?}", r.notes[&Seat(1)]);
}

fn played(line: usize) -> crate::engine::LineNote {
    crate::engine::LineNote { line, executed: true, note: "done".into() }
}

#[test]
fn a_played_line_without_alternatives_is_public_and_alternatives_or_unplayed_lines_are_not() {
    let g = game();
    let sheet = parse_sheet(&g, "PLAY JH EAST ELSE PLAY JD EAST\nDRAW\nPLAY 7S NORTH", None).0;
    let not_played = crate::engine::LineNote { line: 3, executed: false, note: "no".into() };
    // RULING P1: line 1 was played but names JD as an alternative; line 3 was never played.
    let public = g.public_lines(&sheet, &[played(1), played(2), not_played]);
    assert_eq!(public.into_iter().collect::<Vec<_>>(), vec![2]);
}

#[test]
fn a_line_with_else_publishes_what_it_carried_out_and_never_its_other_alternatives() {
    use crate::engine::LineNote;
    let g = game();
    let sheet = OrderSheet::new(vec![
        Numbered { line: 1, order: g.parse_order("PLAY 8H NORTH ELSE PLAY 8D EAST").unwrap() },
        Numbered { line: 2, order: g.parse_order("PLAY 9S WEST ELSE DRAW").unwrap() },
        Numbered { line: 3, order: g.parse_order("DRAW").unwrap() },
    ]);
    let notes = [
        LineNote {
            line: 1,
            executed: true,
            note: "play 8D on the East chain (not PLAY 8H NORTH: you do not hold 8H)".into(),
        },
        LineNote { line: 2, executed: false, note: "PLAY 9S WEST: you do not hold 9S; DRAW: not now".into() },
        LineNote { line: 3, executed: true, note: "draw two cards".into() },
    ];
    let parts = g.played_parts(&sheet, &notes);
    assert_eq!(parts.get(&1).map(String::as_str), Some("play 8D on the East chain"));
    assert!(!parts.contains_key(&2), "a line not carried out publishes nothing");
    assert!(!parts.contains_key(&3), "a line without ELSE is public whole, not in part");
    assert!(g.public_lines(&sheet, &notes).contains(&3));
}

#[test]
fn the_order_builder_offers_every_legal_claim_of_each_acting_seat_as_a_line_the_language_reads() {
    let g = game();
    let s = g
        .setup(&SetupSpec { seats: 4, options: serde_json::Value::Null }, &mut GameRng::for_setup(7))
        .unwrap();
    for seat in [Seat(1), Seat(2), Seat(3), Seat(4)] {
        let choices = g.choices(&s, seat);
        assert_eq!(choices.len(), 1, "one decision: the claim");
        let hand = s.hand_faces(seat);
        for line in &choices[0].lines {
            let order = g.parse_order(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
            assert_eq!(order.to_string(), *line, "the builder writes canonical lines");
            let named = line.split_whitespace().nth(1).unwrap();
            assert!(
                hand.iter().any(|c| c.to_string() == named)
                    || ["HEARTS", "DIAMONDS", "CLUBS", "SPADES"].contains(&named),
                "{line}: only the seat's own cards"
            );
        }
    }
}
