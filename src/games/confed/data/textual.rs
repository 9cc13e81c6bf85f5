//! The checks of the map against the rules text: the counts it fixes, the stations it names
//! and where it puts them, and a network connected over built segments (RT 2.1).

use super::map_error as err;
use super::{DataError, Map, SegmentKind, StationKind, counts};
use std::collections::BTreeSet;

/// Stations the rules text names, with the lines the text puts them on (empty: any line).
const NAMED_BY_TEXT: &[(&str, &[u8], &str)] = &[
    ("Corinth", &[17, 18], "RT 2.1.2"),
    ("Atlanta", &[11, 12], "RT 5.3.4"),
    ("East Point", &[12], "RT 5.3.4"),
    ("Whitesville", &[7], "RT 5.3.4"),
    ("Strickland's Depot", &[5], "RT 5.3.4"),
    ("Wilmington", &[5, 7], "RT 5.3.4"),
    ("Raleigh", &[5, 6], "RT 2.1.4"),
    ("Strasburg", &[1], "RT 6.7"),
    ("Staunton", &[2], "RT 6.7"),
    ("Jackson (TN)", &[23], "RT 2.1.1"),
    ("Jackson (MS)", &[23], "RT 2.1.1"),
    ("New Orleans", &[23], "RT 2.1.1"),
    ("Savannah", &[], "RT 2.1.2"),
    ("Proctorville", &[], "RT 6.6"),
    ("Spring Hill", &[], "RT 6.6"),
    ("Danville", &[6], "RT 7.10"),
    ("Greensboro", &[6], "RT 7.10"),
    ("Meridian", &[24], "RT 7.11"),
    ("McDowell's Bluff", &[24], "RT 7.11"),
    ("Hanover", &[], "RT 2.3.3"),
    ("Richmond", &[], "RT 2.3.3"),
    ("Lawton", &[], "RT 2.3.3"),
    ("Live Oak", &[], "RT 2.3.3"),
];

pub(super) fn check_counts(map: &Map) -> Result<(), DataError> {
    let kinds = |f: &dyn Fn(&SegmentKind) -> bool| map.segments.iter().filter(|s| f(&s.kind)).count();
    let checks = [
        (
            "victory_depots",
            map.stations.iter().filter(|s| s.kind == StationKind::VictoryDepot).count(),
            counts::VICTORY_DEPOTS,
            "RT 2.1.2",
        ),
        ("special ferries", kinds(&|k| *k == SegmentKind::Ferry), counts::FERRIES, "RT 2.1.1"),
        ("special overland transfers", kinds(&|k| *k == SegmentKind::Overland), counts::OVERLAND, "RT 2.1.1"),
        (
            "special unbuilt",
            kinds(&|k| matches!(k, SegmentKind::Unbuilt { .. })),
            counts::UNBUILT,
            "RT 2.1.1",
        ),
        ("entry", map.entries.len(), counts::ENTRY_POINTS, "RT 2.1.3"),
        (
            "congestion",
            map.stations.iter().filter(|s| s.congestion).count(),
            counts::CONGESTION_STATIONS,
            "RT 5.5",
        ),
        ("shields", map.stations.iter().filter(|s| s.shield).count(), counts::SHIELD_STATIONS, "RT 5.9.1"),
    ];
    for (entry, found, want, case) in checks {
        if found != want {
            return Err(err(entry, format!("{found} found, the rules have {want} ({case})")));
        }
    }
    for line in &map.lines {
        let vds = line
            .stations
            .iter()
            .filter(|s| map.stations.get(**s).is_some_and(|s| s.kind == StationKind::VictoryDepot))
            .count();
        if vds > 1 {
            return Err(err(
                format!("line {}", line.number),
                format!("{vds} Victory Depots; a card has 0 or 1 (RT 2.2)"),
            ));
        }
    }
    Ok(())
}

