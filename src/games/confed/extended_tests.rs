//! The Extended Game (RT 1.1, 4.1.1, 4.1.2, 5.9) and conditional payments (RULING F42), one
//! test per rule.

use super::proptests::game;
use super::state::{Action, Stage, State};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, SetupSpec};

fn apply(s: &mut State, a: Action) {
    game().apply(s, &a, &mut GameRng::for_action(3, 3)).unwrap_or_else(|e| panic!("{a:?}: {e}"));
}

/// An Extended Game of `seats` through its set-up by default answers.
fn extended(seats: u8) -> State {
    let g = game();
    let spec = SetupSpec { seats, options: serde_json::json!({"extended": true}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(7)).expect("setup");
    let mut n = 0;
    while !matches!(s.stage, Stage::RrcPhase { .. }) {
        let a = g.default_action(&s).expect("a default");
        g.apply(&mut s, &a, &mut GameRng::for_action(7, n)).expect("default is legal");
        n += 1;
    }
    s
}

#[test]
fn case_3_2_to_3_5_the_extended_game_deals_rrcs_gives_5000_and_places_fewer_trains() {
    let s = extended(4);
    for p in &s.players {
        assert_eq!(p.rrcs.len(), 1);
        assert_eq!(p.money, 5000);
        assert_eq!(p.trains.len(), 1);
        assert_eq!(p.reserve, vec![2, 3, 4]);
    }
    assert!(s.pre_war);
    assert!(s.pile.iter().all(|c| matches!(c, super::state::Chit::Load(_))), "no Events before the War");
}

#[test]
fn case_4_1_1_the_high_bidder_wins_when_all_others_pass_and_places_a_train() {
    let mut s = extended(3);
    let a = s.active();
    let rrc = game().unowned(&s)[0];
    apply(&mut s, Action::Bid { rrc, amount: 300 });
    let b = s.seats_from(a)[1];
    apply(&mut s, Action::Bid { rrc, amount: 400 });
    apply(&mut s, Action::Pass);
    assert!(matches!(s.stage, Stage::Bidding { high, bid: 400, .. } if high == b));
    apply(&mut s, Action::Pass);
    assert_eq!(s.owner_of(rrc), Some(b));
    assert_eq!(s.player(b).map(|p| p.money), Some(4600));
    assert!(matches!(s.stage, Stage::PlaceBought { seat, line } if seat == b && line == rrc));
    let place = game().legal_actions(&s)[0].clone();
    apply(&mut s, place);
    assert_eq!(s.player(b).map(|p| p.trains.len()), Some(3));
    assert!(matches!(s.stage, Stage::Contract { .. }));
}

#[test]
fn case_4_1_1_a_bid_must_raise_by_at_least_100_and_stay_within_the_treasury() {
    let mut s = extended(2);
    let rrc = game().unowned(&s)[0];
    assert!(!game().allows(&s, &Action::Bid { rrc, amount: 5100 }));
    apply(&mut s, Action::Bid { rrc, amount: 300 });
    assert!(!game().allows(&s, &Action::Bid { rrc, amount: 300 }));
    assert!(!game().allows(&s, &Action::Bid { rrc, amount: 350 }));
    assert!(game().allows(&s, &Action::Bid { rrc, amount: 400 }));
}

#[test]
fn case_4_1_2_the_contract_phase_replaces_a_displayed_load_which_leaves_the_game() {
    let mut s = extended(2);
    apply(&mut s, Action::Pass);
    apply(&mut s, Action::Pass);
    let Stage::Contract { drawn } = s.stage else { panic!("{:?}", s.stage) };
    let old = s.display[0];
    apply(&mut s, Action::Replace(old));
    assert!(s.display.contains(&drawn) && !s.display.contains(&old));
    assert!(s.discarded.contains(&super::state::Chit::Load(old)));
    assert!(matches!(s.stage, Stage::Activate));
}

#[test]
fn case_6_0_special_events_are_not_played_before_the_war() {
    let mut s = extended(2);
    let seat = s.active();
    if let Some(p) = s.player_mut(seat) {
        p.specials = vec![8];
    }
    s.stage = Stage::Activate;
    assert!(!game().legal_actions(&s).contains(&Action::ThroughFreight));
}

#[test]
fn case_5_9_the_war_starts_the_round_after_the_last_rrc_is_bought() {
    let g = game();
    let mut s = extended(2);
    for l in g.unowned(&s) {
        if let Some(p) = s.player_mut(Seat(1)) {
            p.rrcs.insert(l);
        }
    }
    let mut ev = Vec::new();
    g.maybe_start_war(&mut s, &mut GameRng::for_action(1, 1), &mut ev);
    assert!(!s.pre_war);
    assert!(s.set_aside.is_empty());
    assert!(s.pile.iter().any(|c| matches!(c, super::state::Chit::Event(_))));
}

#[test]
fn ruling_f42_a_payment_whose_condition_fails_when_accepted_moves_no_money() {
    let g = game();
    let mut s = extended(2);
    s.stage = Stage::Activate;
    s.pre_war = false;
    let (order, turn) = (s.order.clone(), s.turn);
    let (a, b) = (s.active(), s.seats_from(s.active())[1]);
    let atlanta = g.data().map.station("Atlanta").expect("Atlanta");
    let cond = super::bribe::parse_cond("Atlanta IS OCCUPIED").expect("a condition");
    // RULING F36 (amended): the offer is answered once the Player Turn's play is over.
    let offer_and_accept = |s: &mut State, cond: super::actions::Cond| {
        (s.order, s.turn, s.stage) = (order.clone(), turn, Stage::Activate);
        s.tasks.clear();
        apply(s, Action::Offer { to: b, amount: 200, cond: Some(cond) });
        apply(s, Action::StartMoving);
        assert_eq!(g.next_decision(s).map(|d| d.seat), Some(b), "{:?}", s.tasks);
        apply(s, Action::Accept);
    };
    offer_and_accept(&mut s, cond.clone());
    assert_eq!(s.player(a).map(|p| p.money), Some(5000), "Atlanta is open: nothing paid");
    s.occupied.insert(atlanta);
    offer_and_accept(&mut s, cond);
    assert_eq!(s.player(a).map(|p| p.money), Some(4800));
    assert_eq!(s.player(b).map(|p| p.money), Some(5200));
}
