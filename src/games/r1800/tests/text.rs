//! The rule defects of issue 35, each against the rules text or the card it reads: the Industrial
//! Policy worked example (RULING E27), a conscript's upkeep (RULING E57), Police State's ability
//! (RULING E83), end-of-turn regiment moves counted per regiment, and Freon Refrigeration holding
//! more than its squares (RULINGS E13, E84).

use super::super::board::collection;
use super::super::orders::Kind;
use super::super::orders::tests::sheet;
use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Orders, Rules};

pub(super) fn military(name: &str) -> u8 {
    game().data().military.iter().position(|m| m.name == name).expect(name) as u8
}

/// Seat 0 (France) in its turn with `name` in force.
fn turn_with(name: &str) -> (State, usize) {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card(name));
    let at = held(&s, 0, name);
    (s, at)
}

#[test]
fn rules_the_industrial_policy_worked_example_three_production_and_an_admin_card_build_a_factory() {
    // "if you've placed three production on an Industrial Policy card, you can activate it during
    // your turn by discarding an Admin Card. When you do, remove the three production from the
    // card, and build a factory."
    let (mut s, ip) = turn_with("Industrial Policy");
    s.players[0].admin = vec![admin("Urbanization")];
    s.players[0].supply = [0, 3, 0];
    let place = Action::Place { card: ip as u8, res: P as u8 };
    for _ in 0..2 {
        game().apply(&mut s, &place, &mut rng()).expect("two production a turn");
    }
    // The third production on a later turn (Industrial Policy places two a turn on a card).
    s.players[0].cards[ip].placed = [0; 3];
    game().apply(&mut s, &place, &mut rng()).expect("a third production square");
    assert_eq!(s.players[0].cards[ip].res, [0, 3, 0]);
    let activate = Action::Activate { card: ip as u8, discard: vec![admin("Urbanization")] };
    assert!(game().legal_actions(&s).contains(&activate));
    game().apply(&mut s, &activate, &mut rng()).expect("the worked example");
    assert_eq!(s.players[0].cards[ip].res, [0; 3], "the three production are removed");
    assert!(s.players[0].admin.is_empty(), "the admin card is discarded");
    let paris = prov("Paris");
    game().apply(&mut s, &Action::Build(paris), &mut rng()).expect("a factory is built");
    assert_eq!(s.provinces[usize::from(paris)].factories, 2);
}

#[test]
fn rules_a_conscripted_pop_eats_one_food_and_produces_nothing() {
    // "While the regiment is conscripted, the pop consumes one food and does not produce resources."
    let mut s = new(2);
    let d = game().data();
    let me = s.players[0].power;
    let before = collection(&s, d, 0);
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(me), conscripted: Some(champagne) });
    let farmer = collection(&s, d, 0);
    assert_eq!(farmer.food_out, before.food_out - 1, "the farmer grows nothing");
    assert_eq!(farmer.food_use, before.food_use + 1, "and eats one food");
    let paris = prov("Paris");
    s.provinces[usize::from(paris)].regiment = Some(Piece { owner: Some(me), conscripted: Some(paris) });
    let laborer = collection(&s, d, 0);
    assert_eq!(laborer.production, before.production - 1, "the laborer makes nothing");
    assert_eq!(laborer.food_use, farmer.food_use, "one food, whether farmer or laborer");
}

#[test]
fn rules_a_conscript_left_from_a_war_is_fed_at_its_owners_next_collection() {
    let mut s = new(2);
    let me = s.players[0].power;
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(me), conscripted: Some(champagne) });
    to_first_turn(&mut s);
    assert_eq!(s.players[0].supply, [0, 2, 1], "3 farmers against 2 laborers and the conscript: no food");
    assert!(s.provinces[usize::from(champagne)].regiment.is_some());
}

#[test]
fn police_state_discards_one_military_card_to_draw_two_admin_cards() {
    let (mut s, ps) = turn_with("Police State");
    let maneuver = military("Expert Maneuver");
    s.players[0].military = vec![maneuver];
    let a = Action::ActivateAlone { card: ps as u8, discard: Vec::new(), military: vec![maneuver] };
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("the ability");
    assert!(s.players[0].military.is_empty());
    assert_eq!(s.military_discard.last(), Some(&maneuver));
    assert_eq!(s.players[0].admin.len(), 2);
    assert!(game().apply(&mut s.clone(), &a, &mut rng()).is_err(), "once a turn");
}

#[test]
fn police_state_ability_is_ordered_by_activate_alone_discard_military() {
    let (s, _) = turn_with("Police State");
    let mut s = s;
    s.players[0].military = vec![military("Expert Maneuver")];
    let line = "ACTIVATE Police State ALONE DISCARD MILITARY Expert Maneuver";
    let k = game().parse_order(line).expect("parses").kind;
    assert!(matches!(k, Kind::Activate { alone: true, ref military, .. } if military.len() == 1));
    let a = game().answer_from(&s, &mut sheet(&[line])).action.expect("an action");
    game().apply(&mut s, &a, &mut rng()).expect("applies");
    assert_eq!(s.players[0].admin.len(), 2);
}

#[test]
fn end_of_turn_moves_count_regiments_so_one_regiment_marches_only_one_province() {
    // Automobile: "move ≤ 4 regiments … to an adjacent one".
    let (mut s, _) = turn_with("Automobile");
    let me = s.players[0].power;
    let regular = Some(Piece { owner: Some(me), conscripted: None });
    s.provinces[usize::from(prov("Champagne"))].regiment = regular;
    s.provinces[usize::from(prov("Acquitaine"))].regiment = regular;
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let first = Action::MoveRegiment { from: prov("Champagne"), to: prov("Paris") };
    game().apply(&mut s, &first, &mut rng()).expect("one step");
    let on = Action::MoveRegiment { from: prov("Paris"), to: prov("Lyon") };
    assert!(!game().legal_actions(&s).contains(&on));
    assert!(game().apply(&mut s.clone(), &on, &mut rng()).is_err(), "that regiment has moved");
    let other = Action::MoveRegiment { from: prov("Acquitaine"), to: prov("Occitanie") };
    game().apply(&mut s, &other, &mut rng()).expect("another regiment may move");
}

#[test]
fn freon_refrigeration_holds_more_than_three_food_and_activation_removes_only_three() {
    let (mut s, fr) = turn_with("Freon Refrigeration");
    s.players[0].supply = [4, 0, 0];
    let place = Action::Place { card: fr as u8, res: F as u8 };
    for _ in 0..4 {
        game().apply(&mut s, &place, &mut rng()).expect("up to 4 food a turn, beyond the squares");
    }
    assert_eq!(s.players[0].cards[fr].res, [4, 0, 0]);
    let a = Action::Activate { card: fr as u8, discard: Vec::new() };
    game().apply(&mut s, &a, &mut rng()).expect("three of four fill the squares");
    assert_eq!(s.players[0].cards[fr].res, [1, 0, 0], "activation removes only 3");
    assert!(matches!(s.pending.first(), Some(Pending { choice: Choice::Pop, .. })));
}
