//! The data file `rules/railroaded/game.toml`: what the rules text fixes as numbers (decks, hand
//! size, seats, link threshold) and facts (compass points, suit colours, rank order), loaded and
//! checked into [`Rules`]. A broken file is a [`RulesError`] naming the key at fault.
//!
//! The notation players write (N/E/S/W, H/D/C/S, A…K) is fixed in code (`cards.rs`); the file
//! must agree with it, so the compass points and rank order are checked rather than configured.

use super::cards::{Colour, Dir, RANK_SYMBOLS, Suit};
use serde::Deserialize;

/// The rules file could not be loaded: which key or entry is wrong, and how.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Railroaded rules file: {0}")]
pub struct RulesError(pub String);

/// The checked contents of the data file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Number of identical 52-card decks shuffled together.
    pub decks: u8,
    /// Cards dealt to each seat.
    pub hand_size: u8,
    /// Number of seats (always 4: one per suit and compass point).
    pub seats: u8,
    /// Cards a chain must hold before it may link with its Station.
    pub link_threshold: usize,
    /// Colour of each suit, indexed by [`Suit::idx`].
    pub colours: [Colour; 4],
}

impl Rules {
    /// Number of cards in play (52 per deck).
    pub fn total_cards(&self) -> usize {
        usize::from(self.decks) * 52
    }
    /// The colour of a suit.
    pub fn colour(&self, suit: Suit) -> Colour {
        self.colours[suit.idx()]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    game: GameSection,
    colours: ColourSection,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameSection {
    decks: u8,
    hand_size: u8,
    seats: u8,
    link_threshold: u32,
    directions: Vec<String>,
    ranks: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColourSection {
    #[serde(rename = "HEARTS")]
    hearts: Colour,
    #[serde(rename = "DIAMONDS")]
    diamonds: Colour,
    #[serde(rename = "CLUBS")]
    clubs: Colour,
    #[serde(rename = "SPADES")]
    spades: Colour,
}

fn err(msg: impl Into<String>) -> RulesError {
    RulesError(msg.into())
}

/// Parses and checks the data file.
pub fn load(text: &str) -> Result<Rules, RulesError> {
    let file: File = toml::from_str(text).map_err(|e| err(e.to_string().trim_end().to_string()))?;
    let g = file.game;
    if g.decks == 0 {
        return Err(err("key `game.decks` must be at least 1"));
    }
    // One seat per suit and per compass point: the whole game is built on four.
    if g.seats != 4 {
        return Err(err(format!(
            "key `game.seats` must be 4 (one seat per suit and compass point), not {}",
            g.seats
        )));
    }
    if g.hand_size == 0 {
        return Err(err("key `game.hand_size` must be at least 1"));
    }
    if g.link_threshold == 0 {
        return Err(err("key `game.link_threshold` must be at least 1"));
    }
    let rules = Rules {
        decks: g.decks,
        hand_size: g.hand_size,
        seats: g.seats,
        link_threshold: usize::try_from(g.link_threshold).unwrap_or(usize::MAX),
        colours: [file.colours.hearts, file.colours.diamonds, file.colours.clubs, file.colours.spades],
    };
    // The deal, the four Stations, four beginning cards and at least one card to draw.
    let needed = usize::from(g.seats) * usize::from(g.hand_size) + 2 * Dir::ALL.len() + 1;
    if rules.total_cards() < needed {
        return Err(err(format!(
            "key `game.hand_size`: {} hands of {} need {needed} cards with the Stations, but {} deck(s) hold {}",
            g.seats,
            g.hand_size,
            g.decks,
            rules.total_cards()
        )));
    }
    let dirs: Vec<&str> = Dir::ALL.iter().map(|d| d.upper()).collect();
    if g.directions != dirs {
        return Err(err(format!(
            "key `game.directions` must be {:?} (the order Stations are dealt in), not {:?}",
            dirs, g.directions
        )));
    }
    // RULING R17: the card values are fixed (A = 1 … K = 13); the file may only confirm them.
    if g.ranks != RANK_SYMBOLS {
        return Err(err(format!(
            "key `game.ranks` must be {:?} (A = 1 … K = 13), not {:?}",
            RANK_SYMBOLS, g.ranks
        )));
    }
    Ok(rules)
}
