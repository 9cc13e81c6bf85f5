//! One test per admin card that only the random player reached before issue 35 (FACTS §5.1):
//! Five-Year Plan, Conscription, Research Grants, Expansionism's Settle, Urbanization and Seize
//! Production — what each costs and what it does.

use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Rules};

/// Seat 0 (France) in its turn holding these admin cards.
fn turn_with(hand: &[&str]) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = hand.iter().map(|n| admin(n)).collect();
    s.players[0].admin.sort_unstable();
    s
}

fn play(s: &mut State, name: &str, option: u8, target: Target) {
    let a = Action::Admin { card: admin(name), option, target };
    assert!(game().legal_actions(s).contains(&a), "{name} is listed: {a:?}");
    game().apply(s, &a, &mut rng()).expect(name);
}

fn me(s: &State) -> usize {
    usize::from(s.players[0].power)
}

fn pops(s: &State, name: &str) -> u8 {
    s.provinces[usize::from(prov(name))].pops[me(s)]
}

#[test]
fn five_year_plan_costs_two_prosperity_two_industry_production_and_a_pop_for_two_factories() {
    let mut s = turn_with(&["Five-Year Plan"]);
    let ei = held(&s, 0, "Early Industrialization");
    s.players[0].cards[ei].res[P] = 2;
    let champagne = prov("Champagne");
    play(&mut s, "Five-Year Plan", 0, Target { from: Some(champagne), ..Target::default() });
    assert_eq!(s.players[0].prosperity, 0);
    assert_eq!(s.players[0].cards[ei].res[P], 0);
    assert_eq!(pops(&s, "Champagne"), 0, "the pop is sacrificed");
    for city in ["Paris", "Lyon"] {
        game().apply(&mut s, &Action::Build(prov(city)), &mut rng()).expect("a factory");
    }
    assert_eq!(s.provinces[usize::from(prov("Paris"))].factories, 2);
    assert_eq!(s.provinces[usize::from(prov("Lyon"))].factories, 2);
    assert!(s.pending.is_empty(), "two factories, no more");
}

#[test]
fn five_year_plan_is_refused_without_two_production_on_the_industry_policy() {
    let s = turn_with(&["Five-Year Plan"]);
    let t = Target { from: Some(prov("Champagne")), ..Target::default() };
    let err = game().check_admin(&s, 0, admin("Five-Year Plan"), 0, &t).unwrap_err();
    assert!(err.contains("2 production on your industry policy"), "{err}");
}

#[test]
fn conscription_costs_two_prosperity_and_plays_a_standing_army_from_the_deck_with_its_regiment() {
    let mut s = turn_with(&["Conscription"]);
    let army = card("Standing Army");
    s.dev_deck.retain(|c| *c != army);
    s.dev_deck.push(army);
    play(&mut s, "Conscription", 0, Target::default());
    assert_eq!(s.players[0].prosperity, 0);
    assert!(s.players[0].cards.iter().any(|h| h.card == army), "the Standing Army is in play");
    let champagne = prov("Champagne");
    game().apply(&mut s, &Action::Recruit(champagne), &mut rng()).expect("its regiment");
    assert_eq!(s.provinces[usize::from(champagne)].regiment.and_then(|r| r.owner), Some(s.players[0].power));
}

#[test]
fn research_grants_take_one_commerce_off_a_policy_for_a_technology() {
    let mut s = turn_with(&["Research Grants"]);
    let autocracy = held(&s, 0, "Autocracy");
    s.players[0].cards[autocracy].res[C] = 1;
    s.players[0].overseas = vec![0];
    s.offer = vec![card("Telegraph")];
    play(&mut s, "Research Grants", 0, Target { card: Some(autocracy as u8), ..Target::default() });
    assert_eq!(s.players[0].cards[autocracy].res[C], 0);
    game().apply(&mut s, &Action::Tech(card("Telegraph")), &mut rng()).expect("the technology");
    assert!(s.players[0].cards.iter().any(|h| h.card == card("Telegraph") && !h.covered));
    assert!(s.offer.is_empty());
}

#[test]
fn expansionism_settles_a_pop_from_a_controlled_countryside_into_an_adjacent_one_controlled_or_not() {
    let mut s = turn_with(&["Expansionism"]);
    let flanders = prov("Flanders");
    assert_eq!(s.controller(flanders), Some(NEUTRAL), "Flanders is not France's");
    play(
        &mut s,
        "Expansionism",
        0,
        Target { from: Some(prov("Champagne")), to: Some(flanders), ..Target::default() },
    );
    assert_eq!(s.players[0].prosperity, 1);
    assert_eq!((pops(&s, "Champagne"), pops(&s, "Flanders")), (0, 1));
    let t = Target { from: Some(prov("Paris")), to: Some(prov("Champagne")), ..Target::default() };
    let mut u = turn_with(&["Expansionism"]);
    assert!(game().check_admin(&u, 0, admin("Expansionism"), 0, &t).is_err(), "from a countryside only");
    u.players[0].prosperity = 0;
    let ok = Target { from: Some(prov("Champagne")), to: Some(flanders), ..Target::default() };
    assert!(game().check_admin(&u, 0, admin("Expansionism"), 0, &ok).is_err(), "it costs 1 prosperity");
}

#[test]
fn urbanization_moves_pops_from_a_countryside_into_an_adjacent_city_the_player_controls() {
    let mut s = turn_with(&["Urbanization"]);
    play(
        &mut s,
        "Urbanization",
        0,
        Target {
            from: Some(prov("Champagne")),
            to: Some(prov("Paris")),
            count: Some(1),
            ..Target::default()
        },
    );
    assert_eq!((pops(&s, "Champagne"), pops(&s, "Paris")), (0, 2));
    let u = turn_with(&["Urbanization"]);
    let amsterdam =
        Target { from: Some(prov("Champagne")), to: Some(prov("Amsterdam")), ..Target::default() };
    assert!(
        game().check_admin(&u, 0, admin("Urbanization"), 0, &amsterdam).is_err(),
        "a city France does not control"
    );
}

#[test]
fn seize_production_costs_a_prosperity_and_two_industry_production_for_a_factory_or_a_military_card() {
    for (option, factory) in [(0u8, true), (1, false)] {
        let mut s = turn_with(&["Seize Production"]);
        let ei = held(&s, 0, "Early Industrialization");
        s.players[0].cards[ei].res[P] = 2;
        play(&mut s, "Seize Production", option, Target::default());
        assert_eq!((s.players[0].prosperity, s.players[0].cards[ei].res[P]), (1, 0));
        if factory {
            assert_eq!(s.pending, vec![Pending { seat: 0, choice: Choice::Factory }]);
        } else {
            assert_eq!(s.players[0].military.len(), 1, "a military card drawn");
            assert!(s.pending.is_empty());
        }
    }
}
