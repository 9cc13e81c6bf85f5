//! 1800 (David Jacobson's unpublished design, rules v0.3): nineteenth-century Europe for 2–8
//! powers over 24 rounds in three eras (issue 18). Rules: `shared/seeds/003_6462b8b8a18519bf.txt`;
//! the cards and the reconstructed map are data in `rules/1800/` (fact sheet
//! `shared/reference/1800/FACTS.md`); rulings: `docs/RULINGS.md`, "1800" (E…); orders:
//! `docs/1800-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`): `state`, `setup` (set-up and the
//! round's steps), `legal`, `apply` (draft, placing, activating, rewards, end moves), `orders`,
//! `view`, `draw` (the picture of the table), `data`; and 1800's own: `board` (what the rules read off the position: workforce,
//! collection, requirements), `events` (global events and policy upkeep), `admin` (admin
//! cards), `timing` (when an admin card is played), `costs` (prosperity costs paid otherwise),
//! `draft_cards` (the admin cards of the draft), `diplomacy` (wrongs answered by war, Conquest,
//! Cleanse, trading technologies), `schemes` (Free Enterprise, Espionage), `welfare`
//! (Corporations' and Hospitals' alternatives), `score` (ambitions
//! and the winner), `warlink` (the seam to the war procedure), `sim` (a random player for tests
//! and the benchmark).
//!
//! A PBEM turn is one round: every seat sends one sheet with its draft preferences and its turn
//! orders (RULING E30).

mod admin;
mod alone;
mod apply;
pub mod board;
mod costs;
pub mod data;
mod diplomacy;
mod draft_cards;
mod draw;
mod events;
mod legal;
mod moves;
pub mod orders;
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

use crate::draw::Fragment;
use crate::draw::geo::LayoutCell;
use crate::engine::{
    Answer, Decision, Event, Game, GameRng, Illegal, LineNote, OrderError, OrderSheet, Seat, SetupError,
    SetupSpec, Shared, Standing, Viewer,
};
use std::collections::BTreeSet;
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
    type State = State;
    type Action = Action;
    type Order = Order;

    fn slug(&self) -> &'static str {
        "1800"
    }
    fn title(&self) -> &'static str {
        "1800"
    }
    fn rules_version(&self) -> u32 {
        1
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=8
    }
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        self.new_game(spec, rng)
    }
    fn next_decision(&self, s: &State) -> Option<Decision> {
        self.decision(s)
    }
    fn legal_actions(&self, s: &State, _decision: &Decision) -> Vec<Action> {
        self.legal(s)
    }
    fn apply(&self, s: &mut State, action: &Action, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        self.apply_action(s, action, rng)
    }
    // RULING E30: one PBEM turn is one round; every seat sends its orders for it.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        if s.over() { Vec::new() } else { Seat::all(s.players.len()) }
    }
    fn turn_complete(&self, start: &State, now: &State) -> bool {
        now.over() || now.round != start.round
    }
    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        self.parse_line(line)
    }
    fn answer(&self, s: &State, _decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, sheet).or_default_if_ordered(sheet, || self.default_for(s))
    }
    fn default_action(&self, s: &State, _decision: &Decision) -> Option<Action> {
        self.default_for(s)
    }
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        self.public_of(sheet, notes)
    }
    fn view(&self, s: &State, viewer: Viewer) -> serde_json::Value {
        self.view_of(s, viewer)
    }
    fn describe(&self, s: &State, viewer: Viewer) -> String {
        self.describe_for(s, viewer)
    }
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        self.standings_of(s)
    }
    fn draw_board(&self, s: &State) -> Option<Fragment> {
        self.board(s)
    }
    fn draw_on(&self, s: &State, viewer: Viewer, board: Option<&Fragment>) -> Option<String> {
        self.draw_for(s, viewer, board)
    }
    fn order_example(&self) -> &'static str {
        "PLAY Accelerate Development\nDRAFT Standing Army, Canning, Oligarchy, PASS\nPLACE 3 P ON Standing Army\nACTIVATE Standing Army DISCARD Urbanization\nIF C >= 1 THEN PLACE C ON Autocracy\nRECRUIT Champagne\nRETALIATE ON Prussia"
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/1800-orders.md"))
    }
}
