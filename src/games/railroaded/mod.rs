//! Railroaded (Game Design #41): four rail riders build chains of cards out from the Terminal,
//! link up with Stations and jump trains; the longest chain when the Terminal runs dry wins.
//!
//! This file holds the [`Railroaded`] engine and its [`Game`] implementation, which delegates
//! to the other files, in the roles every engine shares (`crate::games`): `legal` (legality,
//! legal actions, the default), `apply` (carrying out actions), `orders` (the order language,
//! answering decisions), `view` (views, description, standings), `data` (the data file),
//! `state` (state and actions), `draw` (the picture of the table); and Railroaded's own `cards` (the card notation). Rulings are numbered as in `docs/RULINGS.md`.

mod apply;
pub mod cards;
mod data;
mod draw;
mod legal;
pub mod orders;
pub mod state;
mod view;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_draw;
#[cfg(test)]
mod tests_orders;
#[cfg(test)]
mod tests_play;
#[cfg(test)]
mod tests_rulings;

pub use data::{Rules, RulesError};
pub use orders::Order;
pub use state::{Action, State};

use crate::draw::Fragment;
use crate::engine::{
    Answer, Decision, Event, Game, GameRng, Illegal, LineNote, OrderError, OrderSheet, Seat, SetupError,
    SetupSpec, Standing, Viewer, executed_lines,
};
use cards::{Card, Dir, Face, Suit};
use state::{Phase, SeatState};
use std::collections::BTreeSet;
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
    type State = State;
    type Action = Action;
    type Order = Order;

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
    fn order_guide(&self) -> Option<&'static str> {
        Some(include_str!("../../../docs/railroaded-orders.md"))
    }
    fn rules_version(&self) -> u32 {
        1
    }
    fn seat_counts(&self) -> RangeInclusive<u8> {
        self.rules.seats..=self.rules.seats
    }

    // Setting Up: shuffle the decks together, deal nine each, the rest is the Terminal; then
    // four Stations from the top of the Terminal at North, East, South, West.
    fn setup(&self, spec: &SetupSpec, rng: &mut GameRng) -> Result<State, SetupError> {
        if spec.seats != self.rules.seats {
            return Err(SetupError(format!(
                "Railroaded is played by {} players, not {}",
                self.rules.seats, spec.seats
            )));
        }
        let no_options = spec.options.is_null() || spec.options.as_object().is_some_and(|o| o.is_empty());
        if !no_options {
            return Err(SetupError("Railroaded has no options".to_string()));
        }
        let mut deck: Vec<Card> = Vec::with_capacity(self.rules.total_cards());
        for copy in 1..=self.rules.decks {
            for suit in Suit::ALL {
                deck.extend((1..=13).filter_map(|r| Face::new(r, suit)).map(|face| Card { face, copy }));
            }
        }
        rng.shuffle(&mut deck);
        let mut seats = vec![SeatState { suit: None, hand: Vec::new() }; self.seat_count()];
        for _ in 0..self.rules.hand_size {
            for seat in seats.iter_mut() {
                seat.hand.extend(deck.pop());
            }
        }
        for seat in seats.iter_mut() {
            seat.hand.sort();
        }
        let stations = Dir::ALL.map(|_| deck.pop());
        Ok(State {
            phase: Phase::Claim,
            to_move: Seat(1),
            leader: None,
            turns_done: 0,
            seats,
            terminal: deck,
            stations,
            chains: [None, None, None, None],
        })
    }

    fn next_decision(&self, s: &State) -> Option<Decision> {
        let prompt = match s.phase {
            Phase::Over => return None,
            Phase::Claim => {
                let suits: Vec<&str> = s.unclaimed_suits().iter().map(|x| x.name()).collect();
                let dirs: Vec<&str> = s.free_dirs().iter().map(|d| d.upper()).collect();
                format!(
                    "claim a suit ({} unclaimed) at a free compass point ({}): place a card of it \
                     from your hand, or reveal from the Terminal if you hold none",
                    suits.join(", "),
                    dirs.join(", ")
                )
            }
            Phase::Play => format!(
                "play a card on a chain, link up, move a linked Station or jump trains; draw two \
                 only if no card fits ({} cards left in the Terminal)",
                s.terminal.len()
            ),
        };
        Some(Decision { seat: s.to_move, prompt })
    }

    fn legal_actions(&self, s: &State, decision: &Decision) -> Vec<Action> {
        self.legal(s, decision.seat)
    }

    fn apply(&self, s: &mut State, action: &Action, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        self.apply_action(s, action, rng)
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

    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        orders::parse(line)
    }

    fn advise(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        self.advise_on(s, seat, order)
    }

    fn answer(&self, s: &State, decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, decision.seat, sheet)
    }

    fn default_action(&self, s: &State, decision: &Decision) -> Option<Action> {
        self.default_for(s, decision.seat)
    }

    // RULING P1: a line carried out with no other alternative is public (its card is on the
    // table now); a line with ELSE alternatives or never reached names cards the seat may hold.
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        let executed = executed_lines(notes);
        sheet
            .orders
            .iter()
            .filter(|o| o.order.alts.len() == 1 && executed.contains(&o.line))
            .map(|o| o.line)
            .collect()
    }

    fn view(&self, s: &State, viewer: Viewer) -> serde_json::Value {
        self.view_of(s, viewer)
    }

    fn describe(&self, s: &State, viewer: Viewer) -> String {
        self.describe_for(s, viewer)
    }

    fn draw_on(&self, s: &State, viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        Some(self.draw_for(s, viewer))
    }

    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        self.standings_of(s)
    }
}
