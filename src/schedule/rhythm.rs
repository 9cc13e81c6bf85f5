//! A game's [`Rhythm`]: how long a turn lasts and where its deadline may fall (time of day,
//! weekdays, zone, or a cron pattern), parsed from the GM's words, stored as JSON, described
//! in one line, and turned into a deadline by [`Rhythm::deadline_after`].

use super::words::{
    CronPattern, CronPatternError, SpanError, TimeOfDay, TimeOfDayError, TimeZoneError, TimeZoneName,
    Weekdays, WeekdaysError, format_span, parse_span,
};
use super::{local_of, resolve_local};
use chrono::{DateTime, Datelike, Duration, NaiveTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};

/// A game's turn timing. Built only by [`Rhythm::parse`] (or from its stored JSON, which is
/// parsed the same way), so every value is consistent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RhythmRecord", into = "RhythmRecord")]
pub struct Rhythm {
    length: Duration,
    timing: Timing,
    zone: TimeZoneName,
    grace: Option<Duration>,
}

/// Where a deadline may fall: a clock rule, or a cron pattern that replaces it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Timing {
    Clock { at: Option<TimeOfDay>, days: Weekdays },
    Cron(Box<CronPattern>),
}

/// The GM's words for a rhythm, as typed in a form or a mail command. Empty text counts as
/// not given.
#[derive(Debug, Clone, Copy, Default)]
pub struct RhythmWords<'a> {
    /// Turn length, e.g. "48h" (at least 1 hour); with a cron pattern, the least time a turn lasts.
    pub length: &'a str,
    /// Local time of day of the deadline, e.g. "20:00".
    pub at: Option<&'a str>,
    /// Weekdays a deadline may fall on, e.g. "mon-fri" (default: all).
    pub days: Option<&'a str>,
    /// IANA time zone, e.g. "Europe/Berlin" (default: UTC).
    pub tz: Option<&'a str>,
    /// Grace period for seats without orders, e.g. "2h"; "none" or "0" for none.
    pub grace: Option<&'a str>,
    /// Five-field cron pattern in the game's zone, e.g. "0 20 * * FRI".
    pub cron: Option<&'a str>,
}

