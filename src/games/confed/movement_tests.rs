//! Movement costs and the cheapest path against the rules text's cases and worked examples.

use super::data::{Data, SegmentKind};
use super::movement::*;
use proptest::prelude::*;
use std::collections::BTreeSet;

fn data() -> Data {
    Data::standard().expect("the standard data loads")
}

fn ids(d: &Data, names: &[&str]) -> Vec<usize> {
    names.iter().map(|n| d.map.station(n).unwrap_or_else(|| panic!("station {n}"))).collect()
}

fn owning(lines: &[u8]) -> Mover {
    Mover { owned: lines.iter().copied().collect(), fee_paid: Lines::default(), light: false }
}

fn cost(
    d: &Data,
    board: &Board,
    mover: &Mover,
    start_line: Option<u8>,
    names: &[&str],
) -> Result<u32, MoveError> {
    path_cost(&d.map, board, mover, start_line, &ids(d, names)).map(|r| r.cost)
}

#[test]
fn case_5_3_4_whitesville_to_stricklands_depot_through_wilmington_costs_five_as_printed() {
    // RT 5.3.4: 1 MP into Wilmington (+2 for the Ferry: RULING F1, the map's Cape Fear ferry),
    // then 1 MP into Strickland's Depot (+1 to change lines).
    let d = data();
    let route = path_cost(
        &d.map,
        &Board::default(),
        &owning(&[5, 7]),
        Some(7),
        &ids(&d, &["Whitesville", "Wilmington", "Strickland's Depot"]),
    )
    .unwrap();
    let costs: Vec<u32> = route.steps.iter().map(|s| s.cost).collect();
    assert_eq!(costs, vec![3, 2]);
    assert_eq!(route.cost, 5);
}

#[test]
fn case_5_3_4_east_point_to_atlanta_is_not_a_line_change_but_atlanta_to_marietta_is() {
    let d = data();
    let mover = owning(&[11, 12]);
    assert_eq!(cost(&d, &Board::default(), &mover, Some(12), &["East Point", "Atlanta"]), Ok(1));
    assert_eq!(cost(&d, &Board::default(), &mover, Some(12), &["East Point", "Atlanta", "Marietta"]), Ok(3));
}

#[test]
fn case_5_4_2_entering_a_station_holding_two_trains_costs_three() {
    let d = data();
    let mut board = Board::default();
    board.trains.insert(d.map.station("Atlanta").unwrap(), 2);
    assert_eq!(cost(&d, &board, &owning(&[12]), Some(12), &["East Point", "Atlanta"]), Ok(3));
}

#[test]
fn case_5_3_3_a_foreign_line_without_the_fee_costs_two_per_station_and_one_with_it_or_light() {
    let d = data();
    let path = ["Forsyth", "Barnesville", "Griffin"];
    assert_eq!(cost(&d, &Board::default(), &owning(&[1]), Some(12), &path), Ok(4));
    let paid = Mover { fee_paid: Lines::from_iter([12]), ..owning(&[1]) };
    assert_eq!(cost(&d, &Board::default(), &paid, Some(12), &path), Ok(2));
    let light = Mover { light: true, ..owning(&[1]) };
    assert_eq!(cost(&d, &Board::default(), &light, Some(12), &path), Ok(2));
}

#[test]
fn case_5_3_3_a_shared_station_of_the_movers_line_counts_as_his_under_ruling_f4() {
    // Griffin -> Jonesboro -> East Point on #12, owning #11 only: East Point is #12 alone (2 MP
    // each), Atlanta is shared with #11 (1 MP).
    let d = data();
    assert_eq!(
        cost(&d, &Board::default(), &owning(&[11]), Some(12), &["Jonesboro", "East Point", "Atlanta"]),
        Ok(3)
    );
}

#[test]
fn case_5_3_3_an_overland_transfer_costs_two_more() {
    let d = data();
    assert_eq!(cost(&d, &Board::default(), &owning(&[1]), Some(1), &["Winchester", "Strasburg"]), Ok(3));
}

#[test]
fn case_5_5_a_congested_station_costs_two_more_to_enter() {
    let d = data();
    let board = Board { congested: BTreeSet::from([d.map.station("Atlanta").unwrap()]), ..Board::default() };
    assert_eq!(cost(&d, &board, &owning(&[12]), Some(12), &["East Point", "Atlanta"]), Ok(3));
}

#[test]
fn case_7_1_bad_rails_cost_one_more_per_station_on_that_line() {
    let d = data();
    let board = Board { bad_rails: BTreeSet::from([12]), ..Board::default() };
    assert_eq!(cost(&d, &board, &owning(&[12]), Some(12), &["Griffin", "Jonesboro", "East Point"]), Ok(4));
}

#[test]
fn case_5_3_disrupted_or_ripped_up_segments_cannot_be_crossed() {
    let d = data();
    let segs = d.map.segments_between(d.map.station("Griffin").unwrap(), d.map.station("Jonesboro").unwrap());
    let board = Board { blocked: segs.into_iter().collect(), ..Board::default() };
    assert!(matches!(
        cost(&d, &board, &owning(&[12]), None, &["Griffin", "Jonesboro"]),
        Err(MoveError::Impassable(..))
    ));
}

