//! The 1800 map drawn: sea zones as washes with their names, land borders as grey lines and
//! strait crossings dashed blue, every province as a node (a city square, a countryside circle,
//! coastal ones with a blue halo) tinted in its controller's colour, with its name, factories,
//! its pops by owner as numbered chips, its regiment as a cone, and a red ring where a battle is
//! waiting to be resolved.

use super::layout::Layout;
use crate::draw::{El, colour, num};
use crate::games::r1800::Data;
use crate::games::r1800::state::{NEUTRAL, State};

/// The neutral pops and regiments (dark enough for white numbers).
pub const NEUTRAL_INK: &str = "#6f6a60";
/// A neutral-controlled province's fill.
const NEUTRAL_FILL: &str = "#dcd8ce";
/// The sea zones' names and the strait crossings.
pub const SEA_INK: &str = "#2b6a9e";
/// The sea zones' wash and the coastal halo.
pub const SEA_WASH: &str = "#dde9f5";
/// A land border.
pub const BORDER: &str = "#b9b2a3";
/// A battle waiting to be resolved.
pub const ALARM: &str = "#c0392b";
/// A node's half size.
const R: f64 = 12.0;

/// The colour of a pops index (powers 0..8, [`NEUTRAL`]): the seat colour of the seat playing
/// that power, grey for the neutral population (and a power no seat plays).
pub fn owner_colour(s: &State, owner: usize) -> &'static str {
    if owner == NEUTRAL {
        return NEUTRAL_INK;
    }
    s.seat_of(owner).map(|seat| colour::seat(seat + 1)).unwrap_or(NEUTRAL_INK)
}

/// `hex` mixed with white: `keep` of the colour (0 to 1) is kept.
fn tint(hex: &str, keep: f64) -> String {
    let h = hex.trim_start_matches('#');
    let ch = |i: usize| h.get(i..i + 2).and_then(|x| u8::from_str_radix(x, 16).ok()).unwrap_or(255);
    let mix = |c: u8| (f64::from(c) * keep + 255.0 * (1.0 - keep)).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(ch(0)), mix(ch(2)), mix(ch(4)))
}

/// The sea zones (the layout's second group): a wash and the name.
fn seas(d: &Data, layout: &Layout) -> Vec<El> {
    let mut out = Vec::new();
    for (name, p) in d.sea_names.iter().zip(&layout.second) {
        out.push(
            El::new("ellipse").n("cx", p.0).n("cy", p.1).n("rx", 46.0).n("ry", 20.0).attr("fill", SEA_WASH),
        );
        let lines = crate::draw::text::lines(name, 12);
        let top = p.1 + 4.0 - 6.0 * (lines.len() as f64 - 1.0);
        for (k, l) in lines.iter().enumerate() {
            out.push(
                El::label(p.0, top + 12.0 * k as f64, 10.5, l)
                    .attr("fill", SEA_INK)
                    .attr("font-style", "italic"),
            );
        }
    }
    out
}

/// Land borders (grey) and strait crossings (dashed blue), each pair once, as two paths (one
/// element each, however many borders: the picture is drawn after every move in the tests).
fn borders(d: &Data, at: &[(f64, f64)]) -> Vec<El> {
    let (mut land, mut sea) = (String::new(), String::new());
    for (i, p) in d.provinces.iter().enumerate() {
        for &j in p.adjacent.iter().filter(|j| usize::from(**j) > i) {
            let (Some(a), Some(b)) = (at.get(i), at.get(usize::from(j))) else { continue };
            let into = if p.straits.contains(&j) { &mut sea } else { &mut land };
            into.push_str(&format!("M{} {}L{} {}", num(a.0), num(a.1), num(b.0), num(b.1)));
        }
    }
    let path = |d: String, stroke: &str, width: f64| {
        El::new("path").attr("d", d).attr("fill", "none").attr("stroke", stroke).n("stroke-width", width)
    };
    vec![path(land, BORDER, 1.6), path(sea, SEA_INK, 1.8).attr("stroke-dasharray", "5 3")]
}

