//! What each viewer may see: everyone sees routes, the selection pool, the top of the discard
//! pile, the deck size and hand sizes; a seat sees its own hand (and standing pick-up orders);
//! the GM sees every hand and the deck order. Also the texts used in events and notes.

use super::R1833;
use super::data::{CardId, Deck};
use super::routes;
use super::score::score;
use super::state::{Action, Phase, Route, State, TakeRule};
use crate::engine::counted;
use crate::engine::{Scoring, Seat, View, Viewer};
use serde_json::{Value, json};
use std::fmt::Write;

impl R1833 {
    /// Card names, comma separated ("nothing" when empty).
    pub(crate) fn names(&self, s: &State, cards: &[CardId]) -> String {
        let deck = self.deck_of(s);
        if cards.is_empty() {
            return "nothing".into();
        }
        let mut out = String::with_capacity(16 * cards.len());
        for (i, c) in cards.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&deck.name_str(*c));
        }
        out
    }

    /// A route's cards and links as a layout ("Richmond-Washington, Washington-Baltimore").
    pub(crate) fn route_text(&self, deck: &Deck, cards: &[CardId], links: &[(CardId, CardId)]) -> String {
        let mut out = String::with_capacity(32 * links.len().max(cards.len()));
        if links.is_empty() {
            for (i, c) in cards.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&deck.name_str(*c));
            }
        }
        for (i, (a, b)) in links.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&deck.name_str(*a));
            out.push('-');
            out.push_str(&deck.name_str(*b));
        }
        out
    }

    fn route_json(&self, deck: &Deck, r: &Route) -> Value {
        json!({
            "locomotive": deck.name(r.loco),
            "cards": r.cards.iter().map(|c| deck.name(*c)).collect::<Vec<_>>(),
            "links": r.links.iter().map(|(a, b)| [deck.name(*a), deck.name(*b)]).collect::<Vec<_>>(),
            "value": routes::value(deck, r),
        })
    }

    /// Standing pick-up orders as text.
    pub(crate) fn standing_text(&self, s: &State, rules: &[TakeRule]) -> String {
        let deck = self.deck_of(s);
        if rules.is_empty() {
            return "take no discards".into();
        }
        let parts: Vec<String> = rules
            .iter()
            .map(|r| match r {
                TakeRule::Kind(k) => deck.kind_name(*k),
                TakeRule::AnyCity => "any city".into(),
                TakeRule::AnyPrivate => "any private".into(),
                TakeRule::AnyCorp => "any corp".into(),
                TakeRule::AnyLoco => "any locomotive".into(),
                TakeRule::Any => "any".into(),
            })
            .collect();
        format!("take discarded {}", parts.join(", "))
    }

    /// What an action does, in words, for notes.
    pub(crate) fn action_text(&self, s: &State, a: &Action) -> String {
        let deck = self.deck_of(s);
        match a {
            Action::Select(c) => format!("select {}", deck.name(*c)),
            Action::SetStanding(r) => self.standing_text(s, r),
            Action::DrawDeck => "draw from the deck".into(),
            Action::DrawPool(c) => format!("take {} from the pool", deck.name(*c)),
            Action::DrawDiscard => "take the top card of the discard pile".into(),
            Action::Discard(c) => format!("discard {}", deck.name(*c)),
            Action::Create { loco, cards, links } => {
                format!("create a route with {}: {}", deck.name(*loco), self.route_text(deck, cards, links))
            }
            Action::Extend { route, loco, cards, links } => {
                let up = loco.map(|l| format!(" with {}", deck.name(l))).unwrap_or_default();
                format!("extend route {}{up}: {}", u16::from(*route) + 1, self.route_text(deck, cards, links))
            }
            Action::PlayReshuffle(_) => "play a Re-Shuffle".into(),
            Action::EndTurn => "end the turn".into(),
            Action::DrawToLimitAndEnd => "draw to the hand limit from the deck and end the turn".into(),
            Action::Take => "take the discarded card".into(),
            Action::Decline => "decline the discarded card".into(),
        }
    }

    pub(crate) fn phase_text(&self, s: &State) -> String {
        let who = Seat::from_index(usize::from(self.decider(s)));
        match &s.phase {
            Phase::Select { .. } => format!("set-up selection: {who} selects"),
            Phase::Play => format!("{who}'s turn"),
            Phase::Offer { card, .. } => {
                format!("{who} is offered the discarded {}", self.deck_of(s).name(*card))
            }
            Phase::Over => "the game is over".into(),
        }
    }
}

