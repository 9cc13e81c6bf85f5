//! The 1835 map drawn: every hex of `rules/1835/map.toml` at its printed coordinate, with its
//! terrain and build cost, the tile on it (laid or pre-printed) with its track, towns and cities
//! and their values, station tokens in company colours, off-boards with their values in each
//! real phase (the current one marked), and the water west of Hamburg no track may cross.

use super::company_colour;
use crate::draw::hex::Grid;
use crate::draw::layers::LAYER;
use crate::draw::{El, colour, document};
use crate::games::r1835::board::BoardState;
use crate::games::r1835::data::{Data, Hex, Tile, neighbour};

/// The map's hexes: circumradius in px; the grid leaves room for row letters on the left.
pub const GRID: Grid = Grid { r: 40.0, x0: 18.0, y0: 88.0 };
const TRACK: &str = "#1a1a1a";
const TRACK_W: f64 = 5.0;

/// A hex's fill: the tile's colour (white hexes a pale map colour; printed track grey).
fn fill(colour: &str) -> &'static str {
    match colour {
        "yellow" => "#f3dc4a",
        "green" => "#78b85a",
        "brown" => "#c08a52",
        "red" => "#d9463b",
        "fixed" => "#d2d2d2",
        _ => "#f6f1df",
    }
}

/// Turns a tile side by a rotation.
fn turn(side: u8, rotation: u8) -> u8 {
    (side + rotation) % 6
}

/// Where each stop of a tile sits: alone in the middle; several toward their exits (stops
/// without exits side by side), moved apart where two would overlap.
pub(super) fn stop_points(tile: &Tile, rotation: u8, c: (f64, f64)) -> Vec<(f64, f64)> {
    let r = GRID.r;
    let n = tile.stops.len();
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(n);
    for (i, s) in tile.stops.iter().enumerate() {
        let mut p = c;
        if n > 1 {
            let (mut dx, mut dy) = (0.0, 0.0);
            for e in &s.exits {
                let m = GRID.toward((0.0, 0.0), turn(*e, rotation), 1.0);
                dx += m.0;
                dy += m.1;
            }
            let len = (dx * dx + dy * dy).sqrt();
            p = if len > 0.2 {
                (c.0 + 0.5 * r * dx / len, c.1 + 0.5 * r * dy / len)
            } else {
                (c.0 + (i as f64 - (n as f64 - 1.0) / 2.0) * 0.62 * r, c.1)
            };
        }
        while out.iter().any(|q| (q.0 - p.0).hypot(q.1 - p.1) < 0.35 * r) {
            p.0 += 0.5 * r;
        }
        out.push(p);
    }
    out
}

/// A piece of track from `a` to `b`, bent through `via`.
fn track(a: (f64, f64), via: (f64, f64), b: (f64, f64)) -> El {
    El::new("path")
        .attr("d", format!("M{} {} Q{} {} {} {}", n(a.0), n(a.1), n(via.0), n(via.1), n(b.0), n(b.1)))
        .attr("fill", "none")
        .attr("stroke", TRACK)
        .n("stroke-width", TRACK_W)
}

/// The smallest text of the map — a hex's name, coordinate and build cost — in SVG units. The
/// mailed map is enlarged until it is 10 px (`Part::mail_scale`): at 8 the map part is mailed at
/// 1.25×, where a coordinate at 7 made it 1.43× and a third more pixels to render, encode and
/// send (issue 38, RULING O31). At 8.5 Hamburg's name finds no place clear of its tokens.
const SMALL: f64 = 8.0;

fn n(x: f64) -> String {
    crate::draw::num(x)
}

/// A station token or an empty circle of a city.
fn slot(p: (f64, f64), company: Option<&str>) -> Vec<El> {
    let rad = 0.24 * GRID.r;
    match company {
        Some(id) => {
            let c = company_colour(id);
            vec![
                El::circle(p.0, p.1, rad, c)
                    .attr("stroke", TRACK)
                    .n("stroke-width", 1.5)
                    .attr("class", "token"),
                El::label(p.0, p.1 + 3.0, 8.5, id)
                    .attr("fill", colour::text_on(c))
                    .attr("font-weight", "bold"),
            ]
        }
        None => vec![
            El::circle(p.0, p.1, rad, "#ffffff")
                .attr("stroke", TRACK)
                .n("stroke-width", 2.0)
                .attr("class", "token"),
        ],
    }
}

