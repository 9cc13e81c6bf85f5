//! The pure time core of turn deadlines: no I/O, no clock (every "now" is a parameter), no
//! database. The scheduler and the GM commands call it; `docs/RULINGS.md` § Deadlines (D1–D12)
//! states the rules it follows.
//!
//! - [`words`]: the GM's words parsed into typed values (zone, weekdays, time of day, cron, spans).
//! - [`rhythm`]: a game's [`Rhythm`] and [`Rhythm::deadline_after`].
//! - [`absence`]: seats' absences that push a deadline ([`push_for_absences`]).
//! - [`decisions`]: GM deadline changes, early close and grace, reminders, the outage guard.
//! - [`display`]: a deadline as a person reads it, in their own zone.
//! - [`ical`]: the iCalendar attachment for a deadline.
//! - [`game_clock`]: a game's clock and policies as the GM sets them ([`GameClock`]).

pub mod absence;
pub mod decisions;
pub mod display;
pub mod game_clock;
pub mod ical;
pub mod rhythm;
pub mod words;

#[cfg(test)]
mod tests;

pub use absence::{Absence, AbsenceError, AbsencePush, push_for_absences};
pub use decisions::{
    ChangeRefused, CloseDecision, CloseReason, DeadlineChange, ReminderOffsets, apply_change, close_at,
    outage_extension, reminder_times,
};
pub use display::format_deadline;
pub use game_clock::{ClockWordError, ClockWords, GameClock};
pub use ical::{IcalEvent, ical_deadline_event};
pub use rhythm::{Rhythm, RhythmError, RhythmWords};
pub use words::{CronPattern, TimeOfDay, TimeZoneName, Weekdays, format_span, parse_span};

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone, Timelike, Utc};
use chrono_tz::Tz;

/// The local wall-clock time of an instant in `tz`.
pub(crate) fn local_of(tz: Tz, t: DateTime<Utc>) -> NaiveDateTime {
    t.with_timezone(&tz).naive_local()
}

/// The instant of a local wall-clock time in `tz`. A time the clocks skip (spring forward) is
/// the first instant after the gap (RULING D2); a time that happens twice (fall back) is the
/// earlier instant (RULING D3).
pub(crate) fn resolve_local(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    if let Some(t) = tz.from_local_datetime(&local).earliest() {
        return t.to_utc();
    }
    // In a gap: the first whole minute that exists is where the gap ends. Gaps end on whole
    // minutes in the tz database for every date this server will meet; the longest (a date
    // line move) lasts a day.
    let start = local.with_second(0).unwrap_or(local).with_nanosecond(0).unwrap_or(local);
    (1..=2 * 24 * 60)
        .find_map(|m| tz.from_local_datetime(&(start + Duration::minutes(m))).earliest())
        .map(|t| t.to_utc())
        .unwrap_or_else(|| Utc.from_utc_datetime(&local))
}

/// A short unambiguous UTC time for messages, e.g. "Fri 27 Nov 2026, 19:00 UTC".
pub(crate) fn utc_text(t: &DateTime<Utc>) -> String {
    t.format("%a %-d %b %Y, %H:%M UTC").to_string()
}
