//! Fuzzes every engine's order language, as a player reaches it (web form, API body, mail): the
//! first byte picks the engine, the second the seat and whether the game is at its start or two
//! turns in; the rest is the order text, through the edge checks (`OrderText`) into the
//! engine's parser and answer loop (`orders::parse_sheet`, what `DynGame::check_orders` runs).
//! Nothing may panic, whatever the text.
//!
//! The positions are decoded into each engine's own state type once, not per execution: the
//! JSON decoding of a stored state is fuzzed by `json_inputs`, and decoding a whole 1835 or
//! 1800 position per run cost most of this target's time.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use stationmaster::engine::prelude::*;
use stationmaster::engine::{Seat, SetupSpec};
use stationmaster::games::{confed, r1800, r1833, r1835, railroaded::Railroaded};
use stationmaster::orders::{OrderText, parse_sheet};
use stationmaster::registry::{self, DynGame};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// One engine with its two positions, behind a face that erases the engine's types.
trait Positions: Send + Sync {
    fn check(&self, later: bool, seat: Seat, text: &str);
}

struct Typed<G: Game> {
    game: &'static G,
    states: [G::State; 2],
}

impl<G: Game> Positions for Typed<G> {
    fn check(&self, later: bool, seat: Seat, text: &str) {
        let _ = parse_sheet(self.game, text, Some((&self.states[usize::from(later)], seat)));
    }
}

/// A four-seat game of `slug` at its start and after two turns played on defaults.
fn positions(slug: &str) -> [Value; 2] {
    let engine: &dyn DynGame = registry::find(slug).expect("every engine loads");
    let spec = SetupSpec { seats: 4, options: json!({}) };
    let start = engine.setup(&spec, 7).expect("every engine sets up four seats");
    let mut later = start.clone();
    let mut seq = 0;
    for _ in 0..2 {
        let turn = engine.adjudicate(&later, 7, seq, &BTreeMap::new()).expect("a turn on defaults");
        seq += turn.actions.len() as u64;
        later = turn.state;
    }
    [start, later]
}

fn typed<G: Game>(game: &'static G) -> Box<dyn Positions> {
    let states = positions(game.slug()).map(|v| serde_json::from_value(v).expect("a state decodes"));
    Box::new(Typed { game, states })
}

fn games() -> &'static [Box<dyn Positions>] {
    static RAILROADED: OnceLock<Railroaded> = OnceLock::new();
    static GAMES: OnceLock<Vec<Box<dyn Positions>>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let railroaded = RAILROADED.get_or_init(|| Railroaded::standard().expect("Railroaded data"));
        vec![
            typed(railroaded),
            typed(r1835::shared().expect("1835 data")),
            typed(r1833::shared().expect("1833 data")),
            typed(confed::shared().expect("Confederate Rails data")),
            typed(r1800::shared().expect("1800 data")),
        ]
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, how, text @ ..] = data else { return };
    let games = games();
    let game = &games[usize::from(*pick) % games.len()];
    if let Ok(text) = OrderText::from_bytes(text) {
        game.check(how / 4 % 2 == 1, Seat(how % 4 + 1), text.as_str());
    }
});
