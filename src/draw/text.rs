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

/// The average advance of a character of our font (DejaVu Sans), in ems: what a line of `n`
/// characters of size `f` takes is about `n × f × AVERAGE_EM`.
pub const AVERAGE_EM: f64 = 0.6;

/// About how wide `text` is at `size` px in DejaVu Sans (bold a tenth wider): each character's
/// advance estimated by its kind, erring wide, so a box computed from it holds the real text.
pub fn width(text: &str, size: f64, bold: bool) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            ' ' => 0.32,
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '!' | '\'' | '|' | 'í' | 'ï' => 0.3,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | '/' | 'I' | 'J' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '—' => 0.95,
            'A'..='Z' | 'Ä' | 'Ö' | 'Ü' | '#' | '&' => 0.74,
            '0'..='9' | '$' | '?' | '+' | '=' | '<' | '>' | '–' | '…' => 0.64,
            c if c.is_ascii() => 0.62,
            'ß' | 'ä' | 'ö' | 'ü' | 'é' | 'è' | 'á' => 0.62,
            _ => 0.85,
        })
        .sum();
    em * size * if bold { 1.1 } else { 1.0 }
}

/// `text` as it fits in `room` px at `size` ([`width`]'s estimate): whole when it fits, else cut
/// at a character and ended with "…".
pub fn fit(text: &str, size: f64, bold: bool, room: f64) -> String {
    if width(text, size, bold) <= room {
        return text.to_string();
    }
    let mut cut: String = text.to_string();
    while cut.pop().is_some() {
        let shown = format!("{}…", cut.trim_end());
        if width(&shown, size, bold) <= room {
            return shown;
        }
    }
    "…".to_string()
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
    fn a_text_is_estimated_wider_for_wide_letters_bold_and_a_larger_size() {
        assert!(width("WWW", 10.0, false) > width("iii", 10.0, false) * 2.5);
        assert!(width("Essen", 10.0, true) > width("Essen", 10.0, false));
        assert_eq!(width("ab", 20.0, false), 2.0 * width("ab", 10.0, false));
        // DejaVu Sans sets "Duisburg" at 10 px in about 43 px: the estimate holds it.
        assert!((43.0..50.0).contains(&width("Duisburg", 10.0, false)));
    }

    #[test]
    fn a_text_too_wide_for_its_room_is_cut_and_ended_with_an_ellipsis() {
        assert_eq!(fit("BA Badische Eisenbahn", 11.0, true, 300.0), "BA Badische Eisenbahn");
        let cut = fit("WT Württembergische Eisenbahn", 11.0, true, 184.0);
        assert!(cut.starts_with("WT Württembergische") && cut.ends_with('…'), "{cut}");
        assert!(width(&cut, 11.0, true) <= 184.0);
        assert_eq!(fit("Eisenbahn", 11.0, true, 1.0), "…");
    }

    #[test]
    fn lines_break_at_spaces_within_the_width_and_keep_long_words_whole() {
        assert_eq!(lines("Cotton Richmond to Savannah", 16), ["Cotton Richmond", "to Savannah"]);
        assert_eq!(lines("Fredericksburg-and-beyond x", 5), ["Fredericksburg-and-beyond", "x"]);
        assert!(lines("   ", 10).is_empty());
    }
}
