//! Rhythm parsing, description, storage and `deadline_after`.

use super::{at, rhythm};
use crate::schedule::*;

fn parse_err(words: RhythmWords<'_>) -> String {
    Rhythm::parse(&words).unwrap_err().to_string()
}

#[test]
fn the_gms_words_become_a_rhythm() {
    let r = Rhythm::parse(&RhythmWords {
        length: "48h",
        at: Some("20:00"),
        days: Some("mon-fri"),
        tz: Some("Europe/Berlin"),
        grace: Some("2h"),
        cron: None,
    })
    .unwrap();
    assert_eq!(r.length(), chrono::Duration::hours(48));
    assert_eq!(r.time_of_day(), TimeOfDay::hm(20, 0));
    assert_eq!(r.weekdays().to_string(), "mon-fri");
    assert_eq!(r.zone().name(), "Europe/Berlin");
    assert_eq!(r.grace(), Some(chrono::Duration::hours(2)));
    assert_eq!(r.describe(), "2d turns; deadline at 20:00 on Mon–Fri; times in Europe/Berlin; 2h grace");
}

#[test]
fn defaults_are_every_day_utc_and_no_grace() {
    let r = Rhythm::parse(&RhythmWords {
        length: "36h",
        at: Some(" "),
        grace: Some("none"),
        ..Default::default()
    })
    .unwrap();
    assert!(r.weekdays().is_all());
    assert_eq!(r.zone().name(), "UTC");
    assert_eq!(r.grace(), None);
    assert_eq!(r.time_of_day(), None);
    assert_eq!(r.describe(), "1d12h turns; times in UTC; no grace");
}

#[test]
fn weekdays_read_in_every_usual_spelling() {
    let read = |s: &str| s.parse::<Weekdays>().map(|w| w.to_string());
    assert_eq!(read("mon-fri").unwrap(), "mon-fri");
    assert_eq!(read("Weekdays").unwrap(), "mon-fri");
    assert_eq!(read("mon,wed,fri").unwrap(), "mon,wed,fri");
    assert_eq!(read("Monday Wednesday friday").unwrap(), "mon,wed,fri");
    assert_eq!(read("fri-mon").unwrap(), "mon,fri-sun");
    assert_eq!(read("all").unwrap(), "all");
    assert_eq!(read("-sat,-sun").unwrap(), "mon-fri");
    assert_eq!(read("weekends,tu").unwrap(), "tue,sat-sun");
    assert_eq!(read("thurs").unwrap(), "thu");
}

#[test]
fn bad_words_get_errors_a_gm_can_read() {
    let base = RhythmWords { length: "48h", ..Default::default() };
    assert_eq!(
        parse_err(RhythmWords { tz: Some("Europe/Berln"), ..base }),
        "unknown time zone \"Europe/Berln\" (did you mean Europe/Berlin?)"
    );
    assert_eq!(
        parse_err(RhythmWords { tz: Some("Mars/Olympus"), ..base }),
        "unknown time zone \"Mars/Olympus\""
    );
    assert_eq!(
        parse_err(RhythmWords { days: Some("-weekdays -weekends"), ..base }),
        "no weekday left: a deadline needs at least one day of the week"
    );
    assert!(
        parse_err(RhythmWords { days: Some("mon-fry"), ..base }).starts_with("unknown weekday \"mon-fry\"")
    );
    assert!(parse_err(RhythmWords { days: Some("m"), ..base }).starts_with("unknown weekday \"m\""));
    assert_eq!(
        parse_err(RhythmWords { at: Some("25:00"), ..base }),
        "\"25:00\" is not a time of day (expected HH:MM on a 24-hour clock, e.g. 20:00)"
    );
    for bad in ["20", "20:0", "20:000", "-1:00", "20:60", "a:bc"] {
        assert!(Rhythm::parse(&RhythmWords { at: Some(bad), ..base }).is_err(), "{bad}");
    }
    assert_eq!(
        parse_err(RhythmWords { length: "30m", ..base }),
        "a turn must last at least 1 hour (got 30m)"
    );
    assert!(
        parse_err(RhythmWords { length: "two days", ..base }).starts_with("turn length: \"two days\" is not")
    );
    assert!(parse_err(RhythmWords { grace: Some("2 hours"), ..base }).starts_with("grace period: "));
}

