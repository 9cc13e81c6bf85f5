//! The conformance harness every engine runs from its tests (compiled for tests only). It plays
//! random legal games of any [`Game`] and checks, after every action, what the contract promises:
//!
//! - random legal games end within a bound of actions, with standings;
//! - every action `legal_actions` lists is accepted by `apply`, and the rules' default is legal;
//! - an action `apply` refuses leaves the state byte-for-byte unchanged (as JSON);
//! - replaying the log through [`super::log::replay_each`] (the path production uses) equals the
//!   live state after every action;
//! - no viewer's renderings (view, text, drawing: [`renderings`]) change when
//!   what that viewer cannot know is re-dealt ([`Hidden::redeal`]), and no event's public text
//!   changes when what the acting seat cannot know is re-dealt. The part of the drawing every
//!   viewer sees alike ([`Draw::draw_board`]) takes no viewer, so it is compared once per state,
//!   against the re-deal of everything the public cannot know (which re-deals what each seat
//!   cannot know and more); each viewer's drawing is then compared with that board placed in it;
//! - the drawing is the board placed in each viewer's picture ([`Draw::draw`] agrees with
//!   [`Draw::draw_on`] around [`Draw::draw_board`]);
//! - published orders reveal nothing hidden (RULINGS S14): see [`check_public_lines`];
//! - the order builder ([`Orders::choices`], issue 36) lists only what each seat may know, lines
//!   the language reads, and for the decision now lines the echo accepts and the answer carries
//!   out: see [`check_choices`];
//! - for an engine that lists its components ([`Game::inventory`]: load chits, trains, …), each
//!   is in exactly one place, and none appears from nowhere or vanishes, after every action.
//!
//! Other game-specific invariants (money conserved, stacking) stay in each engine's tests and are
//! passed in as [`Play::invariants`].

use super::log::{LoggedAction, encode, replay_each};
use super::{Apply, Draw, Game, Orders, Rules, Scoring, Setup, View};
use super::{Decision, Event, GameRng, Inventory, Numbered, OrderSheet, Pick, Seat, SetupSpec, Viewer};
use crate::draw::Fragment;

mod choices;
pub use choices::check_choices;

/// What an engine's tests tell the harness about hidden information.
pub trait Hidden: Game {
    /// A copy of `state` in which everything `viewer` cannot know (other seats' hands, the
    /// deck's order, …) is dealt anew with `rng`, keeping everything `viewer` can know (the table,
    /// its own hand, how many cards each hand and the deck hold). For [`Viewer::Gm`] nothing is
    /// hidden. A game without hidden information returns the state unchanged.
    fn redeal(&self, state: &Self::State, viewer: Viewer, rng: &mut GameRng) -> Self::State;

    /// Whether the rules turn hidden cards face up for the whole table during `action` (and may
    /// hide them again afterwards, e.g. shuffled back into the deck): its public text may then
    /// name them although no rendering of the outcome shows them. `false` unless an engine says.
    fn turns_up_hidden(&self, _action: &Self::Action) -> bool {
        false
    }

    /// Whether the echo's advice on a line (from [`Orders::advise_sheet`]) accepts it: by default
    /// any advice is a warning; an engine whose echo also says what each line answers tells its
    /// warnings apart here (the order builder's check, [`check_choices`]).
    fn echo_accepts(&self, _advice: &str) -> bool {
        false
    }
}

/// A game-specific check after one action: (state before, state after, the action).
pub type Invariants<'a, G> =
    &'a dyn Fn(&<G as Rules>::State, &<G as Rules>::State, &<G as Rules>::Action) -> Result<(), String>;

/// Picks the next action among the legal ones (never called with an empty list).
pub type Chooser<'a, G> =
    &'a dyn Fn(&<G as Rules>::State, &[<G as Rules>::Action], &mut Pick) -> <G as Rules>::Action;

/// Actions to try that may well be illegal in a state.
pub type Tamper<'a, G> = &'a dyn Fn(&<G as Rules>::State, &mut Pick) -> Vec<<G as Rules>::Action>;

/// Order lines a seat might write at a decision.
pub type OrderLines<'a, G> = &'a dyn Fn(&<G as Rules>::State, Seat, &mut Pick) -> Vec<String>;

