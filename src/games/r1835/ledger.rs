//! Replaying a JSONL action log of an 1835 game into a cash ledger: one line per player and
//! company after every stock round and operating round (`round,entity,cash`, rounds named
//! `SR3`, `OR4.1`), then the final scores if the game ended. Used by `stationmaster replay
//! --engine 1835 --players "A,B,C" --log actions.jsonl --ledger`.
//!
//! Log format (one action per line; blank lines and lines starting with `#` are skipped):
//! `{"seat": 2, "action": {"type": "buy_item", "item": "M2"}}` — see `docs/1835-actions.md`.

use super::R1835;
use super::actions::Action;
use super::state::State;
use crate::engine::{Game, GameRng, Seat, SetupSpec, Standing};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogLine {
    seat: u8,
    action: Action,
}

/// One ledger line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerRow {
    pub round: String,
    pub entity: String,
    pub cash: i64,
}

/// The result of a replay.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    pub rows: Vec<LedgerRow>,
    /// Final standings (player name, place, worth) once the game is over.
    pub finals: Option<Vec<(String, u8, String)>>,
    pub state: State,
    pub actions: usize,
}

impl Replay {
    /// The ledger as CSV: a header, the round lines, then `final,<player>,<worth>` lines.
    pub fn csv(&self) -> String {
        let mut out = String::from("round,entity,cash\n");
        for r in &self.rows {
            out.push_str(&format!("{},{},{}\n", r.round, r.entity, r.cash));
        }
        for (name, _, score) in self.finals.iter().flatten() {
            out.push_str(&format!("final,{name},{}\n", score.trim_end_matches(" M")));
        }
        out
    }
}

/// Re-applies `log` to a new game of `players` (seating order) with `options` and `seed`.
/// Errors name the log line and why it was refused.
pub fn replay(
    engine: &R1835,
    players: &[String],
    options: &Value,
    seed: u64,
    log: &str,
) -> Result<Replay, String> {
    let seats = u8::try_from(players.len()).map_err(|_| "too many players".to_string())?;
    let spec = SetupSpec { seats, options: options.clone() };
    let mut state = engine.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.0)?;
    let mut rows = Vec::new();
    let mut seq = 0u64;
    let name = |i: usize| players.get(i).cloned().unwrap_or_else(|| format!("seat {}", i + 1));
    for (i, raw) in log.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let no = i + 1;
        let entry: LogLine =
            serde_json::from_str(line).map_err(|e| format!("line {no}: not an 1835 log entry: {e}"))?;
        let Some(decision) = engine.next_decision(&state) else {
            return Err(format!("line {no}: the game is already over"));
        };
        if decision.seat != Seat(entry.seat) {
            return Err(format!(
                "line {no}: seat {} acted, but the game awaited {} ({}): {}",
                entry.seat,
                decision.seat,
                name(decision.seat.index()),
                decision.prompt
            ));
        }
        engine
            .apply(&mut state, &entry.action, &mut GameRng::for_action(seed, seq))
            .map_err(|e| format!("line {no}: refused: {e}"))?;
        seq += 1;
        for close in &state.closed {
            for (p, cash) in close.players.iter().enumerate() {
                rows.push(LedgerRow { round: close.round.clone(), entity: name(p), cash: *cash });
            }
            for (id, cash) in &close.companies {
                rows.push(LedgerRow { round: close.round.clone(), entity: id.clone(), cash: *cash });
            }
        }
    }
    let finals = engine
        .standings(&state)
        .map(|st: Vec<Standing>| st.into_iter().map(|x| (name(x.seat.index()), x.place, x.score)).collect());
    Ok(Replay { rows, finals, state, actions: usize::try_from(seq).unwrap_or(usize::MAX) })
}
