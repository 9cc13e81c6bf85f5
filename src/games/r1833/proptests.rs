//! Property tests: whole random games (random legal actions) for 2 to 6 players played to the
//! final score while checking that cards are conserved across deck, pool, discard pile, hands,
//! routes and the removed pile, that no hand exceeds its limit, that `legal_actions` lists
//! exactly what `apply` accepts (RULING C20), and that replaying the log reproduces the live
//! state.

use super::deck::CardId;
use super::state::{Action, Phase, State};
use super::tests::game;
use super::*;
use crate::engine::{Game, GameRng, LoggedAction, SetupSpec};

fn replay(
    g: &R1833,
    spec: &SetupSpec,
    seed: u64,
    log: &[LoggedAction],
) -> Result<serde_json::Value, crate::engine::EngineError> {
    crate::engine::DynGame::replay(g, spec, seed, log)
}
use proptest::prelude::*;

fn check_invariants(g: &R1833, s: &State) -> Result<(), TestCaseError> {
    let mut all = s.all_cards();
    all.sort_unstable();
    let expected: Vec<CardId> = (0..g.deck().cards.len()).filter_map(|i| CardId::try_from(i).ok()).collect();
    prop_assert_eq!(all, expected, "every card is in exactly one place");
    for p in &s.players {
        prop_assert!(p.hand.len() <= usize::from(p.limit), "hand {} over limit {}", p.hand.len(), p.limit);
        prop_assert!((5..=8).contains(&p.limit));
    }
    if matches!(s.phase, Phase::Play | Phase::Offer { .. }) {
        prop_assert_eq!(s.pool.len() <= s.players.len(), true);
    }
    Ok(())
}

/// Every simple action `apply` would accept now is listed by `legal_actions` (a copy of a card
/// stands for any copy of the same kind): draws, discards, Re-Shuffles, the default draw, the
/// end of the turn and the answers to an offer.
fn check_apply_only_what_is_listed(g: &R1833, s: &State) -> Result<(), TestCaseError> {
    let Some(d) = g.next_decision(s) else { return Ok(()) };
    let legal = g.legal_actions(s, &d);
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
    for a in candidates {
        if g.check(s, &a).is_ok() {
            prop_assert!(
                legal.iter().any(|l| same(l, &a)),
                "apply accepts {:?}, which legal_actions does not list",
                a
            );
        }
    }
    Ok(())
}

/// Plays a whole random game, checking the invariants after every action; returns the log
/// and the final state.
fn play(
    g: &R1833,
    seats: u8,
    seed: u64,
    options: serde_json::Value,
) -> Result<(Vec<LoggedAction>, State), TestCaseError> {
    let spec = SetupSpec { seats, options };
    let mut log = Vec::new();
    let end = super::sim::random_game(g, &spec, seed, 20_000, |seq, seat, a, s| {
        check_invariants(g, s).map_err(|e| e.to_string())?;
        check_apply_only_what_is_listed(g, s).map_err(|e| e.to_string())?;
        log.push(LoggedAction {
            seq,
            seat,
            action: serde_json::to_value(a).unwrap_or_default(),
            by_default: false,
        });
        Ok(())
    })
    .map_err(TestCaseError::fail)?;
    Ok((log, end))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_cards_respect_hand_limits_and_replay_exactly(seed in any::<u64>(), seats in 2u8..=6) {
        let g = game();
        let (log, live) = play(&g, seats, seed, serde_json::Value::Null)?;
        prop_assert_eq!(&live.phase, &Phase::Over);
        let spec = SetupSpec { seats, options: serde_json::Value::Null };
        let replayed = replay(&g, &spec, seed, &log).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let replayed: State = serde_json::from_value(replayed).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(replayed, live);
    }

    #[test]
    fn a_refused_action_leaves_the_state_unchanged(seed in any::<u64>(), card in 0u16..140) {
        let g = game();
        let s = Game::setup(&g, &SetupSpec { seats: 3, options: serde_json::Value::Null }, &mut GameRng::for_setup(seed))
            .map_err(|e| TestCaseError::fail(e.0))?;
        for a in [Action::Discard(card), Action::DrawPool(card), Action::Take, Action::EndTurn, Action::PlayReshuffle(card)] {
            let mut t = s.clone();
            if g.apply(&mut t, &a, &mut GameRng::for_action(seed, 0)).is_err() {
                prop_assert_eq!(&t, &s);
            }
        }
    }
}

#[test]
fn a_full_random_game_for_each_of_2_to_6_players_reaches_a_final_score() {
    let g = game();
    for seats in 2..=6u8 {
        let (_, s) = play(&g, seats, 40 + u64::from(seats), serde_json::Value::Null).expect("plays");
        let st = Game::standings(&g, &s).expect("final standings");
        assert_eq!(st.len(), usize::from(seats));
        assert!(st.iter().all(|x| x.score.contains("VP")));
    }
}
