//! Property tests: whole random games (random legal actions, or the forced default only) played
//! to the end while checking card conservation, ownership, hidden hands, that `legal_actions`
//! is exactly what `apply` accepts, and that replaying the log reproduces the live state; plus
//! order printing/parsing round trips.

use super::cards::{Dir, Face, Suit};
use super::orders::{Alt, ClaimWhat, Order};
use super::state::{Action, Phase, State};
use super::tests::game;
use super::*;
use crate::engine::{Game, GameRng, LoggedAction, Pick, Seat, SetupSpec, Viewer};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn spec() -> SetupSpec {
    SetupSpec { seats: 4, options: serde_json::Value::Null }
}

/// Every card-code token in a text.
fn card_tokens(text: &str) -> BTreeSet<Face> {
    text.split(|c: char| !c.is_alphanumeric()).filter_map(|w| Face::parse(w).ok()).collect()
}

fn check_invariants(g: &Railroaded, s: &State) -> Result<(), TestCaseError> {
    // 104 cards, each in exactly one place.
    let mut all = s.all_cards();
    all.sort();
    let n = all.len();
    all.dedup();
    prop_assert_eq!(n, 104);
    prop_assert_eq!(all.len(), 104);
    for x in &s.seats {
        prop_assert!(x.hand.windows(2).all(|w| w[0] <= w[1]), "hands stay sorted");
    }
    // Ownership: a chain belongs to the seat whose suit its beginning card has.
    for d in Dir::ALL {
        if let Some(c) = s.chain(d) {
            let first = c.cards.first().map(|p| p.card.face.suit());
            prop_assert_eq!(first, s.suit_of(c.owner));
            prop_assert!(c.cards[0].station.is_none());
        }
        // A Station has left its place exactly when it lies on some chain.
        let on_chain =
            s.chains.iter().flatten().flat_map(|c| &c.cards).any(|p| p.station.is_some_and(|m| m.from == d));
        prop_assert_eq!(s.stations[d.idx()].is_none(), on_chain);
    }
    if s.phase != Phase::Claim {
        for i in 0..4 {
            prop_assert!(s.chain_of(Seat::from_index(i)).is_some());
        }
    }
    // Hidden hands: nobody sees another seat's cards beyond the public table.
    let public: BTreeSet<Face> = s
        .stations
        .iter()
        .flatten()
        .map(|c| c.face)
        .chain(s.chains.iter().flatten().flat_map(|c| c.cards.iter().map(|p| p.card.face)))
        .collect();
    let mut viewers = vec![(Viewer::Public, BTreeSet::new())];
    for i in 0..4 {
        let seat = Seat::from_index(i);
        viewers.push((Viewer::Seat(seat), s.hand(seat).iter().map(|c| c.face).collect()));
    }
    for (viewer, own) in viewers {
        let view = g.view(s, viewer);
        let text = format!("{view}\n{}", g.describe(s, viewer));
        let allowed: BTreeSet<Face> = public.union(&own).copied().collect();
        let leaked: Vec<Face> = card_tokens(&text).difference(&allowed).copied().collect();
        prop_assert!(leaked.is_empty(), "{:?} sees {:?}", viewer, leaked);
        prop_assert!(view.get("terminal").is_none());
        if let Some(seats) = view["seats"].as_array() {
            for (i, x) in seats.iter().enumerate() {
                prop_assert_eq!(x.get("hand").is_some(), viewer.may_see(Seat::from_index(i)));
            }
        }
    }
    Ok(())
}

/// A random action, legal or not, to test that `apply` accepts exactly the legal ones.
fn any_action(p: &mut Pick) -> Action {
    let face = Face::new(p.next(13) as u8 + 1, Suit::ALL[p.next(4)]).unwrap_or(Face::ace(Suit::Hearts));
    let dir = Dir::ALL[p.next(4)];
    let other = Dir::ALL[p.next(4)];
    match p.next(7) {
        0 => Action::Claim { card: face, dir },
        1 => Action::Reveal { suit: face.suit(), dir },
        2 => Action::Play { card: face, dir },
        3 => Action::Link { card: face, dir },
        4 => Action::MoveStation { from: dir, to: other },
        5 => Action::Jump { ace: Face::ace(face.suit()), dir },
        _ => Action::DrawTwo,
    }
}

