//! One test per policy and technology effect that only the random player reached before issue
//! 35 (FACTS §4.1, §4.2, §5.2): Laissez Faire's and Regulatory Capitalism's end-of-turn moves,
//! Industrial Policy's placing cap, Steam Engine, Automobile, Synthesized Ammonia,
//! Vapor-Compression Refrigeration, Radio and Naval Tradition.

use super::super::board::{self, collection};
use super::super::state::*;
use super::super::war::testboard::*;
use super::super::war::{self, WarBoard, WarDeed};
use super::super::warlink::Board;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, GameRng, Rules};

/// Seat 0 (France) in its turn with `name` in force.
fn turn_with(name: &str) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card(name));
    s
}

fn me(s: &State) -> usize {
    usize::from(s.players[0].power)
}

#[test]
fn laissez_faire_and_regulatory_capitalism_move_a_pop_to_the_city_after_a_surplus_and_to_the_country_after_none()
 {
    for policy in ["Laissez Faire", "Regulatory Capitalism"] {
        let mut s = turn_with(policy);
        assert!(s.players[0].surplus, "a standard start collects a food surplus");
        game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
        let to_city = Action::MovePop { from: prov("Champagne"), to: prov("Paris") };
        let to_country = Action::MovePop { from: prov("Paris"), to: prov("Champagne") };
        let legal = game().legal_actions(&s);
        assert!(legal.contains(&to_city) && !legal.contains(&to_country), "{policy}, surplus");
        s.players[0].surplus = false;
        let legal = game().legal_actions(&s);
        assert!(legal.contains(&to_country) && !legal.contains(&to_city), "{policy}, no surplus");
        game().apply(&mut s, &to_country, &mut rng()).expect("one pop");
        assert_eq!(s.provinces[usize::from(prov("Champagne"))].pops[me(&s)], 2);
    }
}

#[test]
fn industrial_policy_lets_two_production_go_on_a_card_in_a_turn() {
    let mut s = turn_with("Industrial Policy");
    s.players[0].supply = [0, 3, 0];
    let works = held(&s, 0, "Industrial Policy");
    let place = Action::Place { card: works as u8, res: P as u8 };
    game().apply(&mut s, &place, &mut rng()).unwrap();
    game().apply(&mut s, &place, &mut rng()).unwrap();
    let err = game().apply(&mut s, &place, &mut rng()).unwrap_err();
    assert!(err.0.contains("only 2 production"), "{err}");
}

/// France with an Infrastructure holding 6 production (3 commerce before the cap) and `b`
/// bourgeois in Paris; the commerce its collection yields.
fn infrastructure_commerce(tech: &str, b: u8) -> u32 {
    let mut s = turn_with(tech);
    game().adopt(&mut s, 0, card("Infrastructure"));
    let i = held(&s, 0, "Infrastructure");
    s.players[0].cards[i].res[P] = 6;
    let m = me(&s);
    s.provinces[usize::from(prov("Paris"))].pops[m] += b;
    collection(&s, game().data(), 0).commerce - 1 // Landed Gentry's income
}

#[test]
fn steam_engine_caps_infrastructure_at_one_commerce_per_city_of_two_bourgeois_and_one_more_at_four() {
    assert_eq!(infrastructure_commerce("Steam Engine", 2), 1);
    assert_eq!(infrastructure_commerce("Steam Engine", 4), 2, "RULING E14: the second threshold is 4");
    assert_eq!(infrastructure_commerce("Steam Engine", 6), 2);
}

#[test]
fn automobile_caps_infrastructure_at_thresholds_of_two_four_and_six_bourgeois() {
    assert_eq!(infrastructure_commerce("Automobile", 4), 2);
    assert_eq!(infrastructure_commerce("Automobile", 6), 3);
}

/// Seat 0 ends its actions with a regular regiment in each named province; how many of `moves`
/// its infrastructure technology lets it make.
fn regiment_moves(tech: &str, at: &[&str], moves: &[(&str, &str)]) -> usize {
    let mut s = turn_with(tech);
    let me = s.players[0].power;
    for p in at {
        s.provinces[usize::from(prov(p))].regiment = Some(Piece { owner: Some(me), conscripted: None });
    }
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    moves
        .iter()
        .filter(|(a, b)| {
            game().apply(&mut s, &Action::MoveRegiment { from: prov(a), to: prov(b) }, &mut rng()).is_ok()
        })
        .count()
}

#[test]
fn steam_engine_moves_up_to_three_regiments_and_automobile_four_each_one_step() {
    let at = ["Paris", "Lyon", "Acquitaine", "Occitanie"];
    let steps =
        [("Paris", "Champagne"), ("Lyon", "Paris"), ("Acquitaine", "Lyon"), ("Occitanie", "Acquitaine")];
    assert_eq!(regiment_moves("Steam Engine", &at, &steps), 3, "Steam Engine: three regiments");
    assert_eq!(regiment_moves("Automobile", &at, &steps), 4, "Automobile: four regiments");
    let on = [("Champagne", "Paris"), ("Paris", "Lyon"), ("Acquitaine", "Occitanie")];
    assert_eq!(regiment_moves("Steam Engine", &["Champagne", "Acquitaine"], &on), 2, "a regiment moves once");
}

