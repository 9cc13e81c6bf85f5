//! One test per line the order builder lists for a decision the guide used to keep to itself
//! (issue 36, RULING E106): Police State's military card, a global event's or a rebellion's
//! price, and the answers to an attack in the war — each listed only where a sheet of that line
//! alone is answered with the very action it names.

use super::super::data::GlobalEvent;
use super::super::state::*;
use super::super::war::{Declaration, PowerId, ProvinceId, WarCause, WarDeed};
use super::text::military;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Orders, Rules, Seat, answer_alone};

/// The lines listed for the decision now, to the seat whose decision it is.
pub(super) fn listed(s: &State) -> Vec<String> {
    let d = game().next_decision(s).expect("a decision");
    game().choices(s, d.seat).first().map(|c| c.lines.clone()).unwrap_or_default()
}

/// The action a sheet of `line` alone is answered with at the decision now.
pub(super) fn answered(s: &State, line: &str) -> Option<Action> {
    let d = game().next_decision(s).expect("a decision");
    answer_alone(game(), s, &d, line).and_then(|a| a.action)
}

/// `line` is listed now and answered with `action`, which is legal; the other seat never gets it.
pub(super) fn lists(s: &State, line: &str, action: &Action) {
    assert!(game().legal_actions(s).contains(action), "{line}: {action:?} legal");
    assert!(listed(s).iter().any(|l| l == line), "{line} listed: {:?}", listed(s));
    assert_eq!(answered(s, line).as_ref(), Some(action), "{line}");
    let d = game().next_decision(s).expect("a decision");
    let other = Seat::from_index(1 - d.seat.index());
    assert!(game().choices(s, other).iter().flat_map(|c| &c.lines).all(|l| l != line), "not {other}'s");
}

#[test]
fn the_order_builder_lists_police_states_ability_with_its_military_card_answered_with_that_activation() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Police State"));
    let ps = held(&s, 0, "Police State") as u8;
    let maneuver = military("Expert Maneuver");
    s.players[0].military = vec![maneuver];
    let a = Action::ActivateAlone { card: ps, discard: Vec::new(), military: vec![maneuver] };
    lists(&s, &format!("ACTIVATE #{} ALONE DISCARD MILITARY Expert Maneuver", ps + 1), &a);
}

#[test]
fn the_order_builder_lists_paying_or_losing_a_route_to_unrest_overseas_for_that_route() {
    let mut s = new(2);
    s.players[0].overseas = vec![0];
    let maneuver = military("Expert Maneuver");
    s.players[0].military = vec![maneuver];
    game().global_event(&mut s, GlobalEvent::UnrestOverseas, &mut rng());
    let route = &game().data().routes[0];
    let pay = format!("EVENT Unrest Overseas PAY WITH Expert Maneuver FOR {route}");
    lists(&s, &pay, &Action::Pay(vec![maneuver]));
    lists(&s, &format!("EVENT Unrest Overseas LOSE FOR {route}"), &Action::Skip);
}

#[test]
fn the_order_builder_lists_paying_for_or_accepting_a_liberal_revolution_for_the_whole_nation() {
    let mut s = new(2);
    let two = vec![military("Expert Maneuver"), military("Superior Tactics")];
    s.players[0].military = two.clone();
    s.players[0].military.sort_unstable();
    game().adopt(&mut s, 1, card("Republic"));
    s.dev_discard.push(card("Republic"));
    game().global_event(&mut s, GlobalEvent::LiberalRevolution, &mut rng());
    let Some(Action::Pay(paid)) = game().legal_actions(&s).into_iter().find(|a| matches!(a, Action::Pay(_)))
    else {
        panic!("the revolution can be paid for")
    };
    let names: Vec<&str> =
        paid.iter().map(|c| game().data().military[usize::from(*c)].name.as_str()).collect();
    let pay = format!("EVENT Liberal Revolution PAY WITH {}", names.join(", "));
    lists(&s, &pay, &Action::Pay(paid.clone()));
    lists(&s, "EVENT Liberal Revolution ACCEPT", &Action::Skip);
}

