//! The war against the rules text (issue 35): any power involved in the war may be attacked, not
//! only the one a declaration names (RULING E40), and only a regiment bars a province to a
//! regiment or a conscript (RULINGS E43, E46) — rules, "Wars": "You may not move a regiment onto
//! a province with a regiment belonging to you or to a nation that is not involved in the war.
//! You may, however, move your regiment onto a province in which there is one regiment belonging
//! to another player involved in the war."

use super::board::{Owner, Regiment, WarBoard, control};
use super::testboard::*;
use super::tests::{act, mv};
use super::*;

const ORDER: [PowerId; 4] = [PRUSSIA, FRANCE, AUSTRIA, BRITAIN];

fn declare(w: &mut WarState, b: &TestBoard, declarer: PowerId, target: PowerId) {
    let d = Declaration { declarer, target, cause: WarCause::Retaliation };
    declare_war(b, w, d, &ORDER).expect("declared");
}

#[test]
fn rules_wars_a_regiment_may_attack_any_other_player_involved_in_the_war_not_only_the_one_it_declared_on() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Saxony");
    b.put(AUSTRIA, "Bohemia");
    let mut w = WarState::default();
    // Declarations A → B and C → D: France on Prussia, Austria on Britain.
    declare(&mut w, &b, FRANCE, PRUSSIA);
    declare(&mut w, &b, AUSTRIA, BRITAIN);
    begin_war(&b, &mut w, &ORDER).expect("begun");
    assert!(!w.hostile(PRUSSIA, AUSTRIA), "no declaration between Prussia and Austria");
    let attack = WarAction { power: PRUSSIA, deed: mv("Saxony", "Bohemia") };
    assert!(legal_war_actions(&b, &w, PRUSSIA).contains(&attack));
    let events = act(&mut b, &mut w, PRUSSIA, mv("Saxony", "Bohemia")).expect("an attack on Austria");
    assert!(events[0].public.contains("attacks Austria's regiment in Bohemia"), "{events:?}");
    assert_eq!(w.phase.as_ref().map(|p| p.battles.len()), Some(1));
}

#[test]
fn rules_wars_a_regiment_may_enter_a_province_without_a_regiment_whoever_controls_it() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Saxony");
    b.put(PRUSSIA, "Hesse");
    let mut w = WarState::default();
    declare(&mut w, &b, FRANCE, PRUSSIA);
    begin_war(&b, &mut w, &ORDER).expect("begun");
    // Bohemia: Austria's pop, Austria not in the war; Bavaria: a neutral pop, no neutral regiment.
    act(&mut b, &mut w, PRUSSIA, mv("Saxony", "Bohemia")).expect("a bystander's empty province");
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(&mut b, &mut w, PRUSSIA, mv("Hesse", "Bavaria")).expect("a neutral empty province");
    assert_eq!(control(&b, at("Bohemia")), Some(Owner::Power(PRUSSIA)));
    assert_eq!(control(&b, at("Bavaria")), Some(Owner::Power(PRUSSIA)));
}

#[test]
fn rules_wars_a_conscript_may_be_raised_on_any_pop_of_yours_in_a_province_without_a_regiment() {
    let mut b = TestBoard::new();
    b.set_pops(Owner::Power(PRUSSIA), "Bohemia", 1);
    b.set_pops(Owner::Power(AUSTRIA), "Bohemia", 2);
    let mut w = WarState::default();
    declare(&mut w, &b, FRANCE, PRUSSIA);
    begin_war(&b, &mut w, &ORDER).expect("begun");
    assert_eq!(control(&b, at("Bohemia")), Some(Owner::Power(AUSTRIA)), "Austria has the most pops there");
    act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Bohemia") }).expect("on its own pop");
    let conscript = Regiment { owner: Owner::Power(PRUSSIA), conscripted: Some(at("Bohemia")) };
    assert_eq!(b.regiment(at("Bohemia")), Some(conscript));
}