/// The circles of a tile's cities (their token slots) and towns: centre and radius.
fn slot_circles(tile: &Tile, points: &[(f64, f64)]) -> Vec<((f64, f64), f64)> {
    let rad = 0.24 * GRID.r;
    let mut out = Vec::new();
    for (s, p) in tile.stops.iter().zip(points) {
        match s.kind.as_str() {
            "city" => {
                let slots = usize::from(s.slots.max(1));
                let x0 = p.0 - (slots as f64 - 1.0) * rad;
                out.extend((0..slots).map(|k| ((x0 + 2.0 * rad * k as f64, p.1), rad + 2.0)));
            }
            "town" => out.push((*p, 0.13 * GRID.r)),
            _ => {}
        }
    }
    out
}

/// The first of `spots` (offsets from the hex's centre, in circumradii) where a label of `text`
/// centred there clears every circle; the first spot when none does. Returns the label's
/// baseline point.
fn clear_spot(
    c: (f64, f64),
    spots: &[(f64, f64)],
    text: &str,
    size: f64,
    bold: bool,
    circles: &[((f64, f64), f64)],
) -> (f64, f64) {
    let half = crate::draw::text::width(text, size, bold) / 2.0;
    let at = |(dx, dy): (f64, f64)| (c.0 + dx * GRID.r, c.1 + dy * GRID.r);
    let clear = |p: (f64, f64)| {
        let (l, r, t, b) = (p.0 - half, p.0 + half, p.1 - 0.76 * size, p.1 + 0.24 * size);
        circles.iter().all(|(q, rad)| (q.0.clamp(l, r) - q.0).hypot(q.1.clamp(t, b) - q.1) >= *rad)
    };
    spots.iter().map(|s| at(*s)).find(|p| clear(*p)).unwrap_or_else(|| at(spots[0]))
}

/// A stop's value in a white disc.
fn value_disc(at: (f64, f64), value: i64) -> [El; 2] {
    [
        El::circle(at.0, at.1, 0.2 * GRID.r, "#ffffff").attr("stroke", "#555555").n("stroke-width", 0.8),
        El::label(at.0, at.1 + 3.5, 9.5, value),
    ]
}

