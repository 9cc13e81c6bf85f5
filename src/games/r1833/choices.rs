//! The order builder of 1833 (issue 36): what a seat can order now, as lines of the order
//! language (`orders`), from its own hand and the table only — the set-up selection from the
//! display, its turn's draws, discards, routes and Re-Shuffle, and its standing pick-up orders
//! when a discard is offered to it.

use super::R1833;
use super::data::Deck;
use super::orders::{Cmd, Count, Order, Want};
use super::state::{Action, Phase, State, TurnLog};
use crate::engine::{Choices, Game, Rules, Seat, carries_out_alone};

/// At most this many route lines are listed (a big hand makes many layouts; each is legal).
const ROUTES_SHOWN: usize = 12;

impl R1833 {
    // RULING C23: what the builder lists in 1833.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]). A seat whose turn
    /// comes later in a round gets the lines of its own turn as if it began now (the table as it
    /// stands: later draws change what it holds, and the echo judges each line then).
    pub(super) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let mut groups = self.lines_of(s, seat);
        // The decision now: only the lines a sheet of that one line carries out.
        if let Some(d) = self.next_decision(s).filter(|d| d.seat == seat) {
            for g in &mut groups {
                g.lines.retain(|l| carries_out_alone(self, s, &d, l));
            }
            groups.retain(|g| !g.lines.is_empty());
        }
        groups
    }

    /// The lines of [`R1833::choices_of`] before those for the decision now are checked.
    fn lines_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Ok(me) = u8::try_from(seat.index()) else { return Vec::new() };
        if s.player(me).is_none() || !self.acting_seats(s).contains(&seat) {
            return Vec::new();
        }
        let deck = self.deck_of(s);
        match &s.phase {
            Phase::Over => Vec::new(),
            Phase::Select { .. } => {
                let mut lines: Vec<String> =
                    s.display.iter().map(|c| line(Cmd::Select(vec![deck.name(*c)]))).collect();
                lines.dedup();
                Choices::group(
                    "Set-up: select a card from the display (a SELECT line lists your preferences)",
                    lines,
                )
            }
            Phase::Offer { card, queue } if queue.first() == Some(&me) => {
                let lines =
                    vec![line(Cmd::Take(vec![Want::Name(deck.name(*card))])), line(Cmd::Take(Vec::new()))];
                Choices::group(
                    format!("Take the discarded {} or decline (standing pick-up orders)", deck.name(*card)),
                    lines,
                )
            }
            Phase::Offer { .. } | Phase::Play if s.active == me => self.turn_choices(s, me),
            Phase::Offer { .. } | Phase::Play => {
                let mut as_if = s.clone();
                as_if.active = me;
                as_if.phase = Phase::Play;
                as_if.turn = TurnLog::default();
                self.turn_choices(&as_if, me)
            }
        }
    }

    /// The lines of `me`'s turn now: each legal action but the default's draw to the limit
    /// (listed as its own line) in the order language, routes capped at [`ROUTES_SHOWN`].
    fn turn_choices(&self, s: &State, me: u8) -> Vec<Choices> {
        let deck = self.deck_of(s);
        if s.player(me).is_none() {
            return Vec::new();
        }
        let mut lines = Vec::new();
        let mut routes = Vec::new();
        for a in self.legal_actions(s) {
            let cmd = match a {
                Action::DrawDeck => Cmd::DrawDeck(Count::N(1)),
                Action::DrawToLimitAndEnd => Cmd::DrawDeck(Count::ToLimit),
                Action::DrawPool(c) => Cmd::DrawPool(deck.name(c)),
                Action::DrawDiscard => Cmd::DrawDiscard,
                Action::Discard(c) => Cmd::Discard(deck.name(c)),
                Action::PlayReshuffle(_) => Cmd::Reshuffle,
                Action::EndTurn => Cmd::End,
                Action::Create { loco, cards, links } => {
                    let level = super::routes::level_of(deck, loco);
                    routes.push(line(Cmd::Create { level, paths: paths(deck, &cards, &links) }));
                    continue;
                }
                Action::Extend { route, loco, cards, links } => {
                    let level = loco.and_then(|l| super::routes::level_of(deck, l));
                    let paths = paths(deck, &cards, &links);
                    routes.push(line(Cmd::Extend { route: route + 1, level, paths }));
                    continue;
                }
                Action::Select(_) | Action::SetStanding(_) | Action::Take | Action::Decline => continue,
            };
            lines.push(line(cmd));
        }
        lines.dedup();
        let mut out = Choices::group("Your turn: draw, discard, play a Re-Shuffle or end the turn", lines);
        routes.truncate(ROUTES_SHOWN);
        out.extend(Choices::group("Your turn: create or extend a route (one per turn)", routes));
        out
    }
}

/// A route's layout as paths: each new link as a path of two, and each card in no link alone.
fn paths(deck: &Deck, cards: &[super::CardId], links: &[(super::CardId, super::CardId)]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = links.iter().map(|(a, b)| vec![deck.name(*a), deck.name(*b)]).collect();
    out.extend(
        cards.iter().filter(|c| !links.iter().any(|(a, b)| a == *c || b == *c)).map(|c| vec![deck.name(*c)]),
    );
    out
}

/// An unconditional order line in its canonical form.
fn line(cmd: Cmd) -> String {
    Order { cond: Vec::new(), cmd }.to_string()
}

#[cfg(test)]
mod tests {
    use super::super::shared;
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;
    use crate::engine::{Seat, SetupSpec};

    #[test]
    fn at_set_up_every_seat_is_offered_a_select_line_for_each_card_displayed() {
        let g = shared().expect("the deck loads");
        let s = crate::engine::log::setup(g, &SetupSpec { seats: 4, options: serde_json::Value::Null }, 7)
            .expect("set-up");
        let deck = g.deck_of(&s);
        for seat in Seat::all(4) {
            let choices = g.choices(&s, seat);
            assert_eq!(choices.len(), 1, "{seat}: the selection: {choices:?}");
            let shown: Vec<String> = s.display.iter().map(|c| format!("SELECT {}", deck.name(*c))).collect();
            assert!(!choices[0].lines.is_empty(), "{seat}: something to select");
            assert!(choices[0].lines.iter().all(|l| shown.contains(l)), "{seat}: {:?}", choices[0].lines);
        }
        check_choices(g, &s, 4, 7, 0).expect("every line read, carried out now, and known to its seat");
    }
}
