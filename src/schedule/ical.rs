//! The iCalendar (RFC 5545) attachment for a deadline (RULING D12): one VEVENT at the deadline
//! in UTC with an alarm two hours before, TEXT escaping, CRLF line endings and lines folded at
//! 75 octets without splitting a UTF-8 character. Attach it as
//! `text/calendar; method=PUBLISH; charset=UTF-8`.

use chrono::{DateTime, Utc};

/// What the calendar entry for one turn's deadline says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IcalEvent<'a> {
    /// Stable per game and turn (e.g. "game-7-turn-12@stationmaster.example"), so a moved
    /// deadline updates the same entry.
    pub uid: &'a str,
    /// One line, e.g. "Deadline: 1835 game 7, turn 12".
    pub summary: &'a str,
    /// Free text; may span lines.
    pub description: &'a str,
    /// The game's page, if any.
    pub url: Option<&'a str>,
    /// The deadline.
    pub start: DateTime<Utc>,
    /// When this version of the entry was made (DTSTAMP); passed in, not read from a clock.
    pub stamp: DateTime<Utc>,
    /// 0 for the first announcement; one more each time the deadline moves.
    pub sequence: u32,
}

/// Longest line in octets, without its CRLF (RFC 5545 §3.1).
const LINE_OCTETS: usize = 75;

/// The calendar file for a deadline: VCALENDAR (PRODID, VERSION, METHOD:PUBLISH) holding one
/// VEVENT at `start` and a display alarm two hours before.
pub fn ical_deadline_event(event: &IcalEvent<'_>) -> String {
    let stamp = |t: DateTime<Utc>| t.format("%Y%m%dT%H%M%SZ").to_string();
    let mut lines: Vec<String> = vec![
        "BEGIN:VCALENDAR".into(),
        "PRODID:-//Stationmaster//Deadlines//EN".into(),
        "VERSION:2.0".into(),
        "CALSCALE:GREGORIAN".into(),
        "METHOD:PUBLISH".into(),
        "BEGIN:VEVENT".into(),
        format!("UID:{}", escape_text(event.uid)),
        format!("DTSTAMP:{}", stamp(event.stamp)),
        format!("SEQUENCE:{}", event.sequence),
        // RULING D12. No DTEND: a deadline is an instant, and RFC 5545 §3.6.1 reads a VEVENT with a
        // date-time DTSTART and no end as ending when it starts.
        format!("DTSTART:{}", stamp(event.start)),
        format!("SUMMARY:{}", escape_text(event.summary)),
    ];
    if !event.description.is_empty() {
        lines.push(format!("DESCRIPTION:{}", escape_text(event.description)));
    }
    if let Some(url) = event.url {
        // A URI is not TEXT: no escaping, but nothing that could break the line either.
        let url: String = url.chars().filter(|c| !c.is_control() && !c.is_whitespace()).collect();
        if !url.is_empty() {
            lines.push(format!("URL:{url}"));
        }
    }
    lines.extend([
        "TRANSP:TRANSPARENT".to_string(),
        "STATUS:CONFIRMED".into(),
        "BEGIN:VALARM".into(),
        "ACTION:DISPLAY".into(),
        format!("DESCRIPTION:{}", escape_text(event.summary)),
        "TRIGGER:-PT2H".into(),
        "END:VALARM".into(),
        "END:VEVENT".into(),
        "END:VCALENDAR".into(),
    ]);
    let mut out = String::new();
    for line in &lines {
        push_folded(&mut out, line);
    }
    out
}

/// TEXT escaping (RFC 5545 §3.3.11): `\` `;` `,` get a backslash, a line break becomes `\n`,
/// and other control characters (not allowed in TEXT) are dropped.
pub fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | ';' | ',' => {
                out.push('\\');
                out.push(c);
            }
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push('\t'),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Appends `line` folded (RFC 5545 §3.1): at most 75 octets per line, a continuation starts with
/// one space, and a break never falls inside a UTF-8 character. Ends with CRLF.
fn push_folded(out: &mut String, line: &str) {
    let mut used = 0;
    for c in line.chars() {
        if used + c.len_utf8() > LINE_OCTETS {
            out.push_str("\r\n ");
            used = 1;
        }
        out.push(c);
        used += c.len_utf8();
    }
    out.push_str("\r\n");
}
