//! The token step and home stations (FACTS §7.5; HR 5, HR 6, HR 8; RULING K26).

use super::tests_support::{first_or, pass_to};
use crate::engine::Event;
use crate::engine::prelude::*;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::{Loc, Step};
use crate::games::r1835::tests::{act, engine, try_act};
use serde_json::{Value, json};

fn tokens_of(s: &crate::games::r1835::State, id: &str) -> Vec<String> {
    s.board
        .tokens
        .iter()
        .filter(|(_, ts)| ts.iter().any(|t| t.company == id))
        .map(|(h, _)| h.clone())
        .collect()
}

#[test]
fn home_stations_of_floated_companies_and_minors_are_on_the_board_in_the_first_operating_round() {
    let g = engine();
    let s = first_or(&g, Value::Null);
    assert_eq!(tokens_of(&s, "BY"), vec!["O15".to_string()]);
    assert_eq!(tokens_of(&s, "M1"), vec!["H2".to_string()]);
    assert_eq!(tokens_of(&s, "M5"), vec!["E19".to_string()]);
}

#[test]
fn house_rule_8_places_badens_home_token_in_its_first_operating_round() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    let ba = g.data().major_index("BA").expect("BA");
    // Seat 2 takes 60 % of BA (the director's certificate first): BA floats.
    for c in s.majors[ba].certs.iter_mut().take(5) {
        c.at = Loc::Player(1);
    }
    s.majors[ba].price = Some(g.data().majors[ba].start_space);
    let mut ev: Vec<Event> = Vec::new();
    g.check_float(&mut s, ba, &mut ev);
    assert!(s.majors[ba].floated);
    assert!(tokens_of(&s, "BA").is_empty(), "not when it floats");
    let by = g.data().major_index("BY").expect("BY");
    s.or.queue.retain(|e| *e != crate::games::r1835::state::Entity::Major(u8::try_from(by).unwrap_or(0)));
    s.or.queue.push(crate::games::r1835::state::Entity::Major(u8::try_from(ba).unwrap_or(0)));
    pass_to(&g, &mut s, "BA");
    assert_eq!(tokens_of(&s, "BA"), vec!["L6".to_string()]);
    assert!(s.majors[ba].home_placed);
}

#[test]
fn house_rule_6_lets_nf_place_its_token_only_in_the_token_step() {
    let g = engine();
    let mut s = first_or(&g, json!({"nf_pfb_token_step_only": true}));
    pass_to(&g, &mut s, "BY");
    let nf = Action::PlaceToken { company: "BY".into(), hex: "L14".into(), city: 1 };
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert!(g.legal_actions(&s).contains(&nf));
    let by = g.data().major_index("BY").expect("BY");
    let cash = s.majors[by].cash;
    act(&g, &mut s, nf);
    assert_eq!(s.or.turn.step, Step::Token, "the NF's station ends the track step (HR 6)");
    assert_eq!(s.majors[by].cash, cash, "free");
    assert!(s.privates[g.data().private_index("NF").expect("NF")].closed);
    assert!(!s.or.turn.token, "extra to the normal station");
    let lay = Action::LayTile { company: "BY".into(), tile: "7".into(), hex: "N14".into(), rotation: 0 };
    let err = try_act(&g, &mut s, lay).unwrap_err();
    assert!(err.contains("track step is over"), "{err}");
}

#[test]
fn house_rule_5_closes_the_pfalzbahnen_when_it_places_its_token() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    let (ba, pfb) = (g.data().major_index("BA").expect("BA"), g.data().private_index("PfB").expect("PfB"));
    // BA's home is in L6; BY's president (seat 1) is given the PfB.
    s.board.place_token(g.data(), "L6", g.data().majors[ba].station - 1, "BA", 0).expect("BA's home");
    s.privates[pfb].owner = Some(0);
    pass_to(&g, &mut s, "BY");
    act(&g, &mut s, Action::Pass);
    let other = 2 - g.data().majors[ba].station;
    let by = g.data().major_index("BY").expect("BY");
    let cash = s.majors[by].cash;
    act(&g, &mut s, Action::PlaceToken { company: "BY".into(), hex: "L6".into(), city: other + 1 });
    assert!(s.privates[pfb].closed, "HR 5: the station closes it");
    assert_eq!(s.majors[by].cash, cash);
}

#[test]
fn a_company_places_one_normal_station_per_turn() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    pass_to(&g, &mut s, "BY");
    act(&g, &mut s, Action::Pass);
    s.or.turn.token = true;
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    let offered = g.legal_actions(&s);
    assert!(
        offered.iter().all(|a| !matches!(a, Action::PlaceToken { hex, .. } if hex != "L14")),
        "{offered:?}"
    );
}
