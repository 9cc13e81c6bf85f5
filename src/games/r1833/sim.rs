//! A random player for simulations, property tests and the benchmark: plays a whole game with
//! random legal actions from `legal_actions` at every decision, with a deterministic generator
//! per seed. In a turn it first picks a kind of action uniformly (draw, discard, route,
//! Re-Shuffle, end the turn — among the kinds that have a legal action), then one action of that
//! kind; elsewhere (selection, offers) one legal action uniformly.

use super::R1833;
use super::state::{Action, Phase, State};
use crate::engine::{Apply, GameRng, Pick, Rules, Seat, Setup, SetupSpec};

/// Plays a random game from set-up to the end; `each` sees every applied action (log sequence
/// number, seat, action, state after) and may stop the game with an error.
pub fn random_game(
    g: &R1833,
    spec: &SetupSpec,
    seed: u64,
    max_actions: u64,
    mut each: impl FnMut(u64, Seat, &Action, &State) -> Result<(), String>,
) -> Result<State, String> {
    let mut s = g.setup(spec, &mut GameRng::for_setup(seed)).map_err(|e| e.0)?;
    let mut pick = Pick(seed);
    let mut seq = 0u64;
    while let Some(d) = g.next_decision(&s) {
        if seq >= max_actions {
            return Err(format!("the game did not end within {max_actions} actions"));
        }
        let a = pick_action(g, &s, &mut pick).ok_or_else(|| format!("no legal action at {d:?}"))?;
        debug_assert!(g.legal_actions(&s).contains(&a), "{a:?} is not listed by legal_actions");
        g.apply(&mut s, &a, &mut GameRng::for_action(seed, seq)).map_err(|e| format!("{a:?}: {e}"))?;
        each(seq, d.seat, &a, &s)?;
        seq += 1;
    }
    Ok(s)
}

/// The random player's choice at the state's decision: a kind of action first in a turn, else
/// one legal action uniformly.
pub fn pick_action(g: &R1833, s: &State, pick: &mut Pick) -> Option<Action> {
    if s.phase == Phase::Play { turn_pick(g, s, pick) } else { any_pick(g, s, pick) }
}

/// One legal action uniformly (the set-up selection, offers): the same choice as picking a
/// kind first when every action is of the same kind.
fn any_pick(g: &R1833, s: &State, pick: &mut Pick) -> Option<Action> {
    let mut legal = g.legal_actions(s);
    let kinds = legal.iter().fold(0u8, |m, a| m | (1 << kind_of(a)));
    let want = nth_kind(kinds, pick.next(kinds.count_ones() as usize));
    legal.retain(|a| kind_of(a) == want);
    let i = pick.next(legal.len());
    (i < legal.len()).then(|| legal.swap_remove(i))
}

/// A turn action: a kind first, uniformly among the kinds with a legal action, then one action
/// of that kind — the same choice as over the whole of `legal_actions`, but the routes are only
/// listed when the player chose to build one (otherwise the search stops at the first route).
fn turn_pick(g: &R1833, s: &State, pick: &mut Pick) -> Option<Action> {
    let p = s.player(s.active)?;
    let mut v = Vec::with_capacity(16);
    g.turn_actions(s, p, &mut v);
    if g.check(s, &Action::EndTurn).is_ok() {
        v.push(Action::EndTurn);
    }
    let mut kinds = v.iter().fold(0u8, |m, a| m | (1 << kind_of(a)));
    if g.any_route(s, p) {
        kinds |= 1 << ROUTE;
    }
    let want = nth_kind(kinds, pick.next(kinds.count_ones() as usize));
    if want == ROUTE {
        v.clear();
        g.route_actions(s, p, &mut v, false);
    } else {
        v.retain(|a| kind_of(a) == want);
    }
    let i = pick.next(v.len());
    (i < v.len()).then(|| v.swap_remove(i))
}

/// The `n`th kind (ascending) of the kinds in the bit set `kinds`; 0 when there is none.
fn nth_kind(kinds: u8, n: usize) -> u8 {
    (0..8u8).filter(|k| kinds & (1 << k) != 0).nth(n).unwrap_or(0)
}

const ROUTE: u8 = 3;

/// The kind of an action for the random player's first choice.
fn kind_of(a: &Action) -> u8 {
    match a {
        Action::DrawDeck | Action::DrawPool(_) | Action::DrawDiscard | Action::DrawToLimitAndEnd => 1,
        Action::Discard(_) => 2,
        Action::Create { .. } | Action::Extend { .. } => ROUTE,
        Action::PlayReshuffle(_) => 4,
        Action::EndTurn => 5,
        _ => 0,
    }
}
