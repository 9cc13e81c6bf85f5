//! A sign-off without `-- `: players end order mail with their name ("Dan", "Thanks, Anna").
//! RULING M5: when the last few lines of an order mail (at most [`MAX_SIGN_OFF_LINES`]) each
//! start with a word that is no order of the game (or are courtesies the order layer ignores)
//! and are short (at most [`MAX_SIGN_OFF_WORDS`] words, no digits), at least one of them holds
//! the player's name or a closing word ("thanks", "cheers", "regards", "sent from my phone" …),
//! and some line before them was understood, those lines are a sign-off: they are taken off
//! before the orders are stored, and the echo says which lines were ignored rather than marking
//! them "not understood" (HR 16). A mistyped order (a known order word with a wrong argument),
//! an unknown line followed by an understood one, or a stray unknown line such as
//! `FLY TO THE MOON` is never taken for a sign-off: it is kept as not understood.

use crate::orders::Echo;
use crate::orders::courtesy::is_courtesy_word;

/// The most trailing lines taken as a sign-off.
pub const MAX_SIGN_OFF_LINES: usize = 3;

/// The most words on a line of a sign-off.
pub const MAX_SIGN_OFF_WORDS: usize = 5;

/// Words that close a mail beyond the courtesy words the order layer knows
/// (`orders::courtesy::is_courtesy_word`: "thanks", "cheers", "regards", "gruß" …).
const CLOSINGS: &[&str] = &["sent", "love", "lg", "vg", "mfg", "cordialement", "saludos", "groeten"];

/// The start of the order languages' error for a line whose first word is no order.
const UNKNOWN_ORDER: &str = "unknown order";

/// The lines of a mail taken as its sign-off: line numbers and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignOff {
    pub lines: Vec<(usize, String)>,
}

impl SignOff {
    /// The order text without the sign-off's lines (blanked, so line numbers stay the mail's).
    pub fn remove_from(&self, text: &str) -> String {
        text.split('\n')
            .enumerate()
            .map(|(i, l)| if self.lines.iter().any(|(n, _)| *n == i + 1) { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// What the player is told about the ignored lines.
    pub fn explained(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|(n, t)| format!("line {n}: \"{t}\" — ignored: taken as your sign-off, not as an order"))
            .collect()
    }
}

/// The sign-off at the end of an order text's echo, if it has one; `player` is the seat's
/// registered player name. Its lines are unknown orders or courtesies ("Thanks,", ignored
/// anyway, HR 16), at least one of them unknown, after at least one understood order.
pub fn sign_off(echo: &Echo, player: &str) -> Option<SignOff> {
    let unknown = |l: &crate::orders::EchoLine| {
        l.error.as_deref().is_some_and(|e| e.starts_with(UNKNOWN_ORDER))
            && l.text.split_whitespace().count() <= MAX_SIGN_OFF_WORDS
            && !l.text.chars().any(|c| c.is_ascii_digit())
    };
    let tail = echo.lines.iter().rev().take_while(|l| unknown(l) || l.is_ignored()).count();
    let head = echo.lines.len() - tail;
    let lines = &echo.lines[head..];
    if tail > MAX_SIGN_OFF_LINES
        || !lines.iter().any(unknown)
        || !echo.lines[..head].iter().any(|l| l.understood.is_some())
    {
        return None;
    }
    let names: Vec<String> = words(player).filter(|w| w.chars().count() >= 2).collect();
    let signs = |text: &str| {
        words(text).any(|w| CLOSINGS.contains(&w.as_str()) || is_courtesy_word(&w) || names.contains(&w))
    };
    if !lines.iter().any(|l| signs(&l.text)) {
        return None;
    }
    Some(SignOff { lines: lines.iter().map(|l| (l.line, l.text.clone())).collect() })
}

/// The lower-case words of a text, punctuation trimmed.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | '!' | '-' | '/' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::EchoLine;

    fn echo(lines: &[(&str, Option<&str>)]) -> Echo {
        let lines: Vec<EchoLine> = lines
            .iter()
            .enumerate()
            .map(|(i, (text, error))| EchoLine {
                line: i + 1,
                text: text.to_string(),
                understood: error.is_none().then(|| text.to_string()),
                error: error.map(str::to_string),
                advice: None,
                suggestion: None,
            })
            .collect();
        let errors = lines.iter().filter(|l| l.error.is_some()).count();
        Echo { lines, canonical: String::new(), errors }
    }

    #[test]
    fn a_name_after_the_orders_is_a_sign_off() {
        let e = echo(&[
            ("CLAIM 2H NORTH", None),
            ("Thanks,", Some("unknown order 'THANKS,'")),
            ("Dan", Some("unknown order 'DAN'")),
        ]);
        let s = sign_off(&e, "Dan Smith").expect("a sign-off");
        assert_eq!(s.lines, vec![(2, "Thanks,".to_string()), (3, "Dan".to_string())]);
        assert_eq!(s.remove_from("CLAIM 2H NORTH\nThanks,\nDan"), "CLAIM 2H NORTH\n\n");
        assert!(s.explained()[1].contains("line 3: \"Dan\""));
    }

    #[test]
    fn the_players_name_alone_or_a_phone_footer_is_a_sign_off() {
        let unknown = Some("unknown order");
        assert!(sign_off(&echo(&[("DRAW", None), ("dan", unknown)]), "Dan").is_some());
        assert!(sign_off(&echo(&[("DRAW", None), ("Sent from my iPhone", unknown)]), "Anna").is_some());
        assert!(sign_off(&echo(&[("DRAW", None), ("Best,", unknown), ("D.", unknown)]), "Anna").is_some());
    }

    #[test]
    fn house_rule_16_a_sign_off_after_a_line_not_understood_or_after_a_courtesy_is_still_one() {
        let unknown = Some("unknown order");
        let mut e = echo(&[("DRAW", None), ("CLAIM 7H NROTH", Some("no such direction")), ("Dan", unknown)]);
        assert_eq!(sign_off(&e, "Dan").map(|s| s.lines), Some(vec![(3, "Dan".to_string())]));
        e = echo(&[("DRAW", None), ("Thanks!", None), ("Dan", unknown)]);
        e.lines[1].understood = None; // a courtesy the order layer ignored
        assert_eq!(sign_off(&e, "Dan").map(|s| s.lines.len()), Some(2));
        e = echo(&[("DRAW", None), ("Thanks!", None)]);
        e.lines[1].understood = None;
        assert_eq!(sign_off(&e, "Dan"), None, "courtesies alone need no sign-off: they are ignored anyway");
    }

    #[test]
    fn a_mistyped_order_or_an_unknown_line_between_orders_is_no_sign_off() {
        let unknown = Some("unknown order");
        let no = |lines: &[(&str, Option<&str>)]| sign_off(&echo(lines), "Dan");
        assert_eq!(no(&[("CLAIM 2H", None), ("CLAIM 2H NROTH", Some("no such direction"))]), None);
        assert_eq!(no(&[("Dan", unknown), ("CLAIM 2H NORTH", None)]), None, "an unknown line between");
        assert_eq!(no(&[("Dan", unknown)]), None, "no orders at all");
        assert_eq!(no(&[("DRAW", None), ("FLY TO THE MOON", unknown)]), None, "no name, no closing word");
        assert_eq!(no(&[("DRAW", None), ("Dan PLAYS 7H", unknown)]), None, "digits are no sign-off");
        let long = [("DRAW", None), ("a", unknown), ("b", unknown), ("c", unknown), ("Dan", unknown)];
        assert_eq!(no(&long), None, "four lines are more than a sign-off");
    }
}
