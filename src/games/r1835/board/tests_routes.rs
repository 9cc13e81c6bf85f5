//! Hand-computed route cases on the real map (FACTS §10; HR 3, HR 4, HR 7).

use super::check::{RouteError, StopRef, check_routes, claim};
use super::graph::Graph;
use super::revenue::optimal;
use super::state::BoardState;
use crate::games::r1835::data::{Data, Phase, TrainType};

pub(super) fn data() -> Data {
    Data::standard().expect("the 1835 data load")
}

pub(super) fn phase(d: &Data, id: &str) -> Phase {
    d.phases.iter().find(|p| p.id == id).cloned().expect("phase")
}

pub(super) fn trains(d: &Data, names: &[&str]) -> Vec<TrainType> {
    names.iter().map(|n| d.trains.iter().find(|t| t.name == *n).cloned().expect("train")).collect()
}

/// Lays a tile turned so that its track ends are exactly the given map sides.
pub(super) fn lay(d: &Data, b: &mut BoardState, at: &str, tile: &str, sides: &[u8]) {
    let t = d.tiles.iter().find(|t| t.id == tile).expect("tile");
    let mut want = sides.to_vec();
    want.sort_unstable();
    let rot = (0..6)
        .find(|r| {
            let mut ends: Vec<u8> = t
                .stops
                .iter()
                .flat_map(|s| s.exits.clone())
                .chain(t.track.iter().flatten().copied())
                .map(|s| (s + r) % 6)
                .collect();
            ends.sort_unstable();
            ends.dedup();
            ends == want
        })
        .unwrap_or_else(|| panic!("tile {tile} cannot join sides {sides:?}"));
    b.lay(d, at, tile, rot).expect("lay");
}

fn stops(route: &str) -> Vec<StopRef> {
    route.split('-').map(|s| s.parse().expect("stop")).collect()
}

fn check(
    d: &Data,
    b: &BoardState,
    ph: &str,
    company: &str,
    train: &[&str],
    routes: &[&str],
) -> Result<i64, RouteError> {
    let g = Graph::build(d, b, &phase(d, ph));
    let routes: Vec<Vec<StopRef>> = routes.iter().map(|r| stops(r)).collect();
    check_routes(&g, company, &trains(d, train), &routes)
}

fn best(d: &Data, b: &BoardState, ph: &str, company: &str, train: &[&str]) -> i64 {
    optimal(&Graph::build(d, b, &phase(d, ph)), company, &trains(d, train)).revenue
}

/// Hannover (F10) – Braunschweig (F12, fixed 20) – Magdeburg (F14); towns G11 and H10 south of
/// Braunschweig. Tokens of "HA" in Hannover and Magdeburg.
fn lower_saxony(d: &Data) -> BoardState {
    let mut b = BoardState::default();
    lay(d, &mut b, "F10", "57", &[1, 4]);
    lay(d, &mut b, "F14", "57", &[1, 4]);
    lay(d, &mut b, "G11", "4", &[0, 3]);
    lay(d, &mut b, "H10", "4", &[0, 3]);
    b.place_token(d, "F10", 0, "HA", 0).expect("token");
    b.place_token(d, "F14", 0, "HA", 0).expect("token");
    b
}

#[test]
fn n_trains_count_towns_as_stops_and_n_plus_n_trains_count_them_apart() {
    let d = data();
    let b = lower_saxony(&d);
    // A 2-train: Hannover–Braunschweig or Magdeburg–Braunschweig, 40; a town makes 3 stops.
    assert_eq!(
        check(&d, &b, "1", "HA", &["2"], &["F10-F12-G11"]),
        Err(RouteError::TooLong { route: 1, train: "2".into(), large: 2, small: 1 })
    );
    assert_eq!(best(&d, &b, "1", "HA", &["2", "2"]), 80);
    // A 2+2-train takes two cities and two towns: F10-F12-G11-H10 = 20+20+10+10; the 2-train
    // runs F14-F12 (40) on other track, sharing only the stop Braunschweig.
    assert_eq!(check(&d, &b, "2", "HA", &["2+2"], &["F10-F12-G11-H10"]), Ok(60));
    assert_eq!(best(&d, &b, "2", "HA", &["2+2", "2"]), 100);
    assert_eq!(check(&d, &b, "2", "HA", &["2+2", "2"], &["F10-F12-G11-H10", "F14-F12"]), Ok(100));
}

#[test]
fn a_city_full_of_other_companies_is_only_an_end_of_a_route() {
    let d = data();
    let mut b = lower_saxony(&d);
    b.place_token(&d, "F12", 0, "BY", 0).expect("token");
    assert_eq!(
        check(&d, &b, "2", "HA", &["3"], &["F10-F12-F14"]),
        Err(RouteError::Blocked { route: 1, stop: "F12".into() })
    );
    assert_eq!(check(&d, &b, "2", "HA", &["3"], &["F10-F12"]), Ok(40));
    // Only ends at Braunschweig: F10-F12 and F14-F12, 40 each.
    assert_eq!(best(&d, &b, "2", "HA", &["4"]), 40);
    assert_eq!(best(&d, &b, "2", "BY", &["4"]), 60);
}

