//! Seats' absences (vacations) and how they push a deadline: [`push_for_absences`] moves a
//! deadline that falls on a day an acting seat is away to the first slot after the absence,
//! within the GM's cap (RULING D5).

use super::rhythm::Rhythm;
use super::{local_of, resolve_local, utc_text};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A seat's absence: the days `from` to `to`, both included, as dates in the game's zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    /// The seat that is away.
    pub seat: u8,
    /// The first day away.
    pub from: NaiveDate,
    /// The last day away.
    pub to: NaiveDate,
}

/// An absence whose dates are in the wrong order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an absence must end on or after the day it starts ({from} is after {to})")]
pub struct AbsenceError {
    /// The first day given.
    pub from: NaiveDate,
    /// The last day given.
    pub to: NaiveDate,
}

impl Absence {
    /// An absence from `from` to `to` inclusive; refused when `to` is before `from`.
    pub fn new(seat: u8, from: NaiveDate, to: NaiveDate) -> Result<Absence, AbsenceError> {
        if to < from {
            return Err(AbsenceError { from, to });
        }
        Ok(Absence { seat, from, to })
    }
    /// Whether the seat is away on `day`.
    pub fn covers(&self, day: NaiveDate) -> bool {
        self.from <= day && day <= self.to
    }
}

/// Why a deadline moved for absences, for the log and the players' notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbsencePush {
    /// The deadline before the push.
    pub original: DateTime<Utc>,
    /// The seats whose absences moved it, in order, without repeats.
    pub seats: Vec<u8>,
    /// The last absent day that was skipped.
    pub until: NaiveDate,
    /// Whether the GM's cap stopped the push short of the end of the absences.
    pub capped: bool,
}

impl fmt::Display for AbsencePush {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seats: Vec<String> = self.seats.iter().map(|s| s.to_string()).collect();
        let who = if seats.len() == 1 { "seat" } else { "seats" };
        write!(
            f,
            "deadline {} moved: {who} {} away until {}",
            utc_text(&self.original),
            seats.join(", "),
            self.until.format("%a %-d %b %Y")
        )?;
        if self.capped {
            f.write_str(" (held to the GM's limit on how far absences may push a deadline)")?;
        }
        Ok(())
    }
}

/// Most absences followed in one push; each step passes at least one absence's last day.
const MAX_STEPS: usize = 1000;

/// Pushes `deadline` past the absences of `acting_seats` (RULING D5).
///
/// When the deadline falls, in the game's zone, on a day an acting seat is away, it moves to the
/// first allowed slot after the last day of that absence (the latest one, when several cover the
/// day), and again while the new day is covered by another absence. It is never moved more than
/// `max_push` after `deadline`: a capped push takes the latest slot within the cap, or the cap
/// itself when no slot lies within it. Seats not in `acting_seats` are ignored.
pub fn push_for_absences(
    deadline: DateTime<Utc>,
    rhythm: &Rhythm,
    absences: &[Absence],
    acting_seats: &[u8],
    max_push: Duration,
) -> (DateTime<Utc>, Option<AbsencePush>) {
    let tz = rhythm.zone().tz();
    let wall = rhythm.wall_for(deadline);
    let relevant: Vec<&Absence> = absences.iter().filter(|a| acting_seats.contains(&a.seat)).collect();
    let mut current = deadline;
    let mut seats: Vec<u8> = Vec::new();
    let mut until: Option<NaiveDate> = None;
    for _ in 0..MAX_STEPS.min(relevant.len() + 1) {
        let day = local_of(tz, current).date();
        let covering: Vec<&&Absence> = relevant.iter().filter(|a| a.covers(day)).collect();
        let Some(last_day) = covering.iter().map(|a| a.to).max() else {
            break;
        };
        for a in &covering {
            if !seats.contains(&a.seat) {
                seats.push(a.seat);
            }
        }
        until = Some(last_day);
        let Some(next_day) = last_day.succ_opt() else {
            break;
        };
        let day_starts = resolve_local(tz, next_day.and_time(NaiveTime::MIN));
        current = rhythm.next_slot(day_starts, wall, true);
    }
    let Some(until) = until else {
        return (deadline, None);
    };
    let cap = deadline + max_push.max(Duration::zero());
    let capped = current > cap;
    if capped {
        current = latest_slot_within(rhythm, deadline, cap, wall);
    }
    (current, Some(AbsencePush { original: deadline, seats, until, capped }))
}

/// The latest slot after `from` and not after `cap`; `cap` itself when there is none.
fn latest_slot_within(
    rhythm: &Rhythm,
    from: DateTime<Utc>,
    cap: DateTime<Utc>,
    wall: NaiveTime,
) -> DateTime<Utc> {
    let mut best = None;
    let mut slot = rhythm.next_slot(from, wall, false);
    for _ in 0..MAX_STEPS {
        if slot > cap {
            break;
        }
        best = Some(slot);
        let next = rhythm.next_slot(slot, wall, false);
        if next <= slot {
            break;
        }
        slot = next;
    }
    best.unwrap_or(cap)
}
