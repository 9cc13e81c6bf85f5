//! Railroaded (Game Design #41): four rail riders build chains of cards out from the Terminal,
//! link up with Stations and jump trains; the longest chain when the Terminal runs dry wins.
//!
//! This file holds the [`Railroaded`] engine and its [`Game`] facts (slug, seats, the shape of a
//! PBEM turn); the other files, in the roles every engine shares (`crate::games`), each implement
//! their part of the contract (`crate::engine::contract`): `legal` (`Rules`: legality, legal
//! actions, the default), `setup` (`Setup`), `apply` (`Apply`: carrying out actions), `orders`
//! (`Orders`: the order language, answering decisions), `view` (`View` and `Scoring`: views,
//! description, standings), `draw` (`Draw`: the picture of the table), `data` (the data file),
//! `state` (state and actions); and Railroaded's own `cards` (the card notation). Rulings are
//! numbered as in `docs/RULINGS.md`.

mod apply;
pub mod cards;
mod data;
mod draw;
mod legal;
pub mod orders;
mod setup;
pub mod state;
mod view;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_draw;
#[cfg(test)]
mod tests_echo;
#[cfg(test)]
mod tests_orders;
#[cfg(test)]
mod tests_play;
#[cfg(test)]
mod tests_rulings;

pub use data::{Rules, RulesError};
pub use orders::Order;
pub use state::{Action, State};

use crate::engine::{Game, Seat};
use state::Phase;
use std::ops::RangeInclusive;

/// The embedded data file.
const STANDARD_TOML: &str = include_str!("../../../rules/railroaded/game.toml");

/// The Railroaded engine, built from its data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Railroaded {
    rules: Rules,
}

impl Railroaded {
    /// The engine with the standard data file `rules/railroaded/game.toml`.
    pub fn standard() -> Result<Railroaded, RulesError> {
        Self::from_toml(STANDARD_TOML)
    }

    /// The engine with the rules data in `text` (TOML); a broken file names the key at fault.
    pub fn from_toml(text: &str) -> Result<Railroaded, RulesError> {
        Ok(Railroaded { rules: data::load(text)? })
    }

    /// The loaded rules data.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    fn seat_count(&self) -> usize {
        usize::from(self.rules.seats)
    }
}

impl Game for Railroaded {
    fn slug(&self) -> &'static str {
        "railroaded"
    }
    fn title(&self) -> &'static str {
        "Railroaded"
    }
    // The order box's example and the guide it links (issue 16).
    fn order_example(&self) -> &'static str {
        "PLAY 7H NORTH ELSE PLAY 7D EAST\nLINK 9S WEST\nDRAW"
    }
    // Issue 36: the claim round's box shows claims only.
    fn order_example_at(&self, s: &State) -> &'static str {
        match s.phase {
            Phase::Claim => "CLAIM 7H NORTH ELSE CLAIM 7H EAST ELSE CLAIM HEARTS NORTH",
            Phase::Play | Phase::Over => self.order_example(),
        }
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/railroaded-orders.md"))
    }
    fn rules_version(&self) -> u32 {
        1
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        self.rules.seats..=self.rules.seats
    }
    fn blurb(&self) -> &'static str {
        "Railroaded: a short card game to try the server with (no options)."
    }

    // PBEM turns: the claim round (every seat that has yet to claim), then rounds of four
    // player turns from the seat to move.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        match s.phase {
            Phase::Over => Vec::new(),
            Phase::Claim => (0..self.seat_count())
                .map(|n| s.seat_after(s.to_move, n))
                .filter(|seat| s.suit_of(*seat).is_none())
                .collect(),
            Phase::Play => (0..self.seat_count()).map(|n| s.seat_after(s.to_move, n)).collect(),
        }
    }

    fn turn_complete(&self, start: &State, now: &State) -> bool {
        match start.phase {
            Phase::Claim => now.phase != Phase::Claim,
            Phase::Play | Phase::Over => {
                now.phase == Phase::Over
                    || now.turns_done >= start.turns_done.saturating_add(u32::from(self.rules.seats))
            }
        }
    }
}