/// One random game to play through the harness.
pub struct Play<'a, G: Game> {
    pub spec: SetupSpec,
    pub seed: u64,
    /// The seed of the simulated players' choices.
    pub choices: u64,
    /// The game must end within this many actions.
    pub max_actions: usize,
    /// Picks the next action among the legal ones (never called with an empty list).
    pub choose: Chooser<'a, G>,
    /// Actions to try that may well be illegal here (to check that a refusal changes nothing);
    /// may return none.
    pub tamper: Tamper<'a, G>,
    pub invariants: Invariants<'a, G>,
    /// Order lines a seat might write at this decision (to check the public lines, RULINGS
    /// S14); `None` when the test does not exercise orders.
    pub orders: Option<OrderLines<'a, G>>,
    /// Stop after this many actions without requiring the end (for long games); `None` plays to
    /// the end.
    pub stop_after: Option<usize>,
}

/// What the harness played: the final state and its log.
#[derive(Debug)]
pub struct Played<S> {
    pub state: S,
    pub log: Vec<LoggedAction>,
}

/// Every rendering of what `viewer` sees of `state`: the JSON view, the text and the drawing
/// (issue 16; empty for a game without one), each checked like the others.
pub fn renderings<G: Game>(game: &G, state: &G::State, viewer: Viewer) -> Vec<(&'static str, String)> {
    renderings_on(game, state, viewer, game.draw_board(state).as_ref())
}

/// [`renderings`] with the drawing's `board` given (drawn once per state, not once per viewer).
fn renderings_on<G: Game>(
    game: &G,
    state: &G::State,
    viewer: Viewer,
    board: Option<&Fragment>,
) -> Vec<(&'static str, String)> {
    vec![
        ("view", game.view(state, viewer).to_string()),
        ("describe", game.describe(state, viewer)),
        ("draw", game.draw_on(state, viewer, board).unwrap_or_default()),
    ]
}

/// A value as JSON bytes: "unchanged" and "equal" in this module mean byte-equal.
fn bytes<T: serde::Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// Whether two states are byte-equal as JSON. Equal values serialise alike, so `==` answers
/// first and the two are written out only when it finds a difference (which may lie in what is
/// not serialised); writing every state out twice was a sixth of a harness game (issue 31).
fn same_bytes<S: PartialEq + serde::Serialize>(a: &S, b: &S) -> bool {
    a == b || bytes(a) == bytes(b)
}

/// The viewers whose knowledge differs: the public and each seat.
fn viewers(seats: u8) -> Vec<Viewer> {
    std::iter::once(Viewer::Public).chain((1..=seats).map(|s| Viewer::Seat(Seat(s)))).collect()
}

