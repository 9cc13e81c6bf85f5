//! Absences, GM changes, closing (early close, grace), reminders, the outage guard, display.

use super::{at, rhythm};
use crate::schedule::*;
use chrono::{Duration, NaiveDate};

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn away(seat: u8, from: &str, to: &str) -> Absence {
    Absence::new(seat, day(from), day(to)).unwrap()
}

// Friday 4 Dec 2026, 20:00 CET.
const FRI: &str = "2026-12-04T19:00:00Z";

#[test]
fn a_deadline_on_an_acting_seats_absence_moves_to_the_first_slot_after_it() {
    let r = rhythm("48h", Some("20:00"), None, Some("Europe/Berlin"));
    let (d, why) =
        push_for_absences(at(FRI), &r, &[away(2, "2026-12-03", "2026-12-06")], &[1, 2], Duration::days(14));
    assert_eq!(d, at("2026-12-07T19:00:00Z"));
    let why = why.unwrap();
    assert_eq!((why.seats.as_slice(), why.until, why.capped), (&[2u8][..], day("2026-12-06"), false));
    assert_eq!(why.to_string(), "deadline Fri 4 Dec 2026, 19:00 UTC moved: seat 2 away until Sun 6 Dec 2026");
}

#[test]
fn absences_of_seats_that_need_not_act_or_on_other_days_change_nothing() {
    let r = rhythm("48h", Some("20:00"), None, Some("Europe/Berlin"));
    let absences = [away(3, "2026-12-01", "2026-12-09"), away(1, "2026-12-05", "2026-12-06")];
    assert_eq!(push_for_absences(at(FRI), &r, &absences, &[1, 2], Duration::days(14)), (at(FRI), None));
}

#[test]
fn the_absence_day_is_the_day_in_the_games_zone() {
    // 23:30 UTC on 6 Dec is already 7 Dec in Berlin: seat 2 is back.
    let r = rhythm("48h", None, None, Some("Europe/Berlin"));
    let late = at("2026-12-06T23:30:00Z");
    let (d, why) =
        push_for_absences(late, &r, &[away(2, "2026-12-03", "2026-12-06")], &[2], Duration::days(14));
    assert_eq!((d, why), (late, None));
}

#[test]
fn overlapping_and_chained_absences_push_past_them_all() {
    let r = rhythm("48h", Some("20:00"), None, Some("Europe/Berlin"));
    // Both cover Friday; the later end wins.
    let both = [away(2, "2026-12-01", "2026-12-05"), away(3, "2026-12-04", "2026-12-08")];
    let (d, why) = push_for_absences(at(FRI), &r, &both, &[1, 2, 3], Duration::days(14));
    assert_eq!(d, at("2026-12-09T19:00:00Z"));
    assert_eq!(why.unwrap().seats, vec![2, 3]);
    // Seat 3 leaves the day seat 2 returns: a second push.
    let chain = [away(2, "2026-12-03", "2026-12-06"), away(3, "2026-12-07", "2026-12-09")];
    let (d, why) = push_for_absences(at(FRI), &r, &chain, &[2, 3], Duration::days(14));
    assert_eq!(d, at("2026-12-10T19:00:00Z"));
    let why = why.unwrap();
    assert_eq!((why.seats, why.until), (vec![2, 3], day("2026-12-09")));
}

#[test]
fn an_absence_push_lands_on_an_allowed_weekday() {
    let r = rhythm("48h", Some("20:00"), Some("mon,wed,fri"), Some("Europe/Berlin"));
    let (d, _) =
        push_for_absences(at(FRI), &r, &[away(1, "2026-12-04", "2026-12-07")], &[1], Duration::days(14));
    assert_eq!(d, at("2026-12-09T19:00:00Z"));
}

#[test]
fn with_a_cron_rhythm_an_absence_push_takes_the_next_occurrence_after_it() {
    let r = Rhythm::parse(&RhythmWords {
        length: "48h",
        cron: Some("0 20 * * FRI"),
        tz: Some("Europe/Berlin"),
        ..Default::default()
    })
    .unwrap();
    let (d, _) =
        push_for_absences(at(FRI), &r, &[away(1, "2026-12-04", "2026-12-07")], &[1], Duration::days(14));
    assert_eq!(d, at("2026-12-11T19:00:00Z"));
}

