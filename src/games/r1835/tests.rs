//! Set-up and options, plus the helpers the other test files share: a game, acting by
//! whoever is to move, and the standard four-player start-packet sale used as a fixture.

use super::state::{Loc, Round, State};
use super::*;
use crate::engine::prelude::*;
use crate::engine::{Event, GameRng, SetupSpec};
use serde_json::{Value, json};

pub(super) fn engine() -> R1835 {
    R1835::standard().expect("the standard 1835 data loads")
}

pub(super) fn game(g: &R1835, seats: u8, options: Value) -> State {
    g.setup(&SetupSpec { seats, options }, &mut GameRng::for_setup(0)).expect("setup")
}

/// A standard-variant game (rows, clockwise), strict sales, with the given extra options.
pub(super) fn standard(g: &R1835, seats: u8, extra: Value) -> State {
    let mut o = json!({"variant": "standard"});
    if let (Some(o), Some(extra)) = (o.as_object_mut(), extra.as_object()) {
        o.extend(extra.clone());
    }
    game(g, seats, o)
}

pub(super) fn try_act(g: &R1835, s: &mut State, a: Action) -> Result<Vec<Event>, String> {
    g.apply(s, &a, &mut GameRng::for_action(0, 0)).map_err(|e| e.0)
}

pub(super) fn act(g: &R1835, s: &mut State, a: Action) -> Vec<Event> {
    let shown = format!("{a:?}");
    try_act(g, s, a).unwrap_or_else(|e| panic!("{shown} refused: {e}"))
}

pub(super) fn item(id: &str) -> Action {
    Action::BuyItem { item: id.into() }
}
pub(super) fn ipo(co: &str, percent: u8) -> Action {
    Action::BuyShare { company: co.into(), from: Source::Ipo, percent }
}
pub(super) fn pool(co: &str, percent: u8) -> Action {
    Action::BuyShare { company: co.into(), from: Source::Pool, percent }
}
pub(super) fn sell(co: &str, count: u8, percent: u8) -> Action {
    Action::Sell { company: co.into(), count, percent }
}

/// The seat (1-based) to act.
pub(super) fn to_act(g: &R1835, s: &State) -> u8 {
    g.next_decision(s).map(|d| d.seat.0).unwrap_or(0)
}

pub(super) fn co(g: &R1835, id: &str) -> usize {
    g.data().major_index(id).expect("company id")
}

/// Cash of seat (1-based).
pub(super) fn cash(s: &State, seat: u8) -> i64 {
    s.players[usize::from(seat - 1)].cash
}

/// Percentage of a company held by a seat (1-based).
pub(super) fn held(g: &R1835, s: &State, seat: u8, id: &str) -> u32 {
    g.percent_of(s, co(g, id), seat - 1)
}

/// Four players, standard variant: the whole start packet sold in FACTS row order. Seat 1 ends
/// with NF, BY director, OBB (BY floats); seat 2 LD (SX director), M4, M5; seat 3 M2, M3, PfB;
/// seat 4 M1, BB, HB, M6. Afterwards the round is a normal stock round, seat 1 to act.
pub(super) fn sold_packet(g: &R1835, extra: Value) -> State {
    let mut s = standard(g, 4, extra);
    for id in ["NF", "LD", "M2", "M1", "BY", "M4", "M3", "BB", "OBB", "M5", "PfB", "HB", "M6"] {
        act(g, &mut s, item(id));
    }
    s
}

/// Marks every floated company as having operated (so its shares may be sold).
pub(super) fn operated(s: &mut State) {
    for c in s.majors.iter_mut().filter(|c| c.floated) {
        c.operated = true;
    }
}

/// Moves the game to a fresh stock round `n` with seat `priority` (1-based) first.
pub(super) fn fresh_stock_round(g: &R1835, s: &mut State, n: u32, priority: u8) {
    s.priority = priority - 1;
    let mut ev = Vec::new();
    g.start_stock_round(s, n, &mut ev);
}