#[test]
fn case_5_9_2_a_union_occupied_station_may_not_be_entered() {
    let d = data();
    let board = Board { occupied: BTreeSet::from([d.map.station("Atlanta").unwrap()]), ..Board::default() };
    assert!(matches!(
        cost(&d, &board, &owning(&[12]), None, &["East Point", "Atlanta"]),
        Err(MoveError::Occupied(_))
    ));
    assert_eq!(
        cheapest_path(
            &d.map,
            &board,
            &owning(&[12]),
            None,
            d.map.station("East Point").unwrap(),
            d.map.station("Atlanta").unwrap()
        ),
        None
    );
}

#[test]
fn case_7_10_danville_to_greensboro_is_impassable_until_built() {
    let d = data();
    assert!(matches!(
        cost(&d, &Board::default(), &owning(&[6]), None, &["Danville", "Greensboro"]),
        Err(MoveError::Impassable(..))
    ));
    let seg = d
        .map
        .segments
        .iter()
        .position(|s| matches!(&s.kind, SegmentKind::Unbuilt { event } if event == "7.10"))
        .unwrap();
    let board = Board { built: BTreeSet::from([seg]), ..Board::default() };
    assert_eq!(cost(&d, &board, &owning(&[6]), None, &["Danville", "Greensboro"]), Ok(1));
}

#[test]
fn stations_that_are_not_neighbours_are_refused() {
    let d = data();
    assert!(matches!(
        cost(&d, &Board::default(), &owning(&[12]), None, &["Atlanta", "Richmond"]),
        Err(MoveError::NotAdjacent(..))
    ));
}

#[test]
fn the_cheapest_path_from_whitesville_to_stricklands_depot_goes_through_wilmington() {
    let d = data();
    let [from, to] = [d.map.station("Whitesville").unwrap(), d.map.station("Strickland's Depot").unwrap()];
    let route = cheapest_path(&d.map, &Board::default(), &owning(&[5, 7]), Some(7), from, to).unwrap();
    assert_eq!(route.names(&d.map), vec!["Whitesville", "Wilmington", "Strickland's Depot"]);
    assert_eq!(route.cost, 5);
}

#[test]
fn the_cheapest_path_avoids_an_occupied_station_when_a_detour_exists() {
    let d = data();
    let board =
        Board { occupied: BTreeSet::from([d.map.station("Burkeville").unwrap()]), ..Board::default() };
    let [from, to] = [d.map.station("Farmville").unwrap(), d.map.station("Petersburg").unwrap()];
    let route = cheapest_path(&d.map, &board, &owning(&[8]), None, from, to).unwrap();
    assert!(!route.names(&d.map).contains(&"Burkeville"));
}

proptest! {
    /// The route the search returns costs what `path_cost` says for its stations, and no random
    /// walk between the same stations is cheaper.
    #[test]
    fn the_cheapest_path_is_never_beaten_by_a_random_walk(start in 0usize..236, choices in proptest::collection::vec(0usize..8, 1..12), owned in proptest::collection::btree_set(1u8..=24, 0..6), light: bool) {
        let d = data();
        let mover = Mover { owned: owned.into_iter().collect(), fee_paid: Lines::default(), light };
        let board = Board::default();
        let mut walk = vec![start];
        for c in choices {
            let at = *walk.last().unwrap();
            let usable: Vec<usize> = d.map.segments_at(at).iter().filter(|s| !matches!(d.map.segments[**s].kind, SegmentKind::Unbuilt { .. })).filter_map(|s| d.map.segments[*s].other(at)).collect();
            walk.push(usable[c % usable.len()]);
        }
        let end = *walk.last().unwrap();
        let walked = path_cost(&d.map, &board, &mover, None, &walk).map_err(|e| TestCaseError::fail(e.to_string()))?;
        if end != start {
            let best = cheapest_path(&d.map, &board, &mover, None, start, end).ok_or_else(|| TestCaseError::fail("no path"))?;
            prop_assert!(best.cost <= walked.cost);
            let mut stations = vec![best.start];
            stations.extend(best.steps.iter().map(|s| s.station));
            prop_assert_eq!(path_cost(&d.map, &board, &mover, None, &stations).map(|r| r.cost), Ok(best.cost));
        }
    }
}

#[test]
#[ignore = "timing; run with --release --ignored"]
fn one_cheapest_path_search_across_the_full_map_takes_well_under_a_millisecond() {
    let d = data();
    let [from, to] = [d.map.station("Wheeling").unwrap(), d.map.station("Proctorville").unwrap()];
    let mover = owning(&[3, 9, 17]);
    let n = 1000u32;
    let t = std::time::Instant::now();
    let mut total = 0;
    for _ in 0..n {
        total +=
            cheapest_path(&d.map, &Board::default(), &mover, None, from, to).map(|r| r.cost).unwrap_or(0);
    }
    let each = t.elapsed() / n;
    println!("cheapest path Wheeling -> Proctorville: {each:?} per search (cost {})", total / n);
    assert!(each.as_micros() < 1000);
}