impl View for R1833 {
    /// The state as `viewer` may see it, as JSON.
    fn view(&self, s: &State, viewer: Viewer) -> Value {
        let deck = self.deck_of(s);
        let seats: Vec<Value> = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let seat = Seat::from_index(i);
                let mut v = json!({
                    "seat": seat.0,
                    "hand_size": p.hand.len(),
                    "hand_limit": p.limit,
                    "routes": p.routes.iter().map(|r| self.route_json(deck, r)).collect::<Vec<_>>(),
                    "route_points": p.routes.iter().map(|r| routes::value(deck, r)).sum::<i32>(),
                });
                if viewer.may_see(seat) {
                    v["hand"] = json!(p.hand.iter().map(|c| deck.name(*c)).collect::<Vec<_>>());
                    v["standing"] = json!(self.standing_text(s, &p.standing));
                    v["score_if_ended_now"] = json!(score(deck, p).total);
                }
                v
            })
            .collect();
        let mut v = json!({
            "deck": deck.title,
            "phase": self.phase_text(s),
            "active": Seat::from_index(usize::from(s.active)).0,
            "direction": if s.clockwise { "clockwise" } else { "counter-clockwise" },
            "deck_size": s.draw.len() + s.bottom.len(),
            "pool": s.pool.iter().map(|c| deck.name(*c)).collect::<Vec<_>>(),
            "display": s.display.iter().map(|c| deck.name(*c)).collect::<Vec<_>>(),
            "discard_top": s.discard.last().map(|c| deck.name(*c)),
            "discard_size": s.discard.len(),
            "removed": s.removed.len(),
            "last_deck_card_taken": s.ending.is_some(),
            "seats": seats,
        });
        if viewer == Viewer::Gm {
            v["draw_top_first"] = json!(s.draw.iter().rev().map(|c| deck.name(*c)).collect::<Vec<_>>());
        }
        if let Some(st) = self.standings(s) {
            v["standings"] = json!(st);
        }
        v
    }

    /// The state as `viewer` may see it, as text for pages and mail.
    fn describe(&self, s: &State, viewer: Viewer) -> String {
        let deck = self.deck_of(s);
        let mut t = String::new();
        let _ = writeln!(t, "1833: {}", self.phase_text(s));
        let dir = if s.clockwise { "clockwise" } else { "counter-clockwise" };
        let _ = writeln!(t, "Draw deck: {}; play goes {dir}", counted(s.draw.len() + s.bottom.len(), "card"));
        if !s.display.is_empty() {
            let _ = writeln!(t, "Display: {}", self.names(s, &s.display));
        }
        let _ = writeln!(t, "Selection pool: {}", self.names(s, &s.pool));
        let top = s.discard.last().map(|c| deck.name(*c)).unwrap_or_else(|| "empty".into());
        let _ = writeln!(t, "Discard pile: {top} on top ({})", counted(s.discard.len(), "card"));
        if s.ending.is_some() {
            let _ = writeln!(t, "The last deck card has been taken: final turns; one pool card per turn.");
        }
        for (i, p) in s.players.iter().enumerate() {
            let seat = Seat::from_index(i);
            let _ = writeln!(t, "\n{seat}: {} in hand (limit {})", counted(p.hand.len(), "card"), p.limit);
            if viewer.may_see(seat) {
                let _ = writeln!(t, "  Hand of {seat}: {}", self.names(s, &p.hand));
                let _ = writeln!(t, "  Standing orders: {}", self.standing_text(s, &p.standing));
            }
            for (ri, r) in p.routes.iter().enumerate() {
                let _ = writeln!(
                    t,
                    "  Route {}: {} ({}), {} VP",
                    ri + 1,
                    self.route_text(deck, &r.cards, &r.links),
                    deck.name(r.loco),
                    routes::value(deck, r)
                );
            }
        }
        if let Some(st) = self.standings(s) {
            let _ = writeln!(t, "\nFinal standings:");
            for x in st {
                let _ = writeln!(t, "  {}. {}: {}", x.place, x.seat, x.score);
            }
        }
        t
    }
}