#[test]
fn trains_of_one_company_share_no_track_and_a_route_needs_a_station() {
    let d = data();
    let b = lower_saxony(&d);
    assert_eq!(check(&d, &b, "2", "HA", &["2", "2"], &["F10-F12", "F12-F10"]), Err(RouteError::Shared));
    assert_eq!(
        check(&d, &b, "2", "HA", &["2"], &["F12-G11"]),
        Err(RouteError::NoStation { route: 1, company: "HA".into() })
    );
    assert_eq!(
        check(&d, &b, "2", "HA", &["2"], &["F10-F14"]),
        Err(RouteError::NotConnected { route: 1, a: "F10".into(), b: "F14".into() })
    );
    assert_eq!(check(&d, &b, "2", "HA", &["2"], &["F10"]), Err(RouteError::TooShort { route: 1 }));
}

#[test]
fn a_route_visits_only_one_city_of_berlin() {
    let d = data();
    let mut b = BoardState::default();
    // A loop from Berlin's western city round to its north-western one.
    lay(&d, &mut b, "E17", "7", &[0, 1]);
    lay(&d, &mut b, "D18", "7", &[2, 3]);
    b.place_token(&d, "E19", 0, "PR", 0).expect("token");
    assert_eq!(
        check(&d, &b, "2", "PR", &["4"], &["E19.1-E19.2"]),
        Err(RouteError::Exclusive { route: 1, a: "E19.1".into(), b: "E19.2".into() })
    );
    assert_eq!(best(&d, &b, "2", "PR", &["4"]), 0);
}

#[test]
fn off_boards_pay_by_phase_and_elsass_lothringen_only_in_phase_2() {
    let d = data();
    let mut b = BoardState::default();
    lay(&d, &mut b, "H20", "202", &[1, 3]);
    b.place_token(&d, "H20", 0, "SX", 0).expect("token");
    // Dresden 30 + Oberschlesien 20 / 30 / 40.
    assert_eq!(best(&d, &b, "1", "SX", &["2"]), 50);
    assert_eq!(best(&d, &b, "2", "SX", &["2"]), 60);
    assert_eq!(best(&d, &b, "3", "SX", &["2"]), 70);
    let mut b = BoardState::default();
    lay(&d, &mut b, "L6", "213", &[1, 3, 4, 5]);
    b.place_token(&d, "L6", 1, "BA", 0).expect("token");
    let el = Err(RouteError::Closed { route: 1, stop: "M5".into() });
    assert_eq!(check(&d, &b, "1", "BA", &["2"], &["L6.2-M5"]), el);
    assert_eq!(check(&d, &b, "2", "BA", &["2"], &["L6.2-M5"]), Ok(80));
    assert_eq!(
        check(&d, &b, "3", "BA", &["2"], &["L6.2-M5"]),
        Err(RouteError::Closed { route: 1, stop: "M5".into() })
    );
    assert_eq!(best(&d, &b, "3", "BA", &["2"]), 0);
}

/// Kiel (A11) – B12 (town) – Hamburg (C11) – D10 – Bremen (D8); Schwerin (C13) east of
/// Hamburg. On the green Hamburg PR and SX stand north of the Elbe, BA south; then the brown
/// tile 221 goes down.
fn hamburg(d: &Data) -> BoardState {
    let mut b = BoardState::default();
    lay(d, &mut b, "A11", "57", &[2, 5]);
    lay(d, &mut b, "B12", "58", &[3, 5]);
    lay(d, &mut b, "D10", "8", &[0, 4]);
    lay(d, &mut b, "D8", "57", &[1, 4]);
    b.place_token(d, "C11", 0, "PR", 0).expect("token");
    b.place_token(d, "C11", 1, "SX", 0).expect("token");
    b.place_token(d, "C11", 2, "BA", 0).expect("token");
    b.place_token(d, "D8", 0, "OL", 0).expect("token");
    b.lay(d, "C11", "221", 0).expect("brown Hamburg");
    b
}

#[test]
fn house_rule_3_station_markers_keep_their_side_of_the_elbe() {
    let d = data();
    let b = hamburg(&d);
    let banks: Vec<(String, u8, u8)> =
        b.tokens["C11"].iter().map(|t| (t.company.clone(), t.stop, t.bank)).collect();
    assert_eq!(banks, vec![("PR".into(), 0, 0), ("SX".into(), 0, 0), ("BA".into(), 0, 1)]);
}

