//! What each viewer may see: the JSON view, the plain-text description for pages and mail, and
//! the standings. Hands are shown only to their own seat and the GM; the public sees hand sizes.
//! The Terminal's order is shown to the GM only.

use super::Railroaded;
use super::cards::{Dir, faces_text};
use super::state::{Chain, Phase, State};
use crate::engine::counted;
use crate::engine::{Scoring, Seat, Standing, View, Viewer};
use serde_json::{Value, json};

fn chain_json(dir: Dir, c: &Chain, s: &State) -> Value {
    let stations: Vec<Value> = c
        .cards
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.station.map(|m| json!({ "card": p.card.face, "from": m.from, "position": i + 1, "linked_here": m.linked }))
        })
        .collect();
    json!({
        "dir": dir,
        "owner": c.owner,
        "suit": s.suit_of(c.owner),
        "length": c.len(),
        "cards": c.cards.iter().map(|p| p.card.face).collect::<Vec<_>>(),
        "stations": stations,
    })
}

/// The chain as text: "7H 8H [10S] 9S" (Station cards in brackets).
fn chain_cards(c: &Chain) -> String {
    let cards: Vec<String> = c
        .cards
        .iter()
        .map(|p| if p.station.is_some() { format!("[{}]", p.card.face) } else { p.card.face.to_string() })
        .collect();
    cards.join(" ")
}

impl Railroaded {
    /// Seats with the longest chain (the winners once the game is over; RULING R13).
    pub(crate) fn winners(&self, s: &State) -> Vec<Seat> {
        let lengths = self.lengths(s);
        let best = lengths.iter().map(|(_, l)| *l).max().unwrap_or(0);
        lengths.into_iter().filter(|(_, l)| *l == best).map(|(seat, _)| seat).collect()
    }

    /// Each seat and the length of the chain it controls (0 without one).
    fn lengths(&self, s: &State) -> Vec<(Seat, usize)> {
        (0..s.seats.len())
            .map(Seat::from_index)
            .map(|seat| (seat, s.chain_of(seat).and_then(|d| s.chain(d)).map(|c| c.len()).unwrap_or(0)))
            .collect()
    }
}

impl Scoring for Railroaded {
    /// Places by chain length, longest first; tied seats share a place (RULING R13).
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        if s.phase != Phase::Over {
            return None;
        }
        let mut lengths = self.lengths(s);
        lengths.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut out: Vec<Standing> = Vec::new();
        for (i, (seat, len)) in lengths.iter().enumerate() {
            let place = match out.last() {
                Some(prev) if lengths.get(i.wrapping_sub(1)).is_some_and(|p| p.1 == *len) => prev.place,
                _ => u8::try_from(i + 1).unwrap_or(u8::MAX),
            };
            let dir = s.chain_of(*seat).map(|d| format!(" ({})", d.name())).unwrap_or_default();
            out.push(Standing {
                seat: *seat,
                place,
                score: format!("chain of {}{dir}", counted(*len, "card")),
            });
        }
        Some(out)
    }
}

impl View for Railroaded {
    fn view(&self, s: &State, viewer: Viewer) -> Value {
        let seats: Vec<Value> = s
            .seats
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let seat = Seat::from_index(i);
                let mut v = json!({
                    "seat": seat,
                    "suit": x.suit,
                    "chain": s.chain_of(seat),
                    "hand_size": x.hand.len(),
                });
                if viewer.may_see(seat) {
                    v["hand"] = json!(x.hand.iter().map(|c| c.face).collect::<Vec<_>>());
                }
                v
            })
            .collect();
        let mut v = json!({
            "game": "railroaded",
            "phase": s.phase,
            "to_move": (s.phase != Phase::Over).then_some(s.to_move),
            "leader": s.leader,
            "turns_done": s.turns_done,
            "terminal_size": s.terminal.len(),
            "stations": Dir::ALL.iter().map(|d| (d.upper().to_string(), json!(s.stations[d.idx()].map(|c| c.face)))).collect::<serde_json::Map<_, _>>(),
            "chains": Dir::ALL.iter().filter_map(|d| s.chain(*d).map(|c| chain_json(*d, c, s))).collect::<Vec<_>>(),
            "seats": seats,
            "standings": self.standings(s),
        });
        if viewer == Viewer::Gm {
            v["terminal"] = json!(s.terminal.iter().rev().map(|c| c.face).collect::<Vec<_>>());
        }
        v
    }

    fn describe(&self, s: &State, viewer: Viewer) -> String {
        let mut out = Vec::new();
        out.push(match s.phase {
            Phase::Claim => format!("Railroaded: claim round, {} to claim a suit.", s.to_move),
            Phase::Play => format!("Railroaded: {} to play.", s.to_move),
            Phase::Over => "Railroaded: the game is over.".to_string(),
        });
        out.push(format!("Terminal: {} face down.", counted(s.terminal.len(), "card")));
        let stations: Vec<String> = Dir::ALL
            .iter()
            .map(|d| match s.stations[d.idx()] {
                Some(c) => format!("{} {}", d.name(), c.face),
                None => format!("{} linked", d.name()),
            })
            .collect();
        out.push(format!("Stations: {}.", stations.join(", ")));
        for d in Dir::ALL {
            match s.chain(d) {
                Some(c) => {
                    let suit = s.suit_of(c.owner).map(|x| x.name()).unwrap_or("?");
                    out.push(format!(
                        "{} chain ({}, {suit}), {} card{}: {}",
                        d.name(),
                        c.owner,
                        c.len(),
                        if c.len() == 1 { "" } else { "s" },
                        chain_cards(c)
                    ));
                }
                None => out.push(format!("{} chain: not claimed yet", d.name())),
            }
        }
        let sizes: Vec<String> = s
            .seats
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{} {}", Seat::from_index(i), x.hand.len()))
            .collect();
        out.push(format!("Cards in hand: {}.", sizes.join(", ")));
        for (i, x) in s.seats.iter().enumerate() {
            let seat = Seat::from_index(i);
            if viewer.may_see(seat) {
                out.push(format!("Hand of {seat}: {}", faces_text(&x.hand)));
            }
        }
        if viewer == Viewer::Gm {
            out.push(format!("Terminal, top first: {}", faces_text(s.terminal.iter().rev())));
        }
        if let Some(standings) = self.standings(s) {
            for st in standings {
                out.push(format!("Place {}: {}, {}", st.place, st.seat, st.score));
            }
        }
        out.push("Station cards on a chain are shown in [brackets].".to_string());
        out.join("\n")
    }
}
