//! The picture of a Railroaded table (issue 16): the four chains as rows of cards running out
//! from the Terminal, each with its Station (or "linked"), Station cards in a chain turned
//! lengthwise, the Terminal's size, every seat's hand size, and the hands the viewer may see
//! (its own; every hand for the GM). It shows no more than [`Railroaded::describe_for`].

use super::Railroaded;
use super::cards::{Dir, Face, Suit};
use super::state::{Phase, Placed, State};
use crate::draw::{El, Fragment, colour, document};
use crate::engine::counted;
use crate::engine::{Draw, Scoring, Seat, Viewer};

const CARD_W: f64 = 30.0;
const CARD_H: f64 = 44.0;
const GAP: f64 = 4.0;
/// Where the cards of a row begin (after the row's name and its Station).
const ROW_X: f64 = 190.0;
const ROW_H: f64 = 64.0;
const MARGIN: f64 = 16.0;

/// A suit's symbol and ink: red for Hearts and Diamonds, black for Clubs and Spades.
fn suit_style(s: Suit) -> (&'static str, &'static str) {
    match s {
        Suit::Hearts => ("♥", "#c0152f"),
        Suit::Diamonds => ("♦", "#c0152f"),
        Suit::Clubs => ("♣", "#111111"),
        Suit::Spades => ("♠", "#111111"),
    }
}

/// A card face up at (x, y); `sideways` turns it lengthwise (a Station card in a chain).
fn card(x: f64, y: f64, face: Face, sideways: bool) -> El {
    let (symbol, ink) = suit_style(face.suit());
    let rank = face.to_string();
    let rank = rank.trim_end_matches(face.suit().letter());
    let (w, h) = if sideways { (CARD_H, CARD_W) } else { (CARD_W, CARD_H) };
    let fill = if sideways { "#fff4c2" } else { "#ffffff" };
    El::group(x, y)
        .child(El::rect(0.0, 0.0, w, h, fill).attr("stroke", ink).n("stroke-width", 1.2).n("rx", 3.0))
        .child(El::label(w / 2.0, h / 2.0 - 2.0, 13.0, rank).attr("fill", ink).attr("font-weight", "bold"))
        .child(El::label(w / 2.0, h / 2.0 + 13.0, 13.0, symbol).attr("fill", ink))
}

/// The back of a card (the Terminal).
fn back(x: f64, y: f64) -> El {
    El::rect(x, y, CARD_W, CARD_H, "#2f4f7f").attr("stroke", "#ffffff").n("stroke-width", 1.5).n("rx", 3.0)
}

/// The cards of a chain, beginning card first, and the width they take.
fn chain_cards(x0: f64, y: f64, cards: &[Placed]) -> (Vec<El>, f64) {
    let mut x = x0;
    let mut out = Vec::with_capacity(cards.len());
    for p in cards {
        let sideways = p.station.is_some();
        let dy = if sideways { (CARD_H - CARD_W) / 2.0 } else { 0.0 };
        out.push(card(x, y + dy, p.card.face, sideways));
        x += if sideways { CARD_H } else { CARD_W } + GAP;
    }
    (out, x - x0)
}

impl Draw for Railroaded {
    /// The table as `viewer` may see it, as an SVG document.
    fn draw_on(&self, s: &State, viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        let mut body = Vec::new();
        let mut width: f64 = 720.0;
        let headline = match s.phase {
            Phase::Claim => format!("Railroaded — claim round, {} to claim a suit", s.to_move),
            Phase::Play => format!("Railroaded — {} to play", s.to_move),
            Phase::Over => "Railroaded — the game is over".to_string(),
        };
        body.push(El::words(MARGIN, 26.0, 18.0, &headline).attr("font-weight", "bold"));
        // The Terminal: a face-down stack and its size.
        let ty = 44.0;
        for k in 0..3 {
            body.push(back(MARGIN + f64::from(k) * 3.0, ty + f64::from(k) * 2.0));
        }
        let cards = s.terminal.len();
        body.push(El::words(
            MARGIN + 50.0,
            ty + 28.0,
            14.0,
            format!("Terminal: {} face down", counted(cards, "card")),
        ));
        let mut y = ty + CARD_H + 24.0;
        for d in Dir::ALL {
            let (row, w) = self.chain_row(s, d, y);
            body.extend(row);
            width = width.max(ROW_X + w + MARGIN);
            y += ROW_H;
        }
        // Hand sizes, then the hands this viewer may see.
        let sizes: Vec<String> = s
            .seats
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{} {}", Seat::from_index(i), x.hand.len()))
            .collect();
        body.push(El::words(MARGIN, y + 10.0, 14.0, format!("Cards in hand: {}", sizes.join(", "))));
        y += 28.0;
        for (i, held) in s.seats.iter().enumerate() {
            let seat = Seat::from_index(i);
            if !viewer.may_see(seat) {
                continue;
            }
            body.push(
                El::words(MARGIN, y + 14.0, 14.0, format!("Hand of {seat}"))
                    .attr("fill", colour::seat(seat.0)),
            );
            let mut x = ROW_X;
            for c in &held.hand {
                body.push(card(x, y, c.face, false));
                x += CARD_W + GAP;
            }
            width = width.max(x + MARGIN);
            y += CARD_H + 14.0;
        }
        if let Some(standings) = self.standings(s) {
            for st in standings {
                body.push(El::words(
                    MARGIN,
                    y + 14.0,
                    14.0,
                    format!("Place {}: {}, {}", st.place, st.seat, st.score),
                ));
                y += 20.0;
            }
        }
        Some(document(width, y + MARGIN, &headline, body))
    }
}

impl Railroaded {
    /// One compass point's row: its name and owner, its Station, and the chain's cards.
    fn chain_row(&self, s: &State, d: Dir, y: f64) -> (Vec<El>, f64) {
        let mut out = Vec::new();
        out.push(El::words(MARGIN, y + 16.0, 15.0, d.name()).attr("font-weight", "bold"));
        match s.chain(d) {
            Some(c) => {
                let suit = s.suit_of(c.owner).map(|x| x.name()).unwrap_or("?");
                out.push(
                    El::words(MARGIN, y + 34.0, 12.0, format!("{}, {suit}", c.owner))
                        .attr("fill", colour::seat(c.owner.0)),
                );
                out.push(
                    El::words(MARGIN, y + 50.0, 12.0, counted(c.len(), "card")).attr("fill", colour::MUTED),
                );
            }
            None => {
                out.push(El::words(MARGIN, y + 34.0, 12.0, "not claimed yet").attr("fill", colour::MUTED))
            }
        }
        // The Station at this compass point, or a mark that it is linked.
        let sx = ROW_X - CARD_H - 16.0;
        match s.stations[d.idx()] {
            Some(c) => {
                out.push(card(sx, y + (CARD_H - CARD_W) / 2.0, c.face, true));
                out.push(El::label(sx + CARD_H / 2.0, y + 4.0, 9.0, "STATION").attr("fill", colour::MUTED));
            }
            None => {
                out.push(El::label(sx + CARD_H / 2.0, y + 26.0, 11.0, "linked").attr("fill", colour::MUTED))
            }
        }
        let (cards, w) = s.chain(d).map(|c| chain_cards(ROW_X, y, &c.cards)).unwrap_or_default();
        out.extend(cards);
        (out, w)
    }
}
