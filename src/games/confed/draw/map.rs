//! The Confederate Rails map drawn: every segment in its line owner's seat colour (grey when no
//! one owns the line; a shared segment as one strand per line), ferries, overland transfers and
//! unbuilt rail in their own strokes, Bad Rails dashed, blown bridges and Ripped Up! markers;
//! stations by kind (Victory Depots gold), Union occupation, congestion, the trains standing in
//! each station with their loads, abandoned loads, and the four Union entry points.

use super::layout::Layout;
use crate::draw::{El, colour};
use crate::games::confed::board::{self, is_depot, is_load_station};
use crate::games::confed::data::{SegmentKind, StationKind};
use crate::games::confed::state::E_TRAIN;
use crate::games::confed::{Data, State};
use std::collections::BTreeMap;

/// The Union's blue (occupied stations, entry points).
pub const UNION: &str = "#1c3f94";
/// A line no one owns.
pub const UNOWNED: &str = "#a9a39a";
/// A Victory Depot.
pub const GOLD: &str = "#f2c230";
/// Congestion and disruption.
pub const ALARM: &str = "#d35400";
const STRAND: f64 = 3.0;

/// The colour of line `number`: its owner's seat colour, or grey.
fn line_colour(s: &State, number: u8) -> &'static str {
    s.owner_of(number).map(|seat| colour::seat(seat.0)).unwrap_or(UNOWNED)
}

/// A stroke from `a` to `b` moved sideways by `off` px.
fn strand(a: (f64, f64), b: (f64, f64), off: f64, stroke: &str) -> El {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy).max(1e-6);
    let (nx, ny) = (-dy / len * off, dx / len * off);
    El::line((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny), stroke, STRAND).attr("stroke-linecap", "round")
}

/// The segments, strand by strand, then the disruption markers on top.
fn segments(d: &Data, s: &State, at: &[(f64, f64)]) -> Vec<El> {
    // Every line's strand between one pair of stations, so parallel and shared segments sit
    // side by side.
    let mut pairs: BTreeMap<(usize, usize), Vec<(usize, u8)>> = BTreeMap::new();
    for (i, seg) in d.map.segments.iter().enumerate() {
        let key = (seg.a.min(seg.b), seg.a.max(seg.b));
        pairs.entry(key).or_default().extend(seg.owners.iter().map(|l| (i, *l)));
    }
    let mut out = Vec::new();
    let mut marks = Vec::new();
    for ((a, b), strands) in &pairs {
        let (Some(pa), Some(pb)) = (at.get(*a).copied(), at.get(*b).copied()) else { continue };
        for (k, (seg, line)) in strands.iter().enumerate() {
            let off = (k as f64 - (strands.len() as f64 - 1.0) / 2.0) * STRAND;
            let mut el = strand(pa, pb, off, line_colour(s, *line));
            let kind = &d.map.segments[*seg].kind;
            el = match kind {
                SegmentKind::Ferry => el.attr("stroke-dasharray", "3 3"),
                SegmentKind::Overland => el.attr("stroke-dasharray", "0.5 4.5"),
                SegmentKind::Unbuilt { .. } if !board::exists(d, s, *seg) => {
                    el.attr("stroke-dasharray", "2 6").attr("opacity", "0.6")
                }
                _ if s.bad_rails.contains(line) => el.attr("stroke-dasharray", "8 3"),
                _ => el,
            };
            out.push(el);
        }
        let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
        for (seg, _) in strands.iter().take(1) {
            marks.extend(disruption(s, *seg, mid));
        }
    }
    out.extend(marks);
    out
}

