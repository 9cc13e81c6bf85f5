//! `stationmaster replay`: re-applies an exported game (setup + action log) with its engine and
//! prints the final state — the check that a published game is reproducible anywhere.

use super::ReplayArgs;
use super::output::{InputError, print};
use crate::engine::{Viewer, registry};
use crate::service::GameExport;
use anyhow::Context;

pub fn replay(args: &ReplayArgs, json: bool) -> anyhow::Result<()> {
    let engine = registry::find(&args.engine).map_err(|e| InputError(e.to_string()))?;
    let text = std::fs::read_to_string(&args.log).with_context(|| format!("cannot read {}", args.log))?;
    let export: GameExport = serde_json::from_str(&text)
        .map_err(|e| InputError(format!("{} is not an exported game log: {e}", args.log)))?;
    if !export.engine.eq_ignore_ascii_case(engine.slug()) {
        return Err(InputError(format!("the log is a {} game, not {}", export.engine, engine.slug())).into());
    }
    let state = engine
        .replay(&export.setup, export.seed, &export.actions)
        .map_err(|e| InputError(format!("the log does not replay: {e}")))?;
    let text = engine.describe(&state, Viewer::Gm)?;
    print(&state, json, |_| format!("Replayed {} actions.\n\n{text}", export.actions.len()));
    Ok(())
}