#[test]
fn a_cron_pattern_replaces_length_and_time_of_day_but_not_both_ways() {
    let base = RhythmWords {
        length: "48h",
        cron: Some("0 20 * * FRI"),
        tz: Some("Europe/Berlin"),
        ..Default::default()
    };
    let r = Rhythm::parse(&base).unwrap();
    assert_eq!(r.cron().map(|c| c.to_string()).as_deref(), Some("0 20 * * FRI"));
    assert_eq!(
        r.describe(),
        "turns of at least 2d; deadline at the next \"0 20 * * FRI\" (At 20:00, on Friday); \
         times in Europe/Berlin; no grace"
    );
    assert!(matches!(
        Rhythm::parse(&RhythmWords { at: Some("20:00"), ..base }),
        Err(RhythmError::CronAndTime)
    ));
    assert!(matches!(
        Rhythm::parse(&RhythmWords { days: Some("fri"), ..base }),
        Err(RhythmError::CronAndDays)
    ));
    assert!(Rhythm::parse(&RhythmWords { days: Some("all"), ..base }).is_ok());
    let err = |c: &str| parse_err(RhythmWords { cron: Some(c), ..base });
    assert!(err("0 20 * *").contains("give five fields"), "{}", err("0 20 * *"));
    assert!(err("0 0 20 * * FRI").contains("give five fields"));
    assert!(err("@weekly").contains("give five fields"));
    assert!(err("0 25 * * *").starts_with("\"0 25 * * *\" is not a cron pattern: "), "{}", err("0 25 * * *"));
    assert_eq!(err("0 0 30 2 *"), "the cron pattern \"0 0 30 2 *\" never matches a date");
}

#[test]
fn a_cron_field_that_allows_no_value_is_refused_before_any_search() {
    let base = RhythmWords { length: "2d", cron: Some("0 20 * * FRI"), ..Default::default() };
    let err = |c: &str| parse_err(RhythmWords { cron: Some(c), ..base });
    assert_eq!(err(", 0 * * *"), "the cron pattern \", 0 * * *\" allows no minute");
    assert_eq!(err("0 , * * *"), "the cron pattern \"0 , * * *\" allows no hour");
    assert_eq!(err("0 0 , * *"), "the cron pattern \"0 0 , * *\" allows no day of the month");
    assert_eq!(err("0 0 * , *"), "the cron pattern \"0 0 * , *\" allows no month");
    assert_eq!(err("0 0 * * ,"), "the cron pattern \"0 0 * * ,\" allows no weekday");
    // Modifiers and lists with a value still read.
    assert!(Rhythm::parse(&RhythmWords { cron: Some("0 20 L * *"), ..base }).is_ok());
    assert!(Rhythm::parse(&RhythmWords { cron: Some("0 20 * * FRI#2"), ..base }).is_ok());
    assert!(Rhythm::parse(&RhythmWords { cron: Some("1,,2 0 * * *"), ..base }).is_ok());
}

#[test]
fn fuzz_finding_json_inputs_slow_rhythm_is_refused_by_its_empty_minute_field() {
    // A stored rhythm whose cron minute field is a bare comma: the library's search for its next
    // occurrence walked a year of seconds (10 s under the fuzzer) before failing.
    // The unit's first byte picks the fuzz target's branch (2: a stored rhythm); JSON follows.
    let unit = include_bytes!("../../../tests/fuzz/findings/json_inputs_slow_rhythm.bin");
    assert_eq!(unit[0] % 4, 2);
    let err = serde_json::from_slice::<Rhythm>(&unit[1..]).unwrap_err().to_string();
    assert!(err.contains("allows no minute"), "{err}");
}

