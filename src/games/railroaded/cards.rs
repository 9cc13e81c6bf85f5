//! Cards, suits, colours and compass points, and the notation players write for them
//! (`7H`, `10S`/`TS`, `AH`; `NORTH`/`N`; `HEARTS`).
//!
//! A [`Face`] is what a player names (rank + suit); a [`Card`] is one physical card, a face plus
//! the deck copy it came from. The copy exists only so the engine can account for every one of
//! the 104 cards; players never write it, and when they hold both copies either may be used.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The rank symbols in order, A = 1 … 10, J = 11, Q = 12, K = 13 (RULING R17; the data file
/// must list the same order).
pub const RANK_SYMBOLS: [&str; 13] = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/// The explanation shown with every card a player mistypes.
pub const CARD_HELP: &str = "a card is a rank A,2-10,J,Q,K and a suit H,D,C,S, e.g. 7H, 10S, QD";

/// A suit. The declaration order (Hearts, Diamonds, Clubs, Spades) is the canonical suit order
/// used to sort hands and enumerate actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Suit {
    Hearts,
    Diamonds,
    Clubs,
    Spades,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    /// Index 0..4 in canonical order.
    pub fn idx(self) -> usize {
        self as usize
    }
    /// The letter used in card codes (H, D, C, S).
    pub fn letter(self) -> char {
        match self {
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
        }
    }
    /// The name as written in orders and the data file (HEARTS …).
    pub fn upper(self) -> &'static str {
        match self {
            Suit::Hearts => "HEARTS",
            Suit::Diamonds => "DIAMONDS",
            Suit::Clubs => "CLUBS",
            Suit::Spades => "SPADES",
        }
    }
    /// The name as used in prose (Hearts …).
    pub fn name(self) -> &'static str {
        match self {
            Suit::Hearts => "Hearts",
            Suit::Diamonds => "Diamonds",
            Suit::Clubs => "Clubs",
            Suit::Spades => "Spades",
        }
    }
    /// The suit of a card-code letter or suit symbol.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'H' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | '♣' | '♧' => Some(Suit::Clubs),
            'S' | '♠' | '♤' => Some(Suit::Spades),
            _ => None,
        }
    }
    /// A suit named in full (singular or plural) or by its letter, case-insensitive.
    pub fn from_word(word: &str) -> Option<Suit> {
        let w = word.to_ascii_uppercase();
        let w = w.strip_suffix('S').filter(|s| s.len() > 1).unwrap_or(&w);
        Suit::ALL.into_iter().find(|s| s.upper().strip_suffix('S') == Some(w)).or_else(|| {
            let mut chars = word.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => Suit::from_letter(c),
                _ => None,
            }
        })
    }
}

/// A card colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Black,
}

/// A compass point: where a chain runs and where its Station lies. The declaration order
/// (North, East, South, West) is the canonical order used to deal Stations and enumerate chains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Dir {
    North,
    East,
    South,
    West,
}

impl Dir {
    /// All compass points in canonical order.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// Index 0..4 in canonical order (indexes the per-direction arrays of the state).
    pub fn idx(self) -> usize {
        self as usize
    }
    /// NORTH, EAST, SOUTH, WEST.
    pub fn upper(self) -> &'static str {
        match self {
            Dir::North => "NORTH",
            Dir::East => "EAST",
            Dir::South => "SOUTH",
            Dir::West => "WEST",
        }
    }
    /// North, East, South, West.
    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "North",
            Dir::East => "East",
            Dir::South => "South",
            Dir::West => "West",
        }
    }
    /// A compass point written in full or as N/E/S/W, case-insensitive.
    pub fn parse(word: &str) -> Option<Dir> {
        let w = word.to_ascii_uppercase();
        Dir::ALL.into_iter().find(|d| d.upper() == w || d.upper()[..1] == w)
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.upper())
    }
}

/// What a player names: a rank (1 = Ace … 13 = King) and a suit. Serialized as its code ("7H").
/// Ordered by suit, then rank (the canonical hand order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Face {
    suit: Suit,
    rank: u8,
}

impl Face {
    /// A face, if `rank` is 1..=13.
    pub fn new(rank: u8, suit: Suit) -> Option<Face> {
        (1..=13).contains(&rank).then_some(Face { suit, rank })
    }
    /// The Ace of a suit.
    pub fn ace(suit: Suit) -> Face {
        Face { suit, rank: 1 }
    }
    /// 1 (Ace) … 13 (King).
    pub fn rank(self) -> u8 {
        self.rank
    }
    /// The suit.
    pub fn suit(self) -> Suit {
        self.suit
    }
    /// Parses a card code such as `7H`, `10S`, `TS`, `QD` or `7♥` (case-insensitive).
    pub fn parse(code: &str) -> Result<Face, String> {
        let bad = || format!("unknown card '{code}': {CARD_HELP}");
        let mut chars = code.chars();
        let suit = chars.next_back().and_then(Suit::from_letter).ok_or_else(bad)?;
        let rank_text = chars.as_str().to_ascii_uppercase();
        let rank = match rank_text.as_str() {
            "T" => Some(10),
            r => RANK_SYMBOLS.iter().position(|s| *s == r).map(|p| p as u8 + 1),
        };
        rank.and_then(|r| Face::new(r, suit)).ok_or_else(bad)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rank = RANK_SYMBOLS.get(usize::from(self.rank).wrapping_sub(1)).copied().unwrap_or("?");
        write!(f, "{rank}{}", self.suit.letter())
    }
}

impl TryFrom<String> for Face {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Face::parse(&s)
    }
}

impl From<Face> for String {
    fn from(f: Face) -> String {
        f.to_string()
    }
}

/// One physical card: a face and the deck it came from (1-based). Serialized as "7H#2".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Card {
    /// What the card shows.
    pub face: Face,
    /// Which deck it came from, 1-based.
    pub copy: u8,
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.face, self.copy)
    }
}

impl TryFrom<String> for Card {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        let (face, copy) = s.split_once('#').ok_or_else(|| format!("card '{s}' lacks its deck copy"))?;
        let copy = copy.parse::<u8>().map_err(|_| format!("card '{s}' has a bad deck copy"))?;
        Ok(Card { face: Face::parse(face)?, copy })
    }
}

impl From<Card> for String {
    fn from(c: Card) -> String {
        c.to_string()
    }
}

/// The cards as codes separated by spaces ("7H 8H 8S"), for prose.
pub fn faces_text<'a>(cards: impl IntoIterator<Item = &'a Card>) -> String {
    cards.into_iter().map(|c| c.face.to_string()).collect::<Vec<_>>().join(" ")
}