/// Plays one random game with every check of the module comment after every action.
pub fn play<G: Hidden>(game: &G, p: &Play<'_, G>) -> Result<Played<G::State>, String> {
    let mut state = super::log::setup(game, &p.spec, p.seed).map_err(|e| format!("setup: {e}"))?;
    let mut pick = Pick(p.choices);
    let mut log: Vec<LoggedAction> = Vec::new();
    let mut live: Vec<Vec<u8>> = Vec::new();
    check_hidden_views(game, &state, p.spec.seats, p.seed)?;
    let mut inventory = check_inventory(game, &state, None).map_err(|e| format!("after setup: {e}"))?;
    while let Some(d) = game.next_decision(&state) {
        if p.stop_after.is_some_and(|n| log.len() >= n) {
            break;
        }
        if log.len() >= p.max_actions {
            return Err(format!("the game did not end within {} actions", p.max_actions));
        }
        let seq = log.len() as u64;
        let legal = game.legal_actions(&state);
        if legal.is_empty() {
            return Err(format!("no legal action at \"{}\" for {}", d.prompt, d.seat));
        }
        check_legal_are_accepted(game, &state, &legal, p.seed, seq)?;
        let default = game.default_action(&state);
        if !default.as_ref().is_some_and(|a| legal.contains(a)) {
            return Err(format!("the default {default:?} at \"{}\" is not a legal action", d.prompt));
        }
        for a in (p.tamper)(&state, &mut pick) {
            check_refusal_changes_nothing(game, &state, &a, p.seed, seq)?;
        }
        if let Some(orders) = p.orders {
            let lines = orders(&state, d.seat, &mut pick);
            check_public_lines(game, &state, &d, &lines, p.seed)?;
            // RULING W56: every action early in the game (set-up, the first turns), then every
            // fifth — the check answers every listed line alone, which after every action made
            // the random games several times slower.
            if seq < 50 || seq.is_multiple_of(5) {
                check_choices(game, &state, p.spec.seats, p.seed, seq)?;
            }
        }
        let action = (p.choose)(&state, &legal, &mut pick);
        let before = state.clone();
        let events = game
            .apply(&mut state, &action, &mut GameRng::for_action(p.seed, seq))
            .map_err(|e| format!("the chosen legal action {action:?} was refused: {e}"))?;
        check_event_texts(game, &before, &state, &d, &action, &events, p.seed, seq)?;
        (p.invariants)(&before, &state, &action).map_err(|e| format!("after {action:?}: {e}"))?;
        inventory = check_inventory(game, &state, inventory.as_ref())
            .map_err(|e| format!("after {action:?} by {} at \"{}\": {e}", d.seat, d.prompt))?;
        check_hidden_views(game, &state, p.spec.seats, p.seed ^ seq)?;
        log.push(LoggedAction { seq, seat: d.seat, action: encode(&action), by_default: false });
        live.push(bytes(&state));
    }
    if p.stop_after.is_none() && game.standings(&state).is_none() {
        return Err("the game ended without standings".into());
    }
    if game.draw(&state, Viewer::Public)
        != game.draw_on(&state, Viewer::Public, game.draw_board(&state).as_ref())
    {
        return Err("draw is not draw_on around draw_board".into());
    }
    check_replay(game, &p.spec, p.seed, &log, &live)?;
    Ok(Played { state, log })
}

/// The components of `state` ([`Game::inventory`]) are each in one place, and, against the
/// inventory one action `before`, none appeared or vanished. Returns the state's inventory.
pub fn check_inventory<G: Game>(
    game: &G,
    state: &G::State,
    before: Option<&Inventory>,
) -> Result<Option<Inventory>, String> {
    let Some(now) = game.inventory(state) else { return Ok(None) };
    match before {
        Some(b) => now.check_since(b)?,
        None => now.check()?,
    }
    Ok(Some(now))
}

/// Every listed legal action is accepted by `apply`.
fn check_legal_are_accepted<G: Game>(
    game: &G,
    state: &G::State,
    legal: &[G::Action],
    seed: u64,
    seq: u64,
) -> Result<(), String> {
    for a in legal {
        let mut trial = state.clone();
        if let Err(e) = game.apply(&mut trial, a, &mut GameRng::for_action(seed, seq)) {
            return Err(format!("legal_actions lists {a:?}, which apply refuses: {e}"));
        }
    }
    Ok(())
}

/// An action `apply` refuses leaves the state unchanged, byte for byte as JSON.
pub fn check_refusal_changes_nothing<G: Game>(
    game: &G,
    state: &G::State,
    action: &G::Action,
    seed: u64,
    seq: u64,
) -> Result<(), String> {
    let mut trial = state.clone();
    if game.apply(&mut trial, action, &mut GameRng::for_action(seed, seq)).is_err()
        && !same_bytes(&trial, state)
    {
        return Err(format!("the refused {action:?} changed the state"));
    }
    Ok(())
}

/// Replaying the log reproduces the live game after every action (`live`: the live states as
/// JSON bytes, one per action).
fn check_replay<G: Game>(
    game: &G,
    spec: &SetupSpec,
    seed: u64,
    log: &[LoggedAction],
    live: &[Vec<u8>],
) -> Result<(), String> {
    let mut replayed = Vec::new();
    replay_each(game, spec, seed, log, |_, s| replayed.push(bytes(s)))
        .map_err(|e| format!("the log does not replay: {e}"))?;
    if replayed.len() != live.len() {
        return Err(format!("replay gave {} states for {} actions", replayed.len(), live.len()));
    }
    match replayed.iter().zip(live).position(|(r, l)| r != l) {
        Some(i) => Err(format!("replaying the log differs from the live game after action {i}")),
        None => Ok(()),
    }
}

