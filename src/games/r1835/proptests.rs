//! Property tests over whole random games (random legal actions, empty operating rounds so
//! play goes on): money is conserved, certificates are conserved, nobody ends a legal action
//! above the certificate limit by their own doing (RULING K8), every listed legal action is
//! accepted, and replaying the log reproduces the game; plus a long scripted game whose JSONL
//! log replays twice to identical ledgers.

use super::ledger;
use super::state::{Loc, Round, State};
use super::tests::engine;
use super::*;
use crate::engine::{Game, GameRng, LoggedAction, Pick, Seat, SetupSpec};
use proptest::prelude::*;
use serde_json::{Value, json};

const VARIANTS: [&str; 5] = ["standard", "snake", "clemens", "full_thompson", "half_thompson"];

/// Chooses an action: a pass one time in three (when legal), else any other legal action.
pub(super) fn choose(legal: &[Action], pick: &mut Pick) -> Option<Action> {
    let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::Pass).collect();
    if legal.contains(&Action::Pass) && (others.is_empty() || pick.next(3) == 0) {
        return Some(Action::Pass);
    }
    others.get(pick.next(others.len())).map(|a| (*a).clone())
}

fn check_invariants(
    g: &R1835,
    before: &State,
    s: &State,
    actor: u8,
    action: &Action,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(s.money(), 12000, "money conserved after {:?}", action);
    for (co, c) in s.majors.iter().enumerate() {
        let spec = &g.data().majors[co].certificates;
        prop_assert_eq!(c.certs.len(), spec.len());
        for (x, y) in c.certs.iter().zip(spec) {
            prop_assert_eq!(
                (x.percent, x.director),
                (y.percent, y.director),
                "certificates keep their identity"
            );
            if let Loc::Player(p) = x.at {
                prop_assert!(p < s.n());
            }
        }
        prop_assert_eq!(
            c.certs.iter().filter(|x| x.at == Loc::Reserved).count() > 0,
            g.data().majors[co].prussian
        );
    }
    let (count, limit) = (g.cert_count(s, actor), g.cert_limit(s, actor));
    if count > limit {
        let was_over = g.cert_count(before, actor) > g.cert_limit(before, actor);
        prop_assert!(
            was_over && matches!(action, Action::Sell { .. } | Action::Pass),
            "{:?} left the actor over the limit",
            action
        );
    }
    Ok(())
}

/// Plays a random game; returns the final state and the log.
fn play(
    g: &R1835,
    seats: u8,
    options: Value,
    seed: u64,
    max: usize,
) -> Result<(State, Vec<LoggedAction>), TestCaseError> {
    let spec = SetupSpec { seats, options };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| TestCaseError::fail(e.0))?;
    let mut pick = Pick(seed);
    let mut log = Vec::new();
    for seq in 0..max as u64 {
        let Some(d) = g.next_decision(&s) else { break };
        let legal = g.legal_actions(&s, &d);
        for a in &legal {
            let mut t = s.clone();
            prop_assert!(
                g.apply(&mut t, a, &mut GameRng::for_action(seed, seq)).is_ok(),
                "listed {:?} is refused",
                a
            );
            let over = g.cert_count(&s, d.seat.0 - 1) > g.cert_limit(&s, d.seat.0 - 1);
            let buys =
                matches!(a, Action::BuyShare { .. } | Action::BuyItem { .. } | Action::Nationalise { .. });
            prop_assert!(!(over && buys), "a player over the limit may not buy: {:?}", a);
        }
        let Some(action) = choose(&legal, &mut pick) else { break };
        let before = s.clone();
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, seq))
            .map_err(|e| TestCaseError::fail(e.0))?;
        check_invariants(g, &before, &s, d.seat.0 - 1, &action)?;
        log.push(LoggedAction {
            seq,
            seat: d.seat,
            action: serde_json::to_value(&action).unwrap_or(Value::Null),
            by_default: false,
        });
    }
    Ok((s, log))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn random_games_conserve_money_and_certificates_and_replay(
        seed in any::<u64>(), seats in 3u8..=7, variant in 0usize..5, same_price in any::<bool>()
    ) {
        let g = engine();
        let options = json!({
            "variant": VARIANTS[variant],
            "separate_sales_same_price": same_price,
            "empty_operating_rounds": true,
        });
        let (s, log) = play(&g, seats, options.clone(), seed, 500)?;
        let spec = SetupSpec { seats, options };
        let replayed = crate::engine::DynGame::replay(&g, &spec, seed, &log)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let live = serde_json::to_value(&s).unwrap_or(Value::Null);
        prop_assert_eq!(replayed, live);
    }

    #[test]
    fn illegal_actions_leave_the_state_unchanged(seed in any::<u64>(), company in 0usize..8, percent in prop::sample::select(vec![5u8, 10, 20]), count in 0u8..6) {
        let g = engine();
        let (mut s, _) = play(&g, 4, json!({"empty_operating_rounds": true}), seed, 120)?;
        let id = g.data().majors[company].id.clone();
        for a in [
            Action::Sell { company: id.clone(), count, percent },
            Action::BuyShare { company: id.clone(), from: Source::Pool, percent },
            Action::Nationalise { company: id, from_seat: 9, percent },
            Action::BuyItem { item: "XX".into() },
        ] {
            let before = s.clone();
            if g.apply(&mut s, &a, &mut GameRng::for_action(0, 0)).is_err() {
                prop_assert_eq!(&s, &before);
            } else {
                s = before;
            }
        }
    }
}

