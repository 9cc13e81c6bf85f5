//! The shape of a PBEM turn (HR 14, RULINGS K65–K67): how many rounds one turn covers by the
//! game's option, how rounds are counted, and whose orders a multi-round turn awaits.

use super::state::Round;
use super::tests::*;
use super::*;
use crate::adjudication::run_turn;
use crate::engine::Seat;
use crate::engine::prelude::*;
use crate::orders::parse_sheet;
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[test]
fn house_rule_14_a_pbem_turn_covers_two_rounds_and_a_rails_turn_one() {
    let g = engine();
    assert_eq!(game(&g, 4, Value::Null).options.rounds_per_turn, 2, "K65: the PBEM preset");
    assert_eq!(game(&g, 4, json!({"preset": "rails"})).options.rounds_per_turn, 1);
    assert_eq!(game(&g, 4, json!({"rounds_per_turn": 3})).options.rounds_per_turn, 3);
    let refused = g.setup(
        &crate::engine::SetupSpec { seats: 4, options: json!({"rounds_per_turn": 0}) },
        &mut crate::engine::GameRng::for_setup(0),
    );
    assert!(refused.is_err_and(|e| e.0.contains("rounds_per_turn must be 1 to 4")));
}

#[test]
fn a_game_stored_before_the_option_plays_one_round_per_turn() {
    let g = engine();
    let mut stored = serde_json::to_value(game(&g, 4, Value::Null)).expect("encodes");
    stored["options"].as_object_mut().expect("options").remove("rounds_per_turn");
    let s: state::State = serde_json::from_value(stored).expect("an old state decodes");
    assert_eq!(s.options.rounds_per_turn, 1);
}

#[test]
fn rulings_k67_rounds_are_counted_from_round_starts() {
    let g = engine();
    let start = sold_packet(&g, json!({"rounds_per_turn": 2}));
    let mut now = start.clone();
    assert_eq!(g.rounds_since(&start, &now), 0);
    now.round_seq += 1;
    assert_eq!(g.rounds_since(&start, &now), 1);
    assert!(!g.turn_complete(&start, &now), "one round of two");
    now.round_seq += 1;
    assert!(g.turn_complete(&start, &now), "two rounds of two");
    assert_eq!(g.rounds_since(&now, &start), 0, "never negative");
    let one = sold_packet(&g, json!({"rounds_per_turn": 1}));
    let mut after = one.clone();
    after.round_seq += 1;
    assert!(g.turn_complete(&one, &after));
}

#[test]
fn house_rule_14_the_turn_of_the_start_packet_goes_on_into_the_first_operating_round() {
    let g = engine();
    let s = standard(&g, 4, Value::Null);
    let text = [
        "BUY NF\nBUY BY\nBUY OBB",
        "BUY LD\nBUY M4\nBUY M5",
        "BUY M2\nBUY M3\nBUY PFB",
        "BUY M1\nBUY BB\nBUY HB\nBUY M6",
    ];
    let sheets: BTreeMap<_, _> =
        text.iter().enumerate().map(|(i, t)| (Seat::from_index(i), parse_sheet(&g, t, None).0)).collect();
    let r = run_turn(&g, &s, 0, 0, sheets).expect("turn");
    assert_eq!(g.rounds_since(&s, &r.state), 2, "SR1 and OR1 in one turn");
    assert!(matches!(r.state.round, Round::Stock { n: 2 }), "{:?}", r.state.round);
    assert_eq!(r.state.closed.last().map(|c| c.round.as_str()), Some("OR1.1"));
}

#[test]
fn rulings_k66_a_multi_round_turn_awaits_every_players_orders() {
    let g = engine();
    let mut two = sold_packet(&g, Value::Null);
    let mut one = sold_packet(&g, json!({"rounds_per_turn": 1}));
    for s in [&mut two, &mut one] {
        while !matches!(s.round, Round::Operating { .. }) {
            act(&g, s, Action::Pass);
        }
    }
    // Nobody left to operate in this round: a one-round turn awaits nobody's orders, a
    // multi-round turn everyone's (the next round is a stock round).
    two.or.queue.clear();
    one.or.queue.clear();
    assert_eq!(g.acting_seats(&two), (1..=4).map(Seat).collect::<Vec<_>>());
    assert_eq!(g.acting_seats(&one), Vec::<Seat>::new());
}
