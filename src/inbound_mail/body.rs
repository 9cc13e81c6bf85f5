//! Cutting a mail body down to what the player wrote ([`read_body`]): quoted earlier messages
//! and forwarded ones (`>` lines and their attribution, Outlook's "From: … Sent: …" blocks,
//! "---------- Forwarded message ---------") and signatures (`-- `, "Sent from my iPhone") are
//! set aside wherever they stand (RULINGS M20, M21), and the answer to a mail in which nothing
//! was found can say which lines were taken for what ([`SetAside::explained`], RULING M22).

use super::quotes::{self, Aside};

/// A mail body read: the player's own text and the lines set aside.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    /// The player's own lines, in their order, line endings `\n`, blank lines at either end cut.
    pub text: String,
    /// The runs of lines set aside, in the order of the mail.
    pub set_aside: Vec<SetAside>,
}

/// A run of lines set aside as one quote, forwarded message or signature (blank lines within it
/// belong to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// Its first and last line, numbered from 1 in the text as read (the plain-text part, or the
    /// HTML part as text).
    pub first: usize,
    pub last: usize,
    pub aside: Aside,
    /// Its first line, as written.
    pub opening: String,
}

/// The most words of a run's opening the answer repeats.
const PREVIEW_WORDS: usize = 7;

/// The most characters of a run's opening the answer repeats.
const PREVIEW_CHARS: usize = 60;

impl SetAside {
    /// What the player is told about these lines when nothing in his mail was read (RULING
    /// M22): their numbers, what they were taken for and the first words of the first — words
    /// of his own mail only, never a link or anything shaped like a token.
    pub fn explained(&self) -> String {
        let lines = if self.first == self.last {
            format!("line {}", self.first)
        } else {
            format!("lines {}–{}", self.first, self.last)
        };
        let what = match self.aside {
            Aside::Quote => "a quote of an earlier mail",
            Aside::Forwarded => "a forwarded message",
            Aside::Signature => "your signature",
        };
        format!("{lines}: taken for {what}, beginning \"{}\"", preview(&self.opening))
    }
}

/// The first words of a line, up to the first link or token-shaped word.
fn preview(line: &str) -> String {
    let line = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
    let mut out = String::new();
    let mut words = line.split_whitespace();
    let mut cut = false;
    for (n, word) in words.by_ref().enumerate() {
        let secret = word.contains("://")
            || word.contains("/play/")
            || word.to_ascii_lowercase().starts_with("www.")
            || word.chars().count() >= 20
            || (n > 0 && out.eq_ignore_ascii_case("orders"));
        if n == PREVIEW_WORDS || secret || out.chars().count() + word.chars().count() > PREVIEW_CHARS {
            cut = true;
            break;
        }
        if n > 0 {
            out.push(' ');
        }
        out.push_str(word);
    }
    if cut {
        out.push_str(if out.is_empty() { "…" } else { " …" });
    }
    out
}

/// The player's own text of a body and the lines set aside.
pub fn read_body(text: &str) -> Body {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = text.split('\n').collect();
    let mut own: Vec<&str> = Vec::new();
    let mut set_aside: Vec<SetAside> = Vec::new();
    // The kind the classifier gave the last run (its shown kind may be `Forwarded`), and whether
    // a line of the player's own came after it.
    let mut run: Option<Aside> = None;
    for (i, (line, aside)) in lines.iter().zip(quotes::asides(&lines)).enumerate() {
        let blank = line.trim().is_empty();
        match aside {
            None => {
                own.push(line.trim_end());
                if !blank {
                    run = None;
                }
            }
            Some(_) if blank => {}
            Some(aside) => match set_aside.last_mut() {
                Some(last) if run == Some(aside) => last.last = i + 1,
                _ => {
                    let opening = line.trim();
                    let unquoted = opening.trim_start_matches(|c: char| c == '>' || c.is_whitespace());
                    let shown = if quotes::is_forward_opening(unquoted) { Aside::Forwarded } else { aside };
                    set_aside.push(SetAside {
                        first: i + 1,
                        last: i + 1,
                        aside: shown,
                        opening: opening.into(),
                    });
                    run = Some(aside);
                }
            },
        }
    }
    let start = own.iter().position(|l| !l.trim().is_empty()).unwrap_or(own.len());
    let end = own.iter().rposition(|l| !l.trim().is_empty()).map_or(start, |e| e + 1);
    Body { text: own[start..end].join("\n"), set_aside }
}

