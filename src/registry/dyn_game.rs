//! The object-safe, JSON-facing side of an engine.
//!
//! Storage, web, mail and the CLI hold games as JSON state and JSON actions and talk to engines
//! through [`DynGame`]; every [`Game`] gets it for free through the blanket implementation here.
//! It sits above the engines, the turn loop and the order parser, which it ties together.

use crate::adjudication::{
    Adjudicated, AdjudicationError, GmAnswer, GmInput, TurnResult, run_turn, run_turn_asking,
};
use crate::engine::log::{self, ReplayError, decode, encode};
pub use crate::engine::outcome::{Candidate, GmQuestion, TurnOutcome};
use crate::engine::outcome::{Checkpoint, QuestionKind};
use crate::engine::{Apply, Draw, Game, Orders, Rules, Scoring, View};
use crate::engine::{
    Choices, Decision, LedgerRefused, LineNote, LoggedAction, Seat, SetupError, SetupSpec, Standing, Viewer,
};
use crate::orders::{Echo, LastingLine, parse_sheet, played_sheet};
use serde_json::Value;
use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::RangeInclusive;
use std::sync::Arc;
use thiserror::Error;

/// A turn adjudicated, or stopped at a question for the GM.
#[derive(Debug, Clone, PartialEq)]
pub enum Adjudication {
    Done(TurnOutcome),
    Ask(GmQuestion),
}

/// The GM's part in a turn, in JSON form (see `crate::adjudication::GmInput`). Checkpoints
/// (HR 14) are always asked: a GM is in the loop.
#[derive(Debug, Clone, Copy)]
pub struct GmTurn<'a> {
    /// Seats without orders whose moves go to the GM (the NMR policy).
    pub ask_for: &'a BTreeSet<Seat>,
    /// Whether the rules' referrals are asked (the game's setting) or played by their first
    /// candidate (RULINGS S18).
    pub referrals: bool,
    /// The GM's answers so far, in the order asked: actions, or checkpoint answers
    /// ([`Checkpoint::to_answer`]).
    pub answers: &'a [Value],
}

/// Something went wrong inside the engine boundary.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error(transparent)]
    Adjudication(#[from] AdjudicationError),
}

impl From<SetupError> for EngineError {
    fn from(e: SetupError) -> Self {
        EngineError::Replay(ReplayError::Setup(e))
    }
}

/// A JSONL action log replayed into a ledger by an engine that keeps one ([`Game::ledger`]):
/// the CSV and the final state.
#[derive(Debug, Clone, PartialEq)]
pub struct Ledger {
    pub csv: String,
    pub state: Value,
}

/// A stored state decoded once by its engine ([`DynGame::prepare`]): the intake's short path
/// checks every sheet of an open turn against it instead of decoding the JSON each time (issue
/// 32: the decoding was a fifth of the server's time per submission).
#[derive(Clone)]
pub struct Prepared {
    engine: &'static str,
    state: Arc<dyn Any + Send + Sync>,
}

impl Prepared {
    /// A prepared state of no engine (the intake cache's own tests).
    #[cfg(test)]
    pub(crate) fn for_tests() -> Prepared {
        Prepared { engine: "none", state: Arc::new(()) }
    }
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Prepared({})", self.engine)
    }
}

