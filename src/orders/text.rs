//! Raw order text checked at the edge: size, encoding, and the split into meaningful lines.

use thiserror::Error;

/// The largest order submission accepted, in bytes (a whole turn's orders fit in far less).
pub const MAX_ORDER_BYTES: usize = 64 * 1024;

/// Order text that passed the edge checks: at most [`MAX_ORDER_BYTES`], valid UTF-8, no NUL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderText(String);

/// Why raw bytes are not acceptable order text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OrderTextError {
    #[error("the orders are {0} bytes long; at most {MAX_ORDER_BYTES} bytes are accepted")]
    TooLarge(usize),
    #[error("the orders are not valid UTF-8 text (invalid byte at position {0})")]
    NotUtf8(usize),
    #[error("the orders contain a control character on line {0}")]
    ControlCharacter(usize),
}

impl OrderText {
    /// Checks raw bytes as they arrived from a form, an API body, a file or a mail part.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, OrderTextError> {
        if bytes.len() > MAX_ORDER_BYTES {
            return Err(OrderTextError::TooLarge(bytes.len()));
        }
        let s = std::str::from_utf8(bytes).map_err(|e| OrderTextError::NotUtf8(e.valid_up_to()))?;
        Self::parse(s)
    }

    /// Checks text that is already a string.
    pub fn parse(s: &str) -> Result<Self, OrderTextError> {
        if s.len() > MAX_ORDER_BYTES {
            return Err(OrderTextError::TooLarge(s.len()));
        }
        let normalised = s.replace("\r\n", "\n").replace('\r', "\n");
        for (i, line) in normalised.split('\n').enumerate() {
            if line.chars().any(|c| c.is_control() && c != '\t') {
                return Err(OrderTextError::ControlCharacter(i + 1));
            }
        }
        Ok(OrderText(normalised))
    }

    /// The text, with line endings normalised to `\n`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The meaningful lines of an order text with their 1-based line numbers: trimmed, runs of
/// white space folded to one space; blank lines and comments (`#` or `//` to the end of the
/// line) left out.
pub fn order_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let cut = [raw.find('#'), raw.find("//")].into_iter().flatten().min();
            let body = cut.map_or(raw, |c| &raw[..c]);
            let folded = body.split_whitespace().collect::<Vec<_>>().join(" ");
            (!folded.is_empty()).then_some((i + 1, folded))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_lines_and_comments_are_skipped_but_line_numbers_kept() {
        let lines = order_lines("# my orders\n\n  PLAY   7H  NORTH  // best\r\nMOVE STATION EAST\n");
        assert_eq!(lines, vec![(3, "PLAY 7H NORTH".into()), (4, "MOVE STATION EAST".into())]);
    }

    #[test]
    fn a_body_over_64_kib_is_refused() {
        let big = vec![b'a'; MAX_ORDER_BYTES + 1];
        assert_eq!(OrderText::from_bytes(&big), Err(OrderTextError::TooLarge(MAX_ORDER_BYTES + 1)));
    }

    #[test]
    fn invalid_utf8_is_refused_with_its_position() {
        assert_eq!(OrderText::from_bytes(b"PLAY \xff"), Err(OrderTextError::NotUtf8(5)));
    }

    #[test]
    fn control_characters_are_refused_with_their_line() {
        assert_eq!(OrderText::parse("PLAY 7H N\nPL\u{0}AY"), Err(OrderTextError::ControlCharacter(2)));
    }

    #[test]
    fn crlf_is_normalised() {
        assert_eq!(OrderText::parse("A\r\nB\rC").unwrap().as_str(), "A\nB\nC");
    }
}
