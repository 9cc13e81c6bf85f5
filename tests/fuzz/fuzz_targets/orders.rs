//! Fuzzes every engine's order language, as a player reaches it (web form, API body, mail): the
//! first byte picks the engine, the second the seat and whether the game is at its start or two
//! turns in; the rest is the order text, through the edge checks (`OrderText`) into the
//! engine's parser and answer loop (`check_orders`). Nothing may panic, whatever the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use stationmaster::engine::{Seat, SetupSpec};
use stationmaster::orders::OrderText;
use stationmaster::registry::{self, DynGame};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Each engine with a four-seat game at its start and after two turns played on defaults.
fn games() -> &'static [(&'static dyn DynGame, [Value; 2])] {
    static GAMES: OnceLock<Vec<(&'static dyn DynGame, [Value; 2])>> = OnceLock::new();
    GAMES.get_or_init(|| {
        registry::engines()
            .iter()
            .map(|engine| {
                let spec = SetupSpec { seats: 4, options: json!({}) };
                let start = engine.setup(&spec, 7).expect("every engine sets up four seats");
                let mut later = start.clone();
                let mut seq = 0;
                for _ in 0..2 {
                    let turn = engine.adjudicate(&later, 7, seq, &BTreeMap::new()).expect("a turn on defaults");
                    seq += turn.actions.len() as u64;
                    later = turn.state;
                }
                (*engine, [start, later])
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, how, text @ ..] = data else { return };
    let games = games();
    let (engine, states) = &games[usize::from(*pick) % games.len()];
    let seat = Seat(how % 4 + 1);
    if let Ok(text) = OrderText::from_bytes(text) {
        let _ = engine.check_orders(&states[usize::from(how / 4 % 2)], seat, text.as_str());
    }
});
