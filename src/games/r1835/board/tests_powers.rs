//! Tests of the private companies' free tiles (RULINGS K43), of the Hamburg banks chosen by
//! number (HR 3, RULINGS K42), of the home hex before any station (HR 8) and of stations ranked
//! for HR 17 (RULINGS K44).

use super::privates::{check_private_lay, legal_private_lays};
use super::rank::ranked_tokens;
use super::spots::{check_token_city, city_number, city_spot};
use super::state::BoardState;
use super::stations::{Via, check_token};
use super::tests_routes::{lay, trains};
use super::tests_track::{data, phase};
use super::track::{LayError, legal_lays};

#[test]
fn the_ostbayerische_lays_free_yellow_tiles_on_m15_and_m17_without_a_connection() {
    let d = data();
    let obb = d.private_index("OBB").expect("OBB");
    let mut b = BoardState::default();
    let ph = phase(&d, "1");
    let lays = legal_private_lays(&d, &b, ph, obb);
    assert!(!lays.is_empty());
    assert!(lays.iter().all(|l| ["M15", "M17"].contains(&l.hex.as_str()) && l.cost == 0), "{lays:?}");
    assert!(lays.iter().any(|l| l.hex == "M15") && lays.iter().any(|l| l.hex == "M17"));
    let first = &lays[0];
    assert_eq!(
        check_private_lay(&d, &b, ph, obb, (&first.hex, &first.tile, first.rotation)),
        Ok(first.clone())
    );
    let wrong = check_private_lay(&d, &b, ph, obb, ("D14", "9", 0));
    assert!(matches!(wrong, Err(LayError::WrongPrivateHex { .. })), "{wrong:?}");
    b.lay(&d, &first.hex, &first.tile, first.rotation).expect("lay");
    // Once built, the hex takes no yellow tile: its power there is spent.
    let later = legal_private_lays(&d, &b, phase(&d, "2"), obb);
    assert!(later.iter().all(|l| l.hex != first.hex), "{later:?}");
}

#[test]
fn the_pfalzbahnen_tile_on_l6_is_green_and_so_waits_for_phase_2() {
    let d = data();
    let pfb = d.private_index("PfB").expect("PfB");
    let b = BoardState::default();
    assert!(legal_private_lays(&d, &b, phase(&d, "1"), pfb).is_empty());
    let lays = legal_private_lays(&d, &b, phase(&d, "2"), pfb);
    assert!(!lays.is_empty() && lays.iter().all(|l| l.hex == "L6" && l.cost == 0), "{lays:?}");
    let nf = d.private_index("NF").expect("NF");
    assert!(matches!(
        check_private_lay(&d, &b, phase(&d, "2"), nf, ("L14", "218", 0)),
        Err(LayError::NoTilePower(_))
    ));
}

#[test]
fn house_rule_3_a_station_in_brown_hamburg_goes_on_the_bank_the_company_names() {
    let d = data();
    let mut b = BoardState::default();
    // Green Hamburg: three cities, numbered as its stops.
    assert_eq!(
        (1..=4).map(|n| city_spot(&d, &b, "C11", n)).collect::<Vec<_>>(),
        [Some((0, 0)), Some((1, 0)), Some((2, 0)), None]
    );
    b.lay(&d, "C11", "221", 0).expect("brown Hamburg");
    // Brown Hamburg: one city, 1 = north of the Elbe, 2 = south.
    assert_eq!(
        (1..=3).map(|n| city_spot(&d, &b, "C11", n)).collect::<Vec<_>>(),
        [Some((0, 0)), Some((0, 1)), None]
    );
    let south = check_token_city(&d, &b, phase(&d, "3"), "M6", "C11", 2, Via::Home).expect("home");
    assert_eq!((south.stop, south.bank), (0, 1));
    let none = check_token_city(&d, &b, phase(&d, "3"), "M6", "C11", 3, Via::Home);
    assert!(none.is_err());
}

#[test]
fn house_rule_3_a_green_hamburg_station_keeps_its_bank_and_gets_its_number() {
    let d = data();
    let mut b = BoardState::default();
    // The south-western green city (stop 2, side 3) lies south of the Elbe.
    b.place_token(&d, "C11", 2, "BA", 0).expect("token");
    b.place_token(&d, "C11", 0, "PR", 0).expect("token");
    b.lay(&d, "C11", "221", 0).expect("brown Hamburg");
    let number = |c: &str| {
        let t = b.tokens["C11"].iter().find(|t| t.company == c).expect("token");
        city_number(&d, &b, "C11", t.stop, t.bank)
    };
    assert_eq!((number("BA"), number("PR")), (Some(2), Some(1)));
}

#[test]
fn house_rule_6_the_pfalzbahnen_station_is_for_the_token_step_only_and_free() {
    let d = data();
    let mut b = BoardState::default();
    let pfb = d.private_index("PfB").expect("PfB");
    b.place_token(&d, "L6", 1, "BA", 0).expect("BA home");
    let t = check_token(&d, &b, phase(&d, "2"), "BY", "L6", 0, Via::Private(pfb)).expect("legal");
    assert!(t.token_step_only && !t.counts && t.cost == 0, "{t:?}");
}

#[test]
fn house_rule_8_the_badische_builds_on_its_home_hex_before_its_first_station() {
    let d = data();
    let b = BoardState::default();
    let lays = legal_lays(&d, &b, phase(&d, "2"), "BA");
    assert!(!lays.is_empty() && lays.iter().all(|l| l.hex == "L6"), "{lays:?}");
    let mut b = BoardState::default();
    b.place_token(&d, "L6", 1, "BA", 0).expect("BA home");
    b.place_token(&d, "O15", 0, "BY", 0).expect("BY home");
    // With a station, the home hex is open because the station is there, and BY's home is not.
    let lays = legal_lays(&d, &b, phase(&d, "2"), "BA");
    assert!(lays.iter().any(|l| l.hex == "L6") && lays.iter().all(|l| l.hex != "O15"), "{lays:?}");
}

#[test]
fn house_rule_17_stations_are_ranked_by_revenue_then_distance() {
    let d = data();
    let mut b = BoardState::default();
    lay(&d, &mut b, "F10", "57", &[1, 4]);
    lay(&d, &mut b, "F14", "57", &[1, 4]);
    b.place_token(&d, "F10", 0, "HA", 0).expect("token");
    let ph = phase(&d, "2");
    let two = trains(&d, &["2", "2"]);
    let ranked = ranked_tokens(&d, &b, ph, "HA", &two, Via::Normal, Some("F14"));
    let hexes: Vec<&str> = ranked.iter().map(|c| c.token.hex.as_str()).collect();
    // A second station at Magdeburg or Braunschweig adds a second 2-train run (40 + 40).
    assert_eq!(hexes, ["F14", "F12"], "{ranked:?}");
    assert_eq!(ranked.iter().map(|c| c.revenue).collect::<Vec<_>>(), [80, 80]);
    assert_eq!(ranked.iter().map(|c| c.distance).collect::<Vec<_>>(), [Some(0), Some(1)]);
    let toward_hannover = ranked_tokens(&d, &b, ph, "HA", &two, Via::Normal, Some("F8"));
    assert_eq!(toward_hannover.first().map(|c| c.token.hex.as_str()), Some("F12"));
}
