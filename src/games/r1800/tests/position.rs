//! One test per rule of the position (issue 18 audit): set-up for 2–8 players and the eight
//! standard starts, control and occupied/minority pops, improvements, and what a collection
//! yields (food, production, commerce, trade routes and monopolies).

use super::super::board::{self, collection};
use super::super::state::*;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, GameRng, Rules, Setup, SetupSpec};

fn power(s: &State, seat: usize) -> usize {
    usize::from(s.players[seat].power)
}

#[test]
fn a_game_is_for_two_to_eight_players() {
    for seats in [0u8, 1, 9] {
        let spec = SetupSpec { seats, options: serde_json::Value::Null };
        assert!(game().setup(&spec, &mut GameRng::for_setup(1)).is_err(), "{seats} seats");
    }
    for seats in 2..=8u8 {
        assert_eq!(new(seats).players.len(), usize::from(seats));
    }
}

#[test]
fn the_eight_standard_starts_give_six_pops_two_worked_factories_and_six_provinces_each() {
    let s = new(8);
    let d = game().data();
    let mut powers: Vec<u8> = s.players.iter().map(|p| p.power).collect();
    powers.sort_unstable();
    assert_eq!(powers, (0..8).collect::<Vec<u8>>(), "every power is seated once");
    for seat in 0..8 {
        let me = power(&s, seat);
        let start = &d.powers[me];
        for &q in &start.pops {
            assert_eq!(s.provinces[usize::from(q)].pops[me], 1, "{} in {}", start.name, d.province_name(q));
            assert!(s.controls(seat, q), "{} controls {}", start.name, d.province_name(q));
        }
        for &q in &start.factories {
            assert!(d.provinces[usize::from(q)].is_city());
            assert_eq!(s.provinces[usize::from(q)].factories, 1);
        }
        let w = board::workforce(&s, d, seat);
        assert_eq!((w.farmers, w.laborers, w.bourgeois, w.regiments), (4, 2, 0, 0), "{}", start.name);
        assert_eq!(board::provinces_controlled(&s, seat), 6);
        assert_eq!(s.players[seat].prosperity, 2, "RULING E5");
    }
}

#[test]
fn fewer_players_take_the_suggested_adjacent_powers_in_order() {
    let d = game().data();
    let names = |n: u8| -> Vec<String> {
        new(n).players.iter().map(|p| d.powers[usize::from(p.power)].name.clone()).collect()
    };
    assert_eq!(names(2), ["France", "Prussia"]);
    assert_eq!(names(4), ["France", "Prussia", "Austria", "Great Britain"]);
    // The powers not in play leave one neutral pop in each of their provinces.
    let s = new(2);
    assert_eq!(s.provinces[usize::from(prov("London"))].pops[NEUTRAL], 1);
    assert_eq!(s.provinces[usize::from(prov("London"))].factories, 0);
}

#[test]
fn occupied_pops_still_produce_for_their_owner() {
    let mut s = new(2);
    let d = game().data();
    let before = collection(&s, d, 0);
    let champagne = usize::from(prov("Champagne"));
    s.provinces[champagne].regiment = Some(Piece { owner: Some(s.players[1].power), conscripted: None });
    assert!(!s.controls(0, champagne as u16));
    assert_eq!(collection(&s, d, 0).food_out, before.food_out);
}

#[test]
fn minority_pops_work_the_factories_the_controllers_pops_leave_free() {
    let mut s = new(2);
    let d = game().data();
    let paris = usize::from(prov("Paris"));
    let (fr, pr) = (power(&s, 0), power(&s, 1));
    s.provinces[paris].factories = 3;
    s.provinces[paris].pops[fr] = 2;
    s.provinces[paris].pops[pr] = 1;
    assert!(s.controls(0, paris as u16));
    assert_eq!(board::laborers_in(&s, d, paris as u16, fr), 2);
    assert_eq!(board::laborers_in(&s, d, paris as u16, pr), 1, "the minority pop works the third");
    s.provinces[paris].factories = 2;
    assert_eq!(board::laborers_in(&s, d, paris as u16, pr), 0, "the controller's pops come first");
    assert_eq!(board::bourgeois_in(&s, d, 1, paris as u16), 1);
}

#[test]
fn a_city_holds_at_most_five_factories() {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.provinces[usize::from(prov("Paris"))].factories = 5;
    s.pending.push(Pending { seat: 0, choice: Choice::Factory });
    let legal = game().legal_actions(&s);
    assert!(!legal.contains(&Action::Build(prov("Paris"))));
    assert!(legal.contains(&Action::Build(prov("Lyon"))));
}

#[test]
fn industrial_agriculture_adds_food_per_production_within_the_plough_cap() {
    let mut s = new(2);
    let d = game().data();
    game().adopt(&mut s, 0, card("Industrial Agriculture"));
    let at = held(&s, 0, "Industrial Agriculture");
    s.players[0].cards[at].res[P] = 4;
    assert_eq!(collection(&s, d, 0).food_out, 4, "Cast-Iron Plough: no province with two farmers");
    let me = power(&s, 0);
    s.provinces[usize::from(prov("Champagne"))].pops[me] = 2;
    assert_eq!(collection(&s, d, 0).food_out, 5 + 1, "one per province with two farmers");
    game().adopt(&mut s, 0, card("Steel Plough"));
    assert_eq!(collection(&s, d, 0).food_out, 5 + 2, "RULING E25: two per such province");
}

