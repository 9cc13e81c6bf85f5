//! The printed build cost of a hex that starts with a pre-printed yellow or green tile (issue 33,
//! RULING K90): paid by the first lay there, the first upgrade of the printed tile, and never
//! again. One test per such hex of the map with a cost; the printed cities without one stay free.

use super::state::BoardState;
use super::tests_track::{data, phase};
use super::track::{Connection, check_lay};
use crate::games::r1835::data::Data;

/// The cost of the first legal lay of any tile in any rotation on `at` in phase `ph`, and that
/// lay (tile, rotation).
fn first_lay(d: &Data, b: &BoardState, ph: &str, at: &str) -> (i64, String, u8) {
    let (_, old, _) = b.tile_at(d, at).expect("a hex of the map");
    old.upgrades
        .iter()
        .flat_map(|t| (0..6).map(move |r| (t.clone(), r)))
        .find_map(|(t, r)| {
            check_lay(d, b, phase(d, ph), "BY", (at, &t, r), Connection::Waived).ok().map(|l| (l.cost, t, r))
        })
        .expect("some tile can be laid")
}

/// The printed cost on the first upgrade of the hex's pre-printed tile, then 0 on the next.
fn costs_of_two_upgrades(at: &str) -> (i64, i64) {
    let d = data();
    let mut b = BoardState::default();
    let (first, tile, rotation) = first_lay(&d, &b, "3", at);
    b.lay(&d, at, &tile, rotation).expect("the first upgrade");
    let upgradable = b.tile_at(&d, at).is_some_and(|(_, t, _)| !t.upgrades.is_empty());
    let second = if upgradable { first_lay(&d, &b, "3", at).0 } else { 0 };
    (first, second)
}

/// The hex's printed cost and pre-printed tile colour (map data).
fn printed(at: &str) -> (i64, String) {
    let d = data();
    let hex = d.hex(at).expect("hex");
    let (_, tile, _) = BoardState::default().tile_at(&d, at).expect("tile");
    (hex.cost, tile.colour.clone())
}

#[test]
fn hamburg_c11_charges_its_printed_50_on_the_brown_tile_that_first_replaces_its_green_one() {
    assert_eq!(printed("C11"), (50, "green".to_string()));
    let (first, _) = costs_of_two_upgrades("C11");
    assert_eq!(first, 50);
}

#[test]
fn frankfurt_j8_charges_its_printed_50_on_the_brown_tile_that_first_replaces_its_green_one() {
    assert_eq!(printed("J8"), (50, "green".to_string()));
    assert_eq!(costs_of_two_upgrades("J8").0, 50);
}

#[test]
fn essen_duisburg_g3_charges_its_printed_50_on_the_first_green_tile_and_nothing_on_the_brown() {
    assert_eq!(printed("G3"), (50, "yellow".to_string()));
    assert_eq!(costs_of_two_upgrades("G3"), (50, 0));
}

#[test]
fn mainz_wiesbaden_j6_charges_its_printed_50_on_the_first_green_tile_and_nothing_on_the_brown() {
    assert_eq!(printed("J6"), (50, "yellow".to_string()));
    assert_eq!(costs_of_two_upgrades("J6"), (50, 0));
}

#[test]
fn the_printed_cities_without_a_cost_stay_free_berlin_mannheim_nuernberg() {
    for at in ["E19", "L6", "L14"] {
        let (cost, colour) = printed(at);
        assert_eq!(cost, 0, "{at}");
        assert!(["yellow", "green"].contains(&colour.as_str()), "{at}");
        assert_eq!(costs_of_two_upgrades(at), (0, 0), "{at}");
    }
}

#[test]
fn every_pre_printed_yellow_or_green_hex_with_a_cost_is_one_of_the_four_tested_above() {
    let d = data();
    let b = BoardState::default();
    let charged: Vec<&str> = d
        .hexes
        .iter()
        .filter(|h| h.cost > 0)
        .filter(|h| {
            b.tile_at(&d, &h.at).is_some_and(|(_, t, _)| ["yellow", "green"].contains(&t.colour.as_str()))
        })
        .map(|h| h.at.as_str())
        .collect();
    assert_eq!(charged, ["C11", "G3", "J6", "J8"]);
}
