//! Checking `map.toml`: stations and segments built from the lines, the station kinds, the
//! special segments, the counts of the rules text, the stations the text names, and a connected
//! network (RT 2.1).

use super::map_error as err;
use super::raw::{MapFile, SpecialRaw};
use super::textual;
use super::{
    DataError, EntryPoint, Line, MAP_FILE, Map, Segment, SegmentKind, Station, StationKind, counts, parse,
};
use std::collections::{BTreeMap, BTreeSet};

fn unordered(a: usize, b: usize) -> (usize, usize) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Check `map.toml` and build the map.
pub(super) fn map(text: &str) -> Result<Map, DataError> {
    let raw: MapFile = parse(MAP_FILE, text)?;
    if raw.line.len() != counts::LINES {
        return Err(err(
            "",
            format!("{} lines, the rules have {} (RT 2.1.1)", raw.line.len(), counts::LINES),
        ));
    }
    let mut by_name: BTreeMap<String, usize> = BTreeMap::new();
    let mut stations: Vec<Station> = Vec::new();
    let mut lines: Vec<Line> = Vec::new();
    let parallel: BTreeSet<(String, String)> =
        raw.parallel.iter().flat_map(|[a, b]| [(a.clone(), b.clone()), (b.clone(), a.clone())]).collect();
    let mut segments: Vec<Segment> = Vec::new();
    let mut shared: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (i, l) in raw.line.iter().enumerate() {
        let entry = format!("line {}", l.number);
        if usize::from(l.number) != i + 1 {
            return Err(err(
                entry,
                format!("lines must be numbered 1..=24 in order; found {} at place {}", l.number, i + 1),
            ));
        }
        let mut own: Vec<usize> = Vec::new();
        for path in &l.paths {
            if path.len() < 2 {
                return Err(err(entry, "a path needs at least two stations"));
            }
            let mut prev: Option<usize> = None;
            for name in path {
                let id = match by_name.get(name) {
                    Some(id) => *id,
                    None => {
                        stations.push(Station {
                            name: name.clone(),
                            kind: StationKind::Plain,
                            lines: BTreeSet::new(),
                            congestion: false,
                            shield: false,
                            sabotage: false,
                        });
                        by_name.insert(name.clone(), stations.len() - 1);
                        stations.len() - 1
                    }
                };
                if let Some(s) = stations.get_mut(id) {
                    s.lines.insert(l.number);
                }
                if !own.contains(&id) {
                    own.push(id);
                }
                if let Some(p) = prev {
                    if p == id {
                        return Err(err(entry, format!("station \"{name}\" follows itself")));
                    }
                    let key = unordered(p, id);
                    let pname = stations.get(p).map(|s| s.name.clone()).unwrap_or_default();
                    let is_parallel = parallel.contains(&(pname, name.clone()));
                    match shared.get(&key).copied() {
                        Some(seg) if !is_parallel => {
                            if let Some(s) = segments.get_mut(seg) {
                                if s.owners.contains(&l.number) {
                                    return Err(err(entry, format!("segment to \"{name}\" drawn twice")));
                                }
                                s.owners.push(l.number);
                            }
                        }
                        _ => {
                            segments.push(Segment {
                                a: p,
                                b: id,
                                owners: vec![l.number],
                                kind: SegmentKind::Rail,
                                bridge: false,
                                crossing_mp: 0,
                            });
                            shared.insert(key, segments.len() - 1);
                        }
                    }
                }
                prev = Some(id);
            }
        }
        lines.push(Line {
            number: l.number,
            abbr: l.abbr.clone(),
            name: l.name.clone(),
            states: l.states.clone(),
            stations: own,
        });
    }
    let lookup = |entry: &str, name: &str| -> Result<usize, DataError> {
        by_name
            .get(name)
            .copied()
            .ok_or_else(|| err(entry.to_string(), format!("unknown station \"{name}\"")))
    };
    for sp in &raw.special {
        apply_special(sp, &by_name, &mut segments)?;
    }
    for [a, b] in &raw.bridges {
        let entry = format!("bridge {a}-{b}");
        let (ia, ib) = (lookup(&entry, a)?, lookup(&entry, b)?);
        let found = segments.iter_mut().filter(|s| unordered(s.a, s.b) == unordered(ia, ib));
        let mut any = false;
        for s in found {
            s.bridge = true;
            any = true;
        }
        if !any {
            return Err(err(entry, "no segment joins these stations"));
        }
    }
    for [a, b] in &raw.parallel {
        let entry = format!("parallel {a}-{b}");
        let n = segments
            .iter()
            .filter(|s| {
                unordered(s.a, s.b)
                    == unordered(
                        lookup(&entry, a).unwrap_or(usize::MAX),
                        lookup(&entry, b).unwrap_or(usize::MAX),
                    )
            })
            .count();
        if n != 2 {
            return Err(err(
                entry,
                format!("{n} segments join these stations; a parallel pair needs 2 (RT 2.3.3)"),
            ));
        }
    }
    set_kinds(&raw, &by_name, &mut stations)?;
    let mut entries = Vec::new();
    for e in &raw.entry {
        let entry = format!("entry \"{}\"", e.name);
        let joins = lookup(&entry, &e.joins)?;
        if !stations.get(joins).is_some_and(|s| s.lines.contains(&e.line)) {
            return Err(err(entry, format!("\"{}\" is not on line {}", e.joins, e.line)));
        }
        entries.push(EntryPoint { name: e.name.clone(), joins, line: e.line });
    }
    let repair_box = lookup("repair_box", &raw.repair_box)?;
    let mut adjacency = vec![Vec::new(); stations.len()];
    for (i, s) in segments.iter().enumerate() {
        for end in [s.a, s.b] {
            if let Some(v) = adjacency.get_mut(end) {
                v.push(i);
            }
        }
    }
    let map = Map {
        reconstructed: raw.reconstructed,
        stations,
        segments,
        lines,
        entries,
        repair_box,
        by_name,
        adjacency,
    };
    textual::check_counts(&map)?;
    textual::check_named(&map)?;
    textual::check_connected(&map)?;
    Ok(map)
}

