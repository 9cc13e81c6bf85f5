//! `stationmaster replay`: re-applies a game's action log with its engine.
//!
//! Two inputs: an exported game (setup + log, from `game export`), printed as the final state —
//! the check that a published game is reproducible anywhere; or, with `--players`, a JSONL
//! action log replayed from a new game (`--seed`, `--options`), printed as the final state
//! (`--state`, JSON) and/or, for engines that keep one (`Game::ledger`: 1835), a cash ledger
//! after every round (`--ledger`, CSV). No game is named here: the ledger is a capability of
//! the engine contract.

use super::ReplayArgs;
use super::output::{InputError, print};
use crate::engine::{LoggedAction, Seat, SetupSpec, Viewer};
use crate::registry;
use crate::service::GameExport;
use anyhow::Context;
use serde::Deserialize;
use serde_json::Value;

pub fn replay(args: &ReplayArgs, json: bool) -> anyhow::Result<()> {
    let engine = registry::find(&args.engine).map_err(|e| InputError(e.to_string()))?;
    let text = std::fs::read_to_string(&args.log).with_context(|| format!("cannot read {}", args.log))?;
    if args.players.is_some() || args.ledger || args.state {
        // What replayed is printed even when a later line is refused (issue 14), then the error.
        let mut out = String::new();
        let result = replay_jsonl(args, &text, &mut out);
        print!("{out}");
        return Ok(result?);
    }
    let export: GameExport = serde_json::from_str(&text)
        .map_err(|e| InputError(format!("{} is not an exported game log: {e}", args.log)))?;
    if !export.engine.eq_ignore_ascii_case(engine.slug()) {
        return Err(InputError(format!("the log is a {} game, not {}", export.engine, engine.slug())).into());
    }
    // RULINGS S15: a log stored under a rules version the engine cannot play is not replayed.
    let engine =
        registry::for_stored(engine.slug(), export.rules_version).map_err(|e| InputError(e.to_string()))?;
    let state = engine
        .replay(&export.setup, export.seed, &export.actions)
        .map_err(|e| InputError(format!("the log does not replay: {e}")))?;
    let text = engine.describe(&state, Viewer::Gm)?;
    print(&state, json, |_| format!("Replayed {} actions.\n\n{text}", export.actions.len()));
    Ok(())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    seat: u8,
    action: Value,
}

/// Writes the output of a JSONL replay to `out`: the ledger (CSV) and/or the final state
/// (JSON), or, with neither flag, the final description. When a line is refused, `out` holds the
/// ledger of the rounds completed before it (with `--ledger`) and the error names the line.
pub fn replay_jsonl(args: &ReplayArgs, log: &str, out: &mut String) -> Result<(), InputError> {
    let engine = registry::find(&args.engine).map_err(|e| InputError(e.to_string()))?;
    let players: Vec<String> = match &args.players {
        Some(p) => p.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect(),
        None => {
            return Err(InputError("a JSONL action log needs --players \"A,B,C\" in seating order".into()));
        }
    };
    let options: Value = serde_json::from_str(&args.options)
        .map_err(|e| InputError(format!("--options is not a JSON object: {e}")))?;
    if let Some(ledger) = engine.ledger(&players, &options, args.seed, log) {
        let ledger = match ledger {
            Ok(ledger) => ledger,
            Err(refused) => {
                if args.ledger {
                    out.push_str(&refused.csv);
                }
                return Err(InputError(refused.error));
            }
        };
        if args.ledger {
            out.push_str(&ledger.csv);
        }
        if args.state {
            let state = serde_json::to_string_pretty(&ledger.state).map_err(|e| InputError(e.to_string()))?;
            out.push_str(&state);
            out.push('\n');
        }
        if !args.ledger && !args.state {
            out.push_str(&engine.describe(&ledger.state, Viewer::Gm).map_err(|e| InputError(e.to_string()))?);
            out.push('\n');
        }
        return Ok(());
    }
    if args.ledger {
        return Err(InputError(format!("--ledger is not available for {} logs", engine.slug())));
    }
    let mut actions = Vec::new();
    for (i, raw) in
        log.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    {
        let line: Line = serde_json::from_str(raw).map_err(|e| InputError(format!("line {}: {e}", i + 1)))?;
        actions.push(LoggedAction {
            seq: actions.len() as u64,
            seat: Seat(line.seat),
            action: line.action,
            by_default: false,
        });
    }
    let seats = u8::try_from(players.len()).map_err(|_| InputError("too many players".into()))?;
    let state = engine
        .replay(&SetupSpec { seats, options }, args.seed, &actions)
        .map_err(|e| InputError(format!("the log does not replay: {e}")))?;
    if args.state {
        out.push_str(&serde_json::to_string_pretty(&state).map_err(|e| InputError(e.to_string()))?);
    } else {
        out.push_str(&engine.describe(&state, Viewer::Gm).map_err(|e| InputError(e.to_string()))?);
    }
    out.push('\n');
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(ledger: bool, state: bool) -> ReplayArgs {
        ReplayArgs {
            engine: "1835".into(),
            log: String::new(),
            players: Some("A, B, C, D".into()),
            seed: 0,
            options: r#"{"variant": "standard", "empty_operating_rounds": true}"#.into(),
            ledger,
            state,
        }
    }

    const LOG: &str = r#"{"seat":1,"action":{"type":"buy_item","item":"NF"}}
{"seat":2,"action":{"type":"buy_item","item":"M1"}}
{"seat":3,"action":{"type":"pass"}}
{"seat":4,"action":{"type":"pass"}}
{"seat":1,"action":{"type":"pass"}}
{"seat":2,"action":{"type":"pass"}}
"#;

    fn run(args: &ReplayArgs, log: &str) -> Result<String, InputError> {
        let mut out = String::new();
        replay_jsonl(args, log, &mut out).map(|()| out)
    }

    #[test]
    fn a_jsonl_log_replays_to_a_ledger_after_every_round() {
        let out = run(&args(true, false), LOG).expect("replays");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "round,entity,cash");
        assert_eq!(lines[1], "SR1,A,375");
        assert!(lines.contains(&"SR1,M1,80"));
        assert!(lines.contains(&"OR1.1,A,380"), "NF paid 5 M: {out}");
        assert_eq!(lines.len(), 1 + 2 * 18);
    }

    #[test]
    fn state_prints_the_final_state_as_json() {
        let out = run(&args(false, true), LOG).expect("replays");
        let v: Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(v["round"]["stock"]["n"], 2);
    }

    #[test]
    fn a_refused_line_is_an_input_error_naming_the_line() {
        let bad = "{\"seat\":1,\"action\":{\"type\":\"buy_item\",\"item\":\"M3\"}}";
        let err = run(&args(true, false), bad).unwrap_err().to_string();
        assert!(err.contains("line 1: refused: M3 is not on sale yet"), "{err}");
    }

    #[test]
    fn a_refused_line_keeps_the_ledger_of_the_rounds_before_it() {
        let bad = format!("{LOG}{{\"seat\":3,\"action\":{{\"type\":\"buy_item\",\"item\":\"M6\"}}}}\n");
        let mut out = String::new();
        let err = replay_jsonl(&args(true, false), &bad, &mut out).unwrap_err().to_string();
        assert!(err.starts_with("line 7: "), "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "round,entity,cash");
        assert!(lines.contains(&"SR1,A,375"), "{out}");
        assert!(lines.contains(&"OR1.1,A,380"), "{out}");
        assert_eq!(lines.len(), 1 + 2 * 18, "the two completed rounds, nothing of the refused one: {out}");
    }
}
