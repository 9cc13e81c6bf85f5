//! Order text, from raw bytes to a parsed sheet, its echo and its receipt digest.
//!
//! This is the one path every submission takes, whether it came from the web form, the JSON API,
//! the GM's console or (later) a mail: raw bytes become an [`OrderText`] at the edge (size and
//! UTF-8 checked), the game's order language parses each line, and the player gets an echo: each
//! line as understood, errors by line number, and a receipt digest over the canonical text.

pub mod digest;
mod text;

pub use digest::{Receipt, SealedLines, line_hash, new_salt, receipt_digest, seal_lines, sheet_digest};
pub use text::{MAX_ORDER_BYTES, OrderText, OrderTextError, order_lines};

use crate::engine::prelude::*;
use crate::engine::{Numbered, OrderSheet, Seat};
use serde::{Deserialize, Serialize};

/// One line of the echo a player gets for a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EchoLine {
    pub line: usize,
    pub text: String,
    /// The line in canonical form, when understood.
    pub understood: Option<String>,
    /// Why the line was not understood.
    pub error: Option<String>,
    /// A warning that does not reject the line ("you do not hold 7♥").
    pub advice: Option<String>,
}

/// The echo of a whole submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Echo {
    pub lines: Vec<EchoLine>,
    /// The canonical text, one line per order line (joined by newlines).
    pub canonical: String,
    pub errors: usize,
}

impl Echo {
    /// Each order line's number and canonical text, in order: what the receipt seals line by
    /// line (`crate::orders::receipt`).
    pub fn canonical_lines(&self) -> Vec<(usize, String)> {
        self.lines
            .iter()
            .map(|l| (l.line, l.understood.clone().unwrap_or_else(|| format!("? {}", l.text))))
            .collect()
    }
}

/// Parses a seat's order text with a game's order language: the sheet the adjudicator consults,
/// and the echo the player is shown. `state` (when given) lets the engine add advice such as
/// "you do not hold that card" without rejecting the line.
pub fn parse_sheet<G: Game>(
    game: &G,
    text: &str,
    state: Option<(&G::State, Seat)>,
) -> (OrderSheet<G::Order>, Echo) {
    let mut orders = Vec::new();
    let mut lines = Vec::new();
    let mut canonical = Vec::new();
    for (line, raw) in order_lines(text) {
        match game.parse_order(&raw) {
            Ok(order) => {
                let understood = order.to_string();
                canonical.push(understood.clone());
                lines.push(EchoLine {
                    line,
                    text: raw.clone(),
                    understood: Some(understood),
                    error: None,
                    advice: None,
                });
                orders.push(Numbered { line, order });
            }
            Err(e) => {
                canonical.push(format!("? {raw}"));
                lines.push(EchoLine {
                    line,
                    text: raw.clone(),
                    understood: None,
                    error: Some(e.0),
                    advice: None,
                });
            }
        }
    }
    // Each line's advice is judged after the lines before it (DESIGN "Orders and decisions").
    if let Some((s, seat)) = state {
        for (o, advice) in orders.iter().zip(game.advise_sheet(s, seat, &orders)) {
            if let Some(l) = lines.iter_mut().find(|l| l.line == o.line) {
                l.advice = advice;
            }
        }
    }
    let errors = lines.iter().filter(|l| l.error.is_some()).count();
    let echo = Echo { lines, canonical: canonical.join("\n"), errors };
    (OrderSheet::new(orders), echo)
}