fn play_game(seed: u64, choices: u64, default_only: bool) -> Result<(), TestCaseError> {
    let g = game();
    let mut p = Pick(choices);
    let mut s = g.setup(&spec(), &mut GameRng::for_setup(seed)).map_err(|e| TestCaseError::fail(e.0))?;
    let mut log = Vec::new();
    check_invariants(&g, &s)?;
    while let Some(d) = g.next_decision(&s) {
        prop_assert!(log.len() < 400, "the game does not end");
        let legal = g.legal_actions(&s, &d);
        prop_assert!(!legal.is_empty());
        let def = g.default_action(&s, &d);
        prop_assert!(def.is_some_and(|a| legal.contains(&a)), "the default is legal");
        // `apply` accepts exactly the legal actions, and a refusal changes nothing.
        for _ in 0..4 {
            let a = any_action(&mut p);
            let mut trial = s.clone();
            let r = g.apply(&mut trial, &a, &mut GameRng::for_action(seed, 999));
            prop_assert_eq!(r.is_ok(), legal.contains(&a), "{:?}: {:?}", a, r);
            if r.is_err() {
                prop_assert_eq!(&trial, &s);
            }
        }
        // Links, Station moves, jumps and reveals are rare among the legal actions: favour them.
        let rare: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| {
                matches!(
                    a,
                    Action::Link { .. }
                        | Action::MoveStation { .. }
                        | Action::Jump { .. }
                        | Action::Reveal { .. }
                )
            })
            .collect();
        let action = match (default_only, rare.is_empty() || p.next(2) == 0) {
            (true, _) => def.unwrap_or(Action::DrawTwo),
            (false, true) => legal[p.next(legal.len())],
            (false, false) => rare[p.next(rare.len())],
        };
        let seq = log.len() as u64 + 1;
        g.apply(&mut s, &action, &mut GameRng::for_action(seed, seq))
            .map_err(|e| TestCaseError::fail(e.0))?;
        log.push(LoggedAction {
            seq,
            seat: d.seat,
            action: serde_json::to_value(action).unwrap_or_default(),
            by_default: default_only,
        });
        check_invariants(&g, &s)?;
    }
    prop_assert!(s.terminal.is_empty());
    let standings = g.standings(&s).unwrap_or_default();
    prop_assert_eq!(standings.len(), 4);
    prop_assert_eq!(standings[0].place, 1);
    let replayed = crate::engine::DynGame::replay(&g, &spec(), seed, &log)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(replayed, serde_json::to_value(&s).unwrap_or_default());
    Ok(())
}

fn alt_strategy() -> impl Strategy<Value = Alt> {
    let face = (1u8..=13, 0usize..4)
        .prop_map(|(r, s)| Face::new(r, Suit::ALL[s]).unwrap_or(Face::ace(Suit::Hearts)));
    let dir = (0usize..4).prop_map(|i| Dir::ALL[i]);
    prop_oneof![
        (face.clone(), proptest::option::of(dir.clone()))
            .prop_map(|(c, d)| Alt::Claim { what: ClaimWhat::Card(c), dir: d }),
        (0usize..4, proptest::option::of(dir.clone()))
            .prop_map(|(s, d)| Alt::Claim { what: ClaimWhat::Suit(Suit::ALL[s]), dir: d }),
        (face.clone(), dir.clone()).prop_map(|(card, dir)| Alt::Play { card, dir }),
        (face, dir.clone()).prop_map(|(card, dir)| Alt::Link { card, dir }),
        (proptest::option::of(dir.clone()), dir.clone()).prop_map(|(from, to)| Alt::Move { from, to }),
        (0usize..4, dir).prop_map(|(s, dir)| Alt::Jump { ace: Face::ace(Suit::ALL[s]), dir }),
        Just(Alt::Draw),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_end_conserve_cards_hide_hands_and_replay(seed in any::<u64>(), choices in any::<u64>()) {
        play_game(seed, choices, false)?;
    }

    #[test]
    fn games_of_defaults_only_end_cleanly(seed in any::<u64>(), choices in any::<u64>()) {
        play_game(seed, choices, true)?;
    }

    #[test]
    fn every_order_prints_and_parses_back(alts in proptest::collection::vec(alt_strategy(), 1..4)) {
        let order = Order { alts };
        let printed = order.to_string();
        prop_assert_eq!(game().parse_order(&printed).ok(), Some(order));
        prop_assert_eq!(game().parse_order(&printed.to_lowercase()).map(|o| o.to_string()).ok(), Some(printed));
    }
}
