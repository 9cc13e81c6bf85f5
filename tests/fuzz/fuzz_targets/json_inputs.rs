//! Fuzzes the JSON a GM or the API hands the server, the first byte picking which: a game's
//! engine options (`game create --options`, read by each engine's setup), a GM correction's
//! merge patch (HR 15), a deadline rhythm as stored and read back, and an exported game for
//! `game import` (parsed, then checked by replaying its log). Nothing may panic.
#![no_main]

use chrono::{TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use stationmaster::engine::SetupSpec;
use stationmaster::registry;
use stationmaster::schedule::Rhythm;
use stationmaster::service::export::{parse_document, verify};
use std::sync::OnceLock;

/// Each engine's four-seat game at its start, set up once (not per execution).
fn starts() -> &'static [Option<Value>] {
    static STARTS: OnceLock<Vec<Option<Value>>> = OnceLock::new();
    STARTS.get_or_init(|| {
        registry::engines()
            .iter()
            .map(|e| e.setup(&SetupSpec { seats: 4, options: json!({}) }, 1).ok())
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else { return };
    let engines = registry::engines();
    let which = usize::from(pick / 4) % engines.len();
    let engine = engines[which];
    match pick % 4 {
        0 => {
            if let Ok(options) = serde_json::from_slice::<Value>(rest) {
                let _ = engine.setup(&SetupSpec { seats: 4, options }, 1);
            }
        }
        1 => {
            if let (Ok(patch), Some(Some(state))) = (serde_json::from_slice::<Value>(rest), starts().get(which)) {
                let _ = engine.correct(state, &patch);
            }
        }
        2 => {
            if let Ok(rhythm) = serde_json::from_slice::<Rhythm>(rest) {
                let _ = rhythm.describe();
                let _ = rhythm.deadline_after(Utc.with_ymd_and_hms(2026, 3, 29, 0, 30, 0).unwrap());
            }
        }
        _ => {
            if let Ok(doc) = parse_document(&String::from_utf8_lossy(rest))
                && let Ok(engine) = registry::for_stored(&doc.game.engine, doc.game.rules_version)
            {
                let _ = verify(engine, &doc);
            }
        }
    }
});
