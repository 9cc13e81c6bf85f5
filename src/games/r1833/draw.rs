//! The picture of an 1833 table (issue 16): the draw deck's size, the top of the discard pile,
//! the selection pool (and the set-up display), every player's routes as small networks of their
//! cards with the locomotive that runs them, hand sizes, and the hands the viewer may see as
//! cards (a city card with its colour, victory points and the cities it connects). It shows no
//! more than [`R1833::describe_state`].

use super::R1833;
use super::data::{CardId, Colour, Deck, Kind};
use super::routes;
use super::state::{Route, State};
use crate::draw::{El, Fragment, colour, document};
use crate::engine::counted;
use crate::engine::{Draw, Scoring, Seat, Viewer};
use std::collections::BTreeMap;

const CARD_W: f64 = 112.0;
const CARD_H: f64 = 88.0;
const GAP: f64 = 8.0;
const MARGIN: f64 = 16.0;
const WIDTH: f64 = 1000.0;
/// A node of a route network, and the spacing of its columns and rows.
const NODE_W: f64 = 96.0;
const NODE_H: f64 = 22.0;
const COL_W: f64 = 118.0;
const ROW_H: f64 = 32.0;

/// A card's stripe colour and its kind in words.
fn stripe(deck: &Deck, k: Kind) -> (&'static str, String) {
    match k {
        Kind::City(i) => match deck.cities.get(usize::from(i)).map(|c| c.colour) {
            Some(Colour::Blue) => ("#2b5fab", "City".into()),
            Some(Colour::Red) => ("#b83227", "City".into()),
            _ => ("#222222", "City".into()),
        },
        Kind::Private(_) => ("#4f7a2f", "Private RR, -1 VP".into()),
        Kind::Corp(i) => {
            let name = deck.corps.get(usize::from(i)).map(|c| c.name.clone()).unwrap_or_default();
            ("#6d3f86", name)
        }
        Kind::Loco(_) => ("#5a4a3a", "Locomotive".into()),
        Kind::Reshuffle => ("#c06a12", "Re-Shuffle".into()),
    }
}

/// Names joined with commas, broken into lines of about `width` characters.
fn wrap(words: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, w) in words.iter().enumerate() {
        let piece = if i + 1 < words.len() { format!("{w},") } else { w.clone() };
        if !line.is_empty() && line.chars().count() + 1 + piece.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// What a card says below its name: victory points and connections, a home city, a level.
fn card_lines(deck: &Deck, k: Kind) -> Vec<String> {
    let names = |ids: &[u8]| ids.iter().map(|c| deck.kind_name(Kind::City(*c))).collect::<Vec<_>>();
    match k {
        Kind::City(i) => {
            let c = deck.cities.get(usize::from(i));
            let mut out = vec![format!("{} VP", deck.vp(i))];
            out.extend(wrap(&names(c.map(|c| c.connects.as_slice()).unwrap_or_default()), 22));
            out
        }
        Kind::Private(i) => wrap(
            &names(deck.privates.get(usize::from(i)).map(|p| p.connects.as_slice()).unwrap_or_default()),
            22,
        ),
        Kind::Corp(i) => {
            vec![format!(
                "home: {}",
                deck.corps
                    .get(usize::from(i))
                    .map(|c| deck.kind_name(Kind::City(c.home)))
                    .unwrap_or_default()
            )]
        }
        Kind::Loco(l) => vec![format!("runs {} cities", routes::city_limit(l))],
        Kind::Reshuffle => vec!["reverses play".into()],
    }
}

/// A card face up at (x, y).
fn card(deck: &Deck, id: CardId, x: f64, y: f64) -> El {
    let k = deck.kind(id);
    let (fill, kind) = stripe(deck, k);
    let mut g = El::group(x, y)
        .child(
            El::rect(0.0, 0.0, CARD_W, CARD_H, colour::PAPER)
                .attr("stroke", fill)
                .n("stroke-width", 1.5)
                .n("rx", 4.0),
        )
        .child(El::rect(0.0, 0.0, CARD_W, 20.0, fill).n("rx", 4.0))
        .child(
            El::label(CARD_W / 2.0, 14.5, 11.0, deck.name_str(id))
                .attr("fill", "#ffffff")
                .attr("font-weight", "bold"),
        )
        .child(El::label(CARD_W / 2.0, 31.0, 8.0, kind).attr("fill", colour::MUTED));
    for (i, line) in card_lines(deck, k).iter().take(5).enumerate() {
        let size = if i == 0 && matches!(k, Kind::City(_)) { 11.0 } else { 8.5 };
        g.push(El::label(CARD_W / 2.0, 45.0 + 10.5 * i as f64, size, line).attr("fill", colour::INK));
    }
    g
}

/// The back of a card with a count on it.
fn back(x: f64, y: f64, label: &str) -> El {
    El::group(x, y)
        .child(
            El::rect(0.0, 0.0, CARD_W, CARD_H, "#23395d")
                .attr("stroke", "#ffffff")
                .n("stroke-width", 2.0)
                .n("rx", 4.0),
        )
        .child(El::label(CARD_W / 2.0, CARD_H / 2.0 + 4.0, 12.0, label).attr("fill", "#ffffff"))
}

/// A row of cards from `x0`, wrapping at the drawing's width; returns the elements and the height.
fn card_rows(deck: &Deck, cards: &[CardId], x0: f64, y0: f64) -> (Vec<El>, f64) {
    let per_row = (((WIDTH - MARGIN - x0) / (CARD_W + GAP)).floor() as usize).max(1);
    let out = cards
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (row, col) = (i / per_row, i % per_row);
            card(deck, *c, x0 + col as f64 * (CARD_W + GAP), y0 + row as f64 * (CARD_H + GAP))
        })
        .collect();
    let rows = cards.len().div_ceil(per_row).max(1);
    (out, rows as f64 * (CARD_H + GAP))
}