fn apply_special(
    sp: &SpecialRaw,
    by_name: &BTreeMap<String, usize>,
    segments: &mut [Segment],
) -> Result<(), DataError> {
    let entry = format!("special {}-{}", sp.a, sp.b);
    let id = |n: &str| {
        by_name.get(n).copied().ok_or_else(|| err(entry.clone(), format!("unknown station \"{n}\"")))
    };
    let key = unordered(id(&sp.a)?, id(&sp.b)?);
    // RT 2.1.1, 5.3.3: a ferry adds 1 MP and an overland transfer 2, unless the file gives the
    // crossing its own (RULING F1: the Cape Fear ferry of the 5.3.4 example adds 2).
    let (kind, mp) = match (sp.kind.as_str(), &sp.event) {
        ("ferry", None) => (SegmentKind::Ferry, sp.mp.unwrap_or(1)),
        ("overland", None) => (SegmentKind::Overland, sp.mp.unwrap_or(2)),
        ("unbuilt", _) if sp.mp.is_some() => {
            return Err(err(entry, "only a ferry or an overland transfer adds MP (mp)"));
        }
        ("unbuilt", Some(e)) => (SegmentKind::Unbuilt { event: e.clone() }, 0),
        ("unbuilt", None) => return Err(err(entry, "an unbuilt segment names its completion event")),
        (k, _) => {
            return Err(err(entry, format!("kind \"{k}\" is not ferry, overland or unbuilt (with event)")));
        }
    };
    let seg = segments
        .iter_mut()
        .find(|s| unordered(s.a, s.b) == key)
        .ok_or_else(|| err(entry.clone(), "no line joins these stations"))?;
    seg.kind = kind;
    seg.crossing_mp = mp;
    Ok(())
}

fn set_kinds(
    raw: &MapFile,
    by_name: &BTreeMap<String, usize>,
    stations: &mut [Station],
) -> Result<(), DataError> {
    let groups: [(&str, &Vec<String>); 6] = [
        ("load_stations", &raw.load_stations),
        ("depots", &raw.depots),
        ("victory_depots", &raw.victory_depots),
        ("congestion", &raw.congestion),
        ("shields", &raw.shields),
        ("sabotage_area", &raw.sabotage_area),
    ];
    for (group, names) in groups {
        let mut seen = BTreeSet::new();
        for name in names {
            let entry = format!("{group} \"{name}\"");
            if !seen.insert(name) {
                return Err(err(entry, "listed twice"));
            }
            let s = by_name
                .get(name)
                .and_then(|i| stations.get_mut(*i))
                .ok_or_else(|| err(entry.clone(), "unknown station"))?;
            let kind = match group {
                "load_stations" => StationKind::LoadStation,
                "depots" => StationKind::Depot,
                "victory_depots" => StationKind::VictoryDepot,
                _ => s.kind,
            };
            if kind != s.kind && s.kind != StationKind::Plain {
                return Err(err(entry, format!("already listed as {:?}", s.kind)));
            }
            s.kind = kind;
            match group {
                "congestion" => s.congestion = true,
                "shields" => s.shield = true,
                "sabotage_area" => s.sabotage = true,
                _ => {}
            }
        }
    }
    Ok(())
}
