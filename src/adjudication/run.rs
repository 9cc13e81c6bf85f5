//! The turn loop itself.

use crate::engine::{Decision, Event, Game, GameRng, LineNote, OrderSheet, Seat};
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

/// A turn that cannot be adjudicated: always an engine defect, never a player's fault. The turn
/// is left for the GM; nothing is published.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AdjudicationError {
    #[error("the engine has no default action for {seat} at \"{prompt}\"")]
    NoDefault { seat: Seat, prompt: String },
    #[error("the engine's default action for {seat} was refused: {reason}")]
    DefaultRefused { seat: Seat, reason: String },
    #[error("the turn did not end after {0} actions")]
    Runaway(usize),
    #[error("the GM's answer to question {number} is not a legal move any more: {reason}")]
    GmAnswerRefused { number: usize, reason: String },
}

/// The GM's part in a turn: the seats whose decisions go to the GM when their orders give no
/// answer (an NMR policy), and the GM's answers so far, one per question in the order asked.
#[derive(Debug, Clone)]
pub struct GmInput<A> {
    pub ask_for: BTreeSet<Seat>,
    pub answers: Vec<A>,
}

impl<A> Default for GmInput<A> {
    fn default() -> Self {
        GmInput { ask_for: BTreeSet::new(), answers: Vec::new() }
    }
}

/// A decision the adjudication leaves to the GM: the legal moves, ranked — the rules' default
/// first, then the rest in the engine's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Question<A> {
    /// 0 for the turn's first question, 1 for the next, …
    pub number: usize,
    pub seat: Seat,
    pub prompt: String,
    pub candidates: Vec<A>,
}

/// A turn played through, or stopped at a question for the GM.
#[derive(Debug, Clone)]
pub enum Adjudicated<G: Game> {
    Done(TurnResult<G>),
    Ask(Question<G::Action>),
}

/// Everything one adjudicated turn produced.
#[derive(Debug, Clone)]
pub struct TurnResult<G: Game> {
    pub state: G::State,
    /// (seat, action, whether it was the rules' default rather than the seat's orders).
    pub actions: Vec<(Seat, G::Action, bool)>,
    pub events: Vec<Event>,
    /// Per seat, what became of each order line.
    pub notes: BTreeMap<Seat, Vec<LineNote>>,
    /// Seats that had no usable orders at some decision where they had a real choice.
    pub nmr: BTreeSet<Seat>,
    /// Seats for which at least one default was applied.
    pub defaulted: BTreeSet<Seat>,
}

/// A safety net against an engine whose turn never completes.
const MAX_ACTIONS_PER_TURN: usize = 100_000;

/// Plays one PBEM turn from `start`. `first_seq` is the log sequence number the first action
/// will get (it selects that action's RNG stream), `seed` the game's seed.
pub fn run_turn<G: Game>(
    game: &G,
    start: &G::State,
    seed: u64,
    first_seq: u64,
    sheets: BTreeMap<Seat, OrderSheet<G::Order>>,
) -> Result<TurnResult<G>, AdjudicationError> {
    match run_turn_asking(game, start, seed, first_seq, sheets, &GmInput::default())? {
        Adjudicated::Done(r) => Ok(r),
        // Nobody is asked about without seats in `ask_for`.
        Adjudicated::Ask(q) => Err(AdjudicationError::NoDefault { seat: q.seat, prompt: q.prompt }),
    }
}

/// [`run_turn`] with the GM in the loop: where a seat in `gm.ask_for` has no usable order, the
/// GM's next answer is played (a GM decision: the seat still counts as NMR), or — when the GM has
/// not answered yet — the turn stops with the [`Question`]. Re-running with the answer appended
/// replays the same turn up to that point (the loop is deterministic) and goes on.
pub fn run_turn_asking<G: Game>(
    game: &G,
    start: &G::State,
    seed: u64,
    first_seq: u64,
    mut sheets: BTreeMap<Seat, OrderSheet<G::Order>>,
    gm: &GmInput<G::Action>,
) -> Result<Adjudicated<G>, AdjudicationError> {
    let mut asked = 0usize;
    let mut state = start.clone();
    let mut out = TurnResult::<G> {
        state: start.clone(),
        actions: Vec::new(),
        events: Vec::new(),
        notes: BTreeMap::new(),
        nmr: BTreeSet::new(),
        defaulted: BTreeSet::new(),
    };
    let mut seq = first_seq;
    while let Some(decision) = game.next_decision(&state) {
        if !out.actions.is_empty() && game.turn_complete(start, &state) {
            break;
        }
        if out.actions.len() >= MAX_ACTIONS_PER_TURN {
            return Err(AdjudicationError::Runaway(out.actions.len()));
        }
        let seat = decision.seat;
        let sheet = sheets.entry(seat).or_insert_with(|| OrderSheet::new(Vec::new()));
        let answer = game.answer(&state, &decision, sheet);
        let notes = out.notes.entry(seat).or_default();
        notes.extend(answer.notes);

        let mut rng = GameRng::for_action(seed, seq);
        let mut applied = None;
        if let Some(action) = answer.action {
            let mut trial = state.clone();
            match game.apply(&mut trial, &action, &mut rng) {
                Ok(events) => {
                    state = trial;
                    applied = Some((action, events, false));
                }
                // An engine that answers with an action it then refuses: report it, default.
                Err(illegal) => notes.push(LineNote {
                    line: 0,
                    executed: false,
                    note: format!("not carried out: {illegal}"),
                }),
            }
        }
        let (action, events, by_default) = match applied {
            Some(done) => done,
            None if gm.ask_for.contains(&seat) => {
                let number = asked;
                asked += 1;
                let Some(answer) = gm.answers.get(number) else {
                    return Ok(Adjudicated::Ask(question(game, &state, &decision, number)));
                };
                out.nmr.insert(seat);
                out.defaulted.insert(seat);
                notes.push(LineNote {
                    line: 0,
                    executed: true,
                    note: "no usable orders: the GM decided".into(),
                });
                let mut rng = GameRng::for_action(seed, seq);
                let events = game
                    .apply(&mut state, answer, &mut rng)
                    .map_err(|e| AdjudicationError::GmAnswerRefused { number, reason: e.0 })?;
                (answer.clone(), events, true)
            }
            None => {
                // RULING S2 / HR 16: only a seat that sent no orders at all is NMR; orders that
                // could not be carried out are reported line by line instead.
                if sheet.is_empty() {
                    out.nmr.insert(seat);
                }
                out.defaulted.insert(seat);
                let action = game
                    .default_action(&state, &decision)
                    .ok_or_else(|| AdjudicationError::NoDefault { seat, prompt: decision.prompt.clone() })?;
                let mut rng = GameRng::for_action(seed, seq);
                let events = game
                    .apply(&mut state, &action, &mut rng)
                    .map_err(|e| AdjudicationError::DefaultRefused { seat, reason: e.0 })?;
                (action, events, true)
            }
        };
        out.actions.push((seat, action, by_default));
        out.events.extend(events);
        seq += 1;
    }
    out.state = state;
    Ok(Adjudicated::Done(out))
}

/// The question for the GM at `decision`: the legal moves, the rules' default first.
fn question<G: Game>(game: &G, state: &G::State, decision: &Decision, number: usize) -> Question<G::Action> {
    let default = game.default_action(state, decision);
    let mut candidates: Vec<G::Action> = default.iter().cloned().collect();
    candidates
        .extend(game.legal_actions(state, decision).into_iter().filter(|a| Some(a) != default.as_ref()));
    Question { number, seat: decision.seat, prompt: decision.prompt.clone(), candidates }
}
