//! The 1835 stock market drawn: the grid of `rules/1835/market.toml` with its prices, the par
//! spaces outlined — the same in every game, printed (RULINGS O28, O34) — and each floated share
//! company's marker on its space (markers that arrived earlier on top, as the rules stack them;
//! RULING K93).

use super::company_colour;
use crate::draw::{El, colour};
use crate::games::r1835::data::Data;
use crate::games::r1835::state::State;

const CELL_W: f64 = 38.0;
const CELL_H: f64 = 40.0;

/// The market's grid with its heading at (x, y), as printed (the same in every game): the
/// element and the grid's width and height.
pub fn grid(data: &Data, x: f64, y: f64) -> (El, f64, f64) {
    let m = &data.market;
    let cols = m.prices.iter().map(Vec::len).max().unwrap_or(0);
    let (w, h) = (cols as f64 * CELL_W, m.prices.len() as f64 * CELL_H);
    let mut g = El::group(x, y);
    g.push(El::words(0.0, -8.0, 13.0, "Stock market").attr("font-weight", "bold"));
    for (row, prices) in m.prices.iter().enumerate() {
        for (col, price) in prices.iter().enumerate().filter(|(_, p)| **p > 0) {
            let (cx, cy) = (col as f64 * CELL_W, row as f64 * CELL_H);
            let par = m.par_spaces.iter().any(|sp| usize::from(sp.row) == row && usize::from(sp.col) == col);
            g.push(
                El::rect(cx, cy, CELL_W, CELL_H, if par { "#fde9c8" } else { colour::PAPER })
                    .attr("stroke", if par { "#b4651e" } else { colour::EDGE })
                    .n("stroke-width", if par { 1.8 } else { 0.8 }),
            );
            g.push(El::label(cx + CELL_W / 2.0, cy + 11.0, 9.5, price).attr("fill", colour::INK));
        }
    }
    (g, w, h)
}

/// The floated share companies' markers on the market at (x, y) (over [`grid`]), each its own
/// element (a marker that stays where it was is painted from its kept raster, RULING O34).
pub fn markers(s: &State, x: f64, y: f64) -> Vec<El> {
    let mut out = Vec::new();
    // Markers, in arrival order on each space: the first to arrive is drawn on top. A company's
    // marker enters the chart when it floats (RULING K93): an unfloated company whose par is
    // set has none on the chart yet.
    let mut markers: Vec<(u8, u8, u32, &str)> = s
        .majors
        .iter()
        .filter(|c| c.floated)
        .filter_map(|c| c.price.map(|sp| (sp.row, sp.col, c.stamp, c.id.as_str())))
        .collect();
    markers.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.cmp(&a.2)));
    let mut placed: Vec<(u8, u8)> = Vec::new();
    for (row, col, _, id) in markers {
        let depth = placed.iter().filter(|p| **p == (row, col)).count() as f64;
        placed.push((row, col));
        let (mx, my) =
            (f64::from(col) * CELL_W + 3.0 + depth * 4.0, f64::from(row) * CELL_H + 15.0 + depth * 4.0);
        let c = company_colour(id);
        let marker = El::group(x + mx, y + my)
            .child(
                El::rect(0.0, 0.0, CELL_W - 10.0, 16.0, c)
                    .n("rx", 3.0)
                    .attr("stroke", "#ffffff")
                    .n("stroke-width", 1.0),
            )
            .child(
                El::label((CELL_W - 10.0) / 2.0, 12.0, 9.5, id)
                    .attr("fill", colour::text_on(c))
                    .attr("font-weight", "bold"),
            );
        out.push(marker);
    }
    out
}