#[test]
fn a_four_player_game_starts_with_475_each_and_the_rest_in_the_bank() {
    let g = engine();
    let s = game(&g, 4, Value::Null);
    assert!(s.players.iter().all(|p| p.cash == 475));
    assert_eq!(s.bank, 12000 - 4 * 475);
    assert_eq!(s.money(), 12000);
    assert_eq!(s.round, Round::Stock { n: 1 });
    assert_eq!(to_act(&g, &s), 1);
    for (seats, cash) in [(3, 600), (5, 390), (6, 340), (7, 310)] {
        let s = game(&g, seats, Value::Null);
        assert!(s.players.iter().all(|p| p.cash == cash), "{seats} players");
    }
}

#[test]
fn setup_refuses_two_or_eight_players_and_unknown_options() {
    let g = engine();
    let spec = |seats, options| SetupSpec { seats, options };
    for seats in [2, 8] {
        assert!(g.setup(&spec(seats, Value::Null), &mut GameRng::for_setup(0)).is_err());
    }
    let err = g.setup(&spec(4, json!({"variant": "chaos"})), &mut GameRng::for_setup(0)).unwrap_err();
    assert!(err.0.contains("bad 1835 option"), "{err}");
    let err = g.setup(&spec(4, json!({"colour": "red"})), &mut GameRng::for_setup(0)).unwrap_err();
    assert!(err.0.contains("unknown 1835 option \"colour\""), "{err}");
    let err = g.setup(&spec(4, json!({"preset": "tournament"})), &mut GameRng::for_setup(0)).unwrap_err();
    assert!(err.0.contains("unknown option preset"), "{err}");
}

#[test]
fn the_pbem_preset_is_half_thompson_and_the_rails_preset_follows_rails_defaults() {
    let g = engine();
    let s = game(&g, 4, Value::Null);
    assert_eq!(s.options.variant, options::Variant::HalfThompson);
    assert!(!s.options.separate_sales_same_price);
    let s = game(&g, 4, json!({"preset": "rails"}));
    assert_eq!(s.options.variant, options::Variant::Standard);
    assert!(s.options.separate_sales_same_price);
    assert_eq!(s.options.no_sales_in, options::NoSalesIn::StartPacket);
    let s = game(&g, 4, json!({"preset": "rails", "variant": "snake", "ld_income": 30}));
    assert_eq!((s.options.variant, s.options.ld_income), (options::Variant::Snake, 30));
}

#[test]
fn packet_certificates_wait_in_the_packet_and_prussian_exchange_shares_are_reserved() {
    let g = engine();
    let s = game(&g, 4, Value::Null);
    let at = |id: &str, l: Loc| {
        s.majors[co(&g, id)].certs.iter().filter(|c| c.at == l).map(|c| c.percent).collect::<Vec<_>>()
    };
    assert_eq!(at("BY", Loc::Packet), vec![20, 10, 10, 10]);
    assert_eq!(at("BY", Loc::Ipo), vec![10, 10, 10, 10, 10]);
    assert_eq!(at("SX", Loc::Packet), vec![20]);
    assert_eq!(at("PR", Loc::Ipo), vec![10, 10, 10, 10]);
    assert_eq!(at("PR", Loc::Reserved), vec![10, 10, 10, 10, 5, 5, 5, 5]);
    let total: usize = s.majors.iter().map(|c| c.certs.len()).sum();
    assert_eq!(total, 9 + 9 + 8 + 8 + 8 + 7 + 7 + 12);
}

#[test]
fn the_sold_packet_fixture_floats_by_and_leaves_a_stock_round() {
    let g = engine();
    let s = sold_packet(&g, Value::Null);
    assert!(!s.packet_open());
    let by = co(&g, "BY");
    assert!(s.majors[by].floated);
    assert_eq!(s.majors[by].cash, 460);
    assert_eq!(held(&g, &s, 1, "BY"), 40);
    assert_eq!(held(&g, &s, 3, "BY"), 10);
    assert_eq!(g.president(&s, co(&g, "SX")), Some(1));
    assert_eq!(s.money(), 12000);
    assert!(matches!(s.round, Round::Stock { n: 1 }));
}