/// A long game of several stock rounds written as a JSONL log, as the console reads it.
fn scripted_log(g: &R1835, seats: u8, options: &Value) -> (String, State) {
    let mut s =
        g.setup(&SetupSpec { seats, options: options.clone() }, &mut GameRng::for_setup(0)).expect("setup");
    let mut pick = Pick(1835);
    let mut lines = Vec::new();
    while let Some(d) = g.next_decision(&s) {
        if lines.len() >= 3000 {
            break;
        }
        let legal = g.legal_actions(&s, &d);
        let Some(action) = choose(&legal, &mut pick) else { break };
        g.apply(&mut s, &action, &mut GameRng::for_action(0, 0)).expect("legal");
        lines.push(json!({"seat": d.seat.0, "action": action}).to_string());
    }
    (lines.join("\n"), s)
}

#[test]
fn a_long_scripted_game_replays_twice_to_identical_ledgers() {
    let g = engine();
    let options = json!({"empty_operating_rounds": true});
    let (log, live) = scripted_log(&g, 4, &options);
    let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"].iter().map(|x| x.to_string()).collect();
    let a = ledger::replay(&g, &names, &options, 0, &log).expect("replays");
    let b = ledger::replay(&g, &names, &options, 0, &log).expect("replays again");
    assert_eq!(a.csv(), b.csv());
    assert_eq!(a.state, live);
    let rounds: Vec<&str> = a.rows.iter().map(|r| r.round.as_str()).collect();
    assert!(
        rounds.contains(&"SR1") && rounds.contains(&"OR1.1") && rounds.contains(&"SR4"),
        "several rounds"
    );
    let csv = a.csv();
    assert!(csv.starts_with("round,entity,cash\nSR1,Ann,"), "{}", &csv[..80.min(csv.len())]);
    assert!(csv.contains("\nOR1.1,BY,"));
    // 4 players + 6 minors + 8 share companies per closed round.
    assert_eq!(a.rows.len() % 18, 0);
    if live.round == Round::Over {
        assert!(csv.contains("\nfinal,"));
    }
}

#[test]
fn a_refused_log_line_is_named_with_its_reason() {
    let g = engine();
    let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|x| x.to_string()).collect();
    let log = "{\"seat\":1,\"action\":{\"type\":\"buy_item\",\"item\":\"NF\"}}\n# a comment\n{\"seat\":2,\"action\":{\"type\":\"buy_share\",\"company\":\"SX\",\"from\":\"ipo\",\"percent\":10}}";
    let err = ledger::replay(&g, &names, &json!({"variant": "standard"}), 0, log).unwrap_err();
    assert!(err.starts_with("line 3: refused: while the start packet is on sale"), "{err}");
    let err = ledger::replay(&g, &names, &Value::Null, 0, "{\"seat\":3,\"action\":{\"type\":\"pass\"}}")
        .unwrap_err();
    assert!(err.starts_with("line 1: seat 3 acted, but the game awaited seat 1 (A)"), "{err}");
    let _ = Seat(1);
}
