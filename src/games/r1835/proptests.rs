//! Property tests over random games (random legal actions, empty operating rounds so play goes
//! on) through the conformance harness (`crate::engine::conformance`: listed actions are
//! accepted, refusals change nothing, the log replays, published lines; 1835 has no hidden
//! information, RULING P2), with 1835's own invariants: money and certificates are conserved and
//! nobody ends a legal action above the certificate limit by their own doing (RULING K8); plus a
//! long scripted game whose JSONL log replays twice to identical ledgers; random games with
//! operating rounds played (500 actions; every default legal); and random whole games, played to
//! the final ranking, that always end with money and the 33 trains conserved (issue 14).

use super::ledger;
use super::state::{Loc, Round, State};
use super::tests::engine;
use super::*;
use crate::engine::conformance::{self, Hidden, Play};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, Seat, SetupSpec, Viewer};
use proptest::prelude::*;
use serde_json::{Value, json};

const VARIANTS: [&str; 5] = ["standard", "snake", "clemens", "full_thompson", "half_thompson"];

impl Hidden for R1835 {
    /// RULING P2: 1835 has no hidden information; there is nothing to re-deal.
    fn redeal(&self, s: &State, _viewer: Viewer, _rng: &mut GameRng) -> State {
        s.clone()
    }

    /// The echo says what each line does now (`orders::echo`): "now: … can be carried out", the
    /// branch a later line takes, or a train sale waiting for its offer; anything else — "not
    /// possible", "nothing ordered", a company not directed, a certificate not held — warns.
    fn echo_accepts(&self, advice: &str) -> bool {
        advice.split("; ").all(|part| {
            (part.starts_with("now: ") && part.ends_with("can be carried out"))
                || (part.starts_with("when ") && !part.contains("→ nothing"))
                || (part.starts_with("as the board stands now: ") && !part.ends_with("→ nothing"))
                || part.contains("'s offer for ")
        })
    }
}

/// Chooses an action: a pass one time in three (when legal), else any other legal action.
pub(super) fn choose(legal: &[Action], pick: &mut Pick) -> Option<Action> {
    let others: Vec<&Action> = legal.iter().filter(|a| **a != Action::Pass).collect();
    if legal.contains(&Action::Pass) && (others.is_empty() || pick.next(3) == 0) {
        return Some(Action::Pass);
    }
    others.get(pick.next(others.len())).map(|a| (*a).clone())
}

/// Money and certificates are conserved, and nobody ends a legal action above the certificate
/// limit by their own doing (RULING K8).
fn check_invariants(g: &R1835, before: &State, s: &State, action: &Action) -> Result<(), String> {
    if s.money() != 12000 {
        return Err(format!("money is {} after {action:?}, not 12000", s.money()));
    }
    for (co, c) in s.majors.iter().enumerate() {
        let spec = &g.data().majors[co].certificates;
        let same = c.certs.len() == spec.len()
            && c.certs.iter().zip(spec).all(|(x, y)| (x.percent, x.director) == (y.percent, y.director));
        if !same {
            return Err(format!("company {co}'s certificates lost their identity"));
        }
        if c.certs.iter().any(|x| matches!(x.at, Loc::Player(p) if p >= s.n())) {
            return Err("a certificate is held by no player".into());
        }
        if c.certs.iter().any(|x| x.at == Loc::Reserved) != g.data().majors[co].prussian {
            return Err("only the Prussian's certificates are reserved".into());
        }
    }
    let Some(actor) = g.next_decision(before).map(|d| d.seat.0 - 1) else { return Ok(()) };
    let (count, limit) = (g.cert_count(s, actor), g.cert_limit(s, actor));
    if count > limit {
        let was_over = g.cert_count(before, actor) > g.cert_limit(before, actor);
        if !(was_over && matches!(action, Action::Sell { .. } | Action::Pass)) {
            return Err(format!("{action:?} left the actor over the limit"));
        }
    }
    let over = g.cert_count(before, actor) > g.cert_limit(before, actor);
    let buys =
        matches!(action, Action::BuyShare { .. } | Action::BuyItem { .. } | Action::Nationalise { .. });
    if over && buys {
        return Err(format!("a player over the limit may not buy: {action:?}"));
    }
    Ok(())
}

/// Actions that are often illegal here: sales, purchases and nationalisations of any company.
fn tamper(g: &R1835, p: &mut Pick) -> Vec<Action> {
    let id = g.data().majors[p.next(g.data().majors.len())].id.clone();
    let percent = [5u8, 10, 20][p.next(3)];
    let count = p.next(6) as u8;
    vec![
        Action::Sell { company: id.clone(), count, percent },
        Action::BuyShare { company: id.clone(), from: Source::Pool, percent },
        Action::Nationalise { company: id, from_seat: 9, percent },
        Action::BuyItem { item: "XX".into() },
    ]
}

/// Random order lines: purchases, sales and passes, with alternatives.
fn any_orders(g: &R1835, p: &mut Pick) -> Vec<String> {
    let names: Vec<String> =
        g.data().majors.iter().map(|m| m.id.clone()).chain(["M1", "NF", "PR"].map(String::from)).collect();
    (0..1 + p.next(3))
        .map(|_| {
            let alts: Vec<String> = (0..1 + p.next(2))
                .map(|_| {
                    let name = &names[p.next(names.len())];
                    match p.next(3) {
                        0 => format!("BUY {name}"),
                        1 => format!("SELL 1 {name}"),
                        _ => "PASS".to_string(),
                    }
                })
                .collect();
            alts.join(" ELSE ")
        })
        .collect()
}

