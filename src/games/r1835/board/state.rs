//! The 1835 board as state: which tile lies on each hex and with which rotation (hexes not
//! listed show their pre-printed tile from `rules/1835/map.toml`), and which company's station
//! tokens sit in which city. Pure data, serialised as part of the game state.
//!
//! Laying a tile here only replaces the tile and carries the tokens over; whether a lay or a
//! station is legal is decided elsewhere (FACTS §7.4–7.5).

use crate::games::r1835::data::{Data, Hex, Tile};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A tile laid on a hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Laid {
    /// Tile id as printed (`"221"`).
    pub tile: String,
    /// Clockwise turns of 60° (README: "Geometry").
    pub rotation: u8,
}

/// A station token in a city of a hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Token {
    /// Company id (`"BY"`, `"M2"`).
    pub company: String,
    /// Which stop of the hex's tile, counted from 0 in the tile's `stops` order.
    pub stop: u8,
    /// For a city with a ferry (brown Hamburg): the bank the token stands on (HR 3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bank: u8,
}

fn is_zero(b: &u8) -> bool {
    *b == 0
}

/// Tiles laid and tokens placed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BoardState {
    /// Tiles laid by the players, by hex.
    #[serde(default)]
    pub tiles: BTreeMap<String, Laid>,
    /// Station tokens, by hex.
    #[serde(default)]
    pub tokens: BTreeMap<String, Vec<Token>>,
}

/// Why a change to the board was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("{0} is not a hex of the map")]
    UnknownHex(String),
    #[error("there is no tile {0}")]
    UnknownTile(String),
    #[error("rotation {0} is not 0 to 5")]
    BadRotation(u8),
    #[error("{0} takes no tile: its track is printed on the map")]
    NotBuildable(String),
    #[error("{hex} has no city number {stop}")]
    NotACity { hex: String, stop: u8 },
    #[error("the city at {0} has no free circle")]
    Full(String),
    #[error("{company} already has a station in {hex}")]
    AlreadyThere { company: String, hex: String },
}

impl BoardState {
    /// The tile on a hex and its rotation: the one laid, else the pre-printed one.
    pub fn tile_at<'d>(&self, data: &'d Data, at: &str) -> Option<(&'d Hex, &'d Tile, u8)> {
        let hex = data.hex(at)?;
        self.tile_on(data, hex).map(|(tile, rotation)| (hex, tile, rotation))
    }

    /// The tile on a hex of the map and its rotation (`tile_at` for a hex already found).
    pub fn tile_on<'d>(&self, data: &'d Data, hex: &Hex) -> Option<(&'d Tile, u8)> {
        match self.tiles.get(&hex.at) {
            Some(l) => Some((data.tiles.iter().find(|t| t.id == l.tile)?, l.rotation)),
            None => Some((data.preprinted_tile(&hex.tile)?, hex.rotation)),
        }
    }

    /// The tokens in one stop of a hex.
    pub fn tokens_at<'a>(&'a self, at: &str, stop: u8) -> impl Iterator<Item = &'a Token> {
        self.tokens.get(at).into_iter().flatten().filter(move |t| t.stop == stop)
    }

    /// Puts a manifest tile on a hex (replacing what lies there) and carries its tokens over:
    /// each token goes to the new city that keeps its track, onto the same bank of a ferry
    /// (HR 3: station markers keep their side of the Elbe; RULINGS K22).
    pub fn lay(&mut self, data: &Data, at: &str, tile: &str, rotation: u8) -> Result<(), BoardError> {
        let (hex, old, old_rot) = self.tile_at(data, at).ok_or_else(|| BoardError::UnknownHex(at.into()))?;
        if ["fixed", "red"].contains(&old.colour.as_str()) {
            return Err(BoardError::NotBuildable(hex.at.clone()));
        }
        let new =
            data.tiles.iter().find(|t| t.id == tile).ok_or_else(|| BoardError::UnknownTile(tile.into()))?;
        if rotation > 5 {
            return Err(BoardError::BadRotation(rotation));
        }
        let turn = |sides: &[u8], r: u8| sides.iter().map(|s| (s + r) % 6).collect::<Vec<u8>>();
        if let Some(tokens) = self.tokens.get_mut(at) {
            for token in tokens.iter_mut() {
                let old_exits = old
                    .stops
                    .get(usize::from(token.stop))
                    .map(|s| turn(&s.exits, old_rot))
                    .unwrap_or_default();
                let cities: Vec<usize> =
                    (0..new.stops.len()).filter(|i| new.stops[*i].kind == "city").collect();
                let keeps = |i: &usize| {
                    let exits = turn(&new.stops[*i].exits, rotation);
                    !old_exits.is_empty() && old_exits.iter().all(|e| exits.contains(e))
                };
                let stop = match cities.as_slice() {
                    [one] => *one,
                    _ => cities.iter().copied().find(keeps).unwrap_or(usize::from(token.stop)),
                };
                token.stop = u8::try_from(stop).unwrap_or(token.stop);
                token.bank = match (new.stops.get(stop).and_then(|s| s.ferry.as_ref()), old_exits.first()) {
                    (Some(f), Some(e)) => f.bank_of((e + 6 - rotation) % 6),
                    _ => 0,
                };
            }
        }
        self.tiles.insert(at.into(), Laid { tile: tile.into(), rotation });
        Ok(())
    }

    /// Places a company's station token in a city with a free circle.
    pub fn place_token(
        &mut self,
        data: &Data,
        at: &str,
        stop: u8,
        company: &str,
        bank: u8,
    ) -> Result<(), BoardError> {
        let (_, tile, _) = self.tile_at(data, at).ok_or_else(|| BoardError::UnknownHex(at.into()))?;
        let city = tile
            .stops
            .get(usize::from(stop))
            .filter(|s| s.kind == "city")
            .ok_or_else(|| BoardError::NotACity { hex: at.into(), stop })?;
        if self.tokens.get(at).into_iter().flatten().any(|t| t.company == company) {
            return Err(BoardError::AlreadyThere { company: company.into(), hex: at.into() });
        }
        if self.tokens_at(at, stop).count() >= usize::from(city.slots) {
            return Err(BoardError::Full(at.into()));
        }
        self.tokens.entry(at.into()).or_default().push(Token { company: company.into(), stop, bank });
        Ok(())
    }
}
