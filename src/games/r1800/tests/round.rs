//! One test per rule of the round (issue 18 audit): eras and their technologies, global events,
//! the dealer, technologies and their order, end-of-turn moves, policy upkeep, admin-card limits,
//! navies, and the ambitions' points.

use super::super::board;
use super::super::data::{DevType, GlobalEvent};
use super::super::state::*;
use super::{card, game, held, new, prov, rng, settle, to_first_turn};
use crate::engine::{Apply, Rules};

/// The event strikes and every seat it asks is silent (RULING E21's default).
fn event(s: &mut State, e: GlobalEvent) {
    game().global_event(s, e, &mut rng());
    settle(s);
}

/// Deals `n` military cards from the deck to a seat.
fn deal_military(s: &mut State, seat: usize, n: usize) {
    let cards: Vec<u8> = s.military_deck.drain(..n).collect();
    s.players[seat].military = cards;
    s.players[seat].military.sort_unstable();
}

#[test]
fn each_era_shuffles_in_its_technologies_and_eight_global_events() {
    let mut s = new(2);
    let d = game().data();
    assert_eq!(s.event_deck.len(), 7, "round 1 drew one of the era's eight events");
    assert!(s.later_techs.iter().all(|c| d.dev[usize::from(*c)].era > 1));
    assert_eq!(s.later_techs.len(), 60, "RULING E13: 36 technologies for Era II and 24 for Era III");
    s.round = 8;
    s.offer.clear();
    game().start_round(&mut s, &mut rng());
    assert_eq!(s.event_deck.len(), 7);
    assert!(s.later_techs.iter().all(|c| d.dev[usize::from(*c)].era == 3));
    assert_eq!(s.later_techs.len(), 24, "RULING E13: Era III brings 24 technologies");
    assert!(!s.later_techs.contains(&card("Freon Refrigeration")), "RULING E13: Freon came with Era II");
    let telephone = card("Telephone");
    assert!(s.dev_deck.contains(&telephone) || s.offer.contains(&telephone));
}

#[test]
fn the_player_left_of_the_dealer_picks_and_plays_first() {
    let mut s = new(3);
    assert_eq!(s.dealer, 2, "RULING E20: the last seat deals first");
    assert_eq!(s.stage, Stage::Draft { to_pick: vec![0, 1, 2] });
    s.dealer = 0;
    assert_eq!(s.turn_order(), vec![1, 2, 0]);
}

#[test]
fn an_empty_development_deck_is_made_again_from_the_discard_pile() {
    let mut s = new(2);
    s.dev_deck.clear();
    s.dev_discard = vec![card("Oligarchy")];
    assert_eq!(game().draw_dev(&mut s, &mut rng()), Some(card("Oligarchy")));
    assert!(s.dev_discard.is_empty());
}

#[test]
fn a_technology_must_be_of_a_higher_level_than_the_one_in_force_and_levels_may_be_skipped() {
    let mut s = new(2);
    let d = game().data();
    game().adopt(&mut s, 0, card("Industrial Agriculture"));
    game().adopt(&mut s, 0, card("Industrial Agriculture"));
    assert!(board::meets(&s, d, 0, card("Disc Plough")).is_ok(), "RULING E10: a leap is allowed");
    game().adopt(&mut s, 0, card("Disc Plough"));
    let e = board::meets(&s, d, 0, card("Steel Plough")).unwrap_err();
    assert!(e.contains("level or better"), "{e}");
}

#[test]
fn a_covered_policy_returns_its_resources_and_the_new_one_is_in_force() {
    let mut s = new(2);
    let autocracy = held(&s, 0, "Autocracy");
    s.players[0].cards[autocracy].res[C] = 1;
    game().adopt(&mut s, 0, card("Oligarchy"));
    assert!(s.players[0].cards[autocracy].covered);
    assert_eq!(s.players[0].cards[autocracy].res, [0, 0, 0], "RULING E11");
}

#[test]
fn the_first_discovery_of_a_technology_puts_commerce_on_research_institutions() {
    let mut s = new(2);
    game().adopt(&mut s, 0, card("Research Institution"));
    game().adopt(&mut s, 1, card("Research Institution"));
    game().adopt(&mut s, 0, card("Canning"));
    assert_eq!(s.players[0].cards[held(&s, 0, "Research Institution")].res[C], 1);
    game().adopt(&mut s, 1, card("Canning"));
    assert_eq!(s.players[1].cards[held(&s, 1, "Research Institution")].res[C], 0, "already discovered");
}

