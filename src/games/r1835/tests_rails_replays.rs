//! Replays of games as Rails records them (issue 33): each fixture under
//! `tests/data/1835/rails/` is a game file (`<name>.json`: players, options, seed, the options
//! `without` which the replay must stop, and the refusal it must stop with) beside its JSONL
//! action log (`<name>.jsonl`, the format `ledger.rs` reads). Each replays whole with its options
//! and stops at the named line without the option the `rails` preset gives it.

use super::ledger;
use super::tests::engine;
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    /// What happens in the game.
    #[allow(dead_code)]
    title: String,
    /// The rules and rulings it is about.
    #[allow(dead_code)]
    rules: String,
    players: Vec<String>,
    options: Value,
    seed: u64,
    /// Option keys that, merged into `options`, make the replay stop.
    without: Value,
    /// The refusal it then stops with (a substring).
    refused: String,
}

fn path(name: &str, ext: &str) -> String {
    format!("{}/tests/data/1835/rails/{name}.{ext}", env!("CARGO_MANIFEST_DIR"))
}

/// Replays fixture `name` with its options, then without the option it needs; returns the
/// final state of the replay with the option.
fn replays_only_with_its_option(name: &str) -> super::State {
    let text = std::fs::read_to_string(path(name, "json")).expect("the game file");
    let game: GameFile = serde_json::from_str(&text).expect("a game file");
    let log = std::fs::read_to_string(path(name, "jsonl")).expect("the log");
    let g = engine();
    let with = ledger::replay(&g, &game.players, &game.options, game.seed, &log)
        .unwrap_or_else(|e| panic!("{name} replays with its options: {e}"));
    assert_eq!(with.state.money(), 12000, "{name}: money is conserved");
    let mut options = game.options.clone();
    if let (Some(o), Some(w)) = (options.as_object_mut(), game.without.as_object()) {
        o.extend(w.clone());
    }
    let err = ledger::replay(&g, &game.players, &options, game.seed, &log)
        .map(|_| ())
        .expect_err("the replay stops without the option");
    assert!(err.error.contains(&game.refused), "{name}: {}", err.error);
    with.state
}

#[test]
fn a_rails_game_with_an_unconnected_lay_replays_only_with_unconnected_lays() {
    let s = replays_only_with_its_option("unconnected_lay");
    assert!(s.board.tiles.contains_key("D14"));
    assert_eq!(s.minors[0].cash, 30, "M1 paid the river's 50 M");
}