/// Each line's number on the map (issue 36: `RRC 12` must be found on it): a white plate edged
/// in the line's colour at the middle of its longest stretch of track between two stations.
fn line_numbers(d: &Data, s: &State, at: &[(f64, f64)]) -> Vec<El> {
    let mut best: BTreeMap<u8, (f64, (f64, f64))> = BTreeMap::new();
    for seg in &d.map.segments {
        if !matches!(seg.kind, SegmentKind::Rail | SegmentKind::Unbuilt { .. }) {
            continue;
        }
        let (Some(pa), Some(pb)) = (at.get(seg.a), at.get(seg.b)) else { continue };
        let len = (pb.0 - pa.0).hypot(pb.1 - pa.1);
        let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
        for line in &seg.owners {
            if best.get(line).is_none_or(|(l, _)| len > *l) {
                best.insert(*line, (len, mid));
            }
        }
    }
    let mut out = Vec::new();
    for (line, (_, mid)) in best {
        let stroke = line_colour(s, line);
        let w = if line >= 10 { 14.0 } else { 9.0 };
        out.push(
            El::rect(mid.0 - w / 2.0, mid.1 - 5.5, w, 11.0, "#ffffff")
                .n("rx", 2.0)
                .attr("stroke", stroke)
                .n("stroke-width", 1.2),
        );
        out.push(
            El::label(mid.0, mid.1 + 3.0, 8.0, line).attr("fill", colour::INK).attr("class", "line-number"),
        );
    }
    out
}

/// A blown bridge (a red cross) and Ripped Up! markers (a red box with their count) on a segment.
fn disruption(s: &State, seg: usize, mid: (f64, f64)) -> Vec<El> {
    let mut out = Vec::new();
    if s.bridges_out.contains(&seg) {
        let r = 5.0;
        out.push(El::line((mid.0 - r, mid.1 - r), (mid.0 + r, mid.1 + r), ALARM, 2.5));
        out.push(El::line((mid.0 - r, mid.1 + r), (mid.0 + r, mid.1 - r), ALARM, 2.5));
    }
    if let Some(k) = s.ripped.get(&seg).filter(|k| **k > 0) {
        out.push(
            El::rect(mid.0 - 7.0, mid.1 - 6.0, 14.0, 12.0, "#ffffff")
                .attr("stroke", ALARM)
                .n("stroke-width", 1.5),
        );
        out.push(
            El::label(mid.0, mid.1 + 3.5, 8.5, format!("R{k}"))
                .attr("fill", ALARM)
                .attr("font-weight", "bold"),
        );
    }
    out
}

/// A hexagon around `c` with circumradius `r`.
fn hexagon(c: (f64, f64), r: f64, fill: &str) -> El {
    let pts: Vec<(f64, f64)> = (0..6)
        .map(|k| {
            let a = (60.0 * f64::from(k)).to_radians();
            (c.0 + r * a.cos(), c.1 + r * a.sin())
        })
        .collect();
    El::polygon(&pts, fill)
}

/// One station: its shape by kind (RT 2.1.2), filled Union blue when occupied, ringed when
/// congested, and its name.
fn station(d: &Data, s: &State, id: usize, p: (f64, f64)) -> Vec<El> {
    let Some(st) = d.map.stations.get(id) else { return Vec::new() };
    let occupied = s.occupied.contains(&id);
    let fill = |normal: &'static str| if occupied { UNION } else { normal };
    let mut out = Vec::new();
    if s.congested.contains(&id) {
        out.push(El::circle(p.0, p.1, 10.0, "none").attr("stroke", ALARM).n("stroke-width", 2.0));
    }
    let (shape, size) = if st.kind == StationKind::VictoryDepot {
        (hexagon(p, 7.5, fill(GOLD)).attr("stroke", colour::INK).n("stroke-width", 2.0), 7.5)
    } else if is_depot(d, s, id) {
        (hexagon(p, 6.0, fill("#ffffff")).attr("stroke", colour::INK).n("stroke-width", 1.5), 6.0)
    } else if is_load_station(d, s, id) {
        (
            El::rect(p.0 - 4.0, p.1 - 4.0, 8.0, 8.0, fill("#ffffff"))
                .attr("stroke", colour::INK)
                .n("stroke-width", 1.2),
            4.0,
        )
    } else {
        (El::circle(p.0, p.1, 3.2, fill("#ffffff")).attr("stroke", colour::INK).n("stroke-width", 1.0), 3.2)
    };
    out.push(shape);
    let major = st.kind.is_depot() || is_depot(d, s, id);
    let mut label = El::words(p.0 + size + 2.0, p.1 + 3.0, if major { 8.5 } else { 7.0 }, &st.name)
        .attr("fill", if occupied { UNION } else { colour::INK });
    if major {
        label = label.attr("font-weight", "bold");
    }
    out.push(label);
    out
}