/// An engine seen through JSON. Implemented for every [`Game`].
pub trait DynGame: Send + Sync {
    fn slug(&self) -> &'static str;
    fn title(&self) -> &'static str;
    fn rules_version(&self) -> u32;
    /// Whether a game stored under rules version `v` can be played on
    /// ([`Game::supports_rules_version`]).
    fn supports_rules_version(&self, v: u32) -> bool;
    fn seat_counts(&self) -> RangeInclusive<u8>;
    /// One line about the game ([`Game::blurb`]).
    fn blurb(&self) -> &'static str;
    /// The options a new game may be set up with ([`Game::option_specs`]).
    fn option_specs(&self) -> &'static [crate::engine::OptionSpec];
    /// Sets up a new game.
    fn setup(&self, spec: &SetupSpec, seed: u64) -> Result<Value, EngineError>;
    /// Parses a seat's orders against the current state, for the echo.
    fn check_orders(&self, state: &Value, seat: Seat, text: &str) -> Result<Echo, EngineError>;
    /// The state decoded once, for [`DynGame::check_prepared`] to check many sheets against.
    fn prepare(&self, state: &Value) -> Result<Prepared, EngineError>;
    /// [`DynGame::check_orders`] against a state this engine [prepared](DynGame::prepare).
    fn check_prepared(&self, state: &Prepared, seat: Seat, text: &str) -> Result<Echo, EngineError>;
    /// The lines of an order text that state or withdraw an intention lasting across turns
    /// (HR 12, [`crate::orders::lasting`]).
    fn lasting_lines(&self, text: &str) -> Vec<LastingLine>;
    /// Plays one PBEM turn from sealed order texts.
    fn adjudicate(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
    ) -> Result<TurnOutcome, EngineError>;
    /// [`DynGame::adjudicate`] with the GM in the loop: decisions of the seats in `gm.ask_for`
    /// that their orders do not answer, the rules' referrals and HR 14 checkpoints are taken from
    /// `gm.answers` (one per question, in order), or the turn stops at the next [`GmQuestion`].
    /// `carried` holds, per seat with a sheet in `orders`, the stated intentions carried from
    /// earlier turns (HR 12), played after the sheet's own lines as its line 0.
    fn adjudicate_asking(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
        carried: &BTreeMap<Seat, Vec<String>>,
        gm: GmTurn<'_>,
    ) -> Result<Adjudication, EngineError>;
    /// The line numbers of a seat's adjudicated order text everyone may read once the turn is
    /// published ([`Orders::public_lines`]), given the adjudication's notes for the seat.
    fn public_lines(&self, text: &str, notes: &[LineNote]) -> BTreeSet<usize>;
    /// What `seat` can order now, by decision ([`Orders::choices`]).
    fn choices(&self, state: &Value, seat: Seat) -> Result<Vec<Choices>, EngineError>;
    /// What of a hidden line everyone may read once published ([`Orders::played_parts`]).
    fn played_parts(&self, text: &str, notes: &[LineNote]) -> BTreeMap<usize, String>;
    /// Re-applies a log from setup and returns the final state.
    fn replay(&self, spec: &SetupSpec, seed: u64, log: &[LoggedAction]) -> Result<Value, EngineError>;
    fn next_decision(&self, state: &Value) -> Result<Option<Decision>, EngineError>;
    fn legal_actions(&self, state: &Value) -> Result<Vec<Value>, EngineError>;
    fn acting_seats(&self, state: &Value) -> Result<Vec<Seat>, EngineError>;
    fn view(&self, state: &Value, viewer: Viewer) -> Result<Value, EngineError>;
    fn describe(&self, state: &Value, viewer: Viewer) -> Result<String, EngineError>;
    /// What `viewer` may see of the table as an SVG document ([`Draw::draw`]); `None` when the
    /// game has no drawing.
    fn draw(&self, state: &Value, viewer: Viewer) -> Result<Option<String>, EngineError>;
    /// The same picture in parts ([`Draw::draw_parts`]); empty when the game has no drawing.
    fn draw_parts(&self, state: &Value, viewer: Viewer) -> Result<Vec<crate::draw::Part>, EngineError>;
    /// The printed layers its parts are drawn over ([`Draw::printed_layers`]).
    fn printed_layers(&self) -> Vec<String>;
    /// A short example of the game's order text ([`Game::order_example`]).
    fn order_example(&self) -> &'static str;
    /// The order box's example for the game standing at `state` ([`Game::order_example_at`]).
    fn order_example_at(&self, state: &Value) -> Result<&'static str, EngineError>;
    /// The game's order guide as Markdown ([`Game::order_guide`]).
    fn order_guide(&self) -> Option<&'static str>;
    /// Whether the game rolls dice its turns commit to ([`Game::rolls_dice`]).
    fn rolls_dice(&self) -> bool;
    /// Whether every seat may know the whole state ([`Game::open_information`]).
    fn open_information(&self) -> bool;
    fn standings(&self, state: &Value) -> Result<Option<Vec<Standing>>, EngineError>;
    /// Applies a GM correction (a JSON merge patch) to a state; the result must still be a state
    /// of this engine, else [`EngineError::Decode`] and nothing changes.
    fn correct(&self, state: &Value, patch: &Value) -> Result<Value, EngineError>;
    /// The engine's ledger of a JSONL action log ([`Game::ledger`]); `None` when it keeps none.
    fn ledger(
        &self,
        players: &[String],
        options: &Value,
        seed: u64,
        log: &str,
    ) -> Option<Result<Ledger, LedgerRefused>>;
}

/// A stored state read as the engine's own type.
fn state_of<G: Game>(game: &G, state: &Value) -> Result<G::State, ReplayError> {
    decode(game, "state", state)
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
        game_over: Rules::next_decision(game, &r.state).is_none(),
        standings: Scoring::standings(game, &r.state),
        state: encode(&r.state),
        actions,
        events: r.events,
        notes: r.notes,
        anchors: r.anchors,
        nmr: r.nmr,
        defaulted: r.defaulted,
    }
}

