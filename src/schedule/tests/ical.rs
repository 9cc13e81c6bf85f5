//! The iCalendar attachment: exact output, escaping, folding.

use super::at;
use crate::schedule::ical::escape_text;
use crate::schedule::*;

/// Undoes folding: a CRLF followed by one space joins the lines.
pub(super) fn unfold(s: &str) -> String {
    s.replace("\r\n ", "")
}

/// Undoes TEXT escaping.
pub(super) fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 'N') => out.push('\n'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

pub(super) fn event<'a>(summary: &'a str, description: &'a str) -> IcalEvent<'a> {
    IcalEvent {
        uid: "game-7-turn-12@stationmaster.test",
        summary,
        description,
        url: Some("https://stationmaster.test/games/7"),
        start: at("2026-11-27T19:00:00Z"),
        stamp: at("2026-11-25T08:30:00Z"),
        sequence: 2,
    }
}

#[test]
fn the_calendar_holds_one_event_at_the_deadline_in_utc_with_an_alarm() {
    let ics = ical_deadline_event(&event("Deadline: 1835 game 7, turn 12", "Orders to the GM; good luck"));
    let expected = [
        "BEGIN:VCALENDAR",
        "PRODID:-//Stationmaster//Deadlines//EN",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "BEGIN:VEVENT",
        "UID:game-7-turn-12@stationmaster.test",
        "DTSTAMP:20261125T083000Z",
        "SEQUENCE:2",
        "DTSTART:20261127T190000Z",
        "SUMMARY:Deadline: 1835 game 7\\, turn 12",
        "DESCRIPTION:Orders to the GM\\; good luck",
        "URL:https://stationmaster.test/games/7",
        "TRANSP:TRANSPARENT",
        "STATUS:CONFIRMED",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "DESCRIPTION:Deadline: 1835 game 7\\, turn 12",
        "TRIGGER:-PT2H",
        "END:VALARM",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
    ]
    .join("\r\n");
    assert_eq!(ics, expected);
}

#[test]
fn text_escapes_backslash_semicolon_comma_and_line_breaks() {
    assert_eq!(escape_text("a\\b;c,d\ne\r\nf\rg"), "a\\\\b\\;c\\,d\\ne\\nf\\ng");
    assert_eq!(escape_text("bell\u{7}tab\t"), "belltab\t");
    let ics = ical_deadline_event(&IcalEvent { url: Some("https://x.test/a\r\nEVIL:1"), ..event("s", "") });
    assert!(ics.contains("\r\nURL:https://x.test/aEVIL:1\r\n"));
    assert!(!ics.contains("\r\nDESCRIPTION:\r\n"));
}

#[test]
fn long_lines_fold_at_75_octets_without_splitting_a_character() {
    let description =
        "Zug um Zug: Bayerische Ostbahn übernimmt — ".repeat(6) + "€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€";
    let ics = ical_deadline_event(&event("Fahrplan", &description));
    for line in ics.split("\r\n") {
        assert!(line.len() <= 75, "{} octets: {line}", line.len());
    }
    let desc_lines: Vec<&str> =
        ics.split("\r\n").skip_while(|l| !l.starts_with("DESCRIPTION:")).take(5).collect();
    assert!(desc_lines[0].len() > 72);
    assert!(desc_lines[1].starts_with(' '));
    let unfolded = unfold(&ics);
    let line = unfolded.lines().find(|l| l.starts_with("DESCRIPTION:Zug")).unwrap();
    assert_eq!(unescape(&line["DESCRIPTION:".len()..]), description);
}
