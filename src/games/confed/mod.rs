//! Confederate Rails (Richard H. Berg, ATO 2016): railroading in the Confederacy while the Union
//! advances (issue 17). Rules: `shared/seeds/004_a09c017a97c47abe.txt` (cited `RT 5.3.4`);
//! rulings: `docs/RULINGS.md`, "Confederate Rails" (F…); the components are data
//! (`rules/confederate_rails/`, a reconstruction: RULING F9); orders:
//! `docs/confederate-rails-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`), each implementing its part of the
//! contract (`crate::engine::contract`): `state` (the state; its actions, with a payment's
//! condition, in `actions`), `setup` (`Setup`: set-up and the Round's initiative), `legal`
//! (`Rules`: decisions, legal actions, defaults), `apply` (`Apply`: carrying out actions, split by
//! phase: loads, moves, war, events, specials; actions in words), `orders` (`Orders`: the order
//! language and answering decisions), `view` (`View` and `Scoring`: views, text, standings), `draw`
//! (`Draw`), `data` (loading and checking the files); this file holds the engine and its `Game`
//! facts (slug, seats, the shape of a PBEM turn); `inventory` (where the components are); and Confederate Rails' own: `movement` (movement
//! costs and the cheapest path), `board` (what the rules read off the position), `chits` (load
//! and event facts), `sim` (a random player for tests and the benchmark).
//!
//! Interrupts (RT 4.0 "at any time") are decisions the engine opens to every seat in turn from
//! the active player: before a War Progress result takes a station (the Generals), after a
//! Victory Depot is retaken (Foreign Intervention), before the Through-Freight roll (donations),
//! and when money is offered. Every seat is asked, holding a counter or not, so the order of
//! decisions tells nothing about the hidden hands (RULING F22).

pub mod actions;
mod apply;
pub mod board;
pub mod bribe;
pub mod chits;
mod choices;
pub mod data;
mod decision;
mod draw;
mod extended;
mod inventory;
mod legal;
pub mod movement;
pub mod orders;
pub mod setup;
pub mod sim;
pub mod state;
mod view;

#[cfg(test)]
mod board_tests;
#[cfg(test)]
mod dropoff_tests;
#[cfg(test)]
mod echo_ahead_tests;
#[cfg(test)]
mod events_tests;
#[cfg(test)]
mod extended_tests;
#[cfg(test)]
mod fees_tests;
#[cfg(test)]
mod iron_tests;
#[cfg(test)]
mod movement_tests;
#[cfg(test)]
mod orders_tests;
#[cfg(test)]
mod pbem_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod rules_5_tests;
#[cfg(test)]
mod rules_text_tests;
#[cfg(test)]
mod specials_effect_tests;
#[cfg(test)]
mod specials_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod war_table_tests;

pub use actions::Action;
pub use data::{Data, DataError};
pub use orders::Order;
pub use state::State;

use crate::draw::geo::LayoutCell;
use crate::engine::{Game, Inventory, Seat, Shared};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The Confederate Rails engine with its checked data.
#[derive(Debug, Clone)]
pub struct Confed {
    data: Arc<Data>,
    /// Where the drawing places the map's places, once placed (`draw::layout`).
    layout: LayoutCell,
}

impl Confed {
    /// The engine with the shipped files of `rules/confederate_rails/`.
    pub fn standard() -> Result<Confed, DataError> {
        Ok(Confed { data: Arc::new(Data::standard()?), layout: LayoutCell::default() })
    }

    /// The components.
    pub fn data(&self) -> &Data {
        &self.data
    }
}

/// The standard engine, loaded once (shared by the registry).
pub fn shared() -> Result<&'static Confed, DataError> {
    static ENGINE: Shared<Confed, DataError> = Shared::new();
    ENGINE.get(Confed::standard)
}

impl Game for Confed {
    fn slug(&self) -> &'static str {
        "confederate-rails"
    }
    fn title(&self) -> &'static str {
        "Confederate Rails"
    }
    /// 2 since issue 34 changed set-up's dropoff (F34), Round 1's initiative (F10), movement through full
    /// stations (F21), Troops (F18), empty trains (F32) and the windows of Special Events (F22): the same sheets adjudicate differently (RULING S15).
    fn rules_version(&self) -> u32 {
        2
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=5
    }
    fn blurb(&self) -> &'static str {
        "Confederate Rails: run railroads for the Confederacy while the Civil War rages (dice)."
    }
    fn option_specs(&self) -> &'static [crate::engine::OptionSpec] {
        setup::OPTIONS
    }
    fn order_example(&self) -> &'static str {
        "ACTIVATE 1 2\nMOVE 1 Petersburg, Weldon\nMOVE 2 SHORTEST TO Atlanta\nPLAY LEE WHEN A VICTORY DEPOT FALLS"
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/confederate-rails-orders.md"))
    }
    fn rolls_dice(&self) -> bool {
        true
    }
    // A PBEM turn is one Player Turn (with the interrupts it opens to the others); the set-up
    // choices are one turn of every seat.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        match s.stage {
            state::Stage::Over => Vec::new(),
            _ if setting_up(s) => s.seats_from(s.order.first().copied().unwrap_or(Seat(1))),
            _ => s.seats_from(s.active()),
        }
    }
    fn inventory(&self, s: &State) -> Option<Inventory> {
        Some(self.components(s))
    }
    fn turn_complete(&self, start: &State, now: &State) -> bool {
        if setting_up(start) {
            return !setting_up(now);
        }
        now.ended.is_some() || now.round != start.round || now.turn != start.turn
    }
}

/// Whether the game is still being set up (RT 3.4-3.7), the designation of a starting load's
/// dropoff included (issue 34: the set-up turn ended there, leaving the dropoff to turn 2).
fn setting_up(s: &State) -> bool {
    matches!(
        s.stage,
        state::Stage::ChooseRrc { .. }
            | state::Stage::Place
            | state::Stage::SelectLoads
            | state::Stage::Dropoff { setup: true, .. }
    )
}
