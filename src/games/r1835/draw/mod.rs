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
#[cfg(test)]
mod tests_layers;

use super::R1835;
use super::state::{Round, State};
use crate::draw::text;
use crate::draw::{DrawingKey, El, Fragment, Part, colour, document, document_over};
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
    /// The table as an SVG document (the same for every viewer): the map on the left, the
    /// market, the charters and the players on the right.
    fn draw_on(&self, s: &State, _viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        let (headline, mut body, map_w, left_h) = self.map_column(s);
        let x = map_w + 2.0 * MARGIN;
        let (tables, tables_w, mut y) = self.tables(s, x, 72.0);
        body.extend(tables);
        y += 24.0;
        let (holdings, holdings_h) = self.holdings(s, x, y);
        body.push(holdings);
        y += holdings_h;
        let width = x + tables_w.max(PLAYERS_W) + MARGIN;
        Some(document(width, left_h.max(y) + MARGIN, &headline, body))
    }

    /// The map as printed, under the map part (RULING O28); the market's grid, under the market
    /// part (O34).
    fn printed_layers(&self) -> Vec<String> {
        vec![self.printed_map().0.clone(), self.printed_market().0.clone()]
    }

    /// Three parts (issue 36): the map with the headline and the notes under it; the market and
    /// the charters; the players' holdings. 1835 hides nothing: the same for every viewer.
    fn draw_parts(&self, s: &State, _viewer: Viewer) -> Vec<Part> {
        let (headline, map, map_w, map_h) = self.map_column(s);
        let (tables, tables_w, tables_h) = self.tables(s, MARGIN, PART_TOP);
        let (holdings, holdings_h) = self.holdings(s, MARGIN, PART_TOP);
        let (_, under) = self.printed_map();
        let (_, under_market) = self.printed_market();
        vec![
            Part {
                name: "map",
                title: "The map",
                svg: document_over(map_w + MARGIN, map_h + MARGIN, &headline, under, map),
            },
            Part {
                name: "market",
                title: "The market and the companies",
                svg: document_over(
                    tables_w + 2.0 * MARGIN,
                    tables_h + MARGIN,
                    &format!("{headline}: the market and the companies"),
                    under_market,
                    tables,
                ),
            },
            Part {
                name: "players",
                title: "The players",
                svg: document(
                    PLAYERS_W + 2.0 * MARGIN,
                    PART_TOP + holdings_h + MARGIN,
                    &format!("{headline}: the players"),
                    vec![holdings],
                ),
            },
        ]
    }
}

/// Where a part's first table starts (below its heading).
const PART_TOP: f64 = 30.0;
/// The players' column: its width and the characters of a 10 px line that fit in it.
const PLAYERS_W: f64 = 360.0;
const PLAYERS_CHARS: usize = 54;

impl R1835 {
    /// The map as printed ([`map::printed_layer`]) and its key, drawn once per engine.
    fn printed_map(&self) -> &(String, DrawingKey) {
        self.printed.get_or_init(|| {
            let (_, w, _) = map::map(&self.data, &Default::default(), 1);
            let doc = map::printed_layer(&self.data, w + MARGIN);
            let key = DrawingKey::of(&doc);
            (doc, key)
        })
    }

    /// The headline, the map with the last runs over it and the notes under it: the headline,
    /// the elements, the map's width and the column's height.
    fn map_column(&self, s: &State) -> (String, Vec<El>, f64, f64) {
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
        let chars = (map_w / (12.0 * text::AVERAGE_EM)) as usize;
        let notes: Vec<String> = notes.iter().flat_map(|n| text::lines(n, chars)).collect();
        for (i, n) in notes.iter().enumerate() {
            body.push(El::words(MARGIN, map_h + 18.0 + 18.0 * i as f64, 12.0, n).attr("fill", colour::INK));
        }
        let width = map_w.max(text::width(&headline, 17.0, true) + MARGIN);
        (headline, body, width, map_h + 18.0 * notes.len() as f64 + 10.0)
    }

    /// The market and under it the charters, at (x, y): the elements, their width, and the
    /// height down to the end of the charters.
    /// The market's grid and the charters' heading are printed (RULING O34): the same in every
    /// game, under the market part as its layer ([`R1835::printed_market`]).
    fn tables(&self, s: &State, x: f64, y: f64) -> (Vec<El>, f64, f64) {
        let (mut out, top, w) = self.printed_tables(x, y);
        out.extend(market::markers(s, x, y));
        let (charters, charters_h) = charters::charters(self, s, x, top);
        out.extend(charters);
        (out, w, top + charters_h)
    }

    /// The printed elements of [`R1835::tables`] at (x, y): the market's grid and the charters'
    /// heading; where the charters start and the tables' width.
    fn printed_tables(&self, x: f64, y: f64) -> (Vec<El>, f64, f64) {
        let (grid, market_w, market_h) = market::grid(&self.data, x, y);
        let top = y + market_h + 36.0;
        let out = vec![map::printed(grid), map::printed(charters::heading(x, top))];
        (out, top, market_w.max(charters::width()))
    }

    /// The market part's printed layer (RULINGS O28, O34) and its key, drawn once per engine: the
    /// grid and the charters' heading where the market part draws them.
    fn printed_market(&self) -> &(String, DrawingKey) {
        self.printed_market.get_or_init(|| {
            let (elements, top, w) = self.printed_tables(MARGIN, PART_TOP);
            let doc = document(w + 2.0 * MARGIN, top, "The 1835 market as printed", elements);
            let key = DrawingKey::of(&doc);
            (doc, key)
        })
    }

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
            for line in text::lines(&held, PLAYERS_CHARS - 2) {
                dy += 14.0;
                g.push(El::words(12.0, dy, 10.0, line).attr("fill", colour::INK));
            }
            dy += 20.0;
        }
        if s.packet_open() {
            let items: Vec<String> = self
                .available_items(s)
                .iter()
                .map(|i| format!("{} {} M", self.data.packet[*i].id, self.data.packet[*i].price))
                .collect();
            // Broken into lines: the whole packet on one line ran off the picture (issue 36).
            for line in text::lines(&format!("Start packet on sale: {}", items.join(", ")), PLAYERS_CHARS - 4)
            {
                g.push(El::words(0.0, dy, 11.0, line).attr("fill", colour::INK));
                dy += 15.0;
            }
            dy += 3.0;
        }
        (g, dy)
    }
}