/// Where each card of a route lies: columns by distance (in links) from its first card, rows in
/// the order reached. Cards no link reaches get a column of their own.
fn network_layout(r: &Route) -> BTreeMap<CardId, (usize, usize)> {
    let mut at: BTreeMap<CardId, (usize, usize)> = BTreeMap::new();
    let mut rows: Vec<usize> = Vec::new();
    let mut place = |c: CardId, col: usize, at: &mut BTreeMap<CardId, (usize, usize)>| {
        if rows.len() <= col {
            rows.resize(col + 1, 0);
        }
        at.insert(c, (col, rows[col]));
        rows[col] += 1;
    };
    for start in &r.cards {
        if at.contains_key(start) {
            continue;
        }
        let col0 = at.values().map(|(c, _)| c + 1).max().unwrap_or(0);
        place(*start, col0, &mut at);
        let mut frontier = vec![*start];
        while let Some(c) = frontier.first().copied() {
            frontier.remove(0);
            let col = at.get(&c).map_or(col0, |p| p.0) + 1;
            for (a, b) in &r.links {
                let next = if *a == c {
                    *b
                } else if *b == c {
                    *a
                } else {
                    continue;
                };
                if !at.contains_key(&next) {
                    place(next, col, &mut at);
                    frontier.push(next);
                }
            }
        }
    }
    at
}

/// One route as a small network at (x, y): its locomotive and value above, the cards as boxes
/// joined where the layout links them. Returns the element and its size.
fn network(deck: &Deck, n: usize, r: &Route, x: f64, y: f64) -> (El, f64, f64) {
    let at = network_layout(r);
    let cols = at.values().map(|p| p.0 + 1).max().unwrap_or(1);
    let rows = at.values().map(|p| p.1 + 1).max().unwrap_or(1);
    let (w, h) = (cols as f64 * COL_W - (COL_W - NODE_W) + 12.0, rows as f64 * ROW_H + 30.0);
    let centre = |c: &CardId| {
        at.get(c).map(|(col, row)| {
            (6.0 + *col as f64 * COL_W + NODE_W / 2.0, 28.0 + *row as f64 * ROW_H + NODE_H / 2.0)
        })
    };
    let mut g = El::group(x, y)
        .child(El::rect(0.0, 0.0, w, h, "#f3f1ea").attr("stroke", colour::EDGE).n("rx", 5.0))
        .child(
            El::words(
                6.0,
                15.0,
                10.0,
                format!("Route {n}: {}, {} VP", deck.name_str(r.loco), routes::value(deck, r)),
            )
            .attr("font-weight", "bold"),
        );
    for (a, b) in &r.links {
        if let (Some(p), Some(q)) = (centre(a), centre(b)) {
            g.push(El::line(p, q, "#555555", 2.5));
        }
    }
    for c in &r.cards {
        if let Some((cx, cy)) = centre(c) {
            let (fill, _) = stripe(deck, deck.kind(*c));
            let vp = match deck.kind(*c) {
                Kind::City(i) => format!(" {}", deck.vp(i)),
                _ => String::new(),
            };
            g.push(El::rect(cx - NODE_W / 2.0, cy - NODE_H / 2.0, NODE_W, NODE_H, fill).n("rx", 3.0));
            g.push(
                El::label(cx, cy + 3.5, 9.5, format!("{}{vp}", deck.name_str(*c))).attr("fill", "#ffffff"),
            );
        }
    }
    (g, w, h)
}