/// One province: halo if coastal, its shape tinted by its controller, its name above, "F2" for
/// two factories inside, its pops as chips below and its regiment as a cone on the right.
fn province(d: &Data, s: &State, i: usize, p: (f64, f64)) -> Vec<El> {
    let (Some(info), Some(prov)) = (d.provinces.get(i), s.provinces.get(i)) else { return Vec::new() };
    let mut out = Vec::new();
    if info.coastal {
        out.push(El::circle(p.0, p.1, R + 5.0, SEA_WASH));
    }
    let (fill, edge) = match s.controller(i as u16) {
        Some(NEUTRAL) => (NEUTRAL_FILL.to_string(), NEUTRAL_INK),
        Some(o) => {
            let c = owner_colour(s, o);
            (tint(c, 0.35), c)
        }
        None => ("#ffffff".to_string(), colour::INK),
    };
    let shape = if info.is_city() {
        El::rect(p.0 - R, p.1 - R, 2.0 * R, 2.0 * R, &fill).n("rx", 3.0)
    } else {
        El::circle(p.0, p.1, R, &fill)
    };
    out.push(shape.attr("stroke", edge).n("stroke-width", if info.is_city() { 2.2 } else { 1.6 }));
    if prov.factories > 0 {
        out.push(
            El::label(p.0, p.1 + 3.5, 9.5, format!("F{}", prov.factories))
                .attr("fill", colour::INK)
                .attr("font-weight", "bold"),
        );
    }
    let mut name = El::label(p.0, p.1 - R - 3.0, 8.0, &info.name).attr("fill", colour::INK);
    if info.is_city() {
        name = name.attr("font-weight", "bold");
    }
    out.push(name);
    out.extend(chips(s, prov.pops, p));
    if let Some(r) = prov.regiment {
        let fill = owner_colour(s, r.owner.map(usize::from).unwrap_or(NEUTRAL));
        let (x, y) = (p.0 + R + 6.0, p.1 + 6.0);
        let mut cone = El::polygon(&[(x - 6.0, y), (x + 6.0, y), (x, y - 16.0)], fill)
            .attr("stroke", "#ffffff")
            .n("stroke-width", 1.2);
        if r.conscripted.is_some() {
            cone = cone.attr("stroke-dasharray", "2 1.5");
        }
        out.push(cone);
    }
    out
}

/// The pops in a province, one chip per owner with the count, in a row under the node.
fn chips(s: &State, pops: [u8; 9], p: (f64, f64)) -> Vec<El> {
    let owners: Vec<(usize, u8)> = pops.iter().copied().enumerate().filter(|(_, n)| *n > 0).collect();
    let w = 13.0;
    let left = p.0 - (owners.len() as f64 - 1.0) * w / 2.0;
    let y = p.1 + R + 6.5;
    let mut out = Vec::new();
    for (k, (o, n)) in owners.into_iter().enumerate() {
        let x = left + k as f64 * w;
        let fill = owner_colour(s, o);
        out.push(
            El::circle(x, y, 6.3, fill)
                .attr("stroke", "#ffffff")
                .n("stroke-width", 1.0)
                .attr("class", "token"),
        );
        out.push(
            El::label(x, y + 3.0, 8.5, n).attr("fill", colour::text_on(fill)).attr("font-weight", "bold"),
        );
    }
    out
}

/// A red ring round each province where a battle waits to be resolved.
fn battles(s: &State, at: &[(f64, f64)]) -> Vec<El> {
    let Some(phase) = s.war.phase.as_ref() else { return Vec::new() };
    phase
        .battles
        .iter()
        .filter_map(|b| at.get(b.at.index()))
        .map(|p| El::circle(p.0, p.1, R + 8.0, "none").attr("stroke", ALARM).n("stroke-width", 2.5))
        .collect()
}

/// The whole map in the layout's frame.
pub fn map(d: &Data, s: &State, layout: &Layout) -> Vec<El> {
    let at = &layout.first; // the provinces
    let mut out = seas(d, layout);
    out.extend(borders(d, at));
    for (i, p) in at.iter().enumerate() {
        out.extend(province(d, s, i, *p));
    }
    out.extend(battles(s, at));
    out
}

#[cfg(test)]
mod tests {
    use super::tint;

    #[test]
    fn a_tint_mixes_the_colour_with_white() {
        assert_eq!(tint("#000000", 0.0), "#ffffff");
        assert_eq!(tint("#1f6fb0", 1.0), "#1f6fb0");
        assert_eq!(tint("#000000", 0.5), "#808080");
    }
}