/// One hex: its fill, track, stops, tokens, name, coordinate, label, cost and terrain.
fn hex_el(data: &Data, board: &BoardState, hex: &Hex, offboard_step: u8) -> Option<El> {
    let (_, tile, rotation) = board.tile_at(data, &hex.at)?;
    let c = GRID.centre(hex.row, hex.col);
    let r = GRID.r;
    let mut g = El::new("g");
    // The fill without anti-aliasing (a fraction of the time to render; issue 38), its edge
    // under the anti-aliased outline drawn over it.
    let corners = GRID.corners(c);
    g.push(El::polygon(&corners, fill(&tile.colour)).attr("shape-rendering", "crispEdges"));
    g.push(El::polygon(&corners, "none").attr("stroke", "#8a8a8a").n("stroke-width", 1.0));
    for [a, b] in &tile.track {
        let (a, b) = (turn(*a, rotation), turn(*b, rotation));
        g.push(track(GRID.side_mid(c, a), c, GRID.side_mid(c, b)));
    }
    let points = stop_points(tile, rotation, c);
    let circles = slot_circles(tile, &points);
    // One value for the hex when every stop pays the same (Hamburg's three cities, XX).
    let one_value = tile.stops.len() > 1
        && tile.stops.iter().all(|x| x.kind != "offboard" && x.value == tile.stops[0].value);
    for (s, p) in tile.stops.iter().zip(&points) {
        for e in &s.exits {
            let side = turn(*e, rotation);
            let bend = if s.kind == "offboard" { *p } else { GRID.toward(c, side, 0.35 * r) };
            g.push(track(*p, bend, GRID.side_mid(c, side)));
        }
    }
    for (i, (s, p)) in tile.stops.iter().zip(&points).enumerate() {
        match s.kind.as_str() {
            "town" => g.push(El::circle(p.0, p.1, 0.13 * r, TRACK)),
            "city" => {
                let slots = usize::from(s.slots.max(1));
                let rad = 0.24 * r;
                let x0 = p.0 - (slots as f64 - 1.0) * rad;
                if slots > 1 {
                    g.push(
                        El::rect(
                            x0 - rad - 2.0,
                            p.1 - rad - 2.0,
                            2.0 * rad * slots as f64 + 4.0,
                            2.0 * rad + 4.0,
                            "#ffffff",
                        )
                        .n("rx", rad)
                        .attr("stroke", TRACK)
                        .n("stroke-width", 2.0),
                    );
                }
                let tokens: Vec<&str> =
                    board.tokens_at(&hex.at, i as u8).map(|t| t.company.as_str()).collect();
                for k in 0..slots {
                    g.extend(slot((x0 + 2.0 * rad * k as f64, p.1), tokens.get(k).copied()));
                }
            }
            _ => {}
        }
        if s.value > 0 && s.kind != "offboard" && !one_value {
            // Beside its stop, where no token covers it.
            let spots = [(0.42, -0.27), (-0.42, -0.27), (0.42, 0.45), (-0.42, 0.45), (0.0, -0.42)];
            let at = clear_spot(*p, &spots, "000", 9.5, false, &circles);
            g.extend(value_disc((at.0, at.1 - 3.5), s.value));
        }
    }
    if one_value && let Some(v) = tile.stops.first().map(|s| s.value).filter(|v| *v > 0) {
        // Where the cities' tokens leave room (Hamburg's three cities).
        let spots = [
            (0.5, -0.4),
            (-0.5, -0.4),
            (0.62, 0.25),
            (-0.62, 0.25),
            (0.0, -0.5),
            (0.0, 0.55),
            (0.72, -0.05),
            (-0.72, -0.05),
        ];
        let at = clear_spot(c, &spots, "000", 9.5, false, &circles);
        g.extend(value_disc((at.0, at.1 - 3.5), v));
    }
    if let Some(values) = hex.offboard {
        let text: Vec<String> =
            values.iter().map(|v| if *v > 0 { v.to_string() } else { "–".into() }).collect();
        let y = c.1 - 0.12 * r;
        for (k, t) in text.iter().enumerate() {
            let x = c.0 + (k as f64 - 1.0) * 0.52 * r;
            let current = usize::from(offboard_step) == k + 1;
            g.push(
                El::rect(
                    x - 0.25 * r,
                    y - 0.22 * r,
                    0.5 * r,
                    0.42 * r,
                    if current { "#ffffff" } else { "#f3b2ac" },
                )
                .attr("stroke", TRACK)
                .n("stroke-width", if current { 1.6 } else { 0.6 }),
            );
            g.push(
                El::label(x, y + 4.0, 10.0, t).attr("font-weight", if current { "bold" } else { "normal" }),
            );
        }
    }
    let ink = if tile.colour == "red" { "#ffffff" } else { colour::INK };
    if !hex.name.is_empty() {
        // Below the stops, or above them where a city's tokens reach down (issue 36: Essen,
        // Duisburg, Mainz, Wiesbaden).
        let spots = [(0.0, 0.68), (0.0, -0.4), (0.0, 0.86), (-0.5, 0.5), (0.5, 0.5), (0.0, 0.1)];
        let at = clear_spot(c, &spots, &hex.name, SMALL, false, &circles);
        g.push(El::label(at.0, at.1, SMALL, &hex.name).attr("fill", ink));
    }
    let at = clear_spot(
        c,
        &[(0.0, -0.66), (-0.45, -0.5), (0.45, -0.5), (0.0, 0.9)],
        &hex.at,
        SMALL,
        false,
        &circles,
    );
    g.push(
        El::label(at.0, at.1, SMALL, &hex.at)
            .attr("fill", if tile.colour == "red" { "#ffe5e0" } else { colour::MUTED }),
    );
    if let Some(label) = hex.label.as_deref().or(tile.label.as_deref()) {
        let spots = [(-0.6, 0.05), (0.6, 0.05), (-0.45, -0.3), (0.45, 0.45), (-0.45, 0.45), (0.0, 0.5)];
        let at = clear_spot(c, &spots, label, 11.0, true, &circles);
        g.push(El::label(at.0, at.1, 11.0, label).attr("font-weight", "bold").attr("fill", ink));
    }
    if hex.cost > 0 && !board.tiles.contains_key(&hex.at) {
        g.extend(terrain(hex, c, &circles));
    }
    Some(g)
}

