//! Rule items where the engine had departed from the rules text (issue 34): the set-up's
//! initiative (RT 3.3), the 5.3.4 worked example, the Treasure Hunt's three segments (RT 6.6),
//! Strasburg open (RT 6.7), repairs during the Player Turn (RT 2.3.3, 7.9) and the two
//! Hanover-Richmond segments (RT 2.3.3).

use super::board;
use super::proptests::game;
use super::state::{Action, ChoiceKind, Contract, Stage, Task};
use super::tests::{apply, moving, put, st, started};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Numbered, OrderSheet, Seat, SetupSpec};

#[test]
fn rule_3_3_the_set_up_high_roller_is_the_initiative_player_of_round_1() {
    let g = game();
    for seed in 0..12u64 {
        let spec = SetupSpec { seats: 4, options: serde_json::Value::Null };
        let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).expect("setup");
        let high_roller = s.order[0];
        let mut n = 0;
        while !matches!(s.stage, Stage::Activate) {
            let a = g.default_action(&s).expect("a default");
            g.apply(&mut s, &a, &mut GameRng::for_action(seed, n)).expect("legal");
            n += 1;
        }
        assert_eq!((s.round, s.active()), (1, high_roller), "seed {seed}: no new roll before Round 1");
    }
}

#[test]
fn rule_5_3_4_whitesville_to_stricklands_depot_through_wilmington_costs_five_mp_as_printed() {
    let g = game();
    let mut s = started(2);
    s.players[0].rrcs.extend([5, 7]);
    put(&mut s, Seat(1), 1, "Whitesville", Some(7));
    s.players[0].trains[0].load = Some(Contract {
        chit: 1,
        pickup: st("Strickland's Depot"),
        dropoff: st("Charleston"),
        picked: false,
    });
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Step { to: st("Wilmington"), fee: false });
    assert_eq!(s.mp, 7, "1 MP into Wilmington, +2 for the Ferry");
    apply(g, &mut s, Action::Step { to: st("Strickland's Depot"), fee: false });
    assert_eq!(s.mp, 5, "1 MP into Strickland's Depot, +1 to change lines: 5 MP in all");
}

#[test]
fn rule_6_6_the_treasure_hunt_rips_up_three_different_segments_not_yet_ripped() {
    let g = game();
    let mut s = started(3);
    s.players[0].specials = vec![6];
    s.bad_rails.insert(12);
    let before = g.treasure_options(&s);
    let ripped_already = before[0];
    s.ripped.insert(ripped_already, 1);
    apply(g, &mut s, Action::TreasureHunt(12));
    let mut chosen = Vec::new();
    for _ in 0..3 {
        let Some(Task::Choose { kind: ChoiceKind::TreasureHunt, options, .. }) = s.tasks.first().cloned()
        else {
            panic!("{:?}", s.tasks)
        };
        assert!(!options.contains(&ripped_already), "a segment already ripped up is no new one");
        assert!(chosen.iter().all(|c| !options.contains(c)), "each segment once");
        let x = options[0];
        chosen.push(x);
        apply(g, &mut s, Action::Choose(x));
    }
    assert_eq!(chosen.iter().filter(|c| s.ripped.get(c) == Some(&1)).count(), 3);
}

#[test]
fn rule_6_7_the_great_train_raid_needs_strasburg_unblocked_by_union_markers_only() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    s.players[0].specials = vec![7];
    for &seg in d.map.segments_at(st("Strasburg")) {
        s.ripped.insert(seg, 1); // ripped up or blown: not a Union-occupied marker
    }
    assert!(g.legal_actions(&s).contains(&Action::GreatTrainRaid));
    for &seg in d.map.segments_at(st("Strasburg")) {
        let x = &d.map.segments[seg];
        s.occupied.insert(x.other(st("Strasburg")).expect("an end"));
    }
    assert!(!g.legal_actions(&s).contains(&Action::GreatTrainRaid), "cut off by the Union");
}

#[test]
fn rule_7_9_the_line_owner_may_repair_a_bridge_while_his_train_moves() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    let seg = d.map.segments_between(st("Atlanta"), st("Marietta"))[0];
    s.players[0].rrcs.extend(d.map.segments[seg].owners.iter().copied());
    s.bridges_out.insert(seg);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: false });
    moving(&mut s, 1, 10);
    let m = s.players[0].money;
    apply(g, &mut s, Action::RepairBridge(seg));
    assert!(s.bridges_out.is_empty() && s.players[0].money == m - 300);
    assert!(matches!(s.stage, Stage::Move { train: 1 }), "the train moves on");
}

