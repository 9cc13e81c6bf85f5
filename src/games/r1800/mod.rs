//! 1800 (David Jacobson's unpublished design, rules v0.3): nineteenth-century Europe for 2–8
//! powers over 24 rounds in three eras (issue 18). Rules: `shared/seeds/003_6462b8b8a18519bf.txt`;
//! the cards and the reconstructed map are data in `rules/1800/` (fact sheet
//! `shared/reference/1800/FACTS.md`); rulings: `docs/RULINGS.md`, "1800" (E…); orders:
//! `docs/1800-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`), each implementing its part of the
//! contract (`crate::engine::contract`): `state`, `setup` (`Setup`: set-up and the round's steps),
//! `legal` (`Rules`), `apply` (`Apply`: draft, placing, activating, rewards, end moves), `orders`
//! (`Orders`), `view` (`View`), `score` (`Scoring`: ambitions, the winner and the standings), `draw`
//! (`Draw`: the picture of the table), `data`; this file holds the engine and its `Game` facts;
//! and 1800's own: `board` (what the rules read off the position: workforce, collection,
//! requirements), `events` (global events and policy upkeep), `admin` (admin cards), `timing`
//! (when an admin card is played), `costs` (prosperity costs paid otherwise), `draft_cards` (the
//! admin cards of the draft), `diplomacy` (wrongs answered by war, Conquest, Cleanse, trading
//! technologies), `schemes` (Free Enterprise, Espionage), `welfare` (Corporations' and
//! Hospitals' alternatives), `warlink` (the seam to the war procedure), `sim` (a random player
//! for tests and the benchmark).
//!
//! A PBEM turn is one round: every seat sends one sheet with its draft preferences and its turn
//! orders (RULING E30).

mod admin;
mod alone;
mod apply;
pub mod board;
mod choices;
mod costs;
pub mod data;
mod diplomacy;
mod draft_cards;
mod draw;
mod events;
mod legal;
mod moves;
pub mod orders;
mod owed;
mod schemes;
pub mod score;
pub mod setup;
pub mod sim;
pub mod state;
mod timing;
mod view;
pub mod war;
mod warlink;
mod welfare;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use data::{Data, DataError};
pub use orders::Order;
pub use state::{Action, State};

use crate::draw::geo::LayoutCell;
use crate::engine::{Game, Seat, Shared};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// The 1800 engine with its checked data.
#[derive(Debug, Clone)]
pub struct R1800 {
    data: Arc<Data>,
    /// Where the drawing places the map's places, once placed (`draw::layout`).
    layout: LayoutCell,
}

impl R1800 {
    /// The engine with the shipped files of `rules/1800/`.
    pub fn standard() -> Result<R1800, DataError> {
        Ok(R1800 { data: Arc::new(Data::standard()?), layout: LayoutCell::default() })
    }

    /// An engine on other (checked) data.
    pub fn with_data(data: Data) -> R1800 {
        R1800 { data: Arc::new(data), layout: LayoutCell::default() }
    }

    /// The components.
    pub fn data(&self) -> &Data {
        &self.data
    }
}

/// The standard engine, loaded once (shared by the registry).
pub fn shared() -> Result<&'static R1800, DataError> {
    static ENGINE: Shared<R1800, DataError> = Shared::new();
    ENGINE.get(R1800::standard)
}

impl Game for R1800 {
    fn slug(&self) -> &'static str {
        "1800"
    }
    fn title(&self) -> &'static str {
        "1800"
    }
    /// 2 since issue 35 changed attacks (E40), movement (E43, E46), conscripts (E57), end-of-turn moves
    /// (E85), Industrial Policy and Freon (E27, E84), the open choices and their defaults (E4, E22, E82): the same sheets adjudicate differently (RULING S15).
    /// 3 since issue 35's remainder moved Command Economy's pop move to the start of the turn
    /// (E22), lets admin cards be played among the end-of-turn moves (E99) and counts
    /// Urbanization's and Sabotage's numbers (E34, E98).
    /// 4 since a Sabotage and a supported rebellion are wrongs (E72 amended): the round's end
    /// asks their victims, so the same sheets adjudicate differently.
    fn rules_version(&self) -> u32 {
        4
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=8
    }
    fn blurb(&self) -> &'static str {
        "1800: great powers draft cards, build industry and go to war (no options)."
    }
    fn order_example(&self) -> &'static str {
        "PLAY Accelerate Development\nDRAFT Standing Army, Canning, Oligarchy, PASS\nPLACE 3 P ON Standing Army\nACTIVATE Standing Army DISCARD Urbanization\nIF C >= 1 THEN PLACE C ON Autocracy\nRECRUIT Champagne\nDEFICIT SACRIFICE Champagne\nEVENT Unrest Overseas PAY\nDECLINE TRADE\nRETALIATE ON Prussia"
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/1800-orders.md"))
    }
    // RULING E30: one PBEM turn is one round; every seat sends its orders for it.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        if s.over() { Vec::new() } else { Seat::all(s.players.len()) }
    }
    fn turn_complete(&self, start: &State, now: &State) -> bool {
        now.over() || now.round != start.round
    }
}
