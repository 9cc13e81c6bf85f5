//! Replays of games as Rails records them (issue 33): each fixture under
//! `tests/data/1835/rails/` is a game file (`<name>.json`: players, options, seed, the options
//! `without` which the replay must stop, and the refusal it must stop with) beside its JSONL
//! action log (`<name>.jsonl`, the format `ledger.rs` reads). Each replays whole with its options
//! and stops at the named line with the option its preset gives it changed (for a `rails`
//! fixture, without Rails' behaviour; for a `pbem` one, with it). The logs of the Badische story
//! are made by `tests_rails_story.rs` and checked here to be what it makes.

use super::ledger;
use super::state::Loc;
use super::tests::{co, engine};
use super::tests_rails_story::{self as story, Story};
use serde::Deserialize;
use serde_json::{Value, json};

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
    replay_both_ways(name).0.state
}

/// Replays fixture `name` with its options and without the option it needs: the replay, and
/// the ledger rows of the rounds completed before the refusal.
fn replay_both_ways(name: &str) -> (ledger::Replay, Vec<ledger::LedgerRow>) {
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
    (with, err.rows)
}

#[test]
fn a_rails_game_with_an_unconnected_lay_replays_only_with_unconnected_lays() {
    let s = replays_only_with_its_option("unconnected_lay");
    assert!(s.board.tiles.contains_key("D14"));
    assert_eq!(s.minors[0].cash, 30, "M1 paid the river's 50 M");
}

/// The story of fixture `name`, as committed.
fn story_of(name: &str) -> Story {
    let head = |lines: &[&str]| lines.iter().map(|l| l.to_string()).collect();
    match name {
        "baden_home_on_float" => Story {
            options: json!({"preset": "rails"}),
            pfb_station: true,
            sale: None,
            header: head(&[
                "4 players (A, B, C, D), the rails preset, seed 0. BY and SX are bought out of their IPOs, then BA floats.",
                "In the next operating round BY (A's, who owns the PfB) operates before BA and places the PfB's free station",
                "in the Mannheim city of L6 that BA's home does not take: Rails placed BA's home when it floated (RULING K91).",
            ]),
        },
        "presidency_swap_single_shares_first" => Story {
            options: json!({"preset": "rails"}),
            pfb_station: false,
            sale: Some((3, 10)),
            header: head(&[
                "4 players (A, B, C, D), the rails preset, seed 0. A buys BA's director's certificate and one 10 %, B two 10 %",
                "and then the ordinary 20 %: B (40 %) takes the presidency from A (30 %) and, as Rails does, hands A two 10 %",
                "certificates (RULING K10, option presidency_swap). Once BA has operated, A sells its three 10 % certificates.",
            ]),
        },
        _ => Story {
            options: json!({"preset": "pbem"}),
            pfb_station: false,
            sale: Some((1, 20)),
            header: head(&[
                "4 players (A, B, C, D), the pbem preset, seed 0. A buys BA's director's certificate and one 10 %, B two 10 %",
                "and then the ordinary 20 %: B (40 %) takes the presidency from A (30 %) and hands A the fewest certificates,",
                "the 20 % (RULING K10, option presidency_swap). Once BA has operated, A sells that 20 % certificate.",
            ]),
        },
    }
}

/// Fixture `name`'s log is what its story makes (`REGENERATE=1` writes it).
fn is_what_its_story_makes(name: &str) {
    let made = story::tell(&engine(), &story_of(name));
    if std::env::var("REGENERATE").is_ok() {
        std::fs::write(path(name, "jsonl"), &made).expect("the fixture is written");
    }
    let text = std::fs::read_to_string(path(name, "jsonl")).expect("the log");
    assert!(text == made, "{name}.jsonl is not what tests_rails_story.rs makes; regenerate it");
    let game: GameFile =
        serde_json::from_str(&std::fs::read_to_string(path(name, "json")).expect("the game file"))
            .expect("a game file");
    assert_eq!(game.options, story_of(name).options, "{name}: the game file's options are the story's");
    assert_eq!((game.players.len(), game.seed), (story::PLAYERS.len(), story::SEED));
}

#[test]
fn the_badische_story_fixtures_are_what_their_script_makes() {
    for name in ["baden_home_on_float", "presidency_swap_single_shares_first", "presidency_swap_fewest"] {
        is_what_its_story_makes(name);
    }
}

