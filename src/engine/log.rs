//! A game's action log and how it is replayed: a game is its setup + seed + log, and
//! [`replay`] re-applies the log (each action with the RNG stream of its sequence number, GM
//! corrections as merge patches) to reproduce the state exactly. The registry's `DynGame` and
//! the conformance harness both replay through here, so tests check the production path.

use super::{Game, GameRng, Seat, SetupError, SetupSpec};
use serde::{Deserialize, Serialize};
use serde_json::Value;
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

/// The seat number a GM correction is logged under: no player sits there.
pub const GM_SEAT: Seat = Seat(0);

/// The log entry of a GM correction: `{"gm_correction": <merge patch>, "note": "..."}`.
pub fn correction_patch(entry: &LoggedAction) -> Option<&Value> {
    (entry.seat == GM_SEAT).then(|| entry.action.get("gm_correction")).flatten()
}

/// Why a log does not replay (or a stored value does not fit the engine).
#[derive(Debug, Error)]
pub enum ReplayError {
    #[error("stored {what} does not fit the {engine} engine: {source}")]
    Decode { engine: &'static str, what: &'static str, source: serde_json::Error },
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("action {seq} of the log was refused: {reason}")]
    Refused { seq: u64, reason: String },
    #[error("action {seq} of the log is by {actual}, but the game awaited {expected}")]
    WrongSeat { seq: u64, expected: String, actual: Seat },
    #[error("action {seq} of the log comes after the end of the game")]
    AfterEnd { seq: u64 },
}

/// Reads a stored JSON value as one of the engine's own types.
pub fn decode<G: Game, T: serde::de::DeserializeOwned>(
    game: &G,
    what: &'static str,
    value: &Value,
) -> Result<T, ReplayError> {
    T::deserialize(value).map_err(|source| ReplayError::Decode { engine: game.slug(), what, source })
}

/// A new game, after checking the seat count against [`Game::seat_counts`].
pub fn setup<G: Game>(game: &G, spec: &SetupSpec, seed: u64) -> Result<G::State, SetupError> {
    let counts = game.seat_counts();
    if !counts.contains(&spec.seats) {
        // Issue 36: "by 4 players", not "by 4 to 4 players".
        let by = if counts.start() == counts.end() {
            counts.start().to_string()
        } else {
            format!("{} to {}", counts.start(), counts.end())
        };
        return Err(SetupError(format!("{} is played by {by} players, not {}", game.title(), spec.seats)));
    }
    game.setup(spec, &mut GameRng::for_setup(seed))
}

/// Applies a GM correction (a JSON merge patch) to a state; the result must still be a state of
/// this engine.
pub fn correct<G: Game>(game: &G, state: &Value, patch: &Value) -> Result<G::State, ReplayError> {
    let mut patched = state.clone();
    super::patch::merge_patch(&mut patched, patch);
    // Round-trip through the engine's own type: a patch that breaks the state's shape fails.
    decode(game, "state", &patched)
}

/// Re-applies `log` from a new game of `spec` and `seed`; `each` sees the state after every
/// entry (the conformance harness compares it with the live game).
pub fn replay_each<G: Game>(
    game: &G,
    spec: &SetupSpec,
    seed: u64,
    log: &[LoggedAction],
    mut each: impl FnMut(&LoggedAction, &G::State),
) -> Result<G::State, ReplayError> {
    let mut state = setup(game, spec, seed)?;
    for entry in log {
        if let Some(patch) = correction_patch(entry) {
            state = correct(game, &encode(&state), patch)?;
            each(entry, &state);
            continue;
        }
        let Some(decision) = game.next_decision(&state) else {
            return Err(ReplayError::AfterEnd { seq: entry.seq });
        };
        if decision.seat != entry.seat {
            return Err(ReplayError::WrongSeat {
                seq: entry.seq,
                expected: decision.seat.to_string(),
                actual: entry.seat,
            });
        }
        let action: G::Action = decode(game, "action", &entry.action)?;
        game.apply(&mut state, &action, &mut GameRng::for_action(seed, entry.seq))
            .map_err(|e| ReplayError::Refused { seq: entry.seq, reason: e.0 })?;
        each(entry, &state);
    }
    Ok(state)
}

/// Re-applies `log` from a new game of `spec` and `seed` and returns the final state.
pub fn replay<G: Game>(
    game: &G,
    spec: &SetupSpec,
    seed: u64,
    log: &[LoggedAction],
) -> Result<G::State, ReplayError> {
    replay_each(game, spec, seed, log, |_, _| {})
}

/// An engine value as JSON. Engine types are plain data (derive(Serialize), string map keys):
/// this cannot fail.
pub fn encode<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
