//! One test per rule, named after it.

mod alone;
mod builder;
mod cards;
mod costs;
mod decisions;
mod items;
mod items_tech;
mod position;
mod round;
mod silence;
mod text;
mod turn_ends;
mod up_to;
mod welfare;
mod wrongs;

use super::data::DevType;
use super::proptests::game;
use super::state::*;
use crate::engine::prelude::*;
use crate::engine::{GameRng, SetupSpec};

fn new(seats: u8) -> State {
    game()
        .setup(&SetupSpec { seats, options: serde_json::Value::Null }, &mut GameRng::for_setup(7))
        .expect("setup")
}

fn rng() -> GameRng {
    GameRng::for_action(1, 1)
}

fn prov(name: &str) -> u16 {
    game().data().province_named(name).expect(name)
}

fn card(name: &str) -> u16 {
    game().data().dev_named(name).expect(name)
}

/// Everyone passes in the draft: seat 1's turn begins.
fn to_first_turn(s: &mut State) {
    while matches!(s.stage, Stage::Draft { .. }) {
        game().apply(s, &Action::PassPick, &mut rng()).expect("pass");
    }
}

/// Answers every open choice as a silent seat would (the engine's default).
fn settle(s: &mut State) {
    while !s.pending.is_empty() {
        let a = game().default_action(s).expect("a default");
        game().apply(s, &a, &mut rng()).expect("the default applies");
    }
}

fn held(s: &State, seat: usize, name: &str) -> usize {
    s.players[seat].cards.iter().rposition(|h| h.card == card(name)).expect(name)
}

#[test]
fn a_standard_start_collects_two_food_two_production_and_one_commerce() {
    let mut s = new(2);
    to_first_turn(&mut s);
    assert_eq!(s.players[0].supply, [2, 2, 1]);
}

#[test]
fn a_player_plays_six_pops_four_farmers_and_two_laborers_at_the_start() {
    let s = new(3);
    let w = super::board::workforce(&s, game().data(), 0);
    assert_eq!((w.farmers, w.laborers, w.bourgeois, w.regiments), (4, 2, 0, 0));
}

#[test]
fn a_regiment_controls_its_province_whatever_the_pops() {
    let mut s = new(2);
    let champagne = prov("Champagne");
    assert!(s.controls(0, champagne));
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(s.players[1].power), conscripted: None });
    assert!(s.controls(1, champagne));
    assert!(!s.controls(0, champagne));
}

#[test]
fn a_tie_in_pops_leaves_a_province_uncontrolled() {
    let mut s = new(2);
    let hesse = prov("Hesse");
    s.provinces[usize::from(hesse)].pops[usize::from(s.players[0].power)] = 1;
    assert_eq!(s.controller(hesse), None);
}

#[test]
fn neutral_pops_count_as_one_more_nation() {
    let s = new(2);
    assert_eq!(s.controller(prov("Flanders")), Some(NEUTRAL));
    // Powers not in play leave one neutral pop in each of their provinces.
    assert_eq!(s.controller(prov("Vienna")), Some(NEUTRAL));
}

#[test]
fn a_technology_whose_requirement_is_not_met_cannot_be_drafted() {
    let mut s = new(2);
    s.offer = vec![card("Canning")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    let err = game().apply(&mut s, &Action::Pick(0), &mut rng()).unwrap_err();
    assert!(err.0.contains("needs 3 factories"), "{err}");
    assert!(!game().legal_actions(&s).contains(&Action::Pick(0)));
}

#[test]
fn leftover_technologies_stay_face_up_and_other_cards_are_discarded() {
    let mut s = new(2);
    s.offer = vec![card("Canning"), card("Oligarchy")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    to_first_turn(&mut s);
    assert_eq!(s.offer, vec![card("Canning")]);
    assert!(s.dev_discard.contains(&card("Oligarchy")));
}

#[test]
fn a_new_policy_replaces_the_one_in_its_slot() {
    let mut s = new(2);
    s.offer = vec![card("Oligarchy")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    game().apply(&mut s, &Action::Pick(0), &mut rng()).expect("pick");
    let top = super::board::active_card(&s, game().data(), 0, DevType::Policy, 0).expect("government");
    assert_eq!(top.name, "Oligarchy");
}

#[test]
fn a_card_is_activated_only_once_per_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let autocracy = held(&s, 0, "Autocracy") as u8;
    game().apply(&mut s, &Action::Place { card: autocracy, res: C as u8 }, &mut rng()).expect("place");
    game()
        .apply(&mut s, &Action::Activate { card: autocracy, discard: vec![] }, &mut rng())
        .expect("activate");
    assert_eq!(s.players[0].admin.len(), 1);
    s.players[0].supply[C] = 1;
    game().apply(&mut s, &Action::Place { card: autocracy, res: C as u8 }, &mut rng()).expect("place again");
    let again = game().apply(&mut s, &Action::Activate { card: autocracy, discard: vec![] }, &mut rng());
    assert!(again.unwrap_err().0.contains("activated this turn already"));
}

#[test]
fn early_industrialization_lets_one_production_go_on_a_card_per_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let ei = held(&s, 0, "Early Industrialization") as u8;
    game().apply(&mut s, &Action::Place { card: ei, res: P as u8 }, &mut rng()).expect("first");
    let second = game().apply(&mut s, &Action::Place { card: ei, res: P as u8 }, &mut rng());
    assert!(second.unwrap_err().0.contains("only 1 production"));
}

#[test]
fn granaries_take_one_food_per_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let g = held(&s, 0, "Granaries") as u8;
    game().apply(&mut s, &Action::Place { card: g, res: F as u8 }, &mut rng()).expect("first");
    assert!(game().apply(&mut s, &Action::Place { card: g, res: F as u8 }, &mut rng()).is_err());
}

