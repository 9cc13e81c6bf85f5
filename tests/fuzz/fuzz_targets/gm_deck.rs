//! Fuzzes the data file a GM may give the server: an 1833 deck of their own (`deck_file`, read
//! by the console and passed inline as the `deck` option, RULING C12). The deck loader must
//! refuse bad files with an error, and a deck it accepts must set up a game and take orders.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::json;
use stationmaster::engine::{Seat, SetupSpec};
use stationmaster::games::r1833::Deck;
use stationmaster::registry;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if Deck::parse(&text, "deck.toml").is_err() {
        return;
    }
    let Ok(engine) = registry::find("1833") else { return };
    for seats in [2, 6] {
        if let Ok(state) = engine.setup(&SetupSpec { seats, options: json!({ "deck": text }) }, 3) {
            let _ = engine.describe(&state, stationmaster::engine::Viewer::Public);
            let _ = engine.check_orders(&state, Seat(1), "PASS");
        }
    }
});
