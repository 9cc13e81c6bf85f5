//! The routes of each company's last run drawn over the map (issue 16; RULING K68): one line per
//! train through its stops in travel order, in the company's colour, half transparent so the
//! track shows through, in a layer of its own (`<g id="last-runs">`). Only companies still in
//! play are drawn (a minor merged into the Prussian no longer runs).

use super::company_colour;
use super::map::{GRID, stop_points};
use crate::draw::El;
use crate::games::r1835::R1835;
use crate::games::r1835::state::State;

/// Where a stop named `E19.2` or `A11` sits on the map now, if the hex is on the map.
fn stop_at(game: &R1835, s: &State, label: &str) -> Option<(f64, f64)> {
    let (hex, n) = match label.split_once('.') {
        Some((h, n)) => (h, n.parse::<usize>().ok()?.checked_sub(1)?),
        None => (label, 0),
    };
    let (h, tile, rotation) = s.board.tile_at(&game.data, hex)?;
    let c = GRID.centre(h.row, h.col);
    Some(stop_points(tile, rotation, c).get(n).copied().unwrap_or(c))
}

/// The companies in play with a last run: id, revenue, routes.
fn live_runs(s: &State) -> Vec<(&str, i64, &[Vec<String>])> {
    let live = |id: &str| {
        s.majors.iter().any(|c| c.id == id && c.price.is_some())
            || s.minors.iter().any(|m| m.id == id && !m.closed && m.owner.is_some())
    };
    s.last_runs
        .iter()
        .filter(|(id, _)| live(id))
        .map(|(id, r)| (id.as_str(), r.revenue, r.routes.as_slice()))
        .collect()
}

/// The overlay layer (empty when no company has run yet) and one line of text per company.
pub fn overlay(game: &R1835, s: &State) -> (El, Vec<String>) {
    let mut layer = El::new("g").attr("id", "last-runs").attr("opacity", "0.6");
    let mut words = Vec::new();
    for (k, (id, revenue, routes)) in live_runs(s).into_iter().enumerate() {
        // Companies sharing track are moved a little apart.
        let shift = (k % 3) as f64 * 3.0 - 3.0;
        for route in routes {
            let points: Vec<String> = route
                .iter()
                .filter_map(|stop| stop_at(game, s, stop))
                .map(|(x, y)| format!("{},{}", crate::draw::num(x + shift), crate::draw::num(y + shift)))
                .collect();
            if points.len() < 2 {
                continue;
            }
            layer.push(
                El::new("polyline")
                    .attr("points", points.join(" "))
                    .attr("fill", "none")
                    .attr("stroke", company_colour(id))
                    .n("stroke-width", 7.0)
                    .attr("stroke-linejoin", "round")
                    .attr("stroke-linecap", "round"),
            );
        }
        let shown: Vec<String> = routes.iter().map(|r| r.join("-")).collect();
        let how = if shown.is_empty() { "no route".to_string() } else { shown.join(", ") };
        words.push(format!("{id} last ran {how} for {revenue} M"));
    }
    (layer, words)
}