/// Plays the first 500 actions of a random game through the harness.
fn play(g: &R1835, seats: u8, options: Value, seed: u64) -> Result<State, String> {
    let choose = |_: &State, legal: &[Action], p: &mut Pick| choose(legal, p).unwrap_or(Action::Pass);
    let tamper = |_: &State, p: &mut Pick| tamper(g, p);
    let invariants = |before: &State, s: &State, a: &Action| check_invariants(g, before, s, a);
    let orders = |_: &State, _: Seat, p: &mut Pick| any_orders(g, p);
    let play = Play {
        spec: SetupSpec { seats, options },
        seed,
        choices: seed,
        max_actions: 100_000,
        choose: &choose,
        tamper: &tamper,
        invariants: &invariants,
        orders: Some(&orders),
        stop_after: Some(500),
    };
    conformance::play(g, &play).map(|p| p.state)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn random_games_conform_and_conserve_money_and_certificates(
        seed in any::<u64>(), seats in 3u8..=7, variant in 0usize..5, same_price in any::<bool>()
    ) {
        let g = engine();
        let options = json!({
            "variant": VARIANTS[variant],
            "separate_sales_same_price": same_price,
            "empty_operating_rounds": true,
        });
        play(&g, seats, options, seed).map_err(TestCaseError::fail)?;
    }
}

/// Plays random legal actions with operating rounds played, up to 500 actions; returns the
/// operating-round actions taken. Money is conserved after every action, and
/// the default is always a legal action.
fn play_operating(g: &R1835, seats: u8, seed: u64) -> Result<usize, String> {
    let spec = SetupSpec { seats, options: json!({"variant": "standard"}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.0)?;
    let mut pick = Pick(seed);
    let mut operating = 0;
    for seq in 0..500u64 {
        let Some(d) = g.next_decision(&s) else { break };
        let legal = g.legal_actions(&s);
        if legal.is_empty() {
            return Err(format!("stuck at \"{}\"", d.prompt));
        }
        let default = g.default_action(&s);
        if !default.as_ref().is_some_and(|a| legal.contains(a)) {
            return Err(format!("the default {default:?} at \"{}\" is not legal", d.prompt));
        }
        let action = choose(&legal, &mut pick).unwrap_or(Action::Pass);
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, seq))
            .map_err(|e| format!("legal {action:?} refused: {}", e.0))?;
        operating += usize::from(matches!(s.round, Round::Operating { .. }));
        if s.money() != 12000 {
            return Err(format!("money is {} after {action:?}", s.money()));
        }
    }
    Ok(operating)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, .. ProptestConfig::default() })]

    #[test]
    fn random_games_with_operating_rounds_conserve_money_and_never_offer_an_illegal_default(
        seed in any::<u64>(), seats in 3u8..=7
    ) {
        let g = engine();
        play_operating(&g, seats, seed).map_err(TestCaseError::fail)?;
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
        let legal = g.legal_actions(&s);
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
    let err = ledger::replay(&g, &names, &json!({"variant": "standard"}), 0, log).unwrap_err().error;
    assert!(err.starts_with("line 3: refused: while the start packet is on sale"), "{err}");
    let err = ledger::replay(&g, &names, &Value::Null, 0, "{\"seat\":3,\"action\":{\"type\":\"pass\"}}")
        .unwrap_err()
        .error;
    assert!(err.starts_with("line 1: seat 3 acted, but the game awaited seat 1 (A)"), "{err}");
    let _ = Seat(1);
}

/// Plays a whole random game: at each decision the seat's default (what a silent seat does)
/// or a random legal action, half and half. Returns the number of actions, or why the game
/// broke an invariant: money and the 33 trains conserved after every action, every chosen action
/// accepted, the game over within `cap` actions.
fn play_whole(g: &R1835, seats: u8, seed: u64, cap: u64) -> Result<u64, String> {
    let spec = SetupSpec { seats, options: json!({}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.0)?;
    let mut pick = Pick(seed);
    for n in 0..cap {
        let Some(d) = g.next_decision(&s) else { return Ok(n) };
        let legal = g.legal_actions(&s);
        let action = if pick.next(2) == 0 { g.default_action(&s) } else { choose(&legal, &mut pick) };
        let Some(action) = action else { return Err(format!("no action at \"{}\"", d.prompt)) };
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, n))
            .map_err(|e| format!("{action:?} refused at \"{}\": {}", d.prompt, e.0))?;
        if s.money() != 12000 || g.trains_accounted(&s) != 33 {
            return Err(format!("after {action:?}: money {}, trains {}", s.money(), g.trains_accounted(&s)));
        }
    }
    Err(format!("not over after {cap} actions: {}", s.round.name()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3, .. ProptestConfig::default() })]

    /// Issue 14: random full games from the start packet to the final ranking always end.
    #[test]
    fn random_whole_games_end_and_conserve_money_and_trains(seed in any::<u64>(), seats in 3u8..=7) {
        let g = engine();
        play_whole(&g, seats, seed, 20_000).map_err(TestCaseError::fail)?;
    }
}