#[test]
fn the_order_builder_lists_paying_for_or_losing_a_regiment_a_rebellion_is_supported_against() {
    let s = super::decisions::rebellion_in_champagne();
    let card = &game().data().military[0].name;
    lists(&s, &format!("REBELLION PAY WITH {card} FOR Champagne"), &Action::Pay(vec![0]));
    lists(&s, "REBELLION LOSE FOR Champagne", &Action::Skip);
}

/// France (seat 0) attacked in Champagne by Prussia's regiment from Rheinland, to act in the
/// war with Expert Maneuver in hand.
fn france_attacked() -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    let (fr, pr) = (PowerId(s.players[0].power), PowerId(s.players[1].power));
    let (champagne, rheinland) = (prov("Champagne"), prov("Rheinland"));
    assert!(game().data().neighbours(rheinland).contains(&champagne));
    s.provinces[usize::from(champagne)].regiment = Some(Piece { owner: Some(fr.0), conscripted: None });
    s.provinces[usize::from(rheinland)].regiment = Some(Piece { owner: Some(pr.0), conscripted: None });
    s.players[0].military = vec![military("Expert Maneuver")];
    s.war.declarations.push(Declaration { declarer: pr, target: fr, cause: WarCause::Conquest });
    assert!(game().war_phase(&mut s).1, "the war begins");
    s.stage = Stage::War;
    let war = |s: &mut State, power: PowerId, deed: WarDeed| {
        let a = Action::War(super::super::war::WarAction { power, deed });
        game().apply(s, &a, &mut rng()).expect("a war action");
    };
    if s.war.to_act() == Some(fr) {
        war(&mut s, fr, WarDeed::Pass);
    }
    let attack = WarDeed::Move { from: ProvinceId(rheinland), to: ProvinceId(champagne) };
    war(&mut s, pr, attack);
    assert_eq!(s.war.to_act(), Some(fr), "France answers");
    s
}

#[test]
fn the_order_builder_lists_answers_to_an_attack_on_the_power_to_act_as_when_attacked_lines() {
    let s = france_attacked();
    for (line, what) in [
        ("WAR WHEN ATTACKED AT Champagne PLAY Expert Maneuver", "the card"),
        ("WAR WHEN ATTACKED AT Champagne CONSCRIPT", "a conscript"),
    ] {
        assert!(listed(&s).iter().any(|l| l == line), "{line} listed: {:?}", listed(&s));
        let a = answered(&s, line).expect("answered");
        assert!(game().legal_actions(&s).contains(&a), "{line}: {a:?}");
        let is = |w: &WarDeed| match w {
            WarDeed::Play { card, .. } => what == "the card" && card.0 == military("Expert Maneuver"),
            WarDeed::Conscript { .. } => what == "a conscript",
            _ => false,
        };
        assert!(matches!(&a, Action::War(w) if is(&w.deed)), "{line}: {a:?}");
    }
}

#[test]
fn a_seat_drawn_into_the_rounds_war_is_listed_standing_answers_to_an_attack_from_its_own_hand() {
    let mut s = new(2);
    to_first_turn(&mut s);
    let all = |s: &State, seat: usize| -> Vec<String> {
        game().choices(s, Seat::from_index(seat)).into_iter().flat_map(|c| c.lines).collect()
    };
    assert!(all(&s, 1).iter().all(|l| !l.contains("WHEN ATTACKED")), "no war, no answers");
    s.players[1].military = vec![military("Superior Tactics"), military("Strategic Repositioning")];
    let (fr, pr) = (PowerId(s.players[0].power), PowerId(s.players[1].power));
    s.war.declarations.push(Declaration { declarer: fr, target: pr, cause: WarCause::Conquest });
    let lines = all(&s, 1);
    for line in ["WAR WHEN ATTACKED CONSCRIPT", "WAR WHEN ATTACKED PLAY Superior Tactics"] {
        assert!(lines.iter().any(|l| l == line), "{line}: {lines:?}");
        game().parse_order(line).expect("read");
    }
    assert!(lines.iter().all(|l| !l.contains("Strategic Repositioning")), "not an answer: {lines:?}");
    assert!(all(&s, 0).iter().all(|l| !l.contains("Superior Tactics")), "not the other seat's hand");
}