/// The trains standing in a station, stacked above it, in their owners' colours with their
/// numbers; a train carrying its load (picked up) has a gold corner.
fn trains(s: &State, at: &[(f64, f64)]) -> Vec<El> {
    let mut stacks: BTreeMap<usize, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, p) in s.players.iter().enumerate() {
        let seat = crate::engine::Seat::from_index(i);
        for t in &p.trains {
            let Some(st) = t.station() else { continue };
            let Some(c) = at.get(st) else { continue };
            let k = stacks.entry(st).or_default();
            let (x, y) = (c.0 - 8.0 + 17.0 * *k as f64, c.1 - 21.0);
            *k += 1;
            let fill = colour::seat(seat.0);
            out.push(
                El::rect(x, y, 16.0, 11.0, fill)
                    .n("rx", 2.0)
                    .attr("stroke", "#ffffff")
                    .n("stroke-width", 1.0),
            );
            let number = if t.id == E_TRAIN { "E".to_string() } else { t.id.to_string() };
            out.push(
                El::label(x + 8.0, y + 8.5, 8.0, number)
                    .attr("fill", colour::text_on(fill))
                    .attr("font-weight", "bold"),
            );
            if t.load.as_ref().is_some_and(|l| l.picked) {
                out.push(El::polygon(&[(x + 10.0, y), (x + 16.0, y), (x + 16.0, y + 6.0)], GOLD));
            }
        }
    }
    for a in &s.abandoned {
        if let Some(c) = at.get(a.at) {
            out.push(
                El::rect(c.0 - 12.0, c.1 + 5.0, 8.0, 8.0, "#8b5a2b")
                    .attr("stroke", "#ffffff")
                    .n("stroke-width", 0.8),
            );
        }
    }
    out
}

/// The Union entry points: a blue star, the name, and the entry line to its station.
fn entries(d: &Data, layout: &Layout) -> Vec<El> {
    let (stations, entry_points) = (&layout.first, &layout.second);
    let mut out = Vec::new();
    for (e, p) in d.map.entries.iter().zip(entry_points) {
        if let Some(to) = stations.get(e.joins) {
            out.push(El::line(*p, *to, UNION, 2.5).attr("stroke-dasharray", "6 2"));
        }
        let star: Vec<(f64, f64)> = (0..10)
            .map(|k| {
                let r = if k % 2 == 0 { 9.0 } else { 3.8 };
                let a = (-90.0 + 36.0 * f64::from(k)).to_radians();
                (p.0 + r * a.cos(), p.1 + r * a.sin())
            })
            .collect();
        out.push(El::polygon(&star, UNION));
        out.push(
            El::label(p.0, p.1 - 12.0, 9.0, format!("Union: {}", e.name))
                .attr("fill", UNION)
                .attr("font-weight", "bold"),
        );
    }
    out
}

/// The whole map in the layout's frame.
pub fn map(d: &Data, s: &State, layout: &Layout) -> Vec<El> {
    let at = &layout.first; // the stations
    let mut out = segments(d, s, at);
    out.extend(line_numbers(d, s, at));
    out.extend(entries(d, layout));
    for (id, p) in at.iter().enumerate() {
        out.extend(station(d, s, id, *p));
    }
    out.extend(trains(s, at));
    out
}