#[test]
fn a_rails_game_with_the_pfalzbahnen_station_in_mannheim_before_ba_operates_replays_only_with_baden_home_on_float()
 {
    let g = engine();
    let s = replays_only_with_its_option("baden_home_on_float");
    let ba = co(&g, "BA");
    assert!(s.majors[ba].operated, "BA has operated since");
    let l6: Vec<&str> = s.board.tokens.get("L6").into_iter().flatten().map(|t| t.company.as_str()).collect();
    assert_eq!(l6.len(), 2, "BA's home and the PfB's station: {l6:?}");
    assert!(l6.contains(&"BA"));
    let pfb = g.data().private_index("PfB").expect("PfB");
    assert!(s.privates[pfb].closed, "HR 5: the station closes the PfB");
}

/// A's and the pool's certificates of BA after the replay, each sorted.
fn ba_papers(g: &super::R1835, s: &super::State) -> (Vec<u8>, Vec<u8>) {
    let certs = &s.majors[co(g, "BA")].certs;
    let at = |loc: Loc| {
        let mut v: Vec<u8> = certs.iter().filter(|c| c.at == loc).map(|c| c.percent).collect();
        v.sort_unstable();
        v
    };
    (at(Loc::Player(0)), at(Loc::Pool))
}

#[test]
fn a_rails_game_in_which_the_new_president_hands_over_two_10_percent_certificates_replays_only_with_rails_choice()
 {
    let g = engine();
    let (with, without) = replay_both_ways("presidency_swap_single_shares_first");
    let s = &with.state;
    assert_eq!(g.president(s, co(&g, "BA")), Some(1), "B presides over BA");
    assert_eq!(ba_papers(&g, s), (vec![], vec![10, 10, 10]), "A sold the three 10 % it held");
    sale_is_in_the_ledger("presidency_swap_single_shares_first", &with, &without, 3 * 10);
}

/// The ledger of fixture `name`'s replay with the option closes the stock round of A's sale of
/// `percent` of BA, with A's cash raised by it; the refused replay's ledger ends before that
/// round. A's cash is compared just before the sale (A may buy earlier in the same round).
fn sale_is_in_the_ledger(name: &str, with: &ledger::Replay, without: &[ledger::LedgerRow], percent: i64) {
    let last = with.rows.last().expect("ledger rows").round.clone();
    assert!(last.starts_with("SR"), "the log ends with the stock round of the sale: {last}");
    assert!(without.iter().all(|r| r.round != last), "the refused replay never closes {last}");
    let game: GameFile =
        serde_json::from_str(&std::fs::read_to_string(path(name, "json")).expect("the game file"))
            .expect("a game file");
    let log = std::fs::read_to_string(path(name, "jsonl")).expect("the log");
    let lines: Vec<&str> = log.lines().collect();
    let sale = lines.iter().rposition(|l| l.contains("\"type\":\"sell\"")).expect("the sale");
    let up_to = ledger::replay(&engine(), &game.players, &game.options, game.seed, &lines[..sale].join("\n"))
        .unwrap_or_else(|e| panic!("{name} replays up to the sale: {e}"));
    let price = with.state.majors[co(&engine(), "BA")].price.map(|p| engine().data().market.price(p));
    let gained = with.state.players[0].cash - up_to.state.players[0].cash;
    // The sale's proceeds (at the price before the drop) are at least the price after it.
    assert!(gained >= price.expect("BA's price") * percent / 10, "A's cash rose by the sale: {gained}");
}

#[test]
fn a_pbem_game_in_which_the_new_president_hands_over_the_20_percent_certificate_replays_only_with_the_fewest()
{
    let g = engine();
    let (with, without) = replay_both_ways("presidency_swap_fewest");
    let s = &with.state;
    assert_eq!(g.president(s, co(&g, "BA")), Some(1), "B presides over BA");
    assert_eq!(ba_papers(&g, s), (vec![10], vec![20]), "A sold the 20 % it was handed");
    sale_is_in_the_ledger("presidency_swap_fewest", &with, &without, 20);
}

#[test]
fn the_badische_story_connects_bas_route_so_that_ba_earns_revenue_before_the_sale() {
    for name in ["presidency_swap_single_shares_first", "presidency_swap_fewest"] {
        let log = std::fs::read_to_string(path(name, "jsonl")).expect("the log");
        let revenues: Vec<i64> = log
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["action"]["type"] == "run" && v["action"]["company"] == "BA")
            .map(|v| v["action"]["revenue"].as_i64().unwrap_or(0))
            .collect();
        assert!(revenues.iter().any(|r| *r > 0), "{name}: BA's runs {revenues:?}");
        let ba = replays_only_with_its_option(name).last_runs.get("BA").map(|r| r.revenue);
        assert!(ba.is_some_and(|r| r > 0), "{name}: the replay's last BA run {ba:?}");
    }
}