#[test]
fn landed_gentry_moves_one_pop_to_an_adjacent_controlled_countryside_at_the_end_of_the_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let legal = game().legal_actions(&s);
    assert!(!legal.contains(&Action::MovePop { from: prov("Normandie"), to: prov("Flanders") }));
    let m = Action::MovePop { from: prov("Paris"), to: prov("Champagne") };
    assert!(legal.contains(&m));
    game().apply(&mut s, &m, &mut rng()).unwrap();
    let again = Action::MovePop { from: prov("Lyon"), to: prov("Occitanie") };
    assert!(game().apply(&mut s, &again, &mut rng()).is_err(), "one pop a turn");
}

#[test]
fn roads_move_one_regiment_between_controlled_provinces_at_the_end_of_the_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let me = s.players[0].power;
    s.provinces[usize::from(prov("Champagne"))].regiment = Some(Piece { owner: Some(me), conscripted: None });
    s.provinces[usize::from(prov("Acquitaine"))].regiment =
        Some(Piece { owner: Some(me), conscripted: None });
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let legal = game().legal_actions(&s);
    assert!(!legal.contains(&Action::MoveRegiment { from: prov("Champagne"), to: prov("Flanders") }));
    let m = Action::MoveRegiment { from: prov("Champagne"), to: prov("Paris") };
    assert!(legal.contains(&m));
    game().apply(&mut s, &m, &mut rng()).unwrap();
    let again = Action::MoveRegiment { from: prov("Acquitaine"), to: prov("Occitanie") };
    assert!(game().apply(&mut s, &again, &mut rng()).is_err(), "Roads: one regiment");
}

#[test]
fn a_republic_draws_an_admin_card_when_prosperity_rose_and_discards_one_when_it_fell() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Republic"));
    s.players[0].prosperity = 3;
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    game().apply(&mut s, &Action::EndTurn, &mut rng()).unwrap();
    assert_eq!(s.players[0].admin.len(), 1);
    let mut t = new(2);
    to_first_turn(&mut t);
    game().adopt(&mut t, 0, card("Republic"));
    t.players[0].admin = vec![0];
    t.players[0].prosperity = 1;
    game().apply(&mut t, &Action::EndActions, &mut rng()).unwrap();
    game().apply(&mut t, &Action::EndTurn, &mut rng()).unwrap();
    settle(&mut t);
    assert!(t.players[0].admin.is_empty());
}

#[test]
fn command_economy_costs_an_admin_card_each_turn_or_is_revoked() {
    let mut s = new(2);
    game().adopt(&mut s, 0, card("Command Economy"));
    to_first_turn(&mut s);
    let econ = board::active_card(&s, game().data(), 0, DevType::Policy, 1).expect("economy");
    assert_eq!(econ.name, "Landed Gentry", "RULING E16: the card below is in force again");
    assert!(s.dev_discard.contains(&card("Command Economy")));
}

#[test]
fn unrest_at_home_costs_a_pop_at_prosperity_zero_and_an_occupying_regiment_without_a_military_card() {
    let mut s = new(2);
    let me = s.players[0].power;
    s.players[0].prosperity = 0;
    let hesse = usize::from(prov("Hesse"));
    s.provinces[hesse].regiment = Some(Piece { owner: Some(me), conscripted: None });
    let pops = s.pops_of(usize::from(me));
    event(&mut s, GlobalEvent::UnrestAtHome);
    assert_eq!(s.pops_of(usize::from(me)), pops - 1);
    assert_eq!(s.provinces[hesse].regiment, None);
    assert_eq!(s.pops_of(usize::from(s.players[1].power)), 6, "prosperity 2: no sacrifice");
}

#[test]
fn unrest_overseas_costs_a_route_unless_a_military_card_is_discarded() {
    let mut s = new(2);
    s.players[0].overseas = vec![0];
    s.players[1].overseas = vec![0];
    deal_military(&mut s, 1, 1);
    event(&mut s, GlobalEvent::UnrestOverseas);
    assert!(s.players[0].overseas.is_empty());
    assert_eq!(s.players[1].overseas, vec![0]);
    assert!(s.players[1].military.is_empty());
}

#[test]
fn liberal_revolution_revokes_the_policies_of_a_player_who_cannot_pay_two_military_cards() {
    let mut s = new(2);
    deal_military(&mut s, 0, 2);
    game().adopt(&mut s, 1, card("Oligarchy"));
    s.players[1].admin = vec![0, 1];
    s.dev_discard.push(card("Republic"));
    event(&mut s, GlobalEvent::LiberalRevolution);
    assert!(s.players[0].military.is_empty(), "seat 1 pays");
    let gov = board::active_card(&s, game().data(), 1, DevType::Policy, 0).expect("government");
    assert_eq!(gov.name, "Republic");
    assert!(s.players[1].admin.is_empty());
    assert!(s.dev_discard.contains(&card("Oligarchy")));
}

