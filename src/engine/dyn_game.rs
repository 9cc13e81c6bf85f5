//! The object-safe, JSON-facing side of an engine.
//!
//! Storage, web, mail and the CLI hold games as JSON state and JSON actions and talk to engines
//! through [`DynGame`]; every [`Game`] gets it for free through the blanket implementation here.

use super::{Decision, Game, GameRng, LineNote, Seat, SetupSpec, Standing, Viewer};
use crate::adjudication::{Adjudicated, AdjudicationError, GmInput, TurnResult, run_turn, run_turn_asking};
use crate::orders::parse_sheet;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use thiserror::Error;

/// One action of a game's log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggedAction {
    pub seq: u64,
    pub seat: Seat,
    pub action: Value,
    /// true when the rules' default was applied for the seat (no usable orders).
    #[serde(default)]
    pub by_default: bool,
}

/// One line of the echo a player gets for a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EchoLine {
    pub line: usize,
    pub text: String,
    /// The line in canonical form, when understood.
    pub understood: Option<String>,
    /// Why the line was not understood.
    pub error: Option<String>,
    /// A warning that does not reject the line ("you do not hold 7♥").
    pub advice: Option<String>,
}

/// The echo of a whole submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Echo {
    pub lines: Vec<EchoLine>,
    /// The canonical text, one line per order line (joined by newlines).
    pub canonical: String,
    pub errors: usize,
}

impl Echo {
    /// Each order line's number and canonical text, in order: what the receipt seals line by
    /// line (`crate::orders::receipt`).
    pub fn canonical_lines(&self) -> Vec<(usize, String)> {
        self.lines
            .iter()
            .map(|l| (l.line, l.understood.clone().unwrap_or_else(|| format!("? {}", l.text))))
            .collect()
    }
}

/// What one adjudicated turn produced, in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnOutcome {
    pub state: Value,
    pub actions: Vec<LoggedAction>,
    pub events: Vec<super::Event>,
    pub notes: BTreeMap<Seat, Vec<LineNote>>,
    pub nmr: BTreeSet<Seat>,
    pub defaulted: BTreeSet<Seat>,
    pub game_over: bool,
    pub standings: Option<Vec<Standing>>,
}

/// A decision left to the GM (see `crate::adjudication::Question`), in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GmQuestion {
    pub number: usize,
    pub seat: Seat,
    pub prompt: String,
    /// The legal moves, the rules' default first.
    pub candidates: Vec<Candidate>,
}

/// One move the GM may choose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub action: Value,
    /// The move in words.
    pub label: String,
}

/// A turn adjudicated, or stopped at a question for the GM.
#[derive(Debug, Clone, PartialEq)]
pub enum Adjudication {
    Done(TurnOutcome),
    Ask(GmQuestion),
}

