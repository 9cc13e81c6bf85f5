//! Text laid out for a drawing: SVG has no line breaking, so long sentences are broken into
//! lines of about a given number of characters here; a side panel of such lines ([`Panel`]).

use super::{El, colour};

/// A drawing's side panel as its lines are drawn: text, colour, bold. Sentences are broken to
/// the panel's width in characters.
pub struct Panel {
    pub lines: Vec<(String, &'static str, bool)>,
    chars: usize,
}

impl Panel {
    /// An empty panel whose lines hold about `chars` characters.
    pub fn new(chars: usize) -> Panel {
        Panel { lines: Vec::new(), chars }
    }
    /// A heading in `ink`, bold, on one line.
    pub fn head(&mut self, t: impl Into<String>, ink: &'static str) {
        self.lines.push((t.into(), ink, true));
    }
    /// A sentence in plain ink, broken into lines.
    pub fn say(&mut self, t: &str) {
        for l in lines(t, self.chars) {
            self.lines.push((l, colour::INK, false));
        }
    }
    /// An empty line.
    pub fn gap(&mut self) {
        self.lines.push((String::new(), colour::INK, false));
    }
}

/// Panel lines drawn as a column at (`x`, `y`), `line_h` apart: headings bold and a little larger.
pub fn column(lines: &[(String, &'static str, bool)], x: f64, y: f64, line_h: f64) -> El {
    let mut g = El::group(x, y);
    for (k, (t, ink, bold)) in lines.iter().enumerate() {
        let mut e = El::words(0.0, k as f64 * line_h, if *bold { 11.5 } else { 10.0 }, t).attr("fill", *ink);
        if *bold {
            e = e.attr("font-weight", "bold");
        }
        g.push(e);
    }
    g
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole
/// on its own line).
pub fn lines(text: &str, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_at_spaces_within_the_width_and_keep_long_words_whole() {
        assert_eq!(lines("Cotton Richmond to Savannah", 16), ["Cotton Richmond", "to Savannah"]);
        assert_eq!(lines("Fredericksburg-and-beyond x", 5), ["Fredericksburg-and-beyond", "x"]);
        assert!(lines("   ", 10).is_empty());
    }
}
