//! 1833, the 19th Century Railroad Card Game: the engine.
//!
//! Rules: `shared/seeds/000_75e466ca7f0f1a4f.txt` (cited by section and paragraph, e.g.
//! `// Drawing/Discarding ¶1`); rulings: `docs/RULINGS.md`, "1833" (C…); the deck is data
//! (`rules/1833/deck.toml`, format in `rules/1833/README.md`); orders: `docs/1833-orders.md`.
//!
//! Files, in the roles every engine shares (`crate::games`): `legal` (decisions, legal actions,
//! defaults; with `check`, whether one action is legal now), `apply` (applying actions,
//! Re-Shuffles, end of turn and game), `orders` (the order language; `orders::answer`: orders
//! into actions), `view` (what each viewer sees), `draw` (the picture of the table), `data` (loading and checking a deck), `state`
//! (state and actions); and 1833's own: `setup` (options, set-up and the snake selection),
//! `routes` and `layout` (route rules and grid layouts), `score` (scoring and standings), `sim`
//! (a random player for simulations and the benchmark).
//!
//! The pick-up offer of a discard is a decision of each other seat in turn order, answered from
//! its standing `TAKE DISCARD` orders (default: decline), so the generic turn loop handles the
//! interrupt without any change to the engine contract.

mod apply;
mod check;
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
mod tests_orders;
#[cfg(test)]
mod tests_reshuffle;
#[cfg(test)]
mod tests_routes;

pub use data::{CardId, Deck, DeckError, Kind};
pub use orders::Order;
pub use state::{Action, Phase, State, TurnSize};

use crate::draw::Fragment;
use crate::engine::{
    Answer, Decision, Event, Game, GameRng, Illegal, LineNote, OrderError, OrderSheet, Seat, SetupError,
    SetupSpec, Shared, Standing, Viewer, executed_lines,
};
use std::collections::BTreeSet;
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
    type State = State;
    type Action = Action;
    type Order = Order;

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

    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        orders::parse(line)
    }

    fn advise(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        self.advise_on(s, seat, order)
    }

    fn answer(&self, s: &State, decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, decision, sheet)
    }

    fn default_action(&self, s: &State, _decision: &Decision) -> Option<Action> {
        self.default_for(s)
    }

    // RULING P1: a line carried out is public (what it did is on the table), except standing
    // pick-up orders (the views show them to their seat alone) and conditional lines (the
    // condition names cards in the hand).
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        let executed = executed_lines(notes);
        sheet
            .orders
            .iter()
            .filter(|o| o.order.cond.is_empty() && !matches!(o.order.cmd, orders::Cmd::Take(_)))
            .filter(|o| executed.contains(&o.line))
            .map(|o| o.line)
            .collect()
    }

    fn view(&self, s: &State, viewer: Viewer) -> serde_json::Value {
        self.view_of(s, viewer)
    }

    fn describe(&self, s: &State, viewer: Viewer) -> String {
        self.describe_state(s, viewer)
    }

    fn draw_on(&self, s: &State, viewer: Viewer, _board: Option<&Fragment>) -> Option<String> {
        Some(self.draw_for(s, viewer))
    }

    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        self.standings_of(s)
    }
}
