//! The game state (hands, Terminal, Stations, chains, whose turn) and the actions that change
//! it, with small read-only helpers. Everything here is plain serializable data.

use super::cards::{Card, Dir, Face, Suit};
use crate::engine::Seat;
use serde::{Deserialize, Serialize};

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Seats claim suits in seat order (the first PBEM turn).
    Claim,
    /// Player turns, leader first, then to the left.
    Play,
    /// The Terminal is empty; the longest chain has won.
    Over,
}

/// Marks a chain card as a Station card turned lengthwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StationMark {
    /// The compass point whose Station this card was.
    pub from: Dir,
    /// true while it sits where a linking play put it (RULING R9: such a chain end is exempt
    /// from receiving a moved Station); false once it has been moved.
    pub linked: bool,
}

/// One card of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placed {
    /// The card.
    pub card: Card,
    /// Set when the card is a Station turned lengthwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub station: Option<StationMark>,
}

impl Placed {
    /// An ordinary card.
    pub fn plain(card: Card) -> Placed {
        Placed { card, station: None }
    }
}

/// A chain running out from the Terminal. `cards[0]` is the beginning card; the last is the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// The seat controlling it; always the seat whose suit the beginning card has.
    pub owner: Seat,
    /// The cards, beginning card first.
    pub cards: Vec<Placed>,
}

impl Chain {
    /// The card new cards are played on.
    pub fn end(&self) -> Option<&Placed> {
        self.cards.last()
    }
    /// Its length: every card, the beginning card and Station cards included (RULING R5).
    pub fn len(&self) -> usize {
        self.cards.len()
    }
    /// Whether it has no cards (never, for a claimed chain).
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// One seat's private and public holdings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatState {
    /// The suit claimed, once claimed.
    pub suit: Option<Suit>,
    /// The hand, sorted by suit, rank, copy. Hidden from everyone but this seat and the GM.
    pub hand: Vec<Card>,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Claim round, play, or over.
    pub phase: Phase,
    /// The seat to act (meaningless once over).
    pub to_move: Seat,
    /// The fourth chooser, who leads the play (set when the claim round ends).
    pub leader: Option<Seat>,
    /// Completed player turns, claims included (PBEM turn bookkeeping).
    pub turns_done: u32,
    /// Per seat, seat 1 first.
    pub seats: Vec<SeatState>,
    /// The face-down draw pile; the top is the last element.
    pub terminal: Vec<Card>,
    /// The Station at each compass point (indexed by [`Dir::idx`]); `None` once linked.
    pub stations: [Option<Card>; 4],
    /// The chain at each compass point (indexed by [`Dir::idx`]); `None` until claimed.
    pub chains: [Option<Chain>; 4],
}

/// One move. Cards are named by face; when a seat holds both copies the lower copy is used
/// (RULING R15: the copies are interchangeable).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Claim a suit with a card from hand, beginning the chain at `dir`.
    Claim { card: Face, dir: Dir },
    /// Announce a suit and reveal from the Terminal (only without a card of any unclaimed suit).
    Reveal { suit: Suit, dir: Dir },
    /// Play a card on the end of a chain (never links: RULING R6).
    Play { card: Face, dir: Dir },
    /// Play a card on a chain of at least ten cards that also fits its Station, and link up.
    Link { card: Face, dir: Dir },
    /// Move the linked Station at the end of chain `from` to the end of chain `to`.
    MoveStation { from: Dir, to: Dir },
    /// Jump trains with the Ace of one's own suit onto the chain at `dir`.
    Jump { ace: Face, dir: Dir },
    /// Draw two cards (only when no card can be played).
    DrawTwo,
}

impl State {
    /// A seat's holdings, if the seat exists.
    pub fn seat(&self, seat: Seat) -> Option<&SeatState> {
        self.seats.get(seat.index()).filter(|_| seat.0 >= 1)
    }
    /// A seat's hand (empty for an unknown seat).
    pub fn hand(&self, seat: Seat) -> &[Card] {
        self.seat(seat).map(|s| s.hand.as_slice()).unwrap_or(&[])
    }
    /// The suit a seat claimed.
    pub fn suit_of(&self, seat: Seat) -> Option<Suit> {
        self.seat(seat).and_then(|s| s.suit)
    }
    /// The seat that claimed a suit.
    pub fn claimant(&self, suit: Suit) -> Option<Seat> {
        self.seats.iter().position(|s| s.suit == Some(suit)).map(Seat::from_index)
    }
    /// The lowest copy of `face` a seat holds.
    pub fn held(&self, seat: Seat, face: Face) -> Option<Card> {
        self.hand(seat).iter().copied().find(|c| c.face == face)
    }
    /// The distinct faces in a seat's hand, in canonical order.
    pub fn hand_faces(&self, seat: Seat) -> Vec<Face> {
        let mut faces: Vec<Face> = self.hand(seat).iter().map(|c| c.face).collect();
        faces.dedup();
        faces
    }
    /// The chain at a compass point.
    pub fn chain(&self, dir: Dir) -> Option<&Chain> {
        self.chains[dir.idx()].as_ref()
    }
    /// The compass point of the chain a seat controls.
    pub fn chain_of(&self, seat: Seat) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| self.chain(*d).is_some_and(|c| c.owner == seat))
    }
    /// The suits no seat has claimed yet, in canonical order.
    pub fn unclaimed_suits(&self) -> Vec<Suit> {
        Suit::ALL.into_iter().filter(|s| self.claimant(*s).is_none()).collect()
    }
    /// The compass points without a chain yet, in canonical order.
    pub fn free_dirs(&self) -> Vec<Dir> {
        Dir::ALL.into_iter().filter(|d| self.chain(*d).is_none()).collect()
    }
    /// The seat `n` places to the left (seat order, wrapping).
    pub fn seat_after(&self, seat: Seat, n: usize) -> Seat {
        let count = self.seats.len().max(1);
        Seat::from_index((seat.index() + n) % count)
    }
    /// Every card in the game, wherever it lies (for accounting).
    pub fn all_cards(&self) -> Vec<Card> {
        let mut all: Vec<Card> = self.seats.iter().flat_map(|s| s.hand.iter().copied()).collect();
        all.extend(self.terminal.iter().copied());
        all.extend(self.stations.iter().flatten().copied());
        all.extend(self.chains.iter().flatten().flat_map(|c| c.cards.iter().map(|p| p.card)));
        all
    }
}