#[test]
fn synthesized_ammonia_adds_a_food_for_each_industrial_agriculture_holding_four_production() {
    let food = |tech: &str| {
        let mut s = turn_with(tech);
        game().adopt(&mut s, 0, card("Industrial Agriculture"));
        let i = held(&s, 0, "Industrial Agriculture");
        s.players[0].cards[i].res[P] = 4;
        collection(&s, game().data(), 0).food_out
    };
    // Four farmers; 4 food from the card within the cap of 2 per farmed province (8).
    assert_eq!(food("Disc Plough"), 8);
    assert_eq!(food("Synthesized Ammonia"), 9, "one more, outside the cap");
}

#[test]
fn vapor_compression_refrigeration_takes_three_food_a_turn_and_costs_prosperity_from_a_deficit_of_three() {
    let mut s = turn_with("Vapor-Compression Refrigeration");
    let v = held(&s, 0, "Vapor-Compression Refrigeration");
    s.players[0].supply = [4, 0, 0];
    let place = Action::Place { card: v as u8, res: F as u8 };
    for _ in 0..3 {
        game().apply(&mut s, &place, &mut rng()).expect("three food a turn");
    }
    game().apply(&mut s, &Action::Activate { card: v as u8, discard: Vec::new() }, &mut rng()).unwrap();
    assert!(matches!(s.pending.first(), Some(Pending { choice: Choice::Pop, .. })), "pop growth");
    let threshold = board::active_card(&s, game().data(), 0, super::super::data::DevType::Technology, 0)
        .and_then(|c| c.deficit);
    assert_eq!(threshold, Some(3), "a deficit of 3 or more costs 1 prosperity");
}

#[test]
fn radio_gives_five_war_actions_and_six_trade_routes() {
    let mut s = turn_with("Radio");
    let mut t = s.clone();
    let mobility = Board { d: game().data(), s: &mut t }.mobility(war::PowerId(s.players[0].power));
    assert_eq!(mobility, 5);
    s.players[0].overseas = vec![0, 1, 2, 3, 4];
    s.players[0].admin = vec![admin("Establish Trade Route")];
    let route = Action::Admin {
        card: admin("Establish Trade Route"),
        option: 0,
        target: Target { route: Some(5), ..Target::default() },
    };
    assert!(game().legal_actions(&s).contains(&route), "a sixth route");
    let mut u = new(2);
    to_first_turn(&mut u);
    game().adopt(&mut u, 0, card("Telephone"));
    u.players[0].overseas = vec![0, 1, 2, 3];
    u.players[0].admin = vec![admin("Establish Trade Route")];
    assert!(!game().legal_actions(&u).contains(&route), "Telephone stops at four");
}

#[test]
fn naval_tradition_adds_one_in_a_coastal_battle_and_one_more_across_a_strait_with_the_larger_navy() {
    let fight = |navy: u8| {
        let mut b = TestBoard::new();
        b.put(PRUSSIA, "Flanders");
        b.put(FRANCE, "Normandie");
        b.put(PRUSSIA, "London");
        b.powers[0].navy = navy;
        b.powers[0].tradition = Some(NAVAL_TRADITION);
        let mut w = war::WarState::default();
        let d = war::Declaration { declarer: FRANCE, target: PRUSSIA, cause: war::WarCause::Retaliation };
        let order = [PRUSSIA, FRANCE];
        war::declare_war(&b, &mut w, d, &order).unwrap();
        war::begin_war(&b, &mut w, &order).unwrap();
        let mut events = Vec::new();
        let mut first = true;
        while let Some(p) = w.to_act() {
            let deed = if first {
                first = false;
                WarDeed::Move { from: at("Flanders"), to: at("Normandie") }
            } else {
                WarDeed::Pass
            };
            let a = war::WarAction { power: p, deed };
            events = war::apply_war_action(&mut b, &mut w, &a, &mut GameRng::for_action(35, 2)).unwrap();
        }
        events.iter().map(|e| e.public.clone()).collect::<Vec<_>>().join("\n")
    };
    // London supports across the strait: 1 supporting, +1 coastal, +1 strait.
    assert!(
        fight(1).contains("Prussia 3 (1 supporting, 0 from military technology, 2 from cards)"),
        "{}",
        fight(1)
    );
    assert!(
        fight(0).contains("Prussia 1 (1 supporting, 0 from military technology, 0 from cards)"),
        "{}",
        fight(0)
    );
}
