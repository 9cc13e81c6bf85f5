//! Text laid out for a drawing: SVG has no line breaking, so long sentences are broken into
//! lines of about a given number of characters here.

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
