//! 1833, the 19th Century Railroad Card Game: the engine.
//!
//! Rules: `shared/seeds/000_75e466ca7f0f1a4f.txt` (cited by section and paragraph, e.g.
//! `// Drawing/Discarding ¶1`); rulings: `docs/RULINGS.md`, "1833" (C…); the deck is data
//! (`rules/1833/deck.toml`, format in `rules/1833/README.md`); orders: `docs/1833-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`), each implementing its part of the
//! contract (`crate::engine::contract`): `legal` (`Rules`: decisions, legal actions, defaults;
//! with `check`, whether one action is legal now), `setup` (`Setup`: options, set-up and the
//! snake selection), `apply` (`Apply`: applying actions, Re-Shuffles, end of turn and game),
//! `orders` (the order language; `orders::answer`: `Orders`, orders into actions), `view`
//! (`View`: what each viewer sees), `score` (`Scoring`: scoring and standings), `draw` (`Draw`: the
//! picture of the table), `data` (loading and checking a deck), `state` (state and actions); this
//! file holds the engine and its `Game` facts; and 1833's own: `routes` and `layout` (route rules
//! and grid layouts), `sim` (a random player for simulations and the benchmark).
//!
//! The pick-up offer of a discard is a decision of each other seat in turn order, answered from
//! its standing `TAKE DISCARD` orders (default: decline), so the generic turn loop handles the
//! interrupt without any change to the engine contract.

mod apply;
mod check;
mod choices;
pub mod data;
mod draw;
mod layout;
mod legal;
pub mod orders;
pub mod routes;
pub mod score;
pub mod setup;
pub mod sim;
pub mod state;
mod view;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_defaults;
#[cfg(test)]
mod tests_draw;
#[cfg(test)]
mod tests_echo;
#[cfg(test)]
mod tests_orders;
#[cfg(test)]
mod tests_reshuffle;
#[cfg(test)]
mod tests_routes;

pub use data::{CardId, Deck, DeckError, Kind};
pub use orders::Order;
pub use state::{Action, Phase, State, TurnSize};

use crate::engine::{Game, Seat, Shared};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The 1833 engine with its standard deck.
#[derive(Debug, Clone, PartialEq)]
pub struct R1833 {
    deck: Arc<Deck>,
}

impl R1833 {
    /// The engine with the standard deck of `rules/1833/deck.toml`.
    pub fn standard() -> Result<R1833, DeckError> {
        Ok(R1833 { deck: Arc::new(Deck::standard()?) })
    }

    /// The standard deck.
    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    /// A shared handle on the deck a game is played with.
    pub(crate) fn deck_arc(&self, s: &State) -> Arc<Deck> {
        s.custom_deck.clone().unwrap_or_else(|| Arc::clone(&self.deck))
    }
}

/// The standard engine, loaded once (shared by the registry and the console).
pub fn shared() -> Result<&'static R1833, DeckError> {
    static ENGINE: Shared<R1833, DeckError> = Shared::new();
    ENGINE.get(R1833::standard)
}

impl Game for R1833 {
    fn slug(&self) -> &'static str {
        "1833"
    }
    fn title(&self) -> &'static str {
        "1833"
    }
    // The order box's example and the guide it links (issue 16).
    fn order_example(&self) -> &'static str {
        "DRAW POOL Philadelphia\nIF HAND HAS Baltimore THEN CREATE L2: Richmond-Washington-Baltimore\nDRAW DECK TO LIMIT"
    }
    // Issue 36: the set-up selection's box shows the selection (and standing pick-up orders).
    fn order_example_at(&self, s: &State) -> &'static str {
        match s.phase {
            Phase::Select { .. } => {
                "SELECT Philadelphia, New York, PRR, Level 2\nTAKE DISCARD: Philadelphia, any Level 3"
            }
            Phase::Play | Phase::Offer { .. } | Phase::Over => self.order_example(),
        }
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/1833-orders.md"))
    }
    // 2: the default never passes while an action is possible (C20); private RRs must link
    // otherwise unconnected cities, and the standard deck's Albany & Susquehanna changed (C21).
    fn rules_version(&self) -> u32 {
        2
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=6
    }
    fn blurb(&self) -> &'static str {
        "1833: a railroad card game of chains, suits and hand limits."
    }
    fn option_specs(&self) -> &'static [crate::engine::OptionSpec] {
        setup::OPTIONS
    }

    // The set-up selection is one PBEM turn for everyone (RULING C13). Then: one player-turn
    // (the active player orders) or a full round (every seat orders), as the GM chose.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        let all = || Seat::all(s.players.len());
        match (&s.phase, s.turn_size) {
            (Phase::Over, _) => Vec::new(),
            (Phase::Select { .. }, _) | (_, TurnSize::Round) => all(),
            (_, TurnSize::Player) => vec![Seat::from_index(usize::from(s.active))],
        }
    }

    fn turn_complete(&self, start: &State, now: &State) -> bool {
        if now.phase == Phase::Over {
            return true;
        }
        match (&start.phase, start.turn_size) {
            (Phase::Select { .. }, _) => !matches!(now.phase, Phase::Select { .. }),
            (_, TurnSize::Player) => now.turns_taken > start.turns_taken,
            (_, TurnSize::Round) => now.turns_taken >= start.turns_taken + u32::from(start.n()),
        }
    }
}
