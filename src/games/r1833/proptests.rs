//! Property tests: whole random games (the random player of `sim`) for 2 to 6 players played
//! through the conformance harness (`crate::engine::conformance`: games end with a final score,
//! listed actions are accepted, refusals change nothing, the log replays, views and event texts
//! hide the hands and the deck, published lines reveal nothing), with 1833's own invariants:
//! cards are conserved across deck, pool, discard pile, hands, routes and the removed pile, no
//! hand exceeds its limit, and `legal_actions` lists everything `apply` accepts (RULING C20).

use super::data::CardId;
use super::state::{Action, Phase, State};
use super::tests::game;
use super::*;
use crate::engine::conformance::{self, Hidden, Play};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, Scoring, Seat, Setup, SetupSpec, Viewer};
use proptest::prelude::*;

impl Hidden for R1833 {
    /// Re-deals the draw deck, the set-up bottom deck and the hands `viewer` cannot see,
    /// keeping every size (the discard pile, pool and routes are on the table). Once the game
    /// is over the hands are scored in public (Corp RR bonuses, Re-Shuffles held): nothing is
    /// hidden any more.
    fn redeal(&self, s: &State, viewer: Viewer, rng: &mut GameRng) -> State {
        let mut out = s.clone();
        if viewer == Viewer::Gm || s.phase == Phase::Over {
            return out;
        }
        let hidden: Vec<usize> =
            (0..s.players.len()).filter(|i| !viewer.may_see(Seat::from_index(*i))).collect();
        let mut pool: Vec<CardId> = out.draw.iter().chain(&out.bottom).copied().collect();
        pool.extend(hidden.iter().flat_map(|i| out.players[*i].hand.iter().copied()));
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        for i in &hidden {
            let n = out.players[*i].hand.len();
            out.players[*i].hand = rest.by_ref().take(n).collect();
        }
        out.draw = rest.by_ref().take(s.draw.len()).collect();
        out.bottom = rest.collect();
        out
    }
}

fn check_invariants(g: &R1833, s: &State) -> Result<(), String> {
    let mut all = s.all_cards();
    all.sort_unstable();
    let expected: Vec<CardId> = (0..g.deck().cards.len()).filter_map(|i| CardId::try_from(i).ok()).collect();
    if all != expected {
        return Err("a card is in two places or none".into());
    }
    for p in &s.players {
        if p.hand.len() > usize::from(p.limit) || !(5..=8).contains(&p.limit) {
            return Err(format!("hand {} over limit {}", p.hand.len(), p.limit));
        }
    }
    if matches!(s.phase, Phase::Play | Phase::Offer { .. }) && s.pool.len() > s.players.len() {
        return Err("the pool holds more cards than players".into());
    }
    check_apply_only_what_is_listed(g, s)
}

/// Every simple action `apply` would accept now is listed by `legal_actions` (a copy of a card
/// stands for any copy of the same kind): draws, discards, Re-Shuffles, the default draw, the
/// end of the turn and the answers to an offer.
fn check_apply_only_what_is_listed(g: &R1833, s: &State) -> Result<(), String> {
    if g.next_decision(s).is_none() {
        return Ok(());
    }
    let legal = g.legal_actions(s);
    let deck = g.deck_of(s);
    let same = |a: &Action, b: &Action| match (a, b) {
        (Action::Discard(x), Action::Discard(y))
        | (Action::DrawPool(x), Action::DrawPool(y))
        | (Action::PlayReshuffle(x), Action::PlayReshuffle(y)) => deck.kind(*x) == deck.kind(*y),
        _ => a == b,
    };
    let hand = s.player(s.active).map(|p| p.hand.clone()).unwrap_or_default();
    let mut candidates = vec![
        Action::DrawDeck,
        Action::DrawToLimitAndEnd,
        Action::DrawDiscard,
        Action::EndTurn,
        Action::Take,
        Action::Decline,
    ];
    candidates.extend(s.pool.iter().map(|c| Action::DrawPool(*c)));
    candidates.extend(hand.iter().flat_map(|c| [Action::Discard(*c), Action::PlayReshuffle(*c)]));
    match candidates.into_iter().find(|a| g.check(s, a).is_ok() && !legal.iter().any(|l| same(l, a))) {
        Some(a) => Err(format!("apply accepts {a:?}, which legal_actions does not list")),
        None => Ok(()),
    }
}