#[test]
fn migration_lets_a_player_move_one_pop_to_any_adjacent_province_with_room() {
    let mut s = new(2);
    let d = game().data();
    s.event = d.events.iter().position(|e| e.effect == GlobalEvent::Migration).map(|e| e as u8);
    to_first_turn(&mut s);
    let m = Action::Migrate { from: prov("Champagne"), to: prov("Flanders") };
    assert!(game().legal_actions(&s).contains(&m), "control is not needed");
    game().apply(&mut s, &m, &mut rng()).unwrap();
    assert!(!game().legal_actions(&s).iter().any(|a| matches!(a, Action::Migrate { .. })));
}

#[test]
fn a_navy_raids_only_a_player_with_a_smaller_navy() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Navy"));
    s.players[1].overseas = vec![3];
    s.pending.push(Pending { seat: 0, choice: Choice::NavyRaid });
    assert!(game().legal_actions(&s).contains(&Action::Raid { seat: 1, route: 3 }));
    game().adopt(&mut s, 1, card("Navy"));
    assert_eq!(game().legal_actions(&s), vec![Action::Skip]);
}

#[test]
fn trade_routes_are_limited_by_the_communications_technology() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let route = game().data().admin_named("Establish Trade Route").expect("card");
    s.players[0].admin = vec![route];
    let overseas = Target { route: Some(2), ..Target::default() };
    assert!(game().check_admin(&s, 0, route, 0, &overseas).is_ok());
    s.players[0].overseas = vec![0, 1];
    let e = game().check_admin(&s, 0, route, 0, &overseas).unwrap_err();
    assert!(e.contains("no more trade routes"), "{e}");
}

#[test]
fn each_ambition_scores_its_victory_points() {
    let mut s = new(2);
    let d = game().data();
    let named = |n: &str| d.ambitions.iter().position(|a| a.name == n).expect(n) as u8;
    let points = |s: &mut State, n: &str| {
        s.players[0].ambition = named(n);
        game().ambition_points(s, 0)
    };
    game().adopt(&mut s, 0, card("Artists' Society"));
    game().adopt(&mut s, 0, card("Great Works"));
    assert_eq!(points(&mut s, "Culture"), 4);
    game().adopt(&mut s, 0, card("Research Institution"));
    game().adopt(&mut s, 0, card("Maxim Machine Gun"));
    assert_eq!(points(&mut s, "Science"), 2 + 1, "RULING E18: the level-3 technology of a slot");
    assert_eq!(points(&mut s, "Conquest"), 0, "six provinces");
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(prov("Flanders"))].pops[me] = 1;
    s.provinces[usize::from(prov("Flanders"))].pops[NEUTRAL] = 0;
    assert_eq!(points(&mut s, "Conquest"), 1);
    s.provinces[usize::from(prov("Paris"))].pops[me] += 8;
    assert_eq!(points(&mut s, "Growth"), 1, "15 pops");
    game().adopt(&mut s, 0, card("Hospitals"));
    s.players[0].prosperity = 16;
    assert_eq!(points(&mut s, "Welfare"), 1 + 2, "prosperity above the 15 pops");
    game().adopt(&mut s, 0, card("Financial Institution"));
    let fi = held(&s, 0, "Financial Institution");
    s.players[0].cards[fi].res[C] = 2;
    assert_eq!(points(&mut s, "Wealth"), 2);
    s.players[0].overseas = vec![4];
    s.players[0].european = vec![1];
    assert_eq!(points(&mut s, "Commerce"), 2 + 1);
    s.provinces[usize::from(prov("Paris"))].factories = 5;
    assert_eq!(points(&mut s, "Industry"), 6 - 4);
}

#[test]
fn rising_fascism_costs_three_admin_cards_or_else_the_policies_and_brings_a_police_state() {
    let mut s = new(2);
    s.players[0].admin = vec![0, 1, 2];
    s.dev_discard.push(card("Police State"));
    event(&mut s, GlobalEvent::RisingFascism);
    assert!(s.players[0].admin.is_empty(), "seat 1 pays three admin cards");
    let gov =
        |s: &State, i| board::active_card(s, game().data(), i, DevType::Policy, 0).expect("gov").name.clone();
    assert_eq!(gov(&s, 0), "Autocracy");
    assert_eq!(gov(&s, 1), "Police State");
}

#[test]
fn mercantilism_pays_one_more_commerce_without_an_agreement_with_an_equal_or_larger_navy() {
    let mut s = new(2);
    let d = game().data();
    game().adopt(&mut s, 0, card("Mercantilism"));
    assert_eq!(board::collection(&s, d, 0).commerce, 2);
    s.players[0].european = vec![1];
    s.players[1].european = vec![0];
    assert_eq!(board::collection(&s, d, 0).commerce, 1 + 1, "the partner's navy is as large");
    game().adopt(&mut s, 0, card("Navy"));
    assert_eq!(board::collection(&s, d, 0).commerce, 1 + 1 + 1);
}
