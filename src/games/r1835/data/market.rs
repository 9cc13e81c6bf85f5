//! The stock market grid (`rules/1835/market.toml`) and its spaces, named like the chart:
//! column letter + row number, row 1 at the top (`C3` = BY's par space, 92 M).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A space of the stock market: zero-based row (0 = top) and column (0 = A).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Space {
    pub row: u8,
    pub col: u8,
}

impl Space {
    /// Parses a chart name like "C3" (column letter, row number from 1).
    pub fn parse(name: &str) -> Option<Space> {
        let mut chars = name.trim().chars();
        let letter = chars.next()?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return None;
        }
        let row: u8 = chars.as_str().parse().ok()?;
        let row = row.checked_sub(1)?;
        Some(Space { row, col: letter as u8 - b'A' })
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col), u32::from(self.row) + 1)
    }
}

impl Serialize for Space {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Space, D::Error> {
        let name = String::deserialize(d)?;
        Space::parse(&name).ok_or_else(|| serde::de::Error::custom(format!("not a market space: {name}")))
    }
}

/// The checked market grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Market {
    /// prices[row][col]; 0 where the chart has no space.
    pub prices: Vec<Vec<i64>>,
    pub par_spaces: Vec<Space>,
}

impl Market {
    /// The price of a space (0 if it is not on the chart).
    pub fn price(&self, s: Space) -> i64 {
        self.prices.get(usize::from(s.row)).and_then(|r| r.get(usize::from(s.col))).copied().unwrap_or(0)
    }
    /// Whether a space exists on the chart.
    pub fn exists(&self, s: Space) -> bool {
        self.price(s) > 0
    }
    /// Number of spaces on the chart.
    pub fn space_count(&self) -> usize {
        self.prices.iter().flatten().filter(|p| **p > 0).count()
    }
    /// One row down (after a sale); the same space at the bottom of its column.
    pub fn down(&self, s: Space) -> Space {
        let below = Space { row: s.row.saturating_add(1), col: s.col };
        if self.exists(below) { below } else { s }
    }
    /// One row up (sold out at the end of a stock round); the same space at the top.
    pub fn up(&self, s: Space) -> Space {
        match s.row.checked_sub(1).map(|row| Space { row, col: s.col }) {
            Some(above) if self.exists(above) => above,
            _ => s,
        }
    }
    /// One column right (a dividend paid, FACTS §5.2); one row up where the row ends; the same
    /// space at the top right corner.
    pub fn right(&self, s: Space) -> Space {
        let next = Space { row: s.row, col: s.col.saturating_add(1) };
        if self.exists(next) { next } else { self.up(s) }
    }
    /// One column left (revenue withheld, FACTS §5.2); one row down where the row starts; the
    /// same space at the bottom left corner.
    pub fn left(&self, s: Space) -> Space {
        match s.col.checked_sub(1).map(|col| Space { row: s.row, col }) {
            Some(prev) if self.exists(prev) => prev,
            _ => self.down(s),
        }
    }
}