#[test]
fn the_gms_cap_stops_a_push_at_the_latest_slot_within_it() {
    let r = rhythm("48h", Some("20:00"), None, Some("Europe/Berlin"));
    let long = [away(2, "2026-12-03", "2026-12-20")];
    let (d, why) = push_for_absences(at(FRI), &r, &long, &[2], Duration::days(3));
    assert_eq!(d, at("2026-12-07T19:00:00Z"));
    let why = why.unwrap();
    assert!(why.capped);
    assert!(why.to_string().ends_with("(held to the GM's limit on how far absences may push a deadline)"));
    // No allowed slot within two days (Sat, Sun): the cap itself.
    let weekdays = rhythm("48h", Some("20:00"), Some("mon-fri"), Some("Europe/Berlin"));
    let (d, _) = push_for_absences(at(FRI), &weekdays, &long, &[2], Duration::days(2));
    assert_eq!(d, at("2026-12-06T19:00:00Z"));
    // A zero cap keeps the deadline.
    assert_eq!(push_for_absences(at(FRI), &r, &long, &[2], Duration::zero()).0, at(FRI));
}

#[test]
fn an_absence_must_not_end_before_it_starts() {
    let err = Absence::new(1, day("2026-12-05"), day("2026-12-04")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "an absence must end on or after the day it starts (2026-12-05 is after 2026-12-04)"
    );
}

const ANNOUNCED: &str = "2026-11-27T19:00:00Z";
const NOW: &str = "2026-11-25T12:00:00Z";

#[test]
fn a_deadline_can_be_extended_or_set_later() {
    let (a, now) = (at(ANNOUNCED), at(NOW));
    assert_eq!(
        apply_change(a, DeadlineChange::Extend(Duration::hours(24)), now),
        Ok(at("2026-11-28T19:00:00Z"))
    );
    assert_eq!(
        apply_change(a, DeadlineChange::SetTo(at("2026-11-30T19:00:00Z")), now),
        Ok(at("2026-11-30T19:00:00Z"))
    );
    assert_eq!(apply_change(a, DeadlineChange::SetTo(a), now), Ok(a));
    assert!(matches!(
        apply_change(a, DeadlineChange::Extend(Duration::zero()), now),
        Err(ChangeRefused::NotAnExtension(_))
    ));
}

#[test]
fn a_deadline_is_never_moved_earlier_than_announced_unless_forced() {
    let (a, now) = (at(ANNOUNCED), at(NOW));
    let thu = at("2026-11-26T19:00:00Z");
    let refused = apply_change(a, DeadlineChange::SetTo(thu), now).unwrap_err();
    assert_eq!(refused, ChangeRefused::EarlierThanAnnounced { announced: a, requested: thu });
    assert_eq!(
        refused.to_string(),
        "Thu 26 Nov 2026, 19:00 UTC is earlier than the announced deadline Fri 27 Nov 2026, 19:00 UTC; \
         a deadline is never moved earlier unless you shorten it with force"
    );
    let unforced = apply_change(a, DeadlineChange::Shorten { to: thu, forced: false }, now);
    assert_eq!(unforced, Err(ChangeRefused::NeedsForce { announced: a, requested: thu }));
    assert_eq!(apply_change(a, DeadlineChange::Shorten { to: thu, forced: true }, now), Ok(thu));
    let later = at("2026-11-28T19:00:00Z");
    assert!(matches!(
        apply_change(a, DeadlineChange::Shorten { to: later, forced: true }, now),
        Err(ChangeRefused::NotEarlier { .. })
    ));
}

#[test]
fn no_change_may_put_the_deadline_in_the_past() {
    let (a, now) = (at(ANNOUNCED), at(NOW));
    let yesterday = at("2026-11-24T12:00:00Z");
    assert_eq!(
        apply_change(a, DeadlineChange::Shorten { to: yesterday, forced: true }, now),
        Err(ChangeRefused::InThePast { requested: yesterday, now })
    );
    assert_eq!(apply_change(a, DeadlineChange::Shorten { to: now, forced: true }, now), Ok(now));
    // A deadline long gone (a paused game) extended by too little is still past.
    let late_now = at("2026-12-05T12:00:00Z");
    assert!(matches!(
        apply_change(a, DeadlineChange::Extend(Duration::hours(24)), late_now),
        Err(ChangeRefused::InThePast { .. })
    ));
    assert!(matches!(
        apply_change(a, DeadlineChange::SetTo(at("2026-12-01T00:00:00Z")), late_now),
        Err(ChangeRefused::InThePast { .. })
    ));
}

const DEADLINE: &str = "2026-11-27T19:00:00Z";

#[test]
fn a_turn_closes_at_the_deadline_when_nothing_else_applies() {
    let d = at(DEADLINE);
    let c = close_at(d, None, None, Duration::minutes(30), false);
    assert_eq!(c, CloseDecision { at: d, why: CloseReason::Deadline });
    let c = close_at(d, Some(Duration::hours(2)), None, Duration::minutes(30), true);
    assert_eq!(c, CloseDecision { at: d, why: CloseReason::Deadline });
}