impl Draw for R1833 {
    /// The table as `viewer` may see it, as an SVG document (1833 has no board drawn apart).
    fn draw_on(&self, s: &State, viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        let deck = self.deck_of(s);
        let dir = if s.clockwise { "clockwise" } else { "counter-clockwise" };
        let headline = format!("1833 — {}; play goes {dir}", self.phase_text(s));
        let mut body = vec![El::words(MARGIN, 26.0, 18.0, &headline).attr("font-weight", "bold")];
        let mut y = 40.0;
        let heading = |x: f64, y: f64, t: String| El::words(x, y, 12.0, t).attr("fill", colour::MUTED);
        body.push(heading(MARGIN, y + 10.0, "Draw deck".into()));
        body.push(back(MARGIN, y + 16.0, &counted(s.draw.len() + s.bottom.len(), "card")));
        let dx = MARGIN + CARD_W + GAP;
        body.push(heading(dx, y + 10.0, format!("Discard pile ({})", s.discard.len())));
        match s.discard.last() {
            Some(top) => body.push(card(deck, *top, dx, y + 16.0)),
            None => body.push(
                El::rect(dx, y + 16.0, CARD_W, CARD_H, "none")
                    .attr("stroke", colour::EDGE)
                    .attr("stroke-dasharray", "4 3"),
            ),
        }
        let px = dx + CARD_W + 2.0 * GAP;
        body.push(heading(px, y + 10.0, "Selection pool".into()));
        let (pool, ph) = card_rows(deck, &s.pool, px, y + 16.0);
        body.extend(pool);
        y += 16.0 + ph.max(CARD_H + GAP) + 8.0;
        if !s.display.is_empty() {
            body.push(heading(MARGIN, y + 10.0, "Set-up display".into()));
            let (display, dh) = card_rows(deck, &s.display, MARGIN, y + 16.0);
            body.extend(display);
            y += 16.0 + dh + 8.0;
        }
        if s.ending.is_some() {
            body.push(
                El::words(MARGIN, y + 12.0, 12.0, "The last deck card has been taken: final turns.")
                    .attr("fill", "#b83227"),
            );
            y += 22.0;
        }
        for (i, p) in s.players.iter().enumerate() {
            let seat = Seat::from_index(i);
            y += 8.0;
            body.push(El::line((MARGIN, y), (WIDTH - MARGIN, y), colour::EDGE, 1.0));
            body.push(
                El::words(
                    MARGIN,
                    y + 20.0,
                    14.0,
                    format!("{seat}: {} in hand (limit {})", counted(p.hand.len(), "card"), p.limit),
                )
                .attr("fill", colour::seat(seat.0))
                .attr("font-weight", "bold"),
            );
            y += 30.0;
            let (mut x, mut row_h) = (MARGIN, 0.0f64);
            for (ri, r) in p.routes.iter().enumerate() {
                let (mut net, w, h) = network(deck, ri + 1, r, x, y);
                if x > MARGIN && x + w > WIDTH - MARGIN {
                    (x, y) = (MARGIN, y + row_h + GAP);
                    row_h = 0.0;
                    net = network(deck, ri + 1, r, x, y).0;
                }
                body.push(net);
                x += w + GAP;
                row_h = row_h.max(h);
            }
            y += row_h + if p.routes.is_empty() { 0.0 } else { GAP };
            if viewer.may_see(seat) {
                body.push(heading(MARGIN, y + 10.0, format!("Hand of {seat}")));
                let (hand, hh) = card_rows(deck, &p.hand, MARGIN, y + 16.0);
                body.extend(hand);
                y += 16.0 + hh;
            }
        }
        if let Some(st) = self.standings(s) {
            y += 8.0;
            for x in st {
                body.push(El::words(MARGIN, y + 14.0, 13.0, format!("{}. {}: {}", x.place, x.seat, x.score)));
                y += 20.0;
            }
        }
        Some(document(WIDTH, y + MARGIN, &headline, body))
    }
}