/// The build cost, with a mountain or a river mark above it: lower left, or where a city's
/// circles leave room (issue 36: the "50" beside Hamburg lay under a city).
fn terrain(hex: &Hex, c: (f64, f64), circles: &[((f64, f64), f64)]) -> Vec<El> {
    let cost = hex.cost.to_string();
    let spots = [(-0.5, 0.495), (0.5, 0.495), (-0.62, 0.12), (0.62, 0.12), (-0.3, 0.8), (0.3, 0.8)];
    let label = clear_spot(c, &spots, &cost, SMALL, false, circles);
    let (x, y) = (label.0, label.1 - 11.0);
    let mut out = Vec::new();
    match hex.terrain.as_deref() {
        Some("mountain") => {
            out.push(El::polygon(&[(x - 9.0, y + 2.0), (x, y - 10.0), (x + 9.0, y + 2.0)], "#8b5a2b"))
        }
        Some("river") => out.push(
            El::new("path")
                .attr("d", format!("M{} {} q4 -5 8 0 t8 0", n(x - 8.0), n(y - 4.0)))
                .attr("fill", "none")
                .attr("stroke", "#2a6fdb")
                .n("stroke-width", 2.0),
        ),
        _ => {}
    }
    out.push(El::label(label.0, label.1, SMALL, cost).attr("fill", colour::INK));
    out
}

/// The side two neighbouring hexes share, as a line, if they are neighbours.
fn shared_side(data: &Data, a: &str, b: &str) -> Option<((f64, f64), (f64, f64))> {
    let (row, col) = data.hex(a).map(|h| (h.row, h.col))?;
    let side = (0u8..6).find(|s| neighbour(a, *s).as_deref() == Some(b))?;
    let c = GRID.centre(row, col);
    let corners = GRID.corners(c);
    // Side n (0 = NE) runs between corners n and n + 1 (corner 0 at the top).
    Some((corners[usize::from(side)], corners[usize::from((side + 1) % 6)]))
}

/// Whether a hex is drawn as printed on `board`: no tile laid, no token, and no off-board values
/// (those change with the phase). Its element is then the printed layer's (RULING O28).
fn as_printed(board: &BoardState, hex: &Hex) -> bool {
    hex.offboard.is_none()
        && !board.tiles.contains_key(&hex.at)
        && board.tokens.get(&hex.at).is_none_or(|t| t.is_empty())
}

/// An element the printed layer holds, marked so (RULING O28).
pub(super) fn printed(e: El) -> El {
    e.attr(LAYER, "printed")
}

/// The whole map: the hexes, the coordinates' row letters, and the barriers. Returns the
/// elements and the map's width and height. The hexes drawn as printed and the row letters are
/// marked as the printed layer's ([`printed_layer`]); the barriers come after every hex, over
/// the tiles laid beside them, so they are never the layer's.
pub fn map(data: &Data, board: &BoardState, offboard_step: u8) -> (Vec<El>, f64, f64) {
    let hex = |h: &Hex| {
        let e = hex_el(data, board, h, offboard_step)?;
        Some(if as_printed(board, h) { printed(e) } else { e })
    };
    let mut out: Vec<El> = data.hexes.iter().filter_map(hex).collect();
    for [a, b] in &data.barriers {
        if let Some((p, q)) = shared_side(data, a, b) {
            out.push(El::line(p, q, "#2a6fdb", 5.0).attr("stroke-linecap", "round"));
        }
    }
    let (letters, w, h) = row_letters(data);
    out.extend(letters);
    (out, w, h)
}

/// The coordinates' row letters (printed), and the map's width and height.
fn row_letters(data: &Data) -> (Vec<El>, f64, f64) {
    let rows = data.hexes.iter().map(|h| h.row + 1).max().unwrap_or(1);
    let cols = data.hexes.iter().map(|h| h.col).max().unwrap_or(1);
    let letters = (0..rows)
        .map(|row| {
            let (_, y) = GRID.centre(row, 0);
            printed(El::label(8.0, y + 4.0, 11.0, char::from(b'A' + row)).attr("fill", colour::MUTED))
        })
        .collect();
    let (w, h) = GRID.extent(rows, cols);
    (letters, w, h)
}

/// The map as printed, the same in every game and turn (RULING O28): every hex but the
/// off-boards as the empty board shows it, and the row letters, each written as [`map`] writes
/// it where the hex is drawn as printed; a standalone document `width` wide in the map's
/// coordinates. Only the map's data is in it, nothing of any game.
pub fn printed_layer(data: &Data, width: f64) -> String {
    let empty = BoardState::default();
    let mut out: Vec<El> = data
        .hexes
        .iter()
        .filter(|h| as_printed(&empty, h))
        .filter_map(|h| hex_el(data, &empty, h, 1).map(printed))
        .collect();
    let (letters, _, h) = row_letters(data);
    out.extend(letters);
    document(width, h, "The 1835 map as printed", out)
}