/// Something went wrong inside the engine boundary.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error("stored {what} does not fit the {engine} engine: {source}")]
    Decode { engine: &'static str, what: &'static str, source: serde_json::Error },
    #[error(transparent)]
    Setup(#[from] super::SetupError),
    #[error(transparent)]
    Adjudication(#[from] AdjudicationError),
    #[error("action {seq} of the log was refused: {reason}")]
    ReplayRefused { seq: u64, reason: String },
    #[error("action {seq} of the log is by {actual}, but the game awaited {expected}")]
    ReplayWrongSeat { seq: u64, expected: String, actual: Seat },
    #[error("action {seq} of the log comes after the end of the game")]
    ReplayAfterEnd { seq: u64 },
}

/// An engine seen through JSON. Implemented for every [`Game`].
pub trait DynGame: Send + Sync {
    fn slug(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    fn seat_counts(&self) -> RangeInclusive<u8>;
    /// Sets up a new game.
    fn setup(&self, spec: &SetupSpec, seed: u64) -> Result<Value, EngineError>;
    /// Parses a seat's orders against the current state, for the echo.
    fn check_orders(&self, state: &Value, seat: Seat, text: &str) -> Result<Echo, EngineError>;
    /// Plays one PBEM turn from sealed order texts.
    fn adjudicate(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
    ) -> Result<TurnOutcome, EngineError>;
    /// [`DynGame::adjudicate`] with the GM in the loop: decisions of the seats in `ask_for` that
    /// their orders do not answer are taken from `answers` (one per question, in order), or the
    /// turn stops at the next [`GmQuestion`].
    fn adjudicate_asking(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
        ask_for: &BTreeSet<Seat>,
        answers: &[Value],
    ) -> Result<Adjudication, EngineError>;
    /// The line numbers of a seat's adjudicated order text everyone may read once the turn is
    /// published ([`Game::public_lines`]), given the adjudication's notes for the seat.
    fn public_lines(&self, text: &str, notes: &[LineNote]) -> BTreeSet<usize>;
    /// Re-applies a log from setup and returns the final state.
    fn replay(&self, spec: &SetupSpec, seed: u64, log: &[LoggedAction]) -> Result<Value, EngineError>;
    fn next_decision(&self, state: &Value) -> Result<Option<Decision>, EngineError>;
    fn legal_actions(&self, state: &Value) -> Result<Vec<Value>, EngineError>;
    fn acting_seats(&self, state: &Value) -> Result<Vec<Seat>, EngineError>;
    fn view(&self, state: &Value, viewer: Viewer) -> Result<Value, EngineError>;
    fn describe(&self, state: &Value, viewer: Viewer) -> Result<String, EngineError>;
    fn standings(&self, state: &Value) -> Result<Option<Vec<Standing>>, EngineError>;
    /// Applies a GM correction (a JSON merge patch) to a state; the result must still be a state
    /// of this engine, else [`EngineError::Decode`] and nothing changes.
    fn correct(&self, state: &Value, patch: &Value) -> Result<Value, EngineError>;
}

/// The seat number a GM correction is logged under: no player sits there.
pub const GM_SEAT: Seat = Seat(0);

/// The log entry of a GM correction: `{"gm_correction": <merge patch>, "note": "..."}`.
pub fn correction_patch(entry: &LoggedAction) -> Option<&Value> {
    (entry.seat == GM_SEAT).then(|| entry.action.get("gm_correction")).flatten()
}

fn decode<G: Game>(game: &G, state: &Value) -> Result<G::State, EngineError> {
    G::State::deserialize(state).map_err(|source| EngineError::Decode {
        engine: game.slug(),
        what: "state",
        source,
    })
}

/// The JSON outcome of a turn the loop played through.
fn outcome_of<G: Game>(game: &G, first_seq: u64, r: TurnResult<G>) -> TurnOutcome {
    let actions = r
        .actions
        .iter()
        .enumerate()
        .map(|(i, (seat, a, by_default))| LoggedAction {
            seq: first_seq + i as u64,
            seat: *seat,
            action: encode(a),
            by_default: *by_default,
        })
        .collect();
    TurnOutcome {
        game_over: Game::next_decision(game, &r.state).is_none(),
        standings: Game::standings(game, &r.state),
        state: encode(&r.state),
        actions,
        events: r.events,
        notes: r.notes,
        nmr: r.nmr,
        defaulted: r.defaulted,
    }
}

fn encode<T: Serialize>(value: &T) -> Value {
    // Engine types are plain data (derive(Serialize), string map keys): this cannot fail.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<G: Game> DynGame for G {
    fn slug(&self) -> &'static str {
        Game::slug(self)
    }
    fn title(&self) -> &'static str {
        Game::title(self)
    }
    fn rules_version(&self) -> u32 {
        Game::rules_version(self)
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        Game::seat_counts(self)
    }

    fn setup(&self, spec: &SetupSpec, seed: u64) -> Result<Value, EngineError> {
        let counts = Game::seat_counts(self);
        if !counts.contains(&spec.seats) {
            return Err(super::SetupError(format!(
                "{} is played by {} to {} players, not {}",
                Game::title(self),
                counts.start(),
                counts.end(),
                spec.seats
            ))
            .into());
        }
        Ok(encode(&Game::setup(self, spec, &mut GameRng::for_setup(seed))?))
    }

    fn check_orders(&self, state: &Value, seat: Seat, text: &str) -> Result<Echo, EngineError> {
        let s = decode(self, state)?;
        Ok(parse_sheet(self, text, Some((&s, seat))).1)
    }

    fn adjudicate(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
    ) -> Result<TurnOutcome, EngineError> {
        let start = decode(self, state)?;
        let sheets = orders.iter().map(|(seat, text)| (*seat, parse_sheet(self, text, None).0)).collect();
        Ok(outcome_of(self, first_seq, run_turn(self, &start, seed, first_seq, sheets)?))
    }

    fn adjudicate_asking(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
        ask_for: &BTreeSet<Seat>,
        answers: &[Value],
    ) -> Result<Adjudication, EngineError> {
        let start = decode(self, state)?;
        let sheets = orders.iter().map(|(seat, text)| (*seat, parse_sheet(self, text, None).0)).collect();
        let answers = answers
            .iter()
            .map(|a| {
                G::Action::deserialize(a).map_err(|source| EngineError::Decode {
                    engine: Game::slug(self),
                    what: "GM answer",
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let gm = GmInput { ask_for: ask_for.clone(), answers };
        Ok(match run_turn_asking(self, &start, seed, first_seq, sheets, &gm)? {
            Adjudicated::Done(r) => Adjudication::Done(outcome_of(self, first_seq, r)),
            Adjudicated::Ask(q) => {
                let candidates = q
                    .candidates
                    .iter()
                    .map(|a| Candidate { action: encode(a), label: Game::describe_action(self, a) })
                    .collect();
                Adjudication::Ask(GmQuestion { number: q.number, seat: q.seat, prompt: q.prompt, candidates })
            }
        })
    }

    fn public_lines(&self, text: &str, notes: &[LineNote]) -> BTreeSet<usize> {
        Game::public_lines(self, &parse_sheet(self, text, None).0, notes)
    }

    fn replay(&self, spec: &SetupSpec, seed: u64, log: &[LoggedAction]) -> Result<Value, EngineError> {
        let mut state: G::State = decode(self, &DynGame::setup(self, spec, seed)?)?;
        for entry in log {
            if let Some(patch) = correction_patch(entry) {
                state = decode(self, &DynGame::correct(self, &encode(&state), patch)?)?;
                continue;
            }
            let Some(decision) = Game::next_decision(self, &state) else {
                return Err(EngineError::ReplayAfterEnd { seq: entry.seq });
            };
            if decision.seat != entry.seat {
                return Err(EngineError::ReplayWrongSeat {
                    seq: entry.seq,
                    expected: decision.seat.to_string(),
                    actual: entry.seat,
                });
            }
            let action = G::Action::deserialize(&entry.action).map_err(|source| EngineError::Decode {
                engine: Game::slug(self),
                what: "action",
                source,
            })?;
            Game::apply(self, &mut state, &action, &mut GameRng::for_action(seed, entry.seq))
                .map_err(|e| EngineError::ReplayRefused { seq: entry.seq, reason: e.0 })?;
        }
        Ok(encode(&state))
    }

    fn next_decision(&self, state: &Value) -> Result<Option<Decision>, EngineError> {
        Ok(Game::next_decision(self, &decode(self, state)?))
    }

    fn legal_actions(&self, state: &Value) -> Result<Vec<Value>, EngineError> {
        let s = decode(self, state)?;
        Ok(match Game::next_decision(self, &s) {
            Some(d) => Game::legal_actions(self, &s, &d).iter().map(encode).collect(),
            None => Vec::new(),
        })
    }

    fn acting_seats(&self, state: &Value) -> Result<Vec<Seat>, EngineError> {
        Ok(Game::acting_seats(self, &decode(self, state)?))
    }

    fn view(&self, state: &Value, viewer: Viewer) -> Result<Value, EngineError> {
        Ok(Game::view(self, &decode(self, state)?, viewer))
    }

    fn describe(&self, state: &Value, viewer: Viewer) -> Result<String, EngineError> {
        Ok(Game::describe(self, &decode(self, state)?, viewer))
    }

    fn standings(&self, state: &Value) -> Result<Option<Vec<Standing>>, EngineError> {
        Ok(Game::standings(self, &decode(self, state)?))
    }

    fn correct(&self, state: &Value, patch: &Value) -> Result<Value, EngineError> {
        let mut patched = state.clone();
        super::patch::merge_patch(&mut patched, patch);
        // Round-trip through the engine's own type: a patch that breaks the state's shape fails.
        Ok(encode(&decode(self, &patched)?))
    }
}
