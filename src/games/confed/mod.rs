//! Confederate Rails (Richard H. Berg, ATO 2016): railroading in the Confederacy while the Union
//! advances (issue 17). Rules: `shared/seeds/004_a09c017a97c47abe.txt` (cited `RT 5.3.4`);
//! rulings: `docs/RULINGS.md`, "Confederate Rails" (F…); the components are data
//! (`rules/confederate_rails/`, a reconstruction: RULING F9); orders:
//! `docs/confederate-rails-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`): `state` (the state; its
//! actions, with a payment's condition, in `actions`),
//! `setup` (set-up and the Round's initiative), `legal` (decisions, legal actions, defaults),
//! `apply` (carrying out actions, split by phase: loads, moves, war, events, specials),
//! `orders` (the order language and answering decisions), `view` (views, text, standings),
//! `data` (loading and checking the files); and Confederate Rails' own: `movement` (movement
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
pub mod data;
mod draw;
mod extended;
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
mod extended_tests;
#[cfg(test)]
mod iron_tests;
#[cfg(test)]
mod movement_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use actions::Action;
pub use data::{Data, DataError};
pub use orders::Order;
pub use state::State;

use crate::draw::Fragment;
use crate::draw::geo::LayoutCell;
use crate::engine::{
    Answer, Decision, Event, Game, GameRng, Illegal, LineNote, OrderError, OrderSheet, Seat, SetupError,
    SetupSpec, Shared, Standing, Viewer, executed_lines,
};
use std::collections::BTreeSet;
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
    type State = State;
    type Action = Action;
    type Order = Order;

    fn slug(&self) -> &'static str {
        "confederate-rails"
    }
    fn title(&self) -> &'static str {
        "Confederate Rails"
    }
    fn rules_version(&self) -> u32 {
        1
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        2..=5
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
    // A PBEM turn is one Player Turn (with the interrupts it opens to the others); the set-up
    // choices are one turn of every seat.
    fn acting_seats(&self, s: &State) -> Vec<Seat> {
        match s.stage {
            state::Stage::Over => Vec::new(),
            state::Stage::ChooseRrc { .. } | state::Stage::Place | state::Stage::SelectLoads => {
                s.seats_from(s.order.first().copied().unwrap_or(Seat(1)))
            }
            _ => s.seats_from(s.active()),
        }
    }
    fn turn_complete(&self, start: &State, now: &State) -> bool {
        let setup = |x: &State| {
            matches!(
                x.stage,
                state::Stage::ChooseRrc { .. } | state::Stage::Place | state::Stage::SelectLoads
            )
        };
        if setup(start) {
            return !setup(now);
        }
        now.ended.is_some() || now.round != start.round || now.turn != start.turn
    }
    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        orders::parse(line)
    }
    fn answer(&self, s: &State, _decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, sheet).or_default_if_ordered(sheet, || self.default_for(s))
    }
    fn default_action(&self, s: &State, _decision: &Decision) -> Option<Action> {
        self.default_for(s)
    }
    // RULING F31: lines carried out are public (their effect is on the table); a standing
    // `PLAY … WHEN` never fired, or an offer's condition, stays a hash.
    fn public_lines(&self, _sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        executed_lines(notes)
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
    fn describe_action(&self, a: &Action) -> String {
        self.action_words(a)
    }
    fn order_example(&self) -> &'static str {
        "ACTIVATE 1 2\nMOVE 1 Petersburg, Weldon\nMOVE 2 SHORTEST TO Atlanta\nPLAY LEE WHEN A VICTORY DEPOT FALLS"
    }
    fn rolls_dice(&self) -> bool {
        true
    }
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/confederate-rails-orders.md"))
    }
}
