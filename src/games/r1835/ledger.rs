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
use crate::engine::{Apply, GameRng, Rules, Scoring, Seat, Setup, SetupSpec, Standing};
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
        let mut out = rows_csv(&self.rows);
        for (name, _, score) in self.finals.iter().flatten() {
            out.push_str(&format!("final,{name},{}\n", score.trim_end_matches(" M")));
        }
        out
    }
}

/// A replay stopped at a log line: why (naming the line), and the ledger of the rounds
/// completed before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub error: String,
    pub rows: Vec<LedgerRow>,
}

impl Refused {
    fn at_setup(error: impl Into<String>) -> Refused {
        Refused { error: error.into(), rows: Vec::new() }
    }

    /// The ledger of the completed rounds as CSV (header included).
    pub fn csv(&self) -> String {
        rows_csv(&self.rows)
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error)
    }
}

/// Re-applies `log` to a new game of `players` (seating order) with `options` and `seed`.
/// A refusal names the log line and why, and keeps the rounds completed before it (issue 14:
/// `replay --ledger` prints them, then the error).
pub fn replay(
    engine: &R1835,
    players: &[String],
    options: &Value,
    seed: u64,
    log: &str,
) -> Result<Replay, Refused> {
    let seats = u8::try_from(players.len()).map_err(|_| Refused::at_setup("too many players"))?;
    let spec = SetupSpec { seats, options: options.clone() };
    let mut state = engine.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| Refused::at_setup(e.0))?;
    let mut rows = Vec::new();
    let mut seq = 0u64;
    let name = |i: usize| players.get(i).cloned().unwrap_or_else(|| format!("seat {}", i + 1));
    for (i, raw) in log.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Err(error) = replay_line(engine, &mut state, seed, seq, i + 1, line, &name) {
            return Err(Refused { error, rows });
        }
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

/// Applies one log line (number `no`, the `seq`-th action) or says why it does not fit.
fn replay_line(
    engine: &R1835,
    state: &mut State,
    seed: u64,
    seq: u64,
    no: usize,
    line: &str,
    name: &dyn Fn(usize) -> String,
) -> Result<(), String> {
    let entry: LogLine =
        serde_json::from_str(line).map_err(|e| format!("line {no}: not an 1835 log entry: {e}"))?;
    let Some(decision) = engine.next_decision(state) else {
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
        .apply(state, &entry.action, &mut GameRng::for_action(seed, seq))
        .map(|_| ())
        .map_err(|e| format!("line {no}: refused: {e}"))
}

/// The CSV header and one line per row.
fn rows_csv(rows: &[LedgerRow]) -> String {
    let mut out = String::from("round,entity,cash\n");
    for r in rows {
        out.push_str(&format!("{},{},{}\n", r.round, r.entity, r.cash));
    }
    out
}
