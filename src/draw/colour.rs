//! Colours shared by the drawings: ink, paper, the seats' colours (one per seat, the same in
//! every game), a readable text colour on a given fill, and the contrast of two colours (WCAG
//! 2): every colour used for text reads at 4.5:1 or better on paper and on white (issue 16,
//! "readable contrast"; the pages' stylesheet is held to the same by a test here).

/// Dark text and lines.
pub const INK: &str = "#222222";
/// Lighter text (labels, coordinates).
pub const MUTED: &str = "#6b6b6b";
/// The background of a card or a panel.
pub const PAPER: &str = "#fbf8f0";
/// The outline of a card or a panel.
pub const EDGE: &str = "#9a9a9a";

/// One colour per seat (seat 1 first), distinct enough side by side and dark enough for text
/// on paper (4.5:1); repeats after eight.
pub const SEATS: [&str; 8] =
    ["#1f6fb0", "#c42021", "#2a7d2a", "#8152b0", "#a84a00", "#8c564b", "#b5408a", "#0b7782"];

/// The colour of seat `n` (1-based).
pub fn seat(n: u8) -> &'static str {
    SEATS[usize::from(n.saturating_sub(1)) % SEATS.len()]
}

/// The red, green and blue of a `#rrggbb` colour, 0 to 255.
fn channels(colour: &str) -> Option<[f64; 3]> {
    let hex = colour.trim_start_matches('#');
    let channel = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()).map(f64::from);
    Some([channel(0)?, channel(2)?, channel(4)?]).filter(|_| hex.len() == 6)
}

/// Black or white, whichever reads better on `fill` (a `#rrggbb` colour; black otherwise).
pub fn text_on(fill: &str) -> &'static str {
    match channels(fill) {
        Some([r, g, b]) if 0.299 * r + 0.587 * g + 0.114 * b < 140.0 => "#ffffff",
        _ => "#000000",
    }
}

/// The WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21); `None` for anything else.
pub fn contrast(a: &str, b: &str) -> Option<f64> {
    let luminance = |c: [f64; 3]| {
        let lin = |x: f64| {
            let x = x / 255.0;
            if x <= 0.039_28 { x / 12.92 } else { ((x + 0.055) / 1.055).powf(2.4) }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    };
    let (la, lb) = (luminance(channels(a)?), luminance(channels(b)?));
    Some((la.max(lb) + 0.05) / (la.min(lb) + 0.05))
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
    fn contrast_is_the_wcag_ratio() {
        assert!((contrast("#000000", "#ffffff").unwrap() - 21.0).abs() < 1e-9);
        assert!((contrast("#777777", "#777777").unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(contrast("red", "#ffffff"), None);
    }

    #[test]
    fn every_text_colour_of_the_drawings_reads_on_paper_and_white() {
        for ink in SEATS.iter().chain([&INK, &MUTED]) {
            for ground in [PAPER, "#ffffff"] {
                let ratio = contrast(ink, ground).expect("colours");
                assert!(ratio >= 4.5, "{ink} on {ground}: {ratio:.2}:1");
            }
        }
    }

    #[test]
    fn every_text_colour_of_the_pages_stylesheet_reads_on_its_background() {
        let css = include_str!("../../templates/web/style.css");
        let page = "#fdfcf8";
        let mut checked = 0;
        for (i, _) in css.match_indices("color:#") {
            // `background-color` and `border-color` are not text.
            if css[..i].ends_with("background-") || css[..i].ends_with("border-") {
                continue;
            }
            let ink = &css[i + "color:".len()..i + "color:".len() + 7];
            let ratio = contrast(ink, page).unwrap_or_else(|| panic!("{ink} is not #rrggbb"));
            assert!(ratio >= 4.5, "{ink} on the page: {ratio:.2}:1");
            checked += 1;
        }
        assert!(checked >= 5, "the stylesheet's text colours were found");
    }

    #[test]
    fn seats_have_their_own_colours_and_wrap_after_eight() {
        assert_ne!(seat(1), seat(2));
        assert_eq!(seat(9), seat(1));
        assert_eq!(seat(0), seat(1));
    }
}
