//! The track step: lays per turn by kind and phase, terrain cost, private free lays (FACTS §7.4,
//! §3; RULING K32).

use super::tests_support::{first_or, operating, pass_to};
use crate::engine::prelude::*;
use crate::games::r1835::actions::Action;
use crate::games::r1835::holdings::{Holder, pay};
use crate::games::r1835::state::Step;
use crate::games::r1835::tests::{act, engine, try_act};
use serde_json::{Value, json};

/// The legal tile lays of the company operating now.
fn lays(g: &crate::games::r1835::R1835, s: &crate::games::r1835::State) -> Vec<Action> {
    assert!(g.next_decision(s).is_some(), "a decision is pending");
    g.legal_actions(s).into_iter().filter(|a| matches!(a, Action::LayTile { .. })).collect()
}

fn hex_of(a: &Action) -> String {
    match a {
        Action::LayTile { hex, .. } => hex.clone(),
        _ => String::new(),
    }
}

#[test]
fn a_major_lays_two_yellow_tiles_in_phase_1() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    pass_to(&g, &mut s, "BY");
    let first = lays(&g, &s).into_iter().next().expect("BY can lay");
    act(&g, &mut s, first.clone());
    let second = lays(&g, &s).into_iter().find(|a| hex_of(a) != hex_of(&first)).expect("a second lay");
    act(&g, &mut s, second);
    assert_eq!(s.or.turn.lays, 2);
    assert_eq!(s.board.tiles.len(), 2);
    let third = lays(&g, &s).into_iter().find(|a| !["M15", "M17"].contains(&hex_of(a).as_str()));
    assert_eq!(third, None, "no third normal lay is offered");
}

#[test]
fn a_minor_lays_one_tile_per_turn() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    assert_eq!(operating(&g, &s), "M1");
    let mut offered = lays(&g, &s);
    assert!(!offered.is_empty());
    act(&g, &mut s, offered.remove(0));
    assert!(lays(&g, &s).is_empty());
    let again = offered.into_iter().next().expect("another lay");
    let err = try_act(&g, &mut s, again).unwrap_err();
    assert!(err.contains("has laid its 1 tile this turn"), "{err}");
}

#[test]
fn terrain_cost_is_paid_from_the_treasury_and_a_company_that_cannot_pay_cannot_lay() {
    let g = engine();
    let mut s = first_or(&g, json!({"nf_pfb_token_step_only": true}));
    // The OBB goes to seat 4, so that its hexes are normal (costly) lays for BY.
    let obb = g.data().private_index("OBB").expect("OBB");
    s.privates[obb].owner = Some(3);
    // The first company whose track step offers a lay on a hex with a terrain cost.
    let costly = |s: &crate::games::r1835::State| {
        lays(&g, s).into_iter().find(|a| g.data().hex(&hex_of(a)).is_some_and(|x| x.cost > 0))
    };
    // BY, with a station put in Nürnberg/Fürth (L14), next to the river hex M13.
    s.board.place_token(g.data(), "L14", 0, "BY", 0).expect("a station in L14");
    pass_to(&g, &mut s, "BY");
    let found = costly(&s);
    let costly = found.expect("a lay on a costly hex");
    let e = g.operating_entity(&s).expect("a company operates");
    let holder = crate::games::r1835::R1835::treasury(e);
    let cost = g.data().hex(&hex_of(&costly)).map(|x| x.cost).unwrap_or(0);
    let mut poor = s.clone();
    let keep = g.entity_cash(&poor, e) - (cost - 1);
    pay(&mut poor, holder, Holder::Bank, keep);
    let err = try_act(&g, &mut poor, costly.clone()).unwrap_err();
    assert!(err.contains(&format!("costs {cost} M")), "{err}");
    let (cash, bank, money) = (g.entity_cash(&s, e), s.bank, s.money());
    act(&g, &mut s, costly);
    assert_eq!(g.entity_cash(&s, e), cash - cost);
    assert_eq!(s.bank, bank + cost);
    assert_eq!(s.money(), money);
}

#[test]
fn the_obb_lays_a_free_extra_yellow_tile_on_m15_once_per_operating_round() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    pass_to(&g, &mut s, "BY");
    let by = g.data().major_index("BY").expect("BY");
    let on = |hex: &str, s: &crate::games::r1835::State| lays(&g, s).into_iter().find(|a| hex_of(a) == hex);
    let m15 = on("M15", &s).expect("the OBB's lay on M15 is offered");
    let cash = s.majors[by].cash;
    act(&g, &mut s, m15);
    assert_eq!(s.majors[by].cash, cash, "free: no terrain cost (RULING K32)");
    assert_eq!(s.or.turn.lays, 0, "extra: not one of BY's two lays");
    assert_eq!(s.or.powers_used, vec!["OBB".to_string()]);
    assert_eq!(on("M17", &s), None, "one hex per operating round");
    assert_eq!(s.or.turn.step, Step::Track);
}
