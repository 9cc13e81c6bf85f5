//! The picture of an 1835 table (issue 16): the map (`map`), the stock market (`market`), the
//! charters of the companies in play (`charters`) and the players' holdings, with the round,
//! phase and bank above. 1835 has no hidden information, so every viewer gets the same picture,
//! which shows no more than [`R1835::describe_state`].
//!
//! Each company's last run (`State::last_runs`) is drawn over the map as its own layer
//! (`runs`) and written under the map, always, on the page and in mail (RULING K68).

mod charters;
mod map;
mod market;
mod runs;
#[cfg(test)]
mod tests;

use super::R1835;
use super::state::{Round, State};
use crate::draw::{El, Fragment, colour, document};
use crate::engine::{Draw, Rules, Viewer};

/// A company's colour on the map, the market and its charter (our choice; minors dark grey).
pub fn company_colour(id: &str) -> &'static str {
    match id {
        "BY" => "#1f5fbf",
        "SX" => "#2e8b3a",
        "BA" => "#e0b020",
        "WT" => "#c0392b",
        "HE" => "#7d3c98",
        "MS" => "#e07020",
        "OL" => "#5f8ca0",
        "PR" => "#111111",
        _ => "#4a4a4a",
    }
}

const MARGIN: f64 = 16.0;

impl Draw for R1835 {
    /// The table as an SVG document (the same for every viewer).
    fn draw_on(&self, s: &State, _viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        let phase = self.data.phases.get(usize::from(s.phase));
        let headline = format!(
            "{} — {}, phase {}; bank {} M; priority deal: seat {}",
            self.data.title,
            s.round.name(),
            phase.map(|p| p.id.as_str()).unwrap_or("?"),
            s.bank,
            s.priority + 1
        );
        let mut body = vec![El::words(MARGIN, 26.0, 17.0, &headline).attr("font-weight", "bold")];
        let step = phase.map(|p| p.offboard_step).unwrap_or(1);
        let (hexes, map_w, map_h) = map::map(&self.data, &s.board, step);
        body.extend(hexes);
        let (runs, ran) = runs::overlay(self, s);
        if !ran.is_empty() {
            body.push(runs);
        }
        let mut notes: Vec<String> = Vec::new();
        if let (Round::Operating { .. }, Some(e)) = (s.round, self.operating_entity(s)) {
            let t = &s.or.turn;
            notes.push(format!("{} operates: {} step", self.entity_id(s, e), t.step.name()));
            if !t.routes.is_empty() {
                let revenue = t.revenue.map(|r| format!(" for {r} M")).unwrap_or_default();
                notes.push(format!("Run{revenue}: {}", t.routes.join(", ")));
            }
        }
        if let Some(d) = self.next_decision(s) {
            notes.push(format!("To act: {}, {}", d.seat, d.prompt));
        }
        notes.extend(ran);
        for (i, n) in notes.iter().enumerate() {
            body.push(El::words(MARGIN, map_h + 18.0 + 18.0 * i as f64, 12.0, n).attr("fill", colour::INK));
        }
        let left_h = map_h + 18.0 * notes.len() as f64 + 10.0;
        // The right column: market, charters, holdings.
        let x = map_w + 2.0 * MARGIN;
        let (market, market_w, market_h) = market::market(&self.data, s, x, 72.0);
        body.push(market);
        let mut y = 72.0 + market_h + 36.0;
        let (charters, charters_h) = charters::charters(self, s, x, y);
        body.push(charters);
        y += charters_h + 24.0;
        let (holdings, holdings_h) = self.holdings(s, x, y);
        body.push(holdings);
        y += holdings_h;
        let width = x + market_w.max(charters::width()) + MARGIN;
        Some(document(width, left_h.max(y) + MARGIN, &headline, body))
    }
}

impl R1835 {
    /// Each player's cash, certificates, shares (director's marked), privates and minors; the
    /// start packet's items on sale while it is open. Returns the element and its height.
    fn holdings(&self, s: &State, x: f64, y: f64) -> (El, f64) {
        let mut g = El::group(x, y).child(El::words(0.0, -8.0, 13.0, "Players").attr("font-weight", "bold"));
        let mut dy = 8.0;
        for p in 0..s.n() {
            let shares = self.holdings_in_words(s, p, |id, pc| format!("{id} {pc} % (director)"));
            let head = format!(
                "seat {}: {} M, {} of {} certificates",
                p + 1,
                s.players[usize::from(p)].cash,
                self.cert_count(s, p),
                self.cert_limit(s, p)
            );
            g.push(
                El::words(0.0, dy, 11.0, head).attr("fill", colour::seat(p + 1)).attr("font-weight", "bold"),
            );
            let held = if shares.is_empty() { "nothing".to_string() } else { shares.join(", ") };
            g.push(El::words(12.0, dy + 14.0, 10.0, held).attr("fill", colour::INK));
            dy += 34.0;
        }
        if s.packet_open() {
            let items: Vec<String> = self
                .available_items(s)
                .iter()
                .map(|i| format!("{} {} M", self.data.packet[*i].id, self.data.packet[*i].price))
                .collect();
            g.push(
                El::words(0.0, dy, 11.0, format!("Start packet on sale: {}", items.join(", ")))
                    .attr("fill", colour::INK),
            );
            dy += 18.0;
        }
        (g, dy)
    }
}
