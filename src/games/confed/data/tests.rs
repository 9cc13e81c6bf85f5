//! The shipped data against the counts of the rules text, and broken files refused with the file
//! and entry named. Counts checked, and the case giving each: lines 24 (RT 2.1.1), Victory Depots
//! 8 (2.1.2), ferries 6, overland transfers 5, unbuilt segments 2 (2.1.1), entry points 4
//! (2.1.3), congestion stations 36 (5.5), shield stations 10 (5.9.1), loads 89 with 16 Troops
//! and 7 Blockade Runners (3.7, 5.7), 36 red and 5 black war-materiel (2.3.1), event chits 28
//! (3.7, 7.1-7.15), Special Event counters 12 (6.1-6.8), RRCs handed out 24 per player count (3.4).

use super::*;

fn data() -> Data {
    Data::standard().expect("the standard Confederate Rails data loads")
}

fn broken(edit: impl Fn(&mut Files)) -> DataError {
    let mut files = Files::standard();
    edit(&mut files);
    Data::load(&files).expect_err("the broken file is refused")
}

fn replace(text: &mut String, from: &str, to: &str) {
    assert!(text.contains(from), "the test edit finds {from:?}");
    *text = text.replace(from, to);
}

#[test]
fn the_shipped_files_load_and_say_they_are_reconstructed() {
    let d = data();
    assert!(d.map.reconstructed && d.loads_reconstructed && d.tables.reconstructed);
}

#[test]
fn the_map_has_the_counts_of_the_rules_text() {
    let d = data();
    let m = &d.map;
    let kind = |k: &SegmentKind| m.segments.iter().filter(|s| s.kind == *k).count();
    assert_eq!(m.lines.len(), 24);
    assert_eq!(m.stations.iter().filter(|s| s.kind == StationKind::VictoryDepot).count(), 8);
    assert_eq!((kind(&SegmentKind::Ferry), kind(&SegmentKind::Overland)), (6, 5));
    assert_eq!(m.segments.iter().filter(|s| matches!(s.kind, SegmentKind::Unbuilt { .. })).count(), 2);
    assert_eq!(m.entries.len(), 4);
    assert_eq!(m.stations.iter().filter(|s| s.congestion).count(), 36);
    assert_eq!(m.stations.iter().filter(|s| s.shield).count(), 10);
    // FACTS §3.1: the reconstruction has 236 stations and 259 joined pairs; the parallel
    // Hanover-Richmond pair (RT 2.3.3) is two segments, so 260 segments.
    let pairs: std::collections::BTreeSet<(usize, usize)> =
        m.segments.iter().map(|s| (s.a.min(s.b), s.a.max(s.b))).collect();
    assert_eq!((m.stations.len(), pairs.len(), m.segments.len()), (236, 259, 260));
}

#[test]
fn the_stations_the_rules_name_are_where_the_rules_put_them() {
    let d = data();
    let m = &d.map;
    let lines = |n: &str| m.stations[m.station(n).unwrap()].lines.iter().copied().collect::<Vec<u8>>();
    assert_eq!(lines("Corinth"), vec![17, 18]);
    assert_eq!(lines("Savannah").len(), 3);
    assert_eq!(lines("Raleigh"), vec![5, 6]);
    assert!(m.stations[m.repair_box].kind.is_depot());
    let hanover = m.station("Hanover").unwrap();
    let richmond = m.station("Richmond").unwrap();
    assert_eq!(m.segments_between(hanover, richmond).len(), 2, "RT 2.3.3: two parallel segments");
}

#[test]
fn the_loads_have_89_chits_in_the_groups_of_the_rules_text() {
    let d = data();
    let n = |k: LoadKind| d.loads.iter().filter(|l| l.kind == k).count();
    assert_eq!(d.loads.len() + d.troops.count as usize, 89);
    assert_eq!((n(LoadKind::Civilian), n(LoadKind::War), n(LoadKind::BlockadeRunner)), (41, 25, 7));
    assert_eq!(d.loads.iter().filter(|l| l.red).count() + d.troops.count as usize, 36);
    assert_eq!((d.troops.payout, d.troops.line_fee), (1000, 100));
}