#[test]
fn infrastructure_gives_commerce_only_within_the_infrastructure_technology_cap() {
    let mut s = new(2);
    let d = game().data();
    game().adopt(&mut s, 0, card("Infrastructure"));
    let at = held(&s, 0, "Infrastructure");
    s.players[0].cards[at].res[P] = 6;
    let me = power(&s, 0);
    s.provinces[usize::from(prov("Paris"))].pops[me] = 3;
    assert_eq!(collection(&s, d, 0).commerce, 1, "Roads: no infrastructure commerce (Landed Gentry's 1)");
    game().adopt(&mut s, 0, card("Macadam Roads"));
    assert_eq!(collection(&s, d, 0).commerce, 2, "one per city with two bourgeois");
}

#[test]
fn european_agreements_and_overseas_monopolies_pay_commerce_and_a_shared_route_nothing() {
    let mut s = new(3);
    let d = game().data();
    s.players[0].european = vec![1];
    s.players[1].european = vec![0];
    s.players[0].overseas = vec![0, 1];
    s.players[2].overseas = vec![1];
    assert_eq!(collection(&s, d, 0).commerce, 1 + 1 + 1, "Landed Gentry, the agreement, one monopoly");
    assert_eq!(collection(&s, d, 1).commerce, 1 + 1);
    assert_eq!(collection(&s, d, 2).commerce, 1, "the shared route pays nothing");
}

#[test]
fn a_stock_exchange_pays_when_two_financial_institutions_hold_commerce() {
    let mut s = new(2);
    let d = game().data();
    game().adopt(&mut s, 0, card("Stock Exchange"));
    let se = held(&s, 0, "Stock Exchange");
    s.players[0].cards[se].res[C] = 2;
    game().adopt(&mut s, 0, card("Financial Institution"));
    let fi = held(&s, 0, "Financial Institution");
    s.players[0].cards[fi].res[C] = 1;
    assert_eq!(collection(&s, d, 0).commerce, 1);
    game().adopt(&mut s, 0, card("Financial Institution"));
    let fi2 = held(&s, 0, "Financial Institution");
    s.players[0].cards[fi2].res[C] = 1;
    assert_eq!(collection(&s, d, 0).commerce, 2);
}

#[test]
fn canning_costs_prosperity_only_from_a_deficit_of_two() {
    let mut s = new(2);
    let me = power(&s, 0);
    game().adopt(&mut s, 0, card("Canning"));
    // One more bourgeois: consumption 5 against 4 farmers, a deficit of 1.
    s.provinces[usize::from(prov("Paris"))].pops[me] += 3;
    to_first_turn(&mut s);
    assert_eq!(s.players[0].prosperity, 2, "a deficit of 1 is under Canning's threshold");
    let mut t = new(2);
    game().adopt(&mut t, 0, card("Canning"));
    t.provinces[usize::from(prov("Paris"))].pops[me] += 4;
    to_first_turn(&mut t);
    assert_eq!(t.players[0].prosperity, 1);
}

#[test]
fn an_admin_cost_must_be_paid_to_activate_and_command_economy_waives_it() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Great Works"));
    let gw = held(&s, 0, "Great Works");
    s.players[0].cards[gw].res = [0, 4, 0];
    let free = Action::Activate { card: gw as u8, discard: vec![] };
    assert!(game().apply(&mut s, &free, &mut rng()).unwrap_err().0.contains("costs 1 admin"));
    let urb = game().data().admin_named("Urbanization").expect("card");
    s.players[0].admin = vec![urb];
    game().apply(&mut s, &Action::Activate { card: gw as u8, discard: vec![urb] }, &mut rng()).unwrap();
    assert_eq!((s.players[0].prosperity, s.players[0].admin.len()), (4, 0));
    assert_eq!(s.admin_discard, vec![urb]);
    let mut t = new(2);
    to_first_turn(&mut t);
    game().adopt(&mut t, 0, card("Command Economy"));
    game().adopt(&mut t, 0, card("Great Works"));
    let gw = held(&t, 0, "Great Works");
    t.players[0].cards[gw].res = [0, 4, 0];
    game().apply(&mut t, &Action::Activate { card: gw as u8, discard: vec![] }, &mut rng()).unwrap();
    assert_eq!(t.players[0].prosperity, 4);
}

#[test]
fn a_financial_institution_gives_one_commerce_to_another_card_once_a_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Financial Institution"));
    game().adopt(&mut s, 0, card("Stock Exchange"));
    let (fi, se) = (held(&s, 0, "Financial Institution"), held(&s, 0, "Stock Exchange"));
    s.players[0].cards[fi].res[C] = 2;
    let shift = Action::Shift { from: fi as u8, to: se as u8 };
    assert!(game().legal_actions(&s).contains(&shift));
    game().apply(&mut s, &shift, &mut rng()).expect("the first move");
    assert_eq!((s.players[0].cards[fi].res[C], s.players[0].cards[se].res[C]), (1, 1));
    let again = game().apply(&mut s, &shift, &mut rng()).unwrap_err();
    assert!(again.0.contains("this turn already"), "{again}");
    let back = Action::Shift { from: se as u8, to: fi as u8 };
    assert!(game().apply(&mut s, &back, &mut rng()).unwrap_err().0.contains("not a Financial"));
}