/// Why the GM's words do not make a rhythm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RhythmError {
    /// The turn length does not read.
    #[error("turn length: {0}")]
    Length(SpanError),
    /// The turn length is under an hour.
    #[error("a turn must last at least 1 hour (got {0})")]
    TooShort(String),
    /// The grace period does not read.
    #[error("grace period: {0}")]
    Grace(SpanError),
    /// The time of day does not read.
    #[error(transparent)]
    TimeOfDay(#[from] TimeOfDayError),
    /// The weekdays do not read.
    #[error(transparent)]
    Weekdays(#[from] WeekdaysError),
    /// The zone is unknown.
    #[error(transparent)]
    TimeZone(#[from] TimeZoneError),
    /// The cron pattern does not read.
    #[error(transparent)]
    Cron(#[from] CronPatternError),
    /// Both a cron pattern and a time of day.
    #[error("a cron pattern sets the time of day itself: give a cron pattern or a time of day, not both")]
    CronAndTime,
    /// Both a cron pattern and weekdays.
    #[error(
        "a cron pattern sets the weekdays itself (its fifth field): give a cron pattern or weekdays, not both"
    )]
    CronAndDays,
}

fn given(word: Option<&str>) -> Option<&str> {
    word.map(str::trim).filter(|w| !w.is_empty())
}

impl Rhythm {
    /// Parses the GM's words. Errors name the word that is wrong, e.g.
    /// `unknown time zone "Europe/Berln" (did you mean Europe/Berlin?)`.
    pub fn parse(words: &RhythmWords<'_>) -> Result<Rhythm, RhythmError> {
        let length = parse_span(words.length).map_err(RhythmError::Length)?;
        if length < Duration::hours(1) {
            return Err(RhythmError::TooShort(format_span(length)));
        }
        let grace = match given(words.grace) {
            None => None,
            Some(g) if g.eq_ignore_ascii_case("none") || g == "0" => None,
            Some(g) => Some(parse_span(g).map_err(RhythmError::Grace)?),
        };
        let zone = given(words.tz).map(str::parse).transpose()?.unwrap_or_default();
        let at = given(words.at).map(str::parse::<TimeOfDay>).transpose()?;
        let days = given(words.days).map(str::parse::<Weekdays>).transpose()?;
        let timing = match given(words.cron) {
            None => Timing::Clock { at, days: days.unwrap_or_default() },
            Some(c) => {
                let pattern: CronPattern = c.parse()?;
                // RULING D4: a cron pattern brings its own time of day and weekdays.
                if at.is_some() {
                    return Err(RhythmError::CronAndTime);
                }
                if days.is_some_and(|d| !d.is_all()) {
                    return Err(RhythmError::CronAndDays);
                }
                Timing::Cron(Box::new(pattern))
            }
        };
        Ok(Rhythm { length, timing, zone, grace })
    }

    /// The turn length (with a cron pattern: the least time a turn lasts).
    pub fn length(&self) -> Duration {
        self.length
    }
    /// The game's zone.
    pub fn zone(&self) -> TimeZoneName {
        self.zone
    }
    /// The grace period for seats without orders, if any.
    pub fn grace(&self) -> Option<Duration> {
        self.grace
    }
    /// The local time of day of deadlines, if fixed (never with a cron pattern).
    pub fn time_of_day(&self) -> Option<TimeOfDay> {
        match &self.timing {
            Timing::Clock { at, .. } => *at,
            Timing::Cron(_) => None,
        }
    }
    /// The weekdays a deadline may fall on (every day with a cron pattern, which has its own).
    pub fn weekdays(&self) -> Weekdays {
        match &self.timing {
            Timing::Clock { days, .. } => *days,
            Timing::Cron(_) => Weekdays::ALL,
        }
    }
    /// The cron pattern, if the rhythm has one.
    pub fn cron(&self) -> Option<&CronPattern> {
        match &self.timing {
            Timing::Cron(c) => Some(c),
            Timing::Clock { .. } => None,
        }
    }

    /// One line for the GM, e.g. "48h turns; deadline at 20:00 on Mon–Fri; times in
    /// Europe/Berlin; 2h grace".
    pub fn describe(&self) -> String {
        let span = format_span(self.length);
        let mut parts = Vec::new();
        match &self.timing {
            Timing::Clock { at, days } => {
                parts.push(format!("{span} turns"));
                match (at, days.is_all()) {
                    (Some(t), true) => parts.push(format!("deadline at {t}")),
                    (Some(t), false) => parts.push(format!("deadline at {t} on {}", days.describe())),
                    (None, false) => parts.push(format!("deadlines only on {}", days.describe())),
                    (None, true) => {}
                }
            }
            Timing::Cron(c) => {
                parts.push(format!("turns of at least {span}"));
                parts.push(format!("deadline at the next \"{c}\" ({})", c.describe()));
            }
        }
        parts.push(format!("times in {}", self.zone));
        parts.push(match self.grace {
            Some(g) => format!("{} grace", format_span(g)),
            None => "no grace".into(),
        });
        parts.join("; ")
    }

    /// The deadline of a turn opened at `opened_at`.
    ///
    /// Clock rule: `opened_at + length`, moved forward to the first allowed weekday at the time
    /// of day in the game's zone (RULING D1); a local time that does not exist is the first
    /// instant after the gap (RULING D2), an ambiguous one is the earlier instant (RULING D3).
    /// Cron rule: the first occurrence at or after `opened_at + length` (RULING D4).
    /// The result is never earlier than `opened_at + length`.
    pub fn deadline_after(&self, opened_at: DateTime<Utc>) -> DateTime<Utc> {
        let target = opened_at + self.length;
        if let Timing::Clock { at: None, days } = &self.timing {
            // RULING D1: without a time of day, a deadline on an allowed day stays as it is.
            if days.allows(local_of(self.zone.tz(), target).weekday()) {
                return target;
            }
        }
        self.next_slot(target, self.wall_for(target), true)
    }

    /// The local wall time of deadlines: the time of day, or else that of `deadline` itself.
    pub(crate) fn wall_for(&self, deadline: DateTime<Utc>) -> NaiveTime {
        match self.time_of_day() {
            Some(t) => t.time(),
            None => local_of(self.zone.tz(), deadline).time(),
        }
    }

    /// The first slot after `after` (or at it, when `inclusive`): an allowed day at the local
    /// wall time `wall` (clock rule; ignored by a cron rule), or the next cron occurrence.
    pub(crate) fn next_slot(&self, after: DateTime<Utc>, wall: NaiveTime, inclusive: bool) -> DateTime<Utc> {
        let tz = self.zone.tz();
        match &self.timing {
            Timing::Clock { days, .. } => {
                let first = local_of(tz, after).date();
                for day in first.iter_days().take(16) {
                    if !days.allows(day.weekday()) {
                        continue;
                    }
                    let slot = resolve_local(tz, day.and_time(wall));
                    // RULING D2: a gap can carry the slot into the next day (a skipped date);
                    // that day must be allowed too. RULING D3: one slot per day, the earlier.
                    let lands_allowed = days.allows(local_of(tz, slot).weekday());
                    if lands_allowed && (slot > after || (inclusive && slot == after)) {
                        return slot;
                    }
                }
                // Unreachable: a week always holds an allowed day whose slot is later.
                after
            }
            Timing::Cron(c) => {
                // croner works in whole seconds: round up so no occurrence lands before `after`.
                let start = if after.trunc_subsecs(0) == after {
                    after
                } else {
                    after.trunc_subsecs(0) + Duration::seconds(1)
                };
                let inclusive = inclusive || start > after;
                c.cron()
                    .find_next_occurrence(&start.with_timezone(&tz), inclusive)
                    .map(|t| t.to_utc())
                    // Unreachable: parsing proved the pattern matches at least every few years.
                    .unwrap_or(start)
            }
        }
    }
}

/// The stored (JSON) form: the GM's words in canonical spelling, read back through
/// [`Rhythm::parse`].
#[derive(Debug, Clone, Serialize, Deserialize)]
struct RhythmRecord {
    length: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    days: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tz: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    grace: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cron: Option<String>,
}

impl From<Rhythm> for RhythmRecord {
    fn from(r: Rhythm) -> Self {
        let (at, days, cron) = match &r.timing {
            Timing::Clock { at, days } => (at.map(|t| t.to_string()), Some(days.to_string()), None),
            Timing::Cron(c) => (None, None, Some(c.to_string())),
        };
        RhythmRecord {
            length: format_span(r.length),
            at,
            days,
            tz: Some(r.zone.to_string()),
            grace: r.grace.map(format_span),
            cron,
        }
    }
}

impl TryFrom<RhythmRecord> for Rhythm {
    type Error = RhythmError;
    fn try_from(r: RhythmRecord) -> Result<Self, Self::Error> {
        Rhythm::parse(&RhythmWords {
            length: &r.length,
            at: r.at.as_deref(),
            days: r.days.as_deref(),
            tz: r.tz.as_deref(),
            grace: r.grace.as_deref(),
            cron: r.cron.as_deref(),
        })
    }
}