/// The player's own text of a body, with line endings normalised to `\n` ([`read_body`]'s text).
pub fn clean_body(text: &str) -> String {
    read_body(text).text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gmail_quotes_are_cut() {
        let b = "PLAY 7H NORTH\r\n\r\nOn Mon, 2 Mar 2026 at 12:00, Stationmaster <sm@x.org> wrote:\r\n> Turn 1 result\r\n";
        assert_eq!(clean_body(b), "PLAY 7H NORTH");
    }

    #[test]
    fn a_wrapped_gmail_attribution_is_cut() {
        let b = "DRAW\nOn Mon, 2 Mar 2026 at 12:00, Stationmaster\n<sm@x.org> wrote:\n> old";
        assert_eq!(clean_body(b), "DRAW");
    }

    #[test]
    fn outlook_quotes_are_cut() {
        assert_eq!(clean_body("DRAW\n\n-----Original Message-----\nFrom: x\nPLAY 2H N"), "DRAW");
        assert_eq!(clean_body("DRAW\nFrom: Stationmaster\nSent: Monday\nPLAY 2H N"), "DRAW");
        assert_eq!(clean_body("DRAW\n________________________________\nFrom: x"), "DRAW");
    }

    #[test]
    fn signatures_and_inline_quotes_are_cut() {
        assert_eq!(clean_body("> old line\nPLAY 7H NORTH\n-- \nAnna\nPLAY 9H N"), "PLAY 7H NORTH");
    }

    #[test]
    fn forwarded_messages_are_cut() {
        assert_eq!(clean_body("FINAL\n---------- Forwarded message ---------\nPLAY 2H N"), "FINAL");
    }

    #[test]
    fn ruling_m22_the_lines_set_aside_are_told_by_number_kind_and_first_words() {
        let b = read_body(
            "On Mon, 2 Mar 2026 at 12:00, Stationmaster <gm@sm.test> wrote:\n\n> Test Line — turn 3\n>\n\
             > line 1: CLAIM 2H NORTH\n\n-- \nAnna\n\n---------- Forwarded message ---------\nFrom: Bert",
        );
        assert_eq!(b.text, "");
        let told: Vec<String> = b.set_aside.iter().map(SetAside::explained).collect();
        assert_eq!(
            told,
            vec![
                "lines 1–5: taken for a quote of an earlier mail, beginning \"On Mon, 2 Mar 2026 at 12:00, …\"",
                "lines 7–8: taken for your signature, beginning \"--\"",
                "lines 10–11: taken for a forwarded message, beginning \"---------- Forwarded message ---------\"",
            ]
        );
    }

    #[test]
    fn ruling_m22_the_answer_never_repeats_a_link_or_a_token_from_the_quote() {
        let run =
            |opening: &str| SetAside { first: 1, last: 1, aside: Aside::Quote, opening: opening.into() };
        assert_eq!(
            run("> Your order page: https://sm.test/play/abc").explained(),
            "line 1: taken for a quote of an earlier mail, beginning \"Your order page: …\""
        );
        assert!(!run("> ORDERS 0192f0c4 2 s3cr3t").explained().contains("s3cr3t"));
        assert!(!run("> sm.test/play/abcdefabcdef").explained().contains("abcdef"));
        assert!(!run("x Kq9xVbT2mW8pL4rZ7nY3").explained().contains("Kq9x"));
    }
}