#[test]
fn when_every_acting_seat_is_final_the_turn_closes_after_the_cooling_off() {
    let d = at(DEADLINE);
    let final_at = at("2026-11-26T08:00:00Z");
    let c = close_at(d, Some(Duration::hours(2)), Some(final_at), Duration::minutes(30), true);
    assert_eq!(c, CloseDecision { at: at("2026-11-26T08:30:00Z"), why: CloseReason::EarlyClose });
    // Final ten minutes before the deadline: the deadline comes first.
    let c = close_at(d, None, Some(at("2026-11-27T18:50:00Z")), Duration::minutes(30), true);
    assert_eq!(c, CloseDecision { at: d, why: CloseReason::Deadline });
}

#[test]
fn grace_postpones_the_close_only_while_an_acting_seat_has_no_orders() {
    let d = at(DEADLINE);
    let c = close_at(d, Some(Duration::hours(2)), None, Duration::minutes(30), false);
    assert_eq!(c, CloseDecision { at: at("2026-11-27T21:00:00Z"), why: CloseReason::Grace });
    // Orders arrive during the grace period: close at once (the deadline is past).
    let c = close_at(d, Some(Duration::hours(2)), None, Duration::minutes(30), true);
    assert_eq!(c.why, CloseReason::Deadline);
}

#[test]
fn reminders_fall_before_the_deadline_and_after_the_turn_opened() {
    let d = at(DEADLINE);
    let offsets: ReminderOffsets = "48h, 12h,2h,12h".parse().unwrap();
    assert_eq!(offsets.to_string(), "2d,12h,2h");
    assert_eq!(serde_json::to_string(&offsets).unwrap(), "\"2d,12h,2h\"");
    assert_eq!(serde_json::from_str::<ReminderOffsets>("\"2d,12h,2h\"").unwrap(), offsets);
    let opened = at("2026-11-26T19:00:00Z");
    assert_eq!(
        reminder_times(d, offsets.as_slice(), opened),
        vec![at("2026-11-27T07:00:00Z"), at("2026-11-27T17:00:00Z")]
    );
    // A reminder at the opening itself is dropped too.
    assert!(reminder_times(d, &[Duration::hours(24), Duration::zero()], opened).is_empty());
    assert!("none".parse::<ReminderOffsets>().unwrap().as_slice().is_empty());
    let err = "48h,2x".parse::<ReminderOffsets>().unwrap_err().to_string();
    assert!(err.starts_with("\"2x\" is not a span of time"), "{err}");
}

#[test]
fn an_outage_longer_than_the_threshold_extends_a_deadline_inside_it_by_the_gap() {
    let (beat, now, limit) = (at("2026-11-27T10:00:00Z"), at("2026-11-27T13:00:00Z"), Duration::hours(1));
    assert_eq!(outage_extension(at("2026-11-27T11:00:00Z"), beat, now, limit), Some(Duration::hours(3)));
    assert_eq!(outage_extension(now, beat, now, limit), Some(Duration::hours(3)));
    // Not in the gap.
    assert_eq!(outage_extension(at("2026-11-27T14:00:00Z"), beat, now, limit), None);
    assert_eq!(outage_extension(at("2026-11-27T09:00:00Z"), beat, now, limit), None);
    assert_eq!(outage_extension(beat, beat, now, limit), None);
    // A short gap is not an outage.
    assert_eq!(outage_extension(at("2026-11-27T11:00:00Z"), beat, now, Duration::hours(3)), None);
}

#[test]
fn a_deadline_shows_in_the_readers_zone_with_utc_alongside() {
    let d = at(DEADLINE);
    let z = |s: &str| s.parse::<TimeZoneName>().unwrap();
    assert_eq!(format_deadline(d, z("Europe/Berlin")), "Fri 27 Nov 2026, 20:00 CET (19:00 UTC)");
    assert_eq!(format_deadline(d, z("UTC")), "Fri 27 Nov 2026, 19:00 UTC");
    assert_eq!(format_deadline(d, z("America/New_York")), "Fri 27 Nov 2026, 14:00 EST (19:00 UTC)");
    assert_eq!(
        format_deadline(d, z("Australia/Sydney")),
        "Sat 28 Nov 2026, 06:00 AEDT (Fri 27 Nov, 19:00 UTC)"
    );
    assert_eq!(
        format_deadline(at("2026-07-03T18:00:00Z"), z("Europe/Berlin")),
        "Fri 3 Jul 2026, 20:00 CEST (18:00 UTC)"
    );
}