#[test]
fn house_rule_3_hamburg_counts_50_when_the_run_needs_the_ferry_else_60() {
    let d = data();
    let b = hamburg(&d);
    // Kiel – Hamburg – Bremen crosses the Elbe: 20 + 10 + 50 + 20, for any company.
    assert_eq!(check(&d, &b, "3", "SX", &["4"], &["A11-B12-C11-D8"]), Ok(100));
    assert_eq!(check(&d, &b, "3", "BA", &["4"], &["A11-B12-C11-D8"]), Ok(100));
    // Hamburg – Bremen: 50 for SX (north of the Elbe), 60 for BA (south).
    assert_eq!(check(&d, &b, "3", "SX", &["2"], &["C11-D8"]), Ok(70));
    assert_eq!(check(&d, &b, "3", "BA", &["2"], &["C11-D8"]), Ok(80));
    // BA going north to the town before Kiel needs the ferry; SX going east to Schwerin not.
    assert_eq!(check(&d, &b, "3", "BA", &["2"], &["C11-B12"]), Ok(60));
    assert_eq!(check(&d, &b, "3", "SX", &["2"], &["C11-C13"]), Ok(70));
    assert_eq!(best(&d, &b, "3", "BA", &["2"]), 80);
}

#[test]
fn house_rule_3_a_company_without_a_station_in_a_full_hamburg_ends_its_run_there() {
    let d = data();
    let b = hamburg(&d);
    assert_eq!(
        check(&d, &b, "3", "OL", &["3"], &["D8-C11-B12"]),
        Err(RouteError::Blocked { route: 1, stop: "C11".into() })
    );
    // Ending in Hamburg from the south needs no ferry: 20 + 60.
    assert_eq!(check(&d, &b, "3", "OL", &["3"], &["D8-C11"]), Ok(80));
    // Its best 2-train run ends there too (Oldenburg – Bremen is 30).
    assert_eq!(best(&d, &b, "3", "OL", &["2"]), 80);
    // SX runs through the full city across the ferry.
    assert_eq!(best(&d, &b, "3", "SX", &["4"]), 100);
}

#[test]
fn house_rule_4_schwerin_and_oldenburg_are_large_stops_for_n_plus_n_trains() {
    let d = data();
    let mut b = BoardState::default();
    lay(&d, &mut b, "B12", "58", &[3, 5]);
    lay(&d, &mut b, "B14", "4", &[0, 3]);
    b.place_token(&d, "C11", 1, "SX", 0).expect("token");
    let g = Graph::build(&d, &b, &phase(&d, "2"));
    for hex in ["C13", "D6"] {
        let s = g.find_stop(hex, None).expect("stop");
        assert!(g.stops[usize::from(s)].large(), "{hex} is a large stop");
    }
    // B12 (town) – Hamburg (40) – Schwerin (10) – B14 (town): two large stops and two towns.
    assert_eq!(check(&d, &b, "2", "SX", &["2+2"], &["B12-C11.2-C13-B14"]), Ok(70));
    assert_eq!(best(&d, &b, "2", "SX", &["2+2"]), 70);
    // A 3-train counts all four as stops.
    let long = RouteError::TooLong { route: 1, train: "3".into(), large: 2, small: 2 };
    assert_eq!(check(&d, &b, "2", "SX", &["3"], &["B12-C11.2-C13-B14"]), Err(long));
}

#[test]
fn house_rule_7_track_never_runs_into_a_blank_side_of_a_printed_map_hex() {
    let d = data();
    let mut b = BoardState::default();
    // Track from Hannover's tile pointing at Braunschweig's blank north-west side leads nowhere.
    lay(&d, &mut b, "F10", "57", &[0, 3]);
    b.place_token(&d, "F10", 0, "HA", 0).expect("token");
    lay(&d, &mut b, "E11", "9", &[0, 3]);
    let g = Graph::build(&d, &b, &phase(&d, "2"));
    assert_eq!(optimal(&g, "HA", &trains(&d, &["4"])).revenue, 0);
    // Braunschweig's printed west side does meet Hannover's track.
    lay(&d, &mut b, "F10", "57", &[1, 4]);
    assert_eq!(best(&d, &b, "2", "HA", &["4"]), 40);
}

#[test]
fn a_claim_above_the_maximum_is_refused_with_the_maximum_and_below_only_where_allowed() {
    let d = data();
    let b = lower_saxony(&d);
    let g = Graph::build(&d, &b, &phase(&d, "2"));
    let t = trains(&d, &["2+2", "2"]);
    assert_eq!(
        claim(&g, "HA", &t, Some(110), false).map(|o| o.revenue),
        Err(RouteError::AboveMaximum { declared: 110, max: 100 })
    );
    assert_eq!(
        claim(&g, "HA", &t, Some(90), false).map(|o| o.revenue),
        Err(RouteError::BelowMaximum { declared: 90, max: 100 })
    );
    assert_eq!(claim(&g, "HA", &t, Some(90), true).map(|o| o.revenue), Ok(100));
    assert_eq!(claim(&g, "HA", &t, None, false).map(|o| o.revenue), Ok(100));
}