pub(super) fn check_named(map: &Map) -> Result<(), DataError> {
    for (name, on, case) in NAMED_BY_TEXT {
        let entry = format!("station \"{name}\"");
        let s = map
            .station(name)
            .and_then(|i| map.stations.get(i))
            .ok_or_else(|| err(entry.clone(), format!("missing; the rules name it ({case})")))?;
        if let Some(l) = on.iter().find(|l| !s.lines.contains(l)) {
            return Err(err(entry, format!("not on line {l} as the rules say ({case})")));
        }
    }
    let on_lines =
        |name: &str| map.station(name).and_then(|i| map.stations.get(i)).map(|s| s.lines.len()).unwrap_or(0);
    if on_lines("Savannah") != 3 {
        return Err(err("station \"Savannah\"", "must be on three lines (RT 2.1.2)"));
    }
    let raleigh = map.station("Raleigh");
    if raleigh != Some(map.repair_box) || !map.stations.get(map.repair_box).is_some_and(|s| s.kind.is_depot())
    {
        return Err(err("repair_box", "the Repair Box is at Raleigh, a Depot (RT 5.8, 5.4.1)"));
    }
    for dead_end in ["Proctorville", "Spring Hill"] {
        if map.station(dead_end).map(|i| map.segments_at(i).len()) != Some(1) {
            return Err(err(format!("station \"{dead_end}\""), "must be a dead end (RT 6.6)"));
        }
    }
    for (a, b, line, event) in
        [("Danville", "Greensboro", 6, "7.10"), ("Meridian", "McDowell's Bluff", 24, "7.11")]
    {
        let ok = map.station(a).zip(map.station(b)).is_some_and(|(ia, ib)| {
            map.segments_between(ia, ib).iter().any(|s| {
                map.segments.get(*s).is_some_and(|s| {
                    s.owners == [line] && s.kind == SegmentKind::Unbuilt { event: event.into() }
                })
            })
        });
        if !ok {
            return Err(err(
                format!("special {a}-{b}"),
                format!("must be unbuilt on line {line}, completed by event {event} (RT {event})"),
            ));
        }
    }
    let lawton = map.station("Lawton").zip(map.station("Live Oak")).map(|(a, b)| map.segments_between(a, b));
    if !lawton.is_some_and(|segs| {
        segs.len() == 1 && segs.iter().all(|s| map.segments.get(*s).is_some_and(|s| s.owners.len() == 2))
    }) {
        return Err(err(
            "station \"Lawton\"",
            "Lawton-Live Oak must be one segment shared by two lines (RT 2.3.3)",
        ));
    }
    let names: BTreeSet<&str> = map.entries.iter().map(|e| e.name.as_str()).collect();
    if names != BTreeSet::from(["Illinois", "Indiana", "Ohio", "Maryland"]) {
        return Err(err("entry", "the entry points are Illinois, Indiana, Ohio and Maryland (RT 2.1.3)"));
    }
    Ok(())
}

/// Every station is reachable from every other over built segments (RT 2.1.1: the unbuilt ones
/// do not exist at the start).
pub(super) fn check_connected(map: &Map) -> Result<(), DataError> {
    let mut seen = vec![false; map.stations.len()];
    let mut stack = vec![0usize];
    while let Some(at) = stack.pop() {
        if seen.get(at).copied().unwrap_or(true) {
            continue;
        }
        if let Some(v) = seen.get_mut(at) {
            *v = true;
        }
        for s in map.segments_at(at) {
            if let Some(seg) = map.segments.get(*s).filter(|s| !matches!(s.kind, SegmentKind::Unbuilt { .. }))
            {
                stack.extend(seg.other(at));
            }
        }
    }
    match seen.iter().position(|v| !v) {
        None => Ok(()),
        Some(i) => {
            let name = map.stations.get(i).map(|s| s.name.as_str()).unwrap_or("?");
            Err(err(format!("station \"{name}\""), "cut off from the network over built segments (RT 2.1.1)"))
        }
    }
}