/// No viewer's renderings change when what that viewer cannot know is re-dealt. A re-deal that
/// changes nothing (a game without hidden information) needs no comparison: the renderings are
/// rendered once, publicly, so that every state is still drawn and described. The board (the
/// drawing's viewer-independent part) is drawn once and compared once, on the public's re-deal
/// (everything hidden from anyone); each viewer's renderings are compared with it placed in both.
pub fn check_hidden_views<G: Hidden>(game: &G, state: &G::State, seats: u8, salt: u64) -> Result<(), String> {
    let board = game.draw_board(state);
    let mut compared = false;
    for (i, viewer) in viewers(seats).into_iter().enumerate() {
        let other = game.redeal(state, viewer, &mut GameRng::for_action(salt, 1_000_000 + i as u64));
        // A re-deal equal to the state changes nothing to compare; one that differs only in
        // what is not serialised is compared all the same (more checking, never less).
        if other == *state {
            continue;
        }
        compared = true;
        if viewer == Viewer::Public
            && let Some(b) = &board
            && game.draw_board(&other).as_ref() != Some(b)
        {
            return Err("the board drawing changes when what the public cannot know is re-dealt".into());
        }
        let (a, b) = (
            renderings_on(game, state, viewer, board.as_ref()),
            renderings_on(game, &other, viewer, board.as_ref()),
        );
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            if x != y {
                return Err(format!(
                    "{viewer:?}'s {name} changes when what it cannot know is re-dealt:\n{x}\n---\n{y}"
                ));
            }
        }
    }
    if !compared {
        renderings_on(game, state, Viewer::Public, board.as_ref());
    }
    Ok(())
}

/// The public text of an action's events tells nothing hidden: when what the acting seat cannot
/// know is re-dealt and the same action applied, the public texts may differ only if the public
/// renderings of the outcome differ too (a card turned face up from a re-shuffled deck is named,
/// but a card drawn into a hand must not be).
#[allow(clippy::too_many_arguments)]
fn check_event_texts<G: Hidden>(
    game: &G,
    before: &G::State,
    after: &G::State,
    d: &Decision,
    action: &G::Action,
    events: &[Event],
    seed: u64,
    seq: u64,
) -> Result<(), String> {
    if game.turns_up_hidden(action) {
        return Ok(());
    }
    let mut other = game.redeal(before, Viewer::Seat(d.seat), &mut GameRng::for_action(seed ^ 0x5eed, seq));
    let again = game
        .apply(&mut other, action, &mut GameRng::for_action(seed, seq))
        .map_err(|e| format!("{action:?} is refused once what {} cannot know is re-dealt: {e}", d.seat))?;
    let public = |ev: &[Event]| ev.iter().map(|e| e.public.clone()).collect::<Vec<_>>();
    if public(events) != public(&again)
        && renderings(game, after, Viewer::Public) == renderings(game, &other, Viewer::Public)
    {
        return Err(format!(
            "the public text of {action:?} depends on what {} cannot know: {:?} vs {:?}",
            d.seat,
            public(events),
            public(&again)
        ));
    }
    Ok(())
}

