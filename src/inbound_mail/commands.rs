//! The commands of an order mail, one per line, case-insensitive: `FINAL`, `STATUS`, `RESEND`,
//! `HELP`, `ORDERS <game> <seat> <token>`; every other non-blank line is an order line for the
//! game's order language, kept at its own line number so errors point at the player's text.
//! A mail to the GM's question address holds the GM's commands instead ([`GmCommands`]):
//! `ANSWER <n> <choice>`, the choice a listed number or, for an HR 14 checkpoint, `CONTINUE` /
//! `STOP`.

/// An `ORDERS <game> <seat> <token>` line: the seat's secret instead of the reply address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenLine {
    pub game: String,
    pub seat: String,
    pub token: String,
}

/// What a mail asks for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MailCommands {
    pub token: Option<TokenLine>,
    pub final_: bool,
    pub status: bool,
    pub resend: bool,
    pub help: bool,
    /// The order lines, with command lines blanked so line numbers stay the body's own.
    pub order_text: String,
    /// An `ORDERS` line that is not `ORDERS <game> <seat> <token>`: its line number.
    pub bad_token_line: Option<usize>,
}

impl MailCommands {
    /// Splits a cleaned body into commands and order lines.
    pub fn parse(body: &str) -> MailCommands {
        let mut c = MailCommands::default();
        let mut kept = Vec::new();
        for (i, line) in body.split('\n').enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let first = words.first().map(|w| w.to_ascii_uppercase()).unwrap_or_default();
            let is_command = match (first.as_str(), words.len()) {
                ("FINAL", 1) => {
                    c.final_ = true;
                    true
                }
                ("STATUS", 1) => {
                    c.status = true;
                    true
                }
                ("RESEND", 1) => {
                    c.resend = true;
                    true
                }
                ("HELP", 1) => {
                    c.help = true;
                    true
                }
                ("ORDERS", 4) => {
                    c.token = Some(TokenLine {
                        game: words[1].to_string(),
                        seat: words[2].to_string(),
                        token: words[3].to_string(),
                    });
                    true
                }
                ("ORDERS", _) => {
                    c.bad_token_line = Some(i + 1);
                    true
                }
                _ => false,
            };
            kept.push(if is_command { "" } else { line });
        }
        c.order_text = kept.join("\n");
        c
    }

    /// Whether the mail holds any order line.
    pub fn has_orders(&self) -> bool {
        self.order_text.lines().any(|l| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#') && !t.starts_with("//")
        })
    }
}

/// The GM's choice in an `ANSWER` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GmChoice {
    /// A candidate by its number as listed (1-based).
    Listed(usize),
    /// An HR 14 checkpoint: play the next round.
    Continue,
    /// An HR 14 checkpoint: the turn ends after this round.
    Stop,
}

/// An `ANSWER <n> <choice>` line: question `n` answered with `choice`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GmAnswer {
    pub question: usize,
    pub choice: GmChoice,
}

/// What a mail to the GM's question address asks for: its `ANSWER` lines, and the lines that are
/// no GM command (line number and text), which refuse the mail.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GmCommands {
    pub answers: Vec<(usize, GmAnswer)>,
    pub not_understood: Vec<(usize, String)>,
}

impl GmCommands {
    /// Reads a cleaned body: blank and comment lines are skipped; `ANSWER` in any case.
    pub fn parse(body: &str) -> GmCommands {
        let mut c = GmCommands::default();
        for (i, line) in body.split('\n').enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
                continue;
            }
            match GmAnswer::parse(t) {
                Some(a) => c.answers.push((i + 1, a)),
                None => c.not_understood.push((i + 1, t.to_string())),
            }
        }
        c
    }
}

impl GmAnswer {
    /// `ANSWER <n> <number | CONTINUE | STOP>` (any case); `None` for anything else.
    fn parse(line: &str) -> Option<GmAnswer> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [answer, n, choice] = words.as_slice() else { return None };
        if !answer.eq_ignore_ascii_case("ANSWER") {
            return None;
        }
        let question = n.trim_start_matches('#').parse().ok()?;
        let choice = match choice.to_ascii_uppercase().as_str() {
            "CONTINUE" | "GO" => GmChoice::Continue,
            "STOP" => GmChoice::Stop,
            number => GmChoice::Listed(number.parse().ok()?),
        };
        Some(GmAnswer { question, choice })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_found_in_any_case_and_order_lines_keep_their_numbers() {
        let c = MailCommands::parse("orders 0192f0c4 2 abc\nPLAY 7H NORTH\nfinal\nstatus");
        assert_eq!(
            c.token,
            Some(TokenLine { game: "0192f0c4".into(), seat: "2".into(), token: "abc".into() })
        );
        assert!(c.final_ && c.status && !c.resend && !c.help);
        assert_eq!(c.order_text, "\nPLAY 7H NORTH\n\n");
        assert!(c.has_orders());
    }

    #[test]
    fn a_mail_of_commands_only_has_no_orders() {
        let c = MailCommands::parse("HELP\n\nRESEND\n# nothing else");
        assert!(c.help && c.resend && !c.has_orders());
    }

    #[test]
    fn a_malformed_orders_line_is_flagged() {
        assert_eq!(MailCommands::parse("x\nORDERS 1 2").bad_token_line, Some(2));
    }

    #[test]
    fn a_gm_mail_holds_answer_lines_with_a_number_or_a_checkpoint_word() {
        let c = GmCommands::parse("answer 2 3\n\nANSWER #4 continue\nAnswer 5 STOP\n# done");
        let got: Vec<GmAnswer> = c.answers.iter().map(|(_, a)| *a).collect();
        assert_eq!(
            got,
            vec![
                GmAnswer { question: 2, choice: GmChoice::Listed(3) },
                GmAnswer { question: 4, choice: GmChoice::Continue },
                GmAnswer { question: 5, choice: GmChoice::Stop },
            ]
        );
        assert_eq!(c.answers[1].0, 3, "the line number is the body's own");
        assert!(c.not_understood.is_empty());
    }

    #[test]
    fn a_gm_line_that_is_no_answer_is_not_understood() {
        let c = GmCommands::parse("ANSWER 2\nANSWER two 1\nANSWER 1 maybe\nThanks");
        assert!(c.answers.is_empty());
        assert_eq!(c.not_understood.iter().map(|(n, _)| *n).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }
}