#[test]
fn a_rhythm_is_stored_as_readable_json_and_read_back_through_the_parser() {
    let r = Rhythm::parse(&RhythmWords {
        length: "48h",
        at: Some("20:00"),
        days: Some("weekdays"),
        tz: Some("europe/berlin"),
        grace: Some("90m"),
        cron: None,
    })
    .unwrap();
    let json = serde_json::to_string(&r).unwrap();
    assert_eq!(json, r#"{"length":"2d","at":"20:00","days":"mon-fri","tz":"Europe/Berlin","grace":"1h30m"}"#);
    assert_eq!(serde_json::from_str::<Rhythm>(&json).unwrap(), r);
    let cron = rhythm_with_cron("0 20 * * FRI");
    assert_eq!(serde_json::from_str::<Rhythm>(&serde_json::to_string(&cron).unwrap()).unwrap(), cron);
    let bad = serde_json::from_str::<Rhythm>(r#"{"length":"2d","tz":"Europe/Berln"}"#).unwrap_err();
    assert!(bad.to_string().contains("unknown time zone \"Europe/Berln\""), "{bad}");
}

fn rhythm_with_cron(cron: &str) -> Rhythm {
    Rhythm::parse(&RhythmWords {
        length: "48h",
        cron: Some(cron),
        tz: Some("Europe/Berlin"),
        ..Default::default()
    })
    .unwrap()
}

#[test]
fn a_deadline_is_length_after_opening_moved_forward_to_the_time_of_day() {
    let r = rhythm("24h", Some("20:00"), None, None);
    // Thursday 21:00 + 24h is Friday 21:00, past Friday's 20:00: Saturday 20:00.
    assert_eq!(r.deadline_after(at("2026-11-25T21:00:00Z")), at("2026-11-27T20:00:00Z"));
    assert_eq!(r.deadline_after(at("2026-11-25T19:00:00Z")), at("2026-11-26T20:00:00Z"));
    assert_eq!(r.deadline_after(at("2026-11-25T20:00:00Z")), at("2026-11-26T20:00:00Z"));
}

#[test]
fn without_a_time_of_day_a_deadline_keeps_its_clock_time_on_the_next_allowed_day() {
    let r = rhythm("48h", None, Some("mon-fri"), None);
    assert_eq!(r.deadline_after(at("2026-11-23T10:17:33Z")), at("2026-11-25T10:17:33Z"));
    // Thursday + 48h is Saturday: Monday, same time.
    assert_eq!(r.deadline_after(at("2026-11-26T15:00:00Z")), at("2026-11-30T15:00:00Z"));
}

#[test]
fn weekday_rounding_in_berlin_crosses_the_spring_change_at_local_time() {
    let r = rhythm("48h", Some("20:00"), Some("mon-fri"), Some("Europe/Berlin"));
    // Thu 26 Mar 19:00 CET + 48h = Sat; Monday 30 Mar 20:00 is CEST (UTC+2).
    assert_eq!(r.deadline_after(at("2026-03-26T18:00:00Z")), at("2026-03-30T18:00:00Z"));
    // The same a week earlier stays in CET (UTC+1).
    assert_eq!(r.deadline_after(at("2026-03-19T18:00:00Z")), at("2026-03-23T19:00:00Z"));
}

#[test]
fn weekday_rounding_in_berlin_crosses_the_autumn_change_at_local_time() {
    let r = rhythm("24h", Some("20:00"), Some("fri"), Some("Europe/Berlin"));
    assert_eq!(r.deadline_after(at("2026-10-22T12:00:00Z")), at("2026-10-23T18:00:00Z"));
    // Opened Saturday 24 Oct; the next Friday, 30 Oct, is in CET (UTC+1).
    assert_eq!(r.deadline_after(at("2026-10-24T10:00:00Z")), at("2026-10-30T19:00:00Z"));
}

#[test]
fn a_time_of_day_the_clocks_skip_becomes_the_first_instant_after_the_gap() {
    // 02:30 does not exist in Berlin on 29 Mar 2026 (02:00 CET → 03:00 CEST): 03:00 CEST.
    let berlin = rhythm("24h", Some("02:30"), None, Some("Europe/Berlin"));
    assert_eq!(berlin.deadline_after(at("2026-03-28T00:00:00Z")), at("2026-03-29T01:00:00Z"));
    // New York skips 02:00–03:00 EST on 8 Mar 2026: 03:00 EDT = 07:00 UTC.
    let ny = rhythm("24h", Some("02:15"), None, Some("America/New_York"));
    assert_eq!(ny.deadline_after(at("2026-03-07T06:00:00Z")), at("2026-03-08T07:00:00Z"));
}

#[test]
fn a_time_of_day_the_clocks_repeat_is_the_earlier_instant() {
    // 02:30 happens twice in Berlin on 25 Oct 2026: first in CEST (00:30 UTC).
    let r = rhythm("24h", Some("02:30"), None, Some("Europe/Berlin"));
    assert_eq!(r.deadline_after(at("2026-10-24T00:00:00Z")), at("2026-10-25T00:30:00Z"));
    // Past the earlier instant, the day's one slot is gone: the next day's 02:30 CET.
    assert_eq!(r.deadline_after(at("2026-10-24T00:45:00Z")), at("2026-10-26T01:30:00Z"));
    let ny = rhythm("24h", Some("01:30"), None, Some("America/New_York"));
    assert_eq!(ny.deadline_after(at("2026-10-31T04:00:00Z")), at("2026-11-01T05:30:00Z"));
}

#[test]
fn weekday_rounding_in_new_york_crosses_the_spring_change_at_local_time() {
    let r = rhythm("72h", Some("21:00"), Some("mon,wed,fri"), Some("America/New_York"));
    // Thu 5 Mar + 72h = Sun 8 Mar; Monday 21:00 EDT = Tuesday 01:00 UTC.
    assert_eq!(r.deadline_after(at("2026-03-05T12:00:00Z")), at("2026-03-10T01:00:00Z"));
    // Before the change 21:00 EST is 02:00 UTC.
    assert_eq!(r.deadline_after(at("2026-02-26T12:00:00Z")), at("2026-03-03T02:00:00Z"));
}

#[test]
fn a_cron_deadline_is_the_first_occurrence_at_least_the_length_after_opening() {
    let r = rhythm_with_cron("0 20 * * FRI");
    assert_eq!(r.deadline_after(at("2026-11-23T10:00:00Z")), at("2026-11-27T19:00:00Z"));
    assert_eq!(r.deadline_after(at("2026-11-26T10:00:00Z")), at("2026-12-04T19:00:00Z"));
    // Exactly the length: the occurrence itself counts.
    assert_eq!(r.deadline_after(at("2026-11-25T19:00:00Z")), at("2026-11-27T19:00:00Z"));
    // Half a second later it does not.
    let late = at("2026-11-25T19:00:00Z") + chrono::Duration::milliseconds(500);
    assert_eq!(r.deadline_after(late), at("2026-12-04T19:00:00Z"));
    // Summer: 20:00 CEST.
    assert_eq!(r.deadline_after(at("2026-06-29T10:00:00Z")), at("2026-07-03T18:00:00Z"));
}

#[test]
fn a_cron_time_the_clocks_skip_follows_the_same_gap_ruling() {
    let r = rhythm_with_cron("30 2 * * *");
    // 48h after 27 Mar 01:30 UTC is 29 Mar 03:30 CEST, past the gap: the next 02:30 is
    // 30 Mar 02:30 CEST.
    assert_eq!(r.deadline_after(at("2026-03-27T01:30:00Z")), at("2026-03-30T00:30:00Z"));
    // 48h after 26 Mar 23:30 UTC is 28 Mar 23:30 UTC = 29 Mar 00:30 CET; 02:30 is skipped.
    assert_eq!(r.deadline_after(at("2026-03-26T23:30:00Z")), at("2026-03-29T01:00:00Z"));
}
