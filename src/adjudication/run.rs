//! The turn loop itself.

use super::gm::{Asker, GmInput, Question, legal_moves, usable};
use crate::engine::outcome::{Checkpoint, QuestionKind};
use crate::engine::{Event, Game, GameRng, LineNote, OrderSheet, Seat};
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
    /// Per seat, for each note, how many events came before it (it follows its action's events).
    pub anchors: BTreeMap<Seat, Vec<usize>>,
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

/// [`run_turn`] with the GM in the loop. Where a seat in `gm.ask_for` has no usable order, the
/// GM's next answer is played (a GM decision: the seat still counts as NMR). Where the rules
/// refer a decision the orders could not make to the GM ([`Orders::refer`]), the GM's choice is
/// played, or the best-ranked candidate when `gm.referrals` is off (RULINGS S18). At a round's
/// end inside a multi-round turn (HR 14) the turn ends when a seat asked for one round, and asks
/// the GM whether to go on when some seat's orders no longer fit (RULINGS S19). When the GM has
/// not answered a question yet, the turn stops with the [`Question`]; re-running with the answer
/// appended replays the same turn up to that point (the loop is deterministic) and goes on.
pub fn run_turn_asking<G: Game>(
    game: &G,
    start: &G::State,
    seed: u64,
    first_seq: u64,
    mut sheets: BTreeMap<Seat, OrderSheet<G::Order>>,
    gm: &GmInput<G::Action>,
) -> Result<Adjudicated<G>, AdjudicationError> {
    let mut ask = Asker::new(gm);
    let acting = game.acting_seats(start);
    let mut rounds_seen = 0u32;
    let mut state = start.clone();
    let mut out = TurnResult::<G> {
        state: start.clone(),
        actions: Vec::new(),
        events: Vec::new(),
        notes: BTreeMap::new(),
        anchors: BTreeMap::new(),
        nmr: BTreeSet::new(),
        defaulted: BTreeSet::new(),
    };
    let mut seq = first_seq;
    // Issue 15: what happened is grouped under the round it happened in.
    out.events.extend(game.round_title(start).map(Event::public));
    while let Some(decision) = game.next_decision(&state) {
        if !out.actions.is_empty() && game.turn_complete(start, &state) {
            break;
        }
        if out.actions.len() >= MAX_ACTIONS_PER_TURN {
            return Err(AdjudicationError::Runaway(out.actions.len()));
        }
        // HR 14: a round ended inside the turn.
        let rounds = game.rounds_since(start, &state);
        if rounds > rounds_seen {
            rounds_seen = rounds;
            match round_end(game, &state, &acting, &sheets, &mut out, &mut ask, gm.checkpoints, rounds)? {
                RoundEnd::GoOn => {
                    anchor_notes(&mut out);
                    out.events.extend(game.round_title(&state).map(Event::public));
                }
                RoundEnd::Stop => break,
                RoundEnd::Ask(q) => return Ok(Adjudicated::Ask(q)),
            }
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
        let gm_move = |state: &mut G::State, number: usize, action: G::Action| {
            let mut rng = GameRng::for_action(seed, seq);
            let events = game
                .apply(state, &action, &mut rng)
                .map_err(|e| AdjudicationError::GmAnswerRefused { number, reason: e.0 })?;
            Ok::<_, AdjudicationError>((action, events, true))
        };
        let (action, events, by_default) = match applied {
            Some(done) => done,
            None if gm.ask_for.contains(&seat) => {
                let candidates = || legal_moves(game, &state);
                let prompt = decision.prompt.clone();
                let (number, answer) = match ask.move_for(seat, prompt, QuestionKind::Move, candidates)? {
                    Ok(answered) => answered,
                    Err(q) => return Ok(Adjudicated::Ask(q)),
                };
                out.nmr.insert(seat);
                out.defaulted.insert(seat);
                notes.push(LineNote {
                    line: 0,
                    executed: true,
                    note: "no usable orders: the GM decided".into(),
                });
                gm_move(&mut state, number, answer)?
            }
            None => match usable(game.refer(&state, &decision, sheet)) {
                Some(referral) => {
                    // RULINGS S18: a referral is the GM's decision, not a missed move; only a
                    // seat that sent nothing at all is NMR (S2, HR 12).
                    if sheet.is_empty() {
                        out.nmr.insert(seat);
                    }
                    let prompt = referral.prompt;
                    if gm.referrals {
                        let asked = ask
                            .move_for(seat, prompt.clone(), QuestionKind::Referral, || referral.candidates)?;
                        let (number, answer) = match asked {
                            Ok(answered) => answered,
                            Err(q) => return Ok(Adjudicated::Ask(q)),
                        };
                        let note = format!("the GM decided under the rules' referral — {prompt}");
                        let done = gm_move(&mut state, number, answer)?;
                        notes.push(LineNote {
                            line: 0,
                            executed: true,
                            note: format!("{note}: {}", game.describe_action(&done.0)),
                        });
                        done
                    } else {
                        let first =
                            referral.candidates.into_iter().next().ok_or_else(|| {
                                AdjudicationError::NoDefault { seat, prompt: prompt.clone() }
                            })?;
                        let mut rng = GameRng::for_action(seed, seq);
                        let events = game
                            .apply(&mut state, &first, &mut rng)
                            .map_err(|e| AdjudicationError::DefaultRefused { seat, reason: e.0 })?;
                        let note = format!(
                            "{prompt} — the GM chose not to be asked: the best-ranked choice was played, {}",
                            game.describe_action(&first)
                        );
                        notes.push(LineNote { line: 0, executed: true, note });
                        (first, events, true)
                    }
                }
                None => {
                    // RULING S2 / HR 16: only a seat that sent no orders at all is NMR; orders that
                    // could not be carried out are reported line by line instead.
                    if sheet.is_empty() {
                        out.nmr.insert(seat);
                    }
                    out.defaulted.insert(seat);
                    let action = game.default_action(&state).ok_or_else(|| AdjudicationError::NoDefault {
                        seat,
                        prompt: decision.prompt.clone(),
                    })?;
                    let mut rng = GameRng::for_action(seed, seq);
                    let events = game
                        .apply(&mut state, &action, &mut rng)
                        .map_err(|e| AdjudicationError::DefaultRefused { seat, reason: e.0 })?;
                    (action, events, true)
                }
            },
        };
        out.actions.push((seat, action, by_default));
        // Issue 33: the notes stand under the event the action itself caused (its first), not
        // under what followed from it for other seats (a seat skipped after the purchase).
        let own = out.events.len() + usize::from(!events.is_empty());
        out.events.extend(events);
        anchor_notes_at(&mut out, own);
        seq += 1;
    }
    unreached_notes(game, &state, &sheets, &mut out);
    anchor_notes(&mut out);
    out.state = state;
    Ok(Adjudicated::Done(out))
}

/// What a round's end inside a turn means for it.
enum RoundEnd<A> {
    GoOn,
    Stop,
    Ask(Question<A>),
}

/// HR 14 at the end of the turn's `round`th round (the turn not complete yet): a seat that asked
/// for a one-round turn ends it here; else, when some seat's orders no longer fit, the GM says
/// whether the turn goes on (RULINGS S19). Every seat concerned is told in its notes.
#[allow(clippy::too_many_arguments)]
fn round_end<G: Game>(
    game: &G,
    state: &G::State,
    acting: &[Seat],
    sheets: &BTreeMap<Seat, OrderSheet<G::Order>>,
    out: &mut TurnResult<G>,
    ask: &mut Asker<'_, G::Action>,
    checkpoints: bool,
    round: u32,
) -> Result<RoundEnd<G::Action>, AdjudicationError> {
    let sheet_of = |seat: &Seat| sheets.get(seat).filter(|sh| !sh.is_empty());
    let one_round: Vec<Seat> =
        acting.iter().filter(|s| sheet_of(s).is_some_and(|sh| game.wants_one_round(sh))).copied().collect();
    if !one_round.is_empty() {
        for seat in one_round {
            let note =
                format!("HR 14: you asked for a one-round turn; the turn ends after its round {round}");
            note_to(out, seat, note);
        }
        out.events.push(Event::public(format!(
            "The turn ends after its round {round}: a one-round turn was asked for (HR 14)."
        )));
        return Ok(RoundEnd::Stop);
    }
    let misfits: Vec<(Seat, String)> = acting
        .iter()
        .filter_map(|s| sheet_of(s).and_then(|sh| game.misfit(state, *s, sh)).map(|why| (*s, why)))
        .collect();
    let Some((first, _)) = misfits.first() else {
        return Ok(RoundEnd::GoOn);
    };
    let word = if checkpoints {
        let list = misfits.iter().map(|(s, why)| format!("seat {}: {why}", s.0)).collect::<Vec<_>>();
        let prompt = format!(
            "HR 14: round {round} of this turn is over and these orders no longer fit the position — {}. \
             Go on with the next round, or stop after this one?",
            list.join("; ")
        );
        match ask.checkpoint(*first, prompt)? {
            Ok(word) => word,
            Err(q) => return Ok(RoundEnd::Ask(q)),
        }
    } else {
        Checkpoint::Continue
    };
    for (seat, why) in misfits {
        let note = match word {
            Checkpoint::Continue => {
                format!("HR 14: after round {round} your orders no longer fit ({why}); the turn went on")
            }
            Checkpoint::Stop => format!(
                "HR 14: after round {round} your orders no longer fit ({why}); the GM ended the turn there"
            ),
        };
        note_to(out, seat, note);
    }
    Ok(match word {
        Checkpoint::Continue => RoundEnd::GoOn,
        Checkpoint::Stop => {
            out.events.push(Event::public(format!("The GM ends the turn after its round {round} (HR 14).")));
            RoundEnd::Stop
        }
    })
}

/// At the turn's end, what became of the lines that waited for another seat's move which never
/// came ([`Orders::unreached`](crate::engine::Orders::unreached)): each seat is told of its own,
/// on lines that have no note yet (issue 33).
fn unreached_notes<G: Game>(
    game: &G,
    state: &G::State,
    sheets: &BTreeMap<Seat, OrderSheet<G::Order>>,
    out: &mut TurnResult<G>,
) {
    for (seat, sheet) in sheets.iter().filter(|(_, sh)| !sh.is_empty()) {
        let fresh: Vec<LineNote> = game
            .unreached(state, *seat, sheet)
            .into_iter()
            .filter(|n| out.notes.get(seat).is_none_or(|had| had.iter().all(|h| h.line != n.line)))
            .collect();
        if !fresh.is_empty() {
            out.notes.entry(*seat).or_default().extend(fresh);
        }
    }
}

/// A note to a seat about its whole sheet (line 0).
fn note_to<G: Game>(out: &mut TurnResult<G>, seat: Seat, note: String) {
    out.notes.entry(seat).or_default().push(LineNote { line: 0, executed: true, note });
}

/// Anchors every note not anchored yet after the events so far: a round's end notes follow that
/// round.
fn anchor_notes<G: Game>(out: &mut TurnResult<G>) {
    let at = out.events.len();
    anchor_notes_at(out, at);
}

/// Anchors every note not anchored yet after the first `at` events: the notes made at a decision
/// follow the first event of the action it led to.
fn anchor_notes_at<G: Game>(out: &mut TurnResult<G>, at: usize) {
    for (seat, notes) in &out.notes {
        let anchors = out.anchors.entry(*seat).or_default();
        anchors.resize(notes.len(), at);
    }
}