#[test]
fn rule_2_3_3_either_hanover_richmond_segment_can_be_named_and_cleared() {
    let g = game();
    let d = g.data();
    let pair = d.map.segments_between(st("Hanover"), st("Richmond"));
    assert_eq!(pair.len(), 2);
    let second = pair[1];
    let line = d.map.segments[second].owners[0];
    assert!(board::segment_name(d, second).ends_with(&format!("(#{line})")));
    let mut s = started(2);
    s.players[0].rrcs.extend(pair.iter().flat_map(|g| d.map.segments[*g].owners.clone()));
    for text in ["CLEAR Hanover, Richmond".to_string(), format!("CLEAR Hanover, Richmond ON {line}")] {
        s.ripped = [(second, 1)].into_iter().collect();
        let orders = vec![Numbered { line: 1, order: g.parse_order(&text).expect("parses") }];
        let mut sheet = OrderSheet::new(orders);
        let decision = g.next_decision(&s).expect("decision");
        let a = g.answer(&s, &decision, &mut sheet);
        assert_eq!(a.action, Some(Action::RemoveRipped(second)), "{text}");
    }
    s.ripped = pair.iter().map(|g| (*g, 1)).collect();
    let first_line = d.map.segments[pair[0]].owners[0];
    let orders = vec![Numbered {
        line: 1,
        order: g.parse_order(&format!("CLEAR Richmond, Hanover ON {line}")).expect("parses"),
    }];
    let mut sheet = OrderSheet::new(orders);
    let decision = g.next_decision(&s).expect("decision");
    assert_eq!(g.answer(&s, &decision, &mut sheet).action, Some(Action::RemoveRipped(second)));
    assert_ne!(first_line, line);
}

/// The answer a one-line sheet gives to the next decision.
fn answer_line(s: &super::state::State, text: &str) -> Option<Action> {
    let g = game();
    let orders = vec![Numbered { line: 1, order: g.parse_order(text).expect("parses") }];
    let mut sheet = OrderSheet::new(orders);
    let decision = g.next_decision(s).expect("decision");
    g.answer(s, &decision, &mut sheet).action
}

#[test]
fn rule_7_9_a_clear_line_answers_while_the_owners_train_moves() {
    let g = game();
    let d = g.data();
    let mut s = started(2);
    let seg = d.map.segments_between(st("Atlanta"), st("Marietta"))[0];
    s.players[0].rrcs.extend(d.map.segments[seg].owners.iter().copied());
    s.ripped.insert(seg, 1);
    put(&mut s, Seat(1), 1, "Atlanta", None);
    s.players[0].trains[0].load =
        Some(Contract { chit: 1, pickup: st("Memphis"), dropoff: st("Charleston"), picked: false });
    moving(&mut s, 1, 10);
    assert_eq!(answer_line(&s, "CLEAR Atlanta, Marietta"), Some(Action::RemoveRipped(seg)));
}

#[test]
fn rule_2_3_3_a_choose_line_and_the_echo_name_one_hanover_richmond_segment_by_its_line() {
    let g = game();
    let d = g.data();
    let pair = d.map.segments_between(st("Hanover"), st("Richmond"));
    let line = d.map.segments[pair[1]].owners[0];
    let mut s = started(2);
    let kind = ChoiceKind::BridgeCollapse;
    s.tasks.insert(0, Task::Choose { seat: Seat(1), kind, options: pair.clone(), optional: false });
    let on = format!("CHOOSE COLLAPSE Hanover, Richmond ON {line}");
    assert_eq!(answer_line(&s, &on), Some(Action::Choose(pair[1])));
    assert_eq!(answer_line(&s, "CHOOSE COLLAPSE Hanover, Richmond"), Some(Action::Choose(pair[0])));
    let lines = [format!("CLEAR Hanover, Richmond ON {line}"), "CLEAR Hanover, Richmond ON 1".to_string()];
    let orders: Vec<Numbered<_>> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| Numbered { line: i + 1, order: g.parse_order(t).expect("parses") })
        .collect();
    let e: Vec<String> =
        g.advise_sheet(&s, Seat(1), &orders).into_iter().map(Option::unwrap_or_default).collect();
    assert!(!e[0].contains("unknown station") && !e[0].contains("no segment"), "{}", e[0]);
    assert!(e[1].contains("no segment joins Hanover and Richmond ON 1"), "{}", e[1]);
}