impl<G: Game> DynGame for G
where
    G::State: 'static,
{
    fn slug(&self) -> &'static str {
        Game::slug(self)
    }
    fn title(&self) -> &'static str {
        Game::title(self)
    }
    fn rules_version(&self) -> u32 {
        Game::rules_version(self)
    }
    fn supports_rules_version(&self, v: u32) -> bool {
        Game::supports_rules_version(self, v)
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        Game::seat_counts(self)
    }
    fn blurb(&self) -> &'static str {
        Game::blurb(self)
    }
    fn option_specs(&self) -> &'static [crate::engine::OptionSpec] {
        Game::option_specs(self)
    }

    fn setup(&self, spec: &SetupSpec, seed: u64) -> Result<Value, EngineError> {
        Ok(encode(&log::setup(self, spec, seed)?))
    }

    fn check_orders(&self, state: &Value, seat: Seat, text: &str) -> Result<Echo, EngineError> {
        let s = state_of(self, state)?;
        Ok(parse_sheet(self, text, Some((&s, seat))).1)
    }

    fn prepare(&self, state: &Value) -> Result<Prepared, EngineError> {
        Ok(Prepared { engine: Game::slug(self), state: Arc::new(state_of(self, state)?) })
    }

    fn check_prepared(&self, state: &Prepared, seat: Seat, text: &str) -> Result<Echo, EngineError> {
        let s = state.state.downcast_ref::<G::State>().ok_or_else(|| ReplayError::Decode {
            engine: Game::slug(self),
            what: "prepared state",
            source: serde::de::Error::custom(format!("prepared by the {} engine", state.engine)),
        })?;
        Ok(parse_sheet(self, text, Some((s, seat))).1)
    }

    fn lasting_lines(&self, text: &str) -> Vec<LastingLine> {
        crate::orders::lasting::lasting_lines(self, text)
    }

    fn adjudicate(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
    ) -> Result<TurnOutcome, EngineError> {
        let start = state_of(self, state)?;
        let sheets = orders.iter().map(|(seat, text)| (*seat, parse_sheet(self, text, None).0)).collect();
        Ok(outcome_of(self, first_seq, run_turn(self, &start, seed, first_seq, sheets)?))
    }

    fn adjudicate_asking(
        &self,
        state: &Value,
        seed: u64,
        first_seq: u64,
        orders: &BTreeMap<Seat, String>,
        carried: &BTreeMap<Seat, Vec<String>>,
        gm: GmTurn<'_>,
    ) -> Result<Adjudication, EngineError> {
        let start = state_of(self, state)?;
        let sheets = orders
            .iter()
            .map(|(seat, text)| {
                let carried = carried.get(seat).map_or(&[][..], Vec::as_slice);
                (*seat, played_sheet(self, text, carried))
            })
            .collect();
        let answers = gm
            .answers
            .iter()
            .map(|a| match Checkpoint::from_answer(a) {
                Some(c) => Ok(GmAnswer::Checkpoint(c)),
                None => decode::<G, G::Action>(self, "GM answer", a).map(GmAnswer::Move),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let input =
            GmInput { ask_for: gm.ask_for.clone(), referrals: gm.referrals, checkpoints: true, answers };
        Ok(match run_turn_asking(self, &start, seed, first_seq, sheets, &input)? {
            Adjudicated::Done(r) => Adjudication::Done(outcome_of(self, first_seq, r)),
            Adjudicated::Ask(q) => {
                let candidates = match q.kind {
                    QuestionKind::Checkpoint => Checkpoint::candidates(),
                    QuestionKind::Move | QuestionKind::Referral => q
                        .candidates
                        .iter()
                        .map(|a| Candidate { action: encode(a), label: Apply::describe_action(self, a) })
                        .collect(),
                };
                let (number, seat, prompt, kind) = (q.number, q.seat, q.prompt, q.kind);
                Adjudication::Ask(GmQuestion { number, seat, prompt, kind, candidates })
            }
        })
    }

    fn public_lines(&self, text: &str, notes: &[LineNote]) -> BTreeSet<usize> {
        Orders::public_lines(self, &parse_sheet(self, text, None).0, notes)
    }

    fn choices(&self, state: &Value, seat: Seat) -> Result<Vec<Choices>, EngineError> {
        Ok(Orders::choices(self, &state_of(self, state)?, seat))
    }

    fn played_parts(&self, text: &str, notes: &[LineNote]) -> BTreeMap<usize, String> {
        Orders::played_parts(self, &parse_sheet(self, text, None).0, notes)
    }

    fn replay(&self, spec: &SetupSpec, seed: u64, entries: &[LoggedAction]) -> Result<Value, EngineError> {
        Ok(encode(&log::replay(self, spec, seed, entries)?))
    }

    fn next_decision(&self, state: &Value) -> Result<Option<Decision>, EngineError> {
        Ok(Rules::next_decision(self, &state_of(self, state)?))
    }

    fn legal_actions(&self, state: &Value) -> Result<Vec<Value>, EngineError> {
        let s = state_of(self, state)?;
        Ok(match Rules::next_decision(self, &s) {
            Some(_) => Rules::legal_actions(self, &s).iter().map(encode).collect(),
            None => Vec::new(),
        })
    }

    fn acting_seats(&self, state: &Value) -> Result<Vec<Seat>, EngineError> {
        Ok(Game::acting_seats(self, &state_of(self, state)?))
    }

    fn view(&self, state: &Value, viewer: Viewer) -> Result<Value, EngineError> {
        Ok(View::view(self, &state_of(self, state)?, viewer))
    }

    fn describe(&self, state: &Value, viewer: Viewer) -> Result<String, EngineError> {
        Ok(View::describe(self, &state_of(self, state)?, viewer))
    }

    fn draw(&self, state: &Value, viewer: Viewer) -> Result<Option<String>, EngineError> {
        Ok(Draw::draw(self, &state_of(self, state)?, viewer))
    }

    fn draw_parts(&self, state: &Value, viewer: Viewer) -> Result<Vec<crate::draw::Part>, EngineError> {
        Ok(Draw::draw_parts(self, &state_of(self, state)?, viewer))
    }

    fn printed_layers(&self) -> Vec<String> {
        Draw::printed_layers(self)
    }

    fn order_example(&self) -> &'static str {
        Game::order_example(self)
    }

    fn order_example_at(&self, state: &Value) -> Result<&'static str, EngineError> {
        Ok(Game::order_example_at(self, &state_of(self, state)?))
    }

    fn order_guide(&self) -> Option<&'static str> {
        Game::order_guide(self)
    }

    fn open_information(&self) -> bool {
        Game::open_information(self)
    }

    fn rolls_dice(&self) -> bool {
        Game::rolls_dice(self)
    }

    fn standings(&self, state: &Value) -> Result<Option<Vec<Standing>>, EngineError> {
        Ok(Scoring::standings(self, &state_of(self, state)?))
    }

    fn correct(&self, state: &Value, patch: &Value) -> Result<Value, EngineError> {
        Ok(encode(&log::correct(self, state, patch)?))
    }

    fn ledger(
        &self,
        players: &[String],
        options: &Value,
        seed: u64,
        entries: &str,
    ) -> Option<Result<Ledger, LedgerRefused>> {
        Game::ledger(self, players, options, seed, entries)
            .map(|r| r.map(|(csv, state)| Ledger { csv, state: encode(&state) }))
    }
}

