//! Cutting a mail body down to what the player wrote: quoted earlier messages (`>` lines,
//! Gmail's "On … wrote:", Outlook's "-----Original Message-----" and "From: … Sent: …" blocks,
//! forwarded messages) and signatures (`-- `) are removed.

/// The player's own text of a body, with line endings normalised to `\n`.
pub fn clean_body(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<&str> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if starts_quoted_block(t, lines.get(i + 1).map(|l| l.trim()))
            || line.trim_end() == "--"
            || *line == "-- "
        {
            break;
        }
        if t.starts_with('>') {
            continue;
        }
        out.push(line.trim_end());
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Whether this line starts an earlier message quoted below the player's text.
fn starts_quoted_block(line: &str, next: Option<&str>) -> bool {
    let lower = line.to_ascii_lowercase();
    let gmail = lower.starts_with("on ")
        && (lower.ends_with("wrote:") || next.is_some_and(|n| n.to_ascii_lowercase().ends_with("wrote:")));
    let outlook = lower.contains("-----original message-----")
        || lower.starts_with("________________________________")
        || (lower.starts_with("from:") && next.is_some_and(|n| n.to_ascii_lowercase().starts_with("sent:")));
    let forwarded = lower.contains("forwarded message") && lower.starts_with("-");
    let german = lower.starts_with("am ") && lower.ends_with("schrieb:");
    gmail || outlook || forwarded || german
}

#[cfg(test)]
mod tests {
    use super::clean_body;

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
}
