//! Property tests: deadlines never come early and land on allowed days in any zone; absence
//! pushes stay within the cap; GM changes never move a deadline earlier unforced; iCalendar
//! folding keeps every line within 75 octets and loses nothing.

use super::ical::{event, unescape, unfold};
use crate::schedule::*;
use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use proptest::prelude::*;

const ZONES: [&str; 7] = [
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "America/Santiago",
    "Pacific/Apia",
];

/// Instants between 2000 and 2040, whole seconds or not.
fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (946_684_800i64..2_208_988_800, 0u32..1_000_000_000)
        .prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap_or(DateTime::UNIX_EPOCH))
}

fn clock_rhythm() -> impl Strategy<Value = Rhythm> {
    (1i64..=24 * 14, 0usize..ZONES.len(), 1u8..128, proptest::option::of((0u32..24, 0u32..60))).prop_map(
        |(hours, zone, days, time)| {
            let length = format!("{hours}h");
            let days = Weekdays::from_bits(days).unwrap_or_default().to_string();
            let at = time.map(|(h, m)| format!("{h:02}:{m:02}"));
            Rhythm::parse(&RhythmWords {
                length: &length,
                at: at.as_deref(),
                days: Some(&days),
                tz: Some(ZONES[zone]),
                ..Default::default()
            })
            .unwrap()
        },
    )
}

fn weekday_in(r: &Rhythm, t: DateTime<Utc>) -> chrono::Weekday {
    t.with_timezone(&r.zone().tz()).weekday()
}

proptest! {
    #[test]
    fn a_deadline_is_never_before_the_length_and_lands_on_an_allowed_weekday(r in clock_rhythm(), t in instant()) {
        let d = r.deadline_after(t);
        prop_assert!(d >= t + r.length(), "{d} < {t} + {}", r.length());
        prop_assert!(r.weekdays().allows(weekday_in(&r, d)), "{d} on {:?}", weekday_in(&r, d));
        // Rounding moves a deadline by at most a week and a day.
        prop_assert!(d - (t + r.length()) <= Duration::days(8));
        if let Some(tod) = r.time_of_day() {
            // On the time of day, unless the clocks skipped it (that day or, for a skipped
            // date, the day before).
            let tz = r.zone().tz();
            let local = d.with_timezone(&tz).naive_local();
            let skipped = |day: NaiveDate| tz.from_local_datetime(&day.and_time(tod.time())).earliest().is_none();
            prop_assert!(
                local.time() == tod.time() || skipped(local.date()) || local.date().pred_opt().is_some_and(skipped),
                "{d} is {local} local"
            );
        }
    }

    #[test]
    fn a_cron_deadline_is_never_before_the_length(t in instant(), hours in 1i64..200, zone in 0usize..ZONES.len()) {
        let length = format!("{hours}h");
        let r = Rhythm::parse(&RhythmWords { length: &length, tz: Some(ZONES[zone]), cron: Some("30 2 * * MON,THU"), ..Default::default() }).unwrap();
        let d = r.deadline_after(t);
        prop_assert!(d >= t + r.length());
        prop_assert!(d - (t + r.length()) <= Duration::days(5));
    }

    #[test]
    fn weekdays_print_as_they_read(bits in 1u8..128) {
        let w = Weekdays::from_bits(bits).unwrap();
        prop_assert_eq!(w.to_string().parse::<Weekdays>(), Ok(w));
    }

    #[test]
    fn an_absence_push_never_comes_early_nor_beyond_the_cap(
        r in clock_rhythm(), t in instant(), spans in proptest::collection::vec((0u8..4, 0i64..20, 0i64..10), 0..5), cap_days in 0i64..30,
    ) {
        let deadline = r.deadline_after(t);
        let day0 = deadline.with_timezone(&r.zone().tz()).date_naive();
        let absences: Vec<Absence> = spans.iter().map(|(seat, start, len)| {
            let from = day0 + Duration::days(*start - 3);
            Absence { seat: *seat, from, to: from + Duration::days(*len) }
        }).collect();
        let cap = Duration::days(cap_days);
        let (pushed, why) = push_for_absences(deadline, &r, &absences, &[0, 1, 2], cap);
        prop_assert!(pushed >= deadline && pushed <= deadline + cap);
        let day: NaiveDate = pushed.with_timezone(&r.zone().tz()).date_naive();
        let covered = absences.iter().any(|a| a.seat <= 2 && a.covers(day));
        match why {
            None => prop_assert_eq!(pushed, deadline),
            Some(why) => prop_assert!(why.capped || !covered),
        }
    }

    #[test]
    fn a_change_is_never_earlier_than_announced_unless_forced_nor_in_the_past(
        announced in instant(), now in instant(), to in instant(), hours in -5i64..100, forced: bool, kind in 0u8..3,
    ) {
        let change = match kind {
            0 => DeadlineChange::Extend(Duration::hours(hours)),
            1 => DeadlineChange::SetTo(to),
            _ => DeadlineChange::Shorten { to, forced },
        };
        if let Ok(new) = apply_change(announced, change, now) {
            prop_assert!(new >= now);
            let forced_shorten = matches!(change, DeadlineChange::Shorten { forced: true, .. });
            prop_assert!(new >= announced || forced_shorten);
        }
    }

    #[test]
    fn ical_lines_stay_within_75_octets_and_unfold_to_the_content(
        summary in "[a-zA-Zäöüß€🚂,;:\\\\ \n]{0,120}", description in "[a-z0-9é€🚂,;\\\\ \n]{0,400}",
    ) {
        let ics = ical_deadline_event(&event(&summary, &description));
        prop_assert!(ics.ends_with("\r\n"));
        for line in ics.as_bytes().split(|b| *b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            prop_assert!(line.len() <= 75, "{} octets", line.len());
            prop_assert!(std::str::from_utf8(line).is_ok());
            prop_assert!(!line.contains(&b'\r'), "a bare CR");
        }
        prop_assert_eq!(ics.matches('\n').count(), ics.matches("\r\n").count());
        let unfolded = unfold(&ics);
        let field = |name: &str| unfolded.split("\r\n").find_map(|l| l.strip_prefix(name)).map(unescape);
        prop_assert_eq!(field("SUMMARY:"), Some(summary.clone()));
        if !description.is_empty() {
            prop_assert_eq!(field("DESCRIPTION:"), Some(description.clone()));
        }
    }
}