#[test]
fn ruling_e3_unplaced_resources_return_at_the_end_of_the_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().apply(&mut s, &Action::EndActions, &mut rng()).expect("end actions");
    game().apply(&mut s, &Action::EndTurn, &mut rng()).expect("end turn");
    assert_eq!(s.players[0].supply, [0, 0, 0]);
    assert_eq!(s.players[1].supply, [2, 2, 1]);
}

#[test]
fn ruling_e4_a_silent_seat_pays_a_food_deficit_from_cards_or_else_with_a_pop_and_granaries_cost_prosperity() {
    let mut s = new(2);
    let me = usize::from(s.players[0].power);
    // Four more bourgeois in Paris: consumption 6 against 4 farmers.
    s.provinces[usize::from(prov("Paris"))].pops[me] += 4;
    let before = s.pops_of(me);
    to_first_turn(&mut s);
    settle(&mut s);
    assert_eq!(s.pops_of(me), before - 1, "no food on cards: a pop is sacrificed");
    assert_eq!(s.players[0].prosperity, 1);
    let mut t = new(2);
    t.provinces[usize::from(prov("Paris"))].pops[me] += 4;
    let g = held(&t, 0, "Granaries");
    t.players[0].cards[g].res[F] = 2;
    to_first_turn(&mut t);
    settle(&mut t);
    assert_eq!(t.pops_of(me), before, "the food on Granaries pays");
    assert_eq!(t.players[0].cards[g].res[F], 0);
}

#[test]
fn a_countryside_never_takes_a_third_pop_from_growth() {
    let mut s = new(2);
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].pops[usize::from(s.players[0].power)] = 2;
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice: Choice::Pop });
    assert!(!game().legal_actions(&s).contains(&Action::Grow(champagne)));
    assert!(game().legal_actions(&s).contains(&Action::Grow(prov("Paris"))));
}

#[test]
fn a_factory_goes_only_in_a_city_the_player_controls() {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice: Choice::Factory });
    let legal = game().legal_actions(&s);
    assert!(legal.contains(&Action::Build(prov("Lyon"))));
    assert!(!legal.contains(&Action::Build(prov("Berlin"))));
    assert!(!legal.contains(&Action::Build(prov("Champagne"))));
}

#[test]
fn the_dealer_chip_passes_left_and_the_game_ends_after_24_rounds() {
    let (s, _) = game().sim_game(3, 5).expect("a game");
    assert_eq!(s.round, 24);
    assert_eq!(s.dealer, (2 + 24) % 3);
}

#[test]
fn the_score_is_prosperity_plus_ambition_and_ties_go_to_prosperity_then_pops() {
    let mut s = new(2);
    s.stage = Stage::Over;
    let growth = game().data().ambitions.iter().position(|a| a.name == "Growth").expect("growth") as u8;
    let culture = game().data().ambitions.iter().position(|a| a.name == "Culture").expect("culture") as u8;
    s.players[0].ambition = growth;
    s.players[1].ambition = culture;
    s.players[0].prosperity = 5;
    s.players[1].prosperity = 5;
    // Growth: 15 pops → 1 point.
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(prov("Paris"))].pops[me] += 9;
    let st = game().standings(&s).expect("over");
    assert_eq!(st[0].seat.index(), 0);
    assert!(st[0].score.starts_with("6 points"), "{}", st[0].score);
    s.provinces[usize::from(prov("Paris"))].pops[me] -= 9;
    let st = game().standings(&s).expect("over");
    assert_eq!((st[0].place, st[1].place), (1, 1), "equal in every tie-break: a shared win");
}

#[test]
fn the_great_war_makes_every_pair_of_players_hostile() {
    let mut s = new(3);
    s.war = Default::default();
    game().global_event(&mut s, super::data::GlobalEvent::GreatWar, &mut rng());
    let p: Vec<_> = s.players.iter().map(|x| super::war::PowerId(x.power)).collect();
    assert!(s.war.hostile(p[0], p[1]) && s.war.hostile(p[0], p[2]) && s.war.hostile(p[1], p[2]));
}

#[test]
fn flooding_takes_one_production_from_each_institution() {
    let mut s = new(2);
    game().adopt(&mut s, 0, card("Great Works"));
    let at = held(&s, 0, "Great Works");
    s.players[0].cards[at].res[P] = 3;
    game().global_event(&mut s, super::data::GlobalEvent::Flooding, &mut rng());
    assert_eq!(s.players[0].cards[at].res[P], 2);
}

#[test]
fn a_hidden_hand_shows_only_to_its_owner() {
    let mut s = new(2);
    s.players[0].admin = vec![game().data().admin_named("Urbanization").expect("card")];
    let own = game().describe(&s, crate::engine::Viewer::Seat(crate::engine::Seat(1)));
    let other = game().describe(&s, crate::engine::Viewer::Seat(crate::engine::Seat(2)));
    assert!(own.contains("Urbanization"));
    assert!(!other.contains("Urbanization"));
    assert!(!game().view(&s, crate::engine::Viewer::Public).to_string().contains("Urbanization"));
}
