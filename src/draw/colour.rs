//! Colours shared by the drawings: ink, paper, the seats' colours (one per seat, the same in
//! every game), and a readable text colour on a given fill.

/// Dark text and lines.
pub const INK: &str = "#222222";
/// Lighter text (labels, coordinates).
pub const MUTED: &str = "#6b6b6b";
/// The background of a card or a panel.
pub const PAPER: &str = "#fbf8f0";
/// The outline of a card or a panel.
pub const EDGE: &str = "#9a9a9a";

/// One colour per seat (seat 1 first), distinct enough side by side; repeats after eight.
pub const SEATS: [&str; 8] =
    ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];

/// The colour of seat `n` (1-based).
pub fn seat(n: u8) -> &'static str {
    SEATS[usize::from(n.saturating_sub(1)) % SEATS.len()]
}

/// Black or white, whichever reads better on `fill` (a `#rrggbb` colour; black otherwise).
pub fn text_on(fill: &str) -> &'static str {
    let hex = fill.trim_start_matches('#');
    let channel = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()).map(f64::from);
    match (channel(0), channel(2), channel(4)) {
        (Some(r), Some(g), Some(b)) if 0.299 * r + 0.587 * g + 0.114 * b < 140.0 => "#ffffff",
        _ => "#000000",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_on_a_dark_fill_is_white_and_on_a_light_fill_black() {
        assert_eq!(text_on("#000000"), "#ffffff");
        assert_eq!(text_on("#1f3f8f"), "#ffffff");
        assert_eq!(text_on("#f5e05a"), "#000000");
        assert_eq!(text_on("not a colour"), "#000000");
    }

    #[test]
    fn seats_have_their_own_colours_and_wrap_after_eight() {
        assert_ne!(seat(1), seat(2));
        assert_eq!(seat(9), seat(1));
        assert_eq!(seat(0), seat(1));
    }
}