/// RULINGS S14: published orders reveal nothing hidden. Generically, the lines of a seat's sheet
/// that [`Orders::public_lines`] makes public after the engine answered a decision from it must
/// not change when what the seat cannot know is re-dealt (its public lines tell nothing about
/// others' hidden information), and, in a game with hidden information, must be lines the
/// answer carried out (never an alternative that was not played).
pub fn check_public_lines<G: Hidden>(
    game: &G,
    state: &G::State,
    d: &Decision,
    lines: &[String],
    seed: u64,
) -> Result<(), String> {
    let orders: Vec<Numbered<G::Order>> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| game.parse_order(l).ok().map(|order| Numbered { line: i + 1, order }))
        .collect();
    let public_after = |s: &G::State| {
        let mut sheet = OrderSheet::new(orders.clone());
        let answer = game.answer(s, d, &mut sheet);
        (game.public_lines(&sheet, &answer.notes), answer.notes)
    };
    let (public, notes) = public_after(state);
    let other = game.redeal(state, Viewer::Seat(d.seat), &mut GameRng::for_action(seed, u64::MAX));
    let (public_other, _) = public_after(&other);
    if public != public_other {
        return Err(format!(
            "the public lines of {}'s orders {lines:?} depend on what it cannot know: {public:?} vs {public_other:?}",
            d.seat
        ));
    }
    let everything = game.redeal(state, Viewer::Public, &mut GameRng::for_action(seed, 7));
    let hides_something = !same_bytes(&everything, state);
    let executed = super::executed_lines(&notes);
    if hides_something && !public.is_subset(&executed) {
        return Err(format!(
            "lines {:?} of {lines:?} are made public although they were not carried out",
            public.difference(&executed).collect::<Vec<_>>()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The harness must be able to fail: a toy game (two seats, one secret number each, drawn
    //! from a shuffled deck; each move draws a new number or passes; four moves) that can be
    //! made to leak its secrets or to change its state on a refusal.
    use super::*;
    use crate::engine::{Answer, Illegal, LineNote, OrderError, SetupError, Standing};
    use serde::{Deserialize, Serialize};
    use std::collections::BTreeSet;
    use std::ops::RangeInclusive;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Toy {
        secret: [u8; 2],
        deck: Vec<u8>,
        moves: u8,
        refusals: u8,
    }

    /// `leak` shows seat 1's secret publicly; `sloppy` counts refusals in the state; `leaky_drawing`
    /// shows seat 1's secret in everyone's drawing (the view and text stay honest); `leaky_board`
    /// shows it on the board every viewer's drawing places; `own_draw` overrides [`Draw::draw`]
    /// with a picture that is not the board placed in the viewer's; `losing` drops the number a
    /// draw replaces instead of putting it under the deck (issue 34: a component vanishes);
    /// `leaky_builder` lists a line naming the other seat's secret in the order builder,
    /// `wrong_line` one the answer does not carry out (issue 36).
    #[derive(Default)]
    struct ToyGame {
        leaky_builder: bool,
        wrong_line: bool,
        losing: bool,
        leak: bool,
        sloppy: bool,
        leaky_drawing: bool,
        leaky_board: bool,
        own_draw: bool,
    }

    impl Rules for ToyGame {
        type State = Toy;
        type Action = bool;
        fn next_decision(&self, s: &Toy) -> Option<Decision> {
            (s.moves < 4).then(|| Decision { seat: Seat(s.moves % 2 + 1), prompt: "draw or pass".into() })
        }
        fn legal_actions(&self, _s: &Toy) -> Vec<bool> {
            vec![true, false]
        }
        fn default_action(&self, _s: &Toy) -> Option<bool> {
            Some(false)
        }
    }

    impl Setup for ToyGame {
        fn setup(&self, _spec: &SetupSpec, rng: &mut GameRng) -> Result<Toy, SetupError> {
            let mut deck: Vec<u8> = (1..=20).collect();
            rng.shuffle(&mut deck);
            let secret = [deck.pop().unwrap_or(0), deck.pop().unwrap_or(0)];
            Ok(Toy { secret, deck, moves: 0, refusals: 0 })
        }
    }

    impl Apply for ToyGame {
        fn apply(&self, s: &mut Toy, draw: &bool, _rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
            if s.moves >= 4 {
                if self.sloppy {
                    s.refusals += 1;
                }
                return Err(Illegal("the game is over".into()));
            }
            let seat = usize::from(s.moves % 2);
            if *draw && let Some(new) = s.deck.pop() {
                let old = std::mem::replace(&mut s.secret[seat], new);
                if !self.losing {
                    s.deck.insert(0, old);
                }
            }
            s.moves += 1;
            Ok(vec![Event::public(if *draw { "a seat drew" } else { "a seat passed" })])
        }
    }

    impl Orders for ToyGame {
        type Order = String;
        fn parse_order(&self, line: &str) -> Result<String, OrderError> {
            Ok(line.to_string())
        }
        fn answer(&self, _s: &Toy, _d: &Decision, sheet: &mut OrderSheet<String>) -> Answer<bool> {
            let Some(first) = sheet.orders.first() else { return Answer { action: None, notes: Vec::new() } };
            let action = match first.order.as_str() {
                "DRAW" => true,
                "PASS" => false,
                _ => return Answer { action: None, notes: Vec::new() },
            };
            let notes = vec![LineNote { line: first.line, executed: true, note: first.order.clone() }];
            Answer { action: Some(action), notes }
        }
        fn choices(&self, s: &Toy, seat: Seat) -> Vec<crate::engine::Choices> {
            let mut lines = vec!["DRAW".to_string(), "PASS".to_string()];
            if self.leaky_builder {
                lines.push(format!("GUESS {}", s.secret[1 - seat.index().min(1)]));
            }
            if self.wrong_line {
                lines.push("FLY".into());
            }
            crate::engine::Choices::group("draw or pass", lines)
        }
        fn public_lines(&self, _sheet: &OrderSheet<String>, _notes: &[LineNote]) -> BTreeSet<usize> {
            BTreeSet::new()
        }
    }

    impl View for ToyGame {
        fn view(&self, s: &Toy, viewer: Viewer) -> serde_json::Value {
            let own = match viewer {
                Viewer::Seat(seat) => s.secret.get(seat.index()).copied(),
                _ => None,
            };
            let leaked = self.leak.then_some(s.secret[0]);
            serde_json::json!({"moves": s.moves, "deck": s.deck.len(), "own": own, "leaked": leaked})
        }
        fn describe(&self, s: &Toy, viewer: Viewer) -> String {
            self.view(s, viewer).to_string()
        }
    }

    impl Scoring for ToyGame {
        fn standings(&self, s: &Toy) -> Option<Vec<Standing>> {
            (s.moves >= 4).then(Vec::new)
        }
    }

    impl Draw for ToyGame {
        fn draw_board(&self, s: &Toy) -> Option<Fragment> {
            let shown = if self.leaky_board { s.secret[0] } else { 0 };
            Some(crate::draw::El::words(0.0, 10.0, 8.0, format!("board {shown}")).finish())
        }
        fn draw_on(&self, s: &Toy, viewer: Viewer, board: Option<&Fragment>) -> Option<String> {
            let shown = if self.leaky_drawing { s.secret[0] } else { 0 };
            let words = format!("{} moves, {shown}", self.view(s, viewer)["moves"]);
            let board = board.cloned().or_else(|| self.draw_board(s))?;
            let body = vec![crate::draw::El::fragment(&board), crate::draw::El::words(0.0, 20.0, 8.0, words)];
            Some(crate::draw::document(40.0, 30.0, "toy", body))
        }
        fn draw(&self, s: &Toy, viewer: Viewer) -> Option<String> {
            let board = self.draw_board(s);
            let picture = self.draw_on(s, viewer, board.as_ref());
            if self.own_draw { picture.map(|p| p.replace("board", "a board")) } else { picture }
        }
    }

    impl Game for ToyGame {
        fn slug(&self) -> &'static str {
            "toy"
        }
        fn title(&self) -> &'static str {
            "Toy"
        }
        fn rules_version(&self) -> u32 {
            1
        }
        fn seat_counts(&self) -> RangeInclusive<u8> {
            2..=2
        }
        fn acting_seats(&self, _s: &Toy) -> Vec<Seat> {
            vec![Seat(1), Seat(2)]
        }
        fn turn_complete(&self, _start: &Toy, _now: &Toy) -> bool {
            true
        }
        fn inventory(&self, s: &Toy) -> Option<Inventory> {
            let mut inv = Inventory::default();
            let numbers = inv.kind("number", true, false);
            s.deck.iter().for_each(|n| numbers.put("the deck", n.to_string()));
            for (i, n) in s.secret.iter().enumerate() {
                numbers.put(format!("{}'s hand", Seat::from_index(i)), n.to_string());
            }
            Some(inv)
        }
    }

    impl Hidden for ToyGame {
        fn redeal(&self, s: &Toy, viewer: Viewer, rng: &mut GameRng) -> Toy {
            let mut out = s.clone();
            let hidden: Vec<usize> = (0..2).filter(|i| !viewer.may_see(Seat::from_index(*i))).collect();
            let mut pool: Vec<u8> = out.deck.clone();
            pool.extend(hidden.iter().map(|i| out.secret[*i]));
            rng.shuffle(&mut pool);
            for i in &hidden {
                out.secret[*i] = pool.pop().unwrap_or(0);
            }
            out.deck = pool;
            out
        }
    }

    fn run(game: &ToyGame) -> Result<Played<Toy>, String> {
        let choose = |_: &Toy, legal: &[bool], p: &mut Pick| legal[p.next(legal.len())];
        let tamper = |_: &Toy, _: &mut Pick| vec![true];
        let invariants = |_: &Toy, _: &Toy, _: &bool| Ok(());
        let play = Play {
            spec: SetupSpec { seats: 2, options: serde_json::Value::Null },
            seed: 5,
            choices: 9,
            max_actions: 10,
            choose: &choose,
            tamper: &tamper,
            invariants: &invariants,
            orders: None,
            stop_after: None,
        };
        super::play(game, &play)
    }

    #[test]
    fn an_honest_toy_game_passes_every_check() {
        let played = run(&ToyGame::default()).expect("conforms");
        assert_eq!(played.log.len(), 4);
    }

    #[test]
    fn a_view_that_shows_another_seats_secret_is_caught() {
        let err = run(&ToyGame { leak: true, ..ToyGame::default() }).expect_err("leaks");
        assert!(err.contains("changes when what it cannot know is re-dealt"), "{err}");
    }

    #[test]
    fn a_drawing_that_shows_another_seats_secret_is_caught() {
        let err = run(&ToyGame { leaky_drawing: true, ..ToyGame::default() }).expect_err("leaks");
        assert!(err.contains("'s draw changes when what it cannot know is re-dealt"), "{err}");
    }

    #[test]
    fn a_board_that_shows_a_seats_secret_is_caught() {
        let err = run(&ToyGame { leaky_board: true, ..ToyGame::default() }).expect_err("leaks");
        assert!(err.contains("the board drawing changes"), "{err}");
    }

    #[test]
    fn a_drawing_that_is_not_the_board_placed_in_the_viewers_picture_is_caught() {
        let err = run(&ToyGame { own_draw: true, ..ToyGame::default() }).expect_err("disagrees");
        assert!(err.contains("draw is not draw_on around draw_board"), "{err}");
    }

    #[test]
    fn a_component_that_vanishes_during_an_action_is_caught() {
        let err = run(&ToyGame { losing: true, ..ToyGame::default() }).expect_err("loses a number");
        assert!(err.contains("vanished (it was in seat"), "{err}");
    }

    /// The toy's state after set-up, for the builder's checks.
    fn toy_start(game: &ToyGame) -> Toy {
        super::super::log::setup(game, &SetupSpec { seats: 2, options: serde_json::Value::Null }, 1)
            .expect("setup")
    }

    #[test]
    fn an_honest_order_builder_passes_its_check() {
        let game = ToyGame::default();
        check_choices(&game, &toy_start(&game), 2, 1, 0).expect("conforms");
    }

    #[test]
    fn an_order_builder_that_names_another_seats_secret_is_caught() {
        let game = ToyGame { leaky_builder: true, ..ToyGame::default() };
        let err = check_choices(&game, &toy_start(&game), 2, 1, 0).expect_err("leaks");
        assert!(err.contains("order builder changes when what it cannot know is re-dealt"), "{err}");
    }

    #[test]
    fn an_order_builder_line_the_answer_does_not_carry_out_is_caught() {
        let game = ToyGame { wrong_line: true, ..ToyGame::default() };
        let err = check_choices(&game, &toy_start(&game), 2, 1, 0).expect_err("a line not legal now");
        assert!(err.contains("\"FLY\" is not carried out"), "{err}");
    }

    #[test]
    fn a_refusal_that_changes_the_state_is_caught() {
        let game = ToyGame { sloppy: true, ..ToyGame::default() };
        let mut s =
            super::super::log::setup(&game, &SetupSpec { seats: 2, options: serde_json::Value::Null }, 1)
                .expect("setup");
        s.moves = 4;
        let err = check_refusal_changes_nothing(&game, &s, &true, 1, 0).expect_err("changes");
        assert!(err.contains("changed the state"), "{err}");
    }
}