/// Actions that are often illegal: a random card discarded, drawn from the pool or played as a
/// Re-Shuffle, and the answers to an offer.
fn tamper(_: &State, p: &mut Pick) -> Vec<Action> {
    let card = CardId::try_from(p.next(140)).unwrap_or(0);
    vec![
        Action::Discard(card),
        Action::DrawPool(card),
        Action::Take,
        Action::EndTurn,
        Action::PlayReshuffle(card),
    ]
}

/// Random order lines: a draw, a discard or pick-up of a card from the seat's hand or the pool.
fn any_orders(g: &R1833, s: &State, seat: Seat, p: &mut Pick) -> Vec<String> {
    let deck = g.deck_of(s);
    let hand = s.players.get(seat.index()).map(|x| x.hand.clone()).unwrap_or_default();
    let named: Vec<String> = hand.iter().chain(&s.pool).map(|c| deck.name(*c).to_string()).collect();
    (0..1 + p.next(3))
        .map(|_| {
            let name = named.get(p.next(named.len() + 1)).cloned().unwrap_or_else(|| "Albany".into());
            match p.next(4) {
                0 => "DRAW DECK".to_string(),
                1 => format!("DISCARD {name}"),
                2 => format!("DRAW POOL {name}"),
                _ => format!("IF HAND HAS {name} THEN DRAW DECK"),
            }
        })
        .collect()
}

/// Plays a whole random game through the harness; returns the final state.
fn play(g: &R1833, seats: u8, seed: u64, options: serde_json::Value) -> Result<State, String> {
    let choose = |s: &State, legal: &[Action], p: &mut Pick| {
        g.next_decision(s)
            .and_then(|_| super::sim::pick_action(g, s, p))
            .or_else(|| legal.first().cloned())
            .unwrap_or(Action::EndTurn)
    };
    let invariants = |_: &State, s: &State, _: &Action| check_invariants(g, s);
    let orders = |s: &State, seat: Seat, p: &mut Pick| any_orders(g, s, seat, p);
    let play = Play {
        spec: SetupSpec { seats, options },
        seed,
        choices: seed,
        max_actions: 20_000,
        choose: &choose,
        tamper: &tamper,
        invariants: &invariants,
        orders: Some(&orders),
        stop_after: None,
    };
    conformance::play(g, &play).map(|p| p.state)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conform_conserve_cards_and_respect_hand_limits(seed in any::<u64>(), seats in 2u8..=6) {
        let g = game();
        let live = play(&g, seats, seed, serde_json::Value::Null).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&live.phase, &Phase::Over);
    }
}

/// One whole random game of `seats` through the harness (one test per table size, so that the
/// test threads share them).
fn a_full_game(seats: u8) {
    let g = game();
    let s = play(&g, seats, 40 + u64::from(seats), serde_json::Value::Null).expect("plays");
    let st = Scoring::standings(&g, &s).expect("final standings");
    assert_eq!(st.len(), usize::from(seats));
    assert!(st.iter().all(|x| x.score.contains("VP")));
}

#[test]
fn a_full_random_game_for_2_players_reaches_a_final_score() {
    a_full_game(2);
}

#[test]
fn a_full_random_game_for_3_players_reaches_a_final_score() {
    a_full_game(3);
}

#[test]
fn a_full_random_game_for_4_players_reaches_a_final_score() {
    a_full_game(4);
}

#[test]
fn a_full_random_game_for_5_players_reaches_a_final_score() {
    a_full_game(5);
}

#[test]
fn a_full_random_game_for_6_players_reaches_a_final_score() {
    a_full_game(6);
}

#[test]
fn redealing_for_the_public_changes_the_hands_so_the_hidden_checks_are_not_vacuous() {
    let g = game();
    let s = Setup::setup(
        &g,
        &SetupSpec { seats: 4, options: serde_json::Value::Null },
        &mut GameRng::for_setup(3),
    )
    .expect("setup");
    let other = g.redeal(&s, Viewer::Public, &mut GameRng::for_action(1, 1));
    assert_ne!(s.draw, other.draw, "the deck is re-dealt");
    assert_eq!(s.draw.len(), other.draw.len());
    let mine = g.redeal(&s, Viewer::Seat(Seat(1)), &mut GameRng::for_action(1, 1));
    assert_eq!(s.players[0].hand, mine.players[0].hand, "a seat's own hand is kept");
}
