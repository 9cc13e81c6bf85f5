//! Order text, from raw bytes to a parsed sheet, its echo and its receipt digest.
//!
//! This is the one path every submission takes, whether it came from the web form, the JSON API,
//! the GM's console or (later) a mail: raw bytes become an [`OrderText`] at the edge (size and
//! UTF-8 checked), the game's order language parses each line, and the player gets an echo: each
//! line as understood, errors by line number, and a receipt digest over the canonical text.
//!
//! HR 16 (RULING S1): a line the language cannot read does not cost the sheet. It is kept in the
//! echo as "not understood", with the parser's error and a suggestion where one can be found,
//! sealed as `? text`, and left out of the sheet the adjudication plays; courtesy words are
//! ignored with a note ([`courtesy`]).

pub mod courtesy;
pub mod digest;
pub mod lasting;
mod suggest;
mod text;

pub use digest::{Receipt, SealedLines, line_hash, new_salt, receipt_digest, seal_lines, sheet_digest};
pub use lasting::{Intentions, LastingLine};
pub use suggest::nearest_name;
pub use text::{MAX_ORDER_BYTES, OrderText, OrderTextError, order_lines};

use crate::engine::prelude::*;
use crate::engine::{Numbered, OrderSheet, Seat};
use serde::{Deserialize, Serialize};

/// One line of the echo a player gets for a submission. A line is understood (`understood`),
/// not understood (`error`, ignored at adjudication: HR 16), or — neither — a courtesy ignored
/// with a note in `advice` ("Thanks!").
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
    /// For a line not understood: a way to write it the language reads, when one is found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
}

impl EchoLine {
    /// Whether the line is a courtesy ignored with a note (neither an order nor an error).
    pub fn is_ignored(&self) -> bool {
        self.understood.is_none() && self.error.is_none()
    }
}

/// The echo of a whole submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Echo {
    pub lines: Vec<EchoLine>,
    /// The canonical text, one line per order line (joined by newlines).
    pub canonical: String,
    /// How many lines were not understood (HR 16: kept, marked, and ignored at adjudication).
    pub errors: usize,
}

impl Echo {
    /// How many lines were understood as orders. A sheet with none is refused (RULINGS S1, W5).
    pub fn readable(&self) -> usize {
        self.lines.iter().filter(|l| l.understood.is_some()).count()
    }

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
/// "you do not hold that card" without rejecting the line. A line the language cannot read is
/// left out of the sheet and marked in the echo (HR 16); courtesy words are ignored with a note.
pub fn parse_sheet<G: Game>(
    game: &G,
    text: &str,
    state: Option<(&G::State, Seat)>,
) -> (OrderSheet<G::Order>, Echo) {
    let mut orders = Vec::new();
    let mut lines = Vec::new();
    let mut canonical = Vec::new();
    let mut known = None;
    for (line, raw) in order_lines(text) {
        let echo = match read_line(game, &raw) {
            Read::Order(order, dropped) => {
                let understood = order.to_string();
                // The engine's advice is added below, once the whole sheet is read.
                let advice = (!dropped.is_empty())
                    .then(|| format!("\"{}\" ignored: a courtesy, not an order (HR 16)", dropped.join(" ")));
                orders.push(Numbered { line, order });
                EchoLine {
                    line,
                    text: raw,
                    understood: Some(understood),
                    error: None,
                    advice,
                    suggestion: None,
                }
            }
            Read::Courtesy => EchoLine {
                line,
                text: raw,
                understood: None,
                error: None,
                advice: Some("ignored: a courtesy, not an order (HR 16)".into()),
                suggestion: None,
            },
            Read::Unreadable(e) => {
                let known = known.get_or_insert_with(|| suggest::known_words(game));
                let suggestion = suggest::suggestion(game, known, &raw);
                EchoLine { line, text: raw, understood: None, error: Some(e), advice: None, suggestion }
            }
        };
        canonical.push(echo.understood.clone().unwrap_or_else(|| format!("? {}", echo.text)));
        lines.push(echo);
    }
    // Each line's advice is judged after the lines before it (DESIGN "Orders and decisions").
    if let Some((s, seat)) = state {
        for (o, advice) in orders.iter().zip(game.advise_sheet(s, seat, &orders)) {
            if let (Some(l), Some(a)) = (lines.iter_mut().find(|l| l.line == o.line), advice) {
                l.advice = Some(match l.advice.take() {
                    Some(courtesy) => format!("{courtesy}; {a}"),
                    None => a,
                });
            }
        }
    }
    let errors = lines.iter().filter(|l| l.error.is_some()).count();
    let echo = Echo { lines, canonical: canonical.join("\n"), errors };
    (OrderSheet::new(orders), echo)
}

/// What one line of a sheet is.
enum Read<O> {
    /// An order, and the courtesy words taken off the line to read it.
    Order(O, Vec<String>),
    /// Courtesy words only.
    Courtesy,
    /// Not readable: the parser's error.
    Unreadable(String),
}

/// Reads one line: as written, else as a courtesy, else without its courtesy words (HR 16).
fn read_line<G: Game>(game: &G, raw: &str) -> Read<G::Order> {
    let error = match game.parse_order(raw) {
        Ok(order) => return Read::Order(order, Vec::new()),
        Err(e) => e.0,
    };
    if courtesy::is_courtesy(raw) {
        return Read::Courtesy;
    }
    match courtesy::strip(raw).and_then(|(text, dropped)| game.parse_order(&text).ok().map(|o| (o, dropped)))
    {
        Some((order, dropped)) => Read::Order(order, dropped),
        None => Read::Unreadable(error),
    }
}

/// The sheet the adjudication plays for a seat: its order text as [`parse_sheet`] reads it, then
/// its stated intentions carried from earlier turns (HR 12, `carried`: canonical lines the
/// sheet does not restate), numbered line 0 — the seat's orders as a whole, never a line of
/// this turn's text. A carried line the language no longer reads is left out.
pub fn played_sheet<G: Game>(game: &G, text: &str, carried: &[String]) -> OrderSheet<G::Order> {
    let (mut sheet, _) = parse_sheet(game, text, None);
    for line in carried {
        if let Ok(order) = game.parse_order(line) {
            sheet.orders.push(Numbered { line: 0, order });
            sheet.used.push(false);
        }
    }
    sheet
}

#[cfg(test)]
mod tests;