#[test]
fn the_tables_events_and_specials_have_the_counts_of_the_rules_text() {
    let d = data();
    let t = &d.tables;
    assert_eq!(t.war_progress.len(), 11);
    assert!(t.war_progress.iter().all(|r| r.len() == 8));
    assert_eq!(t.congestion.iter().map(Vec::len).sum::<usize>(), 36);
    assert_eq!(t.events.iter().map(|e| e.count).sum::<u32>(), 28);
    assert_eq!(t.specials.iter().map(|s| s.count).sum::<u32>(), 12);
    let trains: Vec<u8> = t.setup.iter().map(|s| s.trains).collect();
    assert_eq!(trains, vec![7, 5, 4, 3]);
}

#[test]
fn an_unknown_station_in_a_load_is_refused_naming_the_load() {
    let e = broken(|f| replace(&mut f.loads, "pickup = \"Memphis\"", "pickup = \"Memphiss\""));
    assert_eq!((e.file, e.entry.as_str()), ("loads.toml", "load 1"));
    assert!(e.to_string().starts_with("rules/confederate_rails/loads.toml: load 1: unknown station"));
}

#[test]
fn a_wrong_number_of_ferries_is_refused() {
    let e = broken(|f| replace(&mut f.map, "{ a = \"Norfolk\", b = \"Portsmouth\", kind = \"ferry\" },", ""));
    assert_eq!((e.file, e.entry.as_str()), ("map.toml", "special ferries"));
}

#[test]
fn a_wrong_number_of_load_chits_is_refused() {
    let e = broken(|f| replace(&mut f.loads, "count = 16", "count = 15"));
    assert_eq!(e.file, "loads.toml");
    assert!(e.msg.contains("the rules have 16"), "{e}");
}

#[test]
fn a_line_cut_off_from_the_network_is_refused() {
    // Cutting the Florida line at Baldwin leaves Jacksonville (FL) unreachable.
    let e = broken(|f| {
        replace(
            &mut f.map,
            "\"Lake City\", \"Baldwin\", \"Jacksonville (FL)\"]",
            "\"Lake City\"],\n  [\"Baldwin\", \"Jacksonville (FL)\"]",
        )
    });
    assert!(e.msg.contains("cut off"), "{e}");
}

#[test]
fn a_station_named_by_the_rules_but_missing_is_refused() {
    let e = broken(|f| replace(&mut f.map, "\"Whitesville\"", "\"Whiteville\""));
    assert_eq!(e.entry, "station \"Whitesville\"");
}

#[test]
fn a_war_progress_station_without_a_shield_is_refused() {
    let e = broken(|f| replace(&mut f.tables, "columns = [\"Norfolk\"", "columns = [\"Raleigh\""));
    assert_eq!((e.file, e.entry.as_str()), ("tables.toml", "war_progress roll 2"));
}

#[test]
fn an_event_count_that_breaks_28_is_refused() {
    let e = broken(|f| {
        replace(&mut f.tables, "name = \"Bad Rails\", count = 3", "name = \"Bad Rails\", count = 4")
    });
    assert_eq!(e.entry, "event");
}

#[test]
fn a_set_up_that_does_not_hand_out_24_railroads_is_refused() {
    let e = broken(|f| replace(&mut f.tables, "rrc_dealt_initiative = 3", "rrc_dealt_initiative = 4"));
    assert_eq!(e.entry, "setup 5 players");
}

#[test]
fn a_segment_that_joins_no_line_cannot_be_a_ferry() {
    let e = broken(|f| {
        replace(&mut f.map, "{ a = \"Hopefield\", b = \"Memphis\"", "{ a = \"Hopefield\", b = \"Corinth\"")
    });
    assert_eq!(e.entry, "special Hopefield-Corinth");
}