#[cfg(test)]
mod tests {
    //! The JSON face of the GM's questions (RULINGS S20), on the turn loop's test game.
    use super::*;
    use crate::adjudication::tests::{RoundsGame, start};

    fn ask(answers: &[Value]) -> Adjudication {
        let orders: BTreeMap<Seat, String> =
            [(Seat(1), "PLAY 1\nPLAY 1".to_string()), (Seat(2), "PLAY 1\nMISFIT\nPLAY 3".to_string())].into();
        let gm = GmTurn { ask_for: &BTreeSet::new(), referrals: true, answers };
        DynGame::adjudicate_asking(&RoundsGame, &encode(&start()), 9, 1, &orders, &BTreeMap::new(), gm)
            .expect("adjudicates")
    }

    #[test]
    fn a_checkpoint_question_offers_continue_and_stop_as_numbered_choices() {
        let Adjudication::Ask(q) = ask(&[]) else { panic!("a checkpoint is asked") };
        assert_eq!(q.kind, QuestionKind::Checkpoint);
        assert_eq!(q.candidates, Checkpoint::candidates());
        assert_eq!(q.candidates[1].action, serde_json::json!({"gm_checkpoint": "stop"}));
    }

    #[test]
    fn a_stored_checkpoint_answer_is_replayed_as_the_gms_word() {
        let Adjudication::Done(stopped) = ask(&[Checkpoint::Stop.to_answer()]) else { panic!("answered") };
        let Adjudication::Done(went_on) = ask(&[Checkpoint::Continue.to_answer()]) else {
            panic!("answered")
        };
        assert_eq!((stopped.actions.len(), went_on.actions.len()), (2, 4));
    }

    #[test]
    fn a_stored_answer_that_is_neither_a_move_nor_a_checkpoint_word_is_a_decode_error() {
        let bad = ask_err(&[serde_json::json!({"gm_checkpoint": "later"})]);
        assert!(bad.contains("GM answer"), "{bad}");
    }

    fn ask_err(answers: &[Value]) -> String {
        let orders: BTreeMap<Seat, String> = BTreeMap::new();
        let gm = GmTurn { ask_for: &BTreeSet::new(), referrals: true, answers };
        match DynGame::adjudicate_asking(&RoundsGame, &encode(&start()), 9, 1, &orders, &BTreeMap::new(), gm)
        {
            Err(e) => e.to_string(),
            Ok(a) => panic!("accepted: {a:?}"),
        }
    }
}
