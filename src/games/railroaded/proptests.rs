//! Property tests: whole random games (random legal actions, or the forced default only) played
//! through the conformance harness (`crate::engine::conformance`: games end, listed actions are
//! accepted, refusals change nothing, the log replays, views and event texts hide the hands and
//! the Terminal, published lines reveal nothing), with Railroaded's own invariants (card
//! conservation, ownership, sorted hands); plus order printing/parsing round trips.

use super::cards::{Card, Dir, Face, Suit};
use super::orders::{Alt, ClaimWhat, Order};
use super::state::{Action, Phase, State};
use super::tests::game;
use super::*;
use crate::engine::conformance::{self, Hidden, Play};
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, Seat, SetupSpec, Viewer};
use proptest::prelude::*;

fn spec() -> SetupSpec {
    SetupSpec { seats: 4, options: serde_json::Value::Null }
}

impl Hidden for Railroaded {
    /// Re-deals the Terminal and the hands `viewer` cannot see, keeping every size.
    fn redeal(&self, s: &State, viewer: Viewer, rng: &mut GameRng) -> State {
        let mut out = s.clone();
        let hidden: Vec<usize> =
            (0..s.seats.len()).filter(|i| !viewer.may_see(Seat::from_index(*i))).collect();
        if viewer == Viewer::Gm {
            return out;
        }
        let mut pool: Vec<Card> = out.terminal.clone();
        pool.extend(hidden.iter().flat_map(|i| out.seats[*i].hand.iter().copied()));
        rng.shuffle(&mut pool);
        let mut rest = pool.into_iter();
        for i in &hidden {
            let n = out.seats[*i].hand.len();
            let mut hand: Vec<Card> = rest.by_ref().take(n).collect();
            hand.sort();
            out.seats[*i].hand = hand;
        }
        out.terminal = rest.collect();
        out
    }

    /// A Reveal turns cards of the Terminal face up, one by one, for the whole table until one
    /// of the announced suit appears; the others go back, shuffled (RULING R16). Naming them is
    /// no leak.
    fn turns_up_hidden(&self, action: &Action) -> bool {
        matches!(action, Action::Reveal { .. })
    }
}

fn check_invariants(s: &State) -> Result<(), String> {
    // 104 cards, each in exactly one place.
    let mut all = s.all_cards();
    all.sort();
    let n = all.len();
    all.dedup();
    if (n, all.len()) != (104, 104) {
        return Err(format!("{n} cards, {} distinct, not 104", all.len()));
    }
    if !s.seats.iter().all(|x| x.hand.windows(2).all(|w| w[0] <= w[1])) {
        return Err("a hand is not sorted".into());
    }
    // Ownership: a chain belongs to the seat whose suit its beginning card has.
    for d in Dir::ALL {
        if let Some(c) = s.chain(d) {
            let first = c.cards.first().map(|p| p.card.face.suit());
            if first != s.suit_of(c.owner) || c.cards[0].station.is_some() {
                return Err(format!("the {} chain's beginning is wrong", d.name()));
            }
        }
        // A Station has left its place exactly when it lies on some chain.
        let on_chain =
            s.chains.iter().flatten().flat_map(|c| &c.cards).any(|p| p.station.is_some_and(|m| m.from == d));
        if s.stations[d.idx()].is_none() != on_chain {
            return Err(format!("the {} Station is in two places or none", d.name()));
        }
    }
    if s.phase != Phase::Claim && (0..4).any(|i| s.chain_of(Seat::from_index(i)).is_none()) {
        return Err("a seat has no chain after the claims".into());
    }
    Ok(())
}

/// A random action, legal or not, to test that a refusal changes nothing.
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

/// Random order lines: one to three alternatives each, over the seat's hand and any card.
fn any_orders(s: &State, seat: Seat, p: &mut Pick) -> Vec<String> {
    let hand = s.hand(seat);
    (0..1 + p.next(3))
        .map(|_| {
            let alts = (0..1 + p.next(3))
                .map(|_| {
                    let card = match hand.get(p.next(hand.len() + 2)) {
                        Some(c) => c.face,
                        None => Face::new(p.next(13) as u8 + 1, Suit::ALL[p.next(4)])
                            .unwrap_or(Face::ace(Suit::Hearts)),
                    };
                    let dir = Dir::ALL[p.next(4)];
                    match p.next(5) {
                        0 => Alt::Claim { what: ClaimWhat::Card(card), dir: Some(dir) },
                        1 => Alt::Link { card, dir },
                        2 => Alt::Draw,
                        _ => Alt::Play { card, dir },
                    }
                })
                .collect();
            Order { alts }.to_string()
        })
        .collect()
}

/// Links, Station moves, jumps and reveals are rare among the legal actions: favour them.
fn choose(legal: &[Action], p: &mut Pick) -> Action {
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
    if rare.is_empty() || p.next(2) == 0 { legal[p.next(legal.len())] } else { rare[p.next(rare.len())] }
}

fn play_game(seed: u64, choices: u64, default_only: bool) -> Result<(), TestCaseError> {
    let g = game();
    let choose = |s: &State, legal: &[Action], p: &mut Pick| match default_only {
        true => g.next_decision(s).and_then(|_| g.default_action(s)).unwrap_or(Action::DrawTwo),
        false => choose(legal, p),
    };
    let tamper = |_: &State, p: &mut Pick| (0..4).map(|_| any_action(p)).collect();
    let invariants = |_: &State, s: &State, _: &Action| check_invariants(s);
    let play = Play {
        spec: spec(),
        seed,
        choices,
        max_actions: 400,
        choose: &choose,
        tamper: &tamper,
        invariants: &invariants,
        orders: Some(&any_orders),
        stop_after: None,
    };
    let played = conformance::play(&g, &play).map_err(TestCaseError::fail)?;
    prop_assert!(played.state.terminal.is_empty());
    let standings = g.standings(&played.state).unwrap_or_default();
    prop_assert_eq!(standings.len(), 4);
    prop_assert_eq!(standings[0].place, 1);
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
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_conform_conserve_cards_and_keep_chains_owned(seed in any::<u64>(), choices in any::<u64>()) {
        play_game(seed, choices, false)?;
    }

    #[test]
    fn games_of_defaults_only_conform_and_end_cleanly(seed in any::<u64>(), choices in any::<u64>()) {
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

#[test]
fn redealing_the_terminal_changes_what_a_leaky_rendering_would_show() {
    // A test must be able to fail: a rendering that names the top of the Terminal is caught.
    let g = game();
    let s = g.setup(&spec(), &mut GameRng::for_setup(3)).expect("setup");
    assert!(conformance::check_hidden_views(&g, &s, 4, 1).is_ok());
    let leaky = |s: &State| format!("{:?}", s.terminal.last());
    let other = g.redeal(&s, Viewer::Public, &mut GameRng::for_action(1, 1));
    assert_ne!(leaky(&s), leaky(&other), "re-dealing changes what a leaky rendering would show");
}
