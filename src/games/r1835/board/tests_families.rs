//! Upgrade legality case by case, one test per tile family (FACTS §7.4, §11; RULINGS K29): what
//! each kind of hex takes in which phase, and what it refuses.

use super::state::BoardState;
use super::tests_track::{data, phase};
use super::track::{Connection, Lay, LayError, check_lay};
use crate::games::r1835::data::Data;

/// The first rotation in which the tile may be laid, else the error of the last one.
fn lay_any(d: &Data, b: &BoardState, ph: &str, at: &str, tile: &str) -> Result<Lay, LayError> {
    let mut last = Err(LayError::BadRotation(6));
    for r in 0..6 {
        last = check_lay(d, b, phase(d, ph), "BY", (at, tile, r), Connection::Waived);
        if last.is_ok() {
            return last;
        }
    }
    last
}

fn refused(res: Result<Lay, LayError>) -> bool {
    matches!(res, Err(LayError::NotAnUpgrade { .. } | LayError::WrongLabel { .. }))
}

/// Lays the first legal rotation of a tile.
fn build(d: &Data, b: &mut BoardState, ph: &str, at: &str, tile: &str) {
    let l = lay_any(d, b, ph, at, tile).unwrap_or_else(|e| panic!("{tile} on {at}: {e}"));
    b.lay(d, &l.hex, &l.tile, l.rotation).expect("lay");
}

#[test]
fn a_plain_hex_takes_plain_track_then_green_track_and_never_a_stop() {
    let d = data();
    let mut b = BoardState::default();
    for t in ["7", "8", "9"] {
        assert!(lay_any(&d, &b, "1", "D14", t).is_ok(), "{t}");
    }
    for t in ["3", "57", "1"] {
        assert!(refused(lay_any(&d, &b, "1", "D14", t)), "{t}");
    }
    build(&d, &mut b, "1", "D14", "9");
    assert!(lay_any(&d, &b, "2", "D14", "19").is_ok());
    assert!(refused(lay_any(&d, &b, "2", "D14", "16")), "16 is no upgrade of 9");
    assert!(refused(lay_any(&d, &b, "3", "D14", "45")), "brown only after green");
}

#[test]
fn a_one_village_hex_keeps_its_town_from_yellow_to_green() {
    let d = data();
    let mut b = BoardState::default();
    for t in ["3", "4", "58"] {
        assert!(lay_any(&d, &b, "1", "B12", t).is_ok(), "{t}");
    }
    for t in ["9", "57", "1"] {
        assert!(refused(lay_any(&d, &b, "1", "B12", t)), "{t}");
    }
    build(&d, &mut b, "1", "B12", "58");
    assert!(["87", "88", "203", "204"].iter().any(|t| lay_any(&d, &b, "2", "B12", t).is_ok()));
    assert!(refused(lay_any(&d, &b, "2", "B12", "12")), "a town never becomes a city");
}

#[test]
fn a_two_village_hex_takes_only_two_town_tiles() {
    let d = data();
    let at = d.hexes.iter().find(|h| h.tile == "-2").map(|h| h.at.clone()).expect("a -2 hex");
    let b = BoardState::default();
    assert!(["1", "2", "55", "56", "69"].iter().any(|t| lay_any(&d, &b, "1", &at, t).is_ok()));
    for t in ["3", "9", "57"] {
        assert!(refused(lay_any(&d, &b, "1", &at, t)), "{t}");
    }
}

#[test]
fn a_plain_city_hex_follows_its_own_chart_to_brown() {
    let d = data();
    let mut b = BoardState::default();
    assert!(lay_any(&d, &b, "1", "D8", "57").is_ok());
    for t in ["9", "3", "201"] {
        assert!(lay_any(&d, &b, "1", "D8", t).is_err(), "{t}");
    }
    build(&d, &mut b, "1", "D8", "57");
    assert!(refused(lay_any(&d, &b, "2", "D8", "12")), "12 is not on 57's chart");
    build(&d, &mut b, "2", "D8", "14");
    assert!(refused(lay_any(&d, &b, "3", "D8", "63")), "14 has no brown upgrade");
}

#[test]
fn a_y_city_takes_only_y_tiles() {
    let d = data();
    let mut b = BoardState::default();
    assert!(lay_any(&d, &b, "1", "O15", "201").is_ok());
    assert!(refused(lay_any(&d, &b, "1", "O15", "57")));
    build(&d, &mut b, "1", "O15", "202");
    assert!(refused(lay_any(&d, &b, "2", "O15", "14")));
    let green = ["207", "208"].into_iter().find(|t| lay_any(&d, &b, "2", "O15", t).is_ok());
    build(&d, &mut b, "2", "O15", green.expect("a green Y tile"));
    assert!(lay_any(&d, &b, "3", "O15", "216").is_ok());
    assert!(refused(lay_any(&d, &b, "3", "O15", "63")));
}

#[test]
fn the_printed_yellow_xx_hexes_take_green_xx_tiles_from_phase_2() {
    let d = data();
    let b = BoardState::default();
    for at in ["G3", "J6", "L6"] {
        assert!(matches!(lay_any(&d, &b, "1", at, "213"), Err(LayError::ColourNotYet { .. })), "{at}");
        assert!((210..=215).any(|t| lay_any(&d, &b, "2", at, &t.to_string()).is_ok()), "{at}");
        for t in ["57", "14", "209"] {
            assert!(lay_any(&d, &b, "2", at, t).is_err(), "{at} {t}");
        }
    }
}

#[test]
fn berlin_printed_yellow_takes_209_in_phase_2_then_220() {
    let d = data();
    let mut b = BoardState::default();
    assert!(matches!(lay_any(&d, &b, "1", "E19", "209"), Err(LayError::ColourNotYet { .. })));
    assert!(refused(lay_any(&d, &b, "2", "E19", "14")));
    build(&d, &mut b, "2", "E19", "209");
    assert!(lay_any(&d, &b, "3", "E19", "220").is_ok());
    assert!(refused(lay_any(&d, &b, "3", "E19", "63")));
}

#[test]
fn the_printed_green_cities_take_their_brown_tile_in_phase_3() {
    let d = data();
    let b = BoardState::default();
    for (at, tile) in [("C11", "221"), ("J8", "216"), ("L14", "218")] {
        assert!(matches!(lay_any(&d, &b, "2", at, tile), Err(LayError::ColourNotYet { .. })), "{at}");
        assert!(lay_any(&d, &b, "3", at, tile).is_ok(), "{at} {tile}");
        assert!(refused(lay_any(&d, &b, "3", at, "63")), "{at}");
    }
}
