//! The 1833 game state and actions.
//!
//! Piles are vectors whose *last* element is the top card (the draw deck, the discard pile).
//! Every physical card is in exactly one place: the draw deck, the set-up bottom deck, the
//! set-up display, the selection pool, the discard pile, a hand, a route, or removed from the
//! game (see [`State::all_cards`]).

use super::data::{CardId, Deck, Kind};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How much play one PBEM turn covers (a GM's game option, `turn_size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnSize {
    /// One player-turn: only the active player orders; the turn closes when their turn ends.
    #[default]
    Player,
    /// A full round: every seat orders; one turn of each player is played from the orders.
    Round,
}

/// A route on the table: one locomotive, its city and private RR cards, and the connections
/// shown by the layout (pairs of adjacent cards).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub loco: CardId,
    pub cards: Vec<CardId>,
    pub links: Vec<(CardId, CardId)>,
}

/// A standing order to take a discarded card (`TAKE DISCARD: Philadelphia, any Level 3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TakeRule {
    /// A card of this kind (a city, private RR, Corp RR or locomotive level).
    Kind(Kind),
    AnyCity,
    AnyPrivate,
    AnyCorp,
    AnyLoco,
    Any,
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub hand: Vec<CardId>,
    pub routes: Vec<Route>,
    /// Hand limit ¶1: 5, +1 for the first Level 1, 2 and 3 route created.
    pub limit: u8,
    /// Whether a route with a Level 1, 2, 3 locomotive was created (for the limit).
    pub created: [bool; 3],
    /// Standing pick-up orders in force (RULING C10).
    pub standing: Vec<TakeRule>,
    /// Whether this player has begun a turn since the last Re-Shuffle (RULING C7).
    pub had_turn: bool,
}

/// What has happened so far in the active player's turn.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TurnLog {
    /// Actions taken (draws, discards, routes, Re-Shuffles); at least one is required.
    pub actions: u16,
    /// A route was created or extended (only one per turn).
    pub route_done: bool,
    /// A discard was not picked up: no further discards this turn.
    pub discards_closed: bool,
    /// The one card from the discard pile was taken.
    pub took_discard: bool,
    /// Cards this player discarded this turn (may not be taken back).
    pub discarded: Vec<CardId>,
    /// The player played a Re-Shuffle from hand (one per turn).
    pub played_reshuffle: bool,
    /// Re-Shuffles (played or from the pool) this turn: odd = reverse after the turn.
    pub reversals: u8,
    /// Pool cards taken after the deck ran out (at most one per turn).
    pub pool_after_end: u8,
}

/// The end of the game: who took the last deck card, and how many final turns are left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    pub trigger: u8,
    /// `None` while the triggering player's turn goes on.
    pub turns_left: Option<u8>,
}

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Set-up ¶2: snake selection from the display; `order` lists seat indices.
    Select {
        order: Vec<u8>,
        next: u8,
    },
    /// The active player's turn.
    Play,
    /// The pick-up offer of a discarded card to `queue[0]`, then the rest in turn order.
    Offer {
        card: CardId,
        queue: Vec<u8>,
    },
    Over,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// A deck the GM supplied; `None` for the engine's standard deck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_deck: Option<Arc<Deck>>,
    pub turn_size: TurnSize,
    pub players: Vec<Player>,
    /// The draw deck (top = last).
    pub draw: Vec<CardId>,
    /// The set-up bottom deck, until the selection is done.
    pub bottom: Vec<CardId>,
    /// The set-up display of 3 cards per player, until the selection is done.
    pub display: Vec<CardId>,
    pub pool: Vec<CardId>,
    /// The discard pile (top = last).
    pub discard: Vec<CardId>,
    pub removed: Vec<CardId>,
    pub phase: Phase,
    /// Index of the active player.
    pub active: u8,
    pub clockwise: bool,
    pub turn: TurnLog,
    /// Player-turns completed.
    pub turns_taken: u32,
    pub ending: Option<Ending>,
}

/// One action. Card ids name physical cards; the deciding seat is the one
/// [`next_decision`](crate::engine::Rules::next_decision) names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Set-up ¶2: take a card from the display.
    Select(CardId),
    /// Record standing pick-up orders (not a turn action; RULING C10).
    SetStanding(Vec<TakeRule>),
    DrawDeck,
    DrawPool(CardId),
    DrawDiscard,
    Discard(CardId),
    /// Create a route from hand: a locomotive, city and private RR cards, and the layout's links.
    Create {
        loco: CardId,
        cards: Vec<CardId>,
        links: Vec<(CardId, CardId)>,
    },
    /// Extend the player's route `route` (0-based) with new cards and links, optionally
    /// replacing its locomotive with a higher one.
    Extend {
        route: u8,
        loco: Option<CardId>,
        cards: Vec<CardId>,
        links: Vec<(CardId, CardId)>,
    },
    PlayReshuffle(CardId),
    EndTurn,
    /// The documented default: draw to the hand limit from the deck and end the turn.
    DrawToLimitAndEnd,
    /// Take the discarded card on offer.
    Take,
    /// Decline the discarded card on offer.
    Decline,
}

impl Player {
    /// A player at the start of the game: no cards, the starting hand limit.
    pub fn fresh(limit: u8) -> Player {
        Player {
            hand: Vec::new(),
            routes: Vec::new(),
            limit,
            created: [false; 3],
            standing: Vec::new(),
            had_turn: true,
        }
    }
}

impl State {
    /// Every card id held anywhere, in no particular order (for conservation checks).
    pub fn all_cards(&self) -> Vec<CardId> {
        let mut v: Vec<CardId> = Vec::new();
        for pile in [&self.draw, &self.bottom, &self.display, &self.pool, &self.discard, &self.removed] {
            v.extend(pile.iter().copied());
        }
        for p in &self.players {
            v.extend(p.hand.iter().copied());
            for r in &p.routes {
                v.push(r.loco);
                v.extend(r.cards.iter().copied());
            }
        }
        v
    }

    /// The player at an index.
    pub fn player(&self, i: u8) -> Option<&Player> {
        self.players.get(usize::from(i))
    }

    /// Number of players.
    pub fn n(&self) -> u8 {
        u8::try_from(self.players.len()).unwrap_or(u8::MAX)
    }

    /// The player after `i` in the current direction of play.
    pub fn next_of(&self, i: u8) -> u8 {
        let n = self.n().max(1);
        if self.clockwise { (i + 1) % n } else { (i + n - 1) % n }
    }

    /// The other players after `i`, in turn order.
    pub fn others_in_order(&self, i: u8) -> Vec<u8> {
        let mut v = Vec::new();
        let mut j = self.next_of(i);
        while j != i && v.len() < self.players.len() {
            v.push(j);
            j = self.next_of(j);
        }
        v
    }
}
