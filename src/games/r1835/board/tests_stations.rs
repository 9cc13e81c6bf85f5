//! Tests of station legality (FACTS §7.5; HR 5, HR 6, HR 8; RULINGS K30).

use super::state::BoardState;
use super::stations::{TokenError, Via, check_token, home_of, legal_tokens, map_distance};
use super::tests_track::{data, phase};
use crate::games::r1835::data::{Data, neighbour};

fn token(d: &Data, b: &BoardState, c: &str, at: &str, stop: u8, via: Via) -> Result<(i64, bool), TokenError> {
    check_token(d, b, phase(d, "3"), c, at, stop, via).map(|t| (t.cost, t.counts))
}

#[test]
fn a_further_station_costs_20_per_hex_from_home_counted_inside_the_map() {
    let d = data();
    // FACTS §7.5: BY to Dresden 160 (the map edge forces 8 hexes), Leipzig 140, N/F 60.
    assert_eq!(map_distance(&d, "O15", "H20"), Some(8));
    assert_eq!(map_distance(&d, "O15", "H16"), Some(7));
    assert_eq!(map_distance(&d, "O15", "L14"), Some(3));
}

#[test]
fn the_home_station_is_free_and_only_in_the_home_city() {
    let d = data();
    let b = BoardState::default();
    assert_eq!(token(&d, &b, "BY", "O15", 0, Via::Home), Ok((0, false)));
    assert!(matches!(token(&d, &b, "BY", "H20", 0, Via::Home), Err(TokenError::NotHome { .. })));
}

#[test]
fn a_normal_station_needs_track_from_an_own_station_not_blocked_by_a_full_city() {
    let d = data();
    // A straight line of cities and empty hexes: home city, full foreign city, target city.
    let (line, axis) = city_line(&d);
    let mut b = BoardState::default();
    // The board state lays any tile anywhere: cities (57) at every other hex, straight track (9)
    // between, all along the axis.
    for (i, at) in line.iter().enumerate() {
        b.lay(&d, at, if i % 2 == 0 { "57" } else { "9" }, axis).expect("lay");
    }
    let cities: Vec<&String> = line.iter().step_by(2).collect();
    b.place_token(&d, cities[0], 0, "BY", 0).expect("token");
    let second = token(&d, &b, "BY", cities[1], 0, Via::Normal);
    assert!(matches!(second, Ok((_, true))), "{second:?}");
    assert!(token(&d, &b, "BY", cities[2], 0, Via::Normal).is_ok());
    b.place_token(&d, cities[1], 0, "SX", 0).expect("token");
    let blocked = token(&d, &b, "BY", cities[2], 0, Via::Normal);
    assert!(matches!(blocked, Err(TokenError::NotConnected { .. })), "{blocked:?}");
    assert!(matches!(token(&d, &b, "BY", cities[1], 0, Via::Normal), Err(TokenError::Full { .. })));
    assert!(legal_tokens(&d, &b, phase(&d, "3"), "BY", Via::Normal).is_empty());
}

/// Five empty hexes in a straight line, away from homes, with the axis (a side 0–2) they line
/// up along.
fn city_line(d: &Data) -> (Vec<String>, u8) {
    let ok = |at: &str| d.hex(at).is_some_and(|h| h.tile == "0");
    for h in d.hexes.iter().filter(|h| ok(&h.at)) {
        for axis in 0..3u8 {
            let mut line = vec![h.at.clone()];
            while let Some(n) = neighbour(line.last().expect("start"), axis).filter(|n| ok(n)) {
                line.push(n);
                if line.len() == 5 {
                    return (line, axis);
                }
            }
        }
    }
    panic!("no line of five empty hexes")
}

#[test]
fn a_company_has_one_station_per_hex_and_homes_keep_their_circle() {
    let d = data();
    let mut b = BoardState::default();
    b.place_token(&d, "E19", 0, "M2", 0).expect("token");
    assert!(matches!(token(&d, &b, "M2", "E19", 1, Via::Home), Err(TokenError::AlreadyThere { .. })));
    // Before SX's home station is there, the only circle of its home city is kept.
    let (home, stop, _) = home_of(&d, "SX").expect("SX home");
    let other = token(&d, &b, "BY", &home, stop, Via::Normal);
    assert!(matches!(other, Err(TokenError::Full { .. })), "{other:?}");
}

#[test]
fn house_rule_8_no_station_enters_l6_before_the_badische_home() {
    let d = data();
    let mut b = BoardState::default();
    let pfb = d.private_index("PfB").expect("PfB");
    assert!(matches!(token(&d, &b, "BY", "L6", 1, Via::Normal), Err(TokenError::BadenFirst { .. })));
    assert!(matches!(token(&d, &b, "BY", "L6", 1, Via::Private(pfb)), Err(TokenError::BadenFirst { .. })));
    let (_, stop, first_operation) = home_of(&d, "BA").expect("BA home");
    assert!(first_operation);
    assert_eq!(token(&d, &b, "BA", "L6", stop, Via::Home), Ok((0, false)));
    b.place_token(&d, "L6", stop, "BA", 0).expect("token");
    assert!(!matches!(token(&d, &b, "BY", "L6", 1 - stop, Via::Normal), Err(TokenError::BadenFirst { .. })));
}

#[test]
fn house_rule_5_the_pfalzbahnen_closes_when_its_station_is_placed_on_l6() {
    let d = data();
    let mut b = BoardState::default();
    let pfb = d.private_index("PfB").expect("PfB");
    let (_, stop, _) = home_of(&d, "BA").expect("BA home");
    b.place_token(&d, "L6", stop, "BA", 0).expect("token");
    // Whoever laid the tile (none here), the station alone closes the private.
    let t = check_token(&d, &b, phase(&d, "2"), "WT", "L6", 1 - stop, Via::Private(pfb)).expect("legal");
    assert_eq!((t.cost, t.counts, t.closes.as_deref()), (0, false, Some("PfB")));
    let elsewhere = token(&d, &b, "WT", "A11", 0, Via::Private(pfb));
    assert!(matches!(elsewhere, Err(TokenError::WrongPrivateHex { .. })), "{elsewhere:?}");
}

#[test]
fn house_rule_6_private_stations_are_marked_for_the_token_step_only() {
    let d = data();
    let b = BoardState::default();
    let nf = d.private_index("NF").expect("NF");
    let t = check_token(&d, &b, phase(&d, "1"), "BY", "L14", 0, Via::Private(nf)).expect("legal");
    assert!(t.token_step_only && !t.counts && t.cost == 0);
    assert_eq!(t.closes.as_deref(), Some("NF"));
    let normal = check_token(&d, &b, phase(&d, "1"), "BY", "L14", 0, Via::Normal);
    assert!(matches!(normal, Err(TokenError::NotConnected { .. })), "{normal:?}");
}
