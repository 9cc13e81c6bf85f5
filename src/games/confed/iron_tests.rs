//! Divert Iron Shipment (RT 7.6, RULING F62) and the fee on a segment two foreign lines share
//! (RULING F63), through the engine.

use super::proptests::game;
use super::state::{Action, Chit, ChoiceKind, Contract, Stage, State, Task};
use super::tests::{apply, moving, put, st, started};
use crate::engine::{Event, GameRng, Rules, Seat};

/// Iron (RT 7.6): load 39, Rome to Atlanta, not war-matériel.
const IRON: u32 = 39;
/// The A&G (Savannah - Lawton - Tallahassee), with Valdosta on it alone.
const AG: u8 = 14;

fn carrying(s: &mut State, seat: Seat, id: u8, chit: u32) {
    if let Some(t) = s.train_mut(seat, id) {
        t.load = Some(Contract { chit, pickup: st("Rome"), dropoff: st("Atlanta"), picked: true });
    }
}

/// Seat 1 owns the A&G, which has Bad Rails, and enacts Divert Iron Shipment for it.
fn diverting(s: &mut State) -> Vec<Event> {
    let g = game();
    s.players[0].rrcs.insert(AG);
    s.bad_rails.insert(AG);
    let k = g.data().tables.events.iter().position(|e| e.case == "7.6").expect("event 7.6");
    let mut ev = Vec::new();
    g.enact(s, k, Some(usize::from(AG)), &mut GameRng::for_action(3, 3), &mut ev);
    ev
}

#[test]
fn case_7_6_divert_iron_repairs_the_bad_rails_only_when_the_iron_is_abandoned_on_that_line() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Valdosta", Some(AG));
    carrying(&mut s, Seat(1), 1, IRON);
    diverting(&mut s);
    assert!(s.bad_rails.contains(&AG), "the event alone repairs nothing");
    assert_eq!(s.diversions.len(), 1);
    let money = s.players[0].money;
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Abandon);
    assert!(!s.bad_rails.contains(&AG), "the Bad Rails go");
    assert_eq!(s.players[0].money, money - 300, "the $300 penalty tariff");
    assert!(s.discarded.contains(&Chit::Load(IRON)) && s.abandoned.is_empty(), "the chit leaves play");
    assert!(s.diversions.is_empty() && s.train(Seat(1), 1).is_some_and(|t| t.load.is_none()));
}

#[test]
fn case_7_6_iron_abandoned_off_the_bad_rails_line_is_an_ordinary_abandonment() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Macon (GA)", Some(13));
    carrying(&mut s, Seat(1), 1, IRON);
    diverting(&mut s);
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Abandon);
    assert!(s.bad_rails.contains(&AG));
    assert_eq!(s.abandoned.first().map(|a| (a.chit, a.at)), Some((IRON, st("Macon (GA)"))));
    assert_eq!(s.diversions.len(), 1, "the diversion still stands");
}

#[test]
fn case_7_6_a_shipment_seized_on_the_players_line_is_his_alone_and_diverted_without_tariff() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(2), 1, "Valdosta", None);
    carrying(&mut s, Seat(2), 1, IRON);
    let owner_money = s.players[1].money;
    diverting(&mut s);
    assert!(matches!(
        s.tasks.first(),
        Some(Task::Choose { seat: Seat(1), kind: ChoiceKind::IronSeizure, optional: true, .. })
    ));
    apply(g, &mut s, Action::Choose(16 + 1));
    assert!(s.train(Seat(2), 1).is_some_and(|t| t.load.is_none()), "abandoned at once");
    assert_eq!(s.players[1].money, owner_money, "no payment, no tariff for the owner");
    assert_eq!(s.abandoned.first().map(|a| (a.chit, a.reserved)), Some((IRON, Some(Seat(1)))));
    // Seat 2 may not take it up again; seat 1 may.
    s.turn = 1;
    s.stage = Stage::Undertake { train: 1 };
    assert!(!g.legal_actions(&s).contains(&Action::TakeAbandoned(IRON)));
    s.turn = 0;
    put(&mut s, Seat(1), 1, "Valdosta", Some(AG));
    s.stage = Stage::Undertake { train: 1 };
    s.mp = 10;
    apply(g, &mut s, Action::TakeAbandoned(IRON));
    apply(g, &mut s, Action::PickUp);
    let money = s.players[0].money;
    apply(g, &mut s, Action::Abandon);
    assert!(!s.bad_rails.contains(&AG));
    assert_eq!(s.players[0].money, money, "no tariff for a seized shipment");
}

#[test]
fn case_7_6_a_diversion_lapses_when_the_treasure_hunt_repairs_the_line_first() {
    let g = game();
    let mut s = started(2);
    put(&mut s, Seat(1), 1, "Valdosta", Some(AG));
    carrying(&mut s, Seat(1), 1, IRON);
    diverting(&mut s);
    s.players[0].specials.push(6);
    apply(g, &mut s, Action::TreasureHunt(AG));
    assert!(s.diversions.is_empty());
}

#[test]
fn a_fee_on_a_segment_shared_by_two_foreign_lines_goes_to_the_lower_numbered_line_under_ruling_f63() {
    let g = game();
    let mut s = started(3);
    s.players[1].rrcs.insert(14);
    s.players[2].rrcs.insert(15);
    put(&mut s, Seat(1), 1, "Lawton", None);
    carrying(&mut s, Seat(1), 1, IRON);
    let (second, third) = (s.players[1].money, s.players[2].money);
    moving(&mut s, 1, 10);
    apply(g, &mut s, Action::Step { to: st("Live Oak"), fee: true });
    let fee = g.data().tables.costs.line_fee;
    assert_eq!((s.players[1].money, s.players[2].money), (second + fee, third));
    assert_eq!(s.train(Seat(1), 1).and_then(|t| t.line), Some(14));
}
