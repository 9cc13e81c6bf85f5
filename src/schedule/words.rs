//! The GM's words for time, parsed at the edge into typed values: [`TimeZoneName`] (an IANA
//! zone), [`Weekdays`] ("mon-fri", "mon,wed,fri", "weekdays", "all"), [`TimeOfDay`] ("20:00"),
//! [`CronPattern`] (five cron fields) and spans of time ("48h", "2h", "1d12h").
//!
//! Each type prints back in the form it reads, so a stored rhythm round-trips through text.

use crate::domain::TurnLength;
use chrono::{Datelike, Duration, NaiveTime, Timelike, Weekday};
use chrono_tz::{TZ_VARIANTS, Tz};
use croner::Cron;
use std::fmt;
use std::str::FromStr;

/// An IANA time zone the server knows, e.g. `Europe/Berlin`. Defaults to UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeZoneName(Tz);

/// A zone name that is not in the time-zone database.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown time zone \"{given}\"{}", .suggestion.map(|s| format!(" (did you mean {s}?)")).unwrap_or_default())]
pub struct TimeZoneError {
    /// What was given (at most 60 characters of it).
    pub given: String,
    /// The closest known name, when one is close.
    pub suggestion: Option<&'static str>,
}

impl TimeZoneName {
    /// The zone itself, for arithmetic.
    pub fn tz(self) -> Tz {
        self.0
    }
    /// The IANA name, e.g. `Europe/Berlin`.
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

impl From<Tz> for TimeZoneName {
    fn from(tz: Tz) -> Self {
        TimeZoneName(tz)
    }
}

impl FromStr for TimeZoneName {
    type Err = TimeZoneError;
    /// Reads an IANA name; letter case does not matter ("europe/berlin" is Europe/Berlin).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if let Some(tz) = TZ_VARIANTS.iter().find(|tz| tz.name().eq_ignore_ascii_case(t)) {
            return Ok(TimeZoneName(*tz));
        }
        let given: String = t.chars().take(60).collect();
        let lower = given.to_ascii_lowercase();
        let suggestion = TZ_VARIANTS
            .iter()
            .map(|tz| (edit_distance(&lower, &tz.name().to_ascii_lowercase()), tz.name()))
            .filter(|(d, _)| *d <= 3)
            .min_by_key(|(d, _)| *d)
            .map(|(_, name)| name);
        Err(TimeZoneError { given, suggestion })
    }
}

impl fmt::Display for TimeZoneName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Levenshtein distance, for "did you mean" hints.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The weekdays on which a deadline may fall; never empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weekdays(u8);

/// Text that does not name a set of weekdays.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeekdaysError {
    /// A word that is not a weekday.
    #[error(
        "unknown weekday \"{0}\" (expected e.g. mon-fri, mon,wed,fri, weekdays, weekends or all; -sat removes a day)"
    )]
    Unknown(String),
    /// Every day was removed, or none was named.
    #[error("no weekday left: a deadline needs at least one day of the week")]
    NoneLeft,
}

const DAYS: [Weekday; 7] =
    [Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu, Weekday::Fri, Weekday::Sat, Weekday::Sun];

impl Weekdays {
    /// Every day of the week.
    pub const ALL: Weekdays = Weekdays(0x7f);

    /// Whether a deadline may fall on `day`.
    pub fn allows(self, day: Weekday) -> bool {
        self.0 & (1 << day.num_days_from_monday()) != 0
    }

    /// Whether every day is allowed.
    pub fn is_all(self) -> bool {
        self == Self::ALL
    }

    /// The set from a bit mask (bit 0 = Monday); `None` when empty.
    pub fn from_bits(bits: u8) -> Option<Weekdays> {
        let bits = bits & 0x7f;
        (bits != 0).then_some(Weekdays(bits))
    }

    /// Runs of consecutive days as (first, last) indexes from Monday.
    fn runs(self) -> Vec<(usize, usize)> {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for i in (0..7).filter(|i| self.0 & (1 << i) != 0) {
            match runs.last_mut() {
                Some(run) if run.1 + 1 == i => run.1 = i,
                _ => runs.push((i, i)),
            }
        }
        runs
    }

    /// Short text for people, e.g. "Mon–Fri" or "Mon, Wed, Fri" or "every day".
    pub fn describe(self) -> String {
        if self.is_all() {
            return "every day".into();
        }
        let name = |i: usize| format!("{:?}", DAYS[i]);
        let parts: Vec<String> = self
            .runs()
            .into_iter()
            .flat_map(|(a, b)| match b - a {
                0 => vec![name(a)],
                1 => vec![name(a), name(b)],
                _ => vec![format!("{}–{}", name(a), name(b))],
            })
            .collect();
        parts.join(", ")
    }
}

impl Default for Weekdays {
    fn default() -> Self {
        Self::ALL
    }
}

/// A day by name or by any prefix of two letters or more ("fr", "fri", "friday").
fn day_index(word: &str) -> Option<usize> {
    const NAMES: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
    let w = word.to_ascii_lowercase();
    NAMES.iter().position(|n| w.len() >= 2 && n.starts_with(&w))
}

fn day_set(item: &str) -> Result<u8, WeekdaysError> {
    let unknown = || WeekdaysError::Unknown(item.chars().take(30).collect());
    match item.to_ascii_lowercase().as_str() {
        "all" | "daily" | "any" => return Ok(0x7f),
        "weekdays" | "workdays" => return Ok(0x1f),
        "weekends" | "weekend" => return Ok(0x60),
        _ => {}
    }
    let (a, b) = match item.split_once('-') {
        Some((a, b)) => (day_index(a).ok_or_else(unknown)?, day_index(b).ok_or_else(unknown)?),
        None => {
            let d = day_index(item).ok_or_else(unknown)?;
            (d, d)
        }
    };
    // A range may wrap around the week: "fri-mon" is Fri, Sat, Sun, Mon.
    let mut bits = 0u8;
    let mut i = a;
    loop {
        bits |= 1 << i;
        if i == b {
            return Ok(bits);
        }
        i = (i + 1) % 7;
    }
}

impl FromStr for Weekdays {
    type Err = WeekdaysError;
    /// Reads items separated by commas or spaces; an item is a day ("fri", "friday"), a range
    /// ("mon-fri", "fri-mon" wraps), or a word ("all", "weekdays", "weekends"). An item with a
    /// leading `-` or `!` removes days; a list that starts with a removal starts from every day.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let items: Vec<&str> = s.split([',', ' ']).map(str::trim).filter(|i| !i.is_empty()).collect();
        let starts_with_removal = items.first().is_some_and(|i| i.starts_with(['-', '!']));
        let mut bits = if starts_with_removal { 0x7f } else { 0 };
        for item in items {
            match item.strip_prefix(['-', '!']) {
                Some(rest) => bits &= !day_set(rest)?,
                None => bits |= day_set(item)?,
            }
        }
        Weekdays::from_bits(bits).ok_or(WeekdaysError::NoneLeft)
    }
}

impl fmt::Display for Weekdays {
    /// The canonical text: "all", or runs such as "mon-fri" and "mon,wed,fri".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_all() {
            return f.write_str("all");
        }
        let short = |i: usize| format!("{:?}", DAYS[i]).to_ascii_lowercase();
        let parts: Vec<String> = self
            .runs()
            .into_iter()
            .map(|(a, b)| if a == b { short(a) } else { format!("{}-{}", short(a), short(b)) })
            .collect();
        f.write_str(&parts.join(","))
    }
}

/// A local time of day, whole minutes, e.g. 20:00.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TimeOfDay(NaiveTime);

/// Text that is not a time of day.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a time of day (expected HH:MM on a 24-hour clock, e.g. 20:00)")]
pub struct TimeOfDayError(pub String);

impl TimeOfDay {
    /// The time as chrono sees it.
    pub fn time(self) -> NaiveTime {
        self.0
    }
    /// A time from hours and minutes; `None` when out of range.
    pub fn hm(hour: u32, minute: u32) -> Option<TimeOfDay> {
        NaiveTime::from_hms_opt(hour, minute, 0).map(TimeOfDay)
    }
}

impl FromStr for TimeOfDay {
    type Err = TimeOfDayError;
    /// Reads "20:00", "8:30" or "20.00".
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || TimeOfDayError(s.chars().take(30).collect());
        let (h, m) = s.trim().split_once([':', '.']).ok_or_else(bad)?;
        let digits =
            |p: &str, max_len| !p.is_empty() && p.len() <= max_len && p.bytes().all(|b| b.is_ascii_digit());
        if !digits(h, 2) || !digits(m, 2) || m.len() != 2 {
            return Err(bad());
        }
        let (h, m) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
        TimeOfDay::hm(h, m).ok_or_else(bad)
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.0.hour(), self.0.minute())
    }
}

/// A five-field cron pattern (minute hour day-of-month month day-of-week), evaluated in the
/// game's zone, e.g. `0 20 * * FRI`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CronPattern {
    text: String,
    cron: Cron,
}

/// Text that is not a usable cron pattern.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CronPatternError {
    /// Not five fields.
    #[error(
        "\"{0}\" is not a cron pattern: give five fields (minute hour day month weekday), e.g. \"0 20 * * FRI\""
    )]
    Fields(String),
    /// The cron library refused it.
    #[error("\"{0}\" is not a cron pattern: {1}")]
    Invalid(String, String),
    /// A field allows no value at all (e.g. ",").
    #[error("the cron pattern \"{0}\" allows no {1}")]
    EmptyField(String, &'static str),
    /// It parses but never matches a real date.
    #[error("the cron pattern \"{0}\" never matches a date")]
    NeverMatches(String),
}

impl CronPattern {
    /// The parsed pattern, for finding occurrences.
    pub fn cron(&self) -> &Cron {
        &self.cron
    }
    /// The library's plain-English reading, e.g. "At 20:00, on Friday" (no final full stop).
    pub fn describe(&self) -> String {
        self.cron.describe().trim_end_matches('.').to_string()
    }
}

impl FromStr for CronPattern {
    type Err = CronPatternError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let text = fields.join(" ");
        let shown: String = text.chars().take(60).collect();
        if fields.len() != 5 || text.contains('@') {
            return Err(CronPatternError::Fields(shown));
        }
        let cron =
            Cron::from_str(&text).map_err(|e| CronPatternError::Invalid(shown.clone(), e.to_string()))?;
        // A field that allows no value at all (such as ",") makes the library walk second by
        // second through a year before it gives up (half a second, ten under a fuzzer): refuse
        // it before any search (fuzz finding json_inputs_slow_rhythm).
        let p = &cron.pattern;
        let fields = [
            (&p.minutes, "minute"),
            (&p.hours, "hour"),
            (&p.days, "day of the month"),
            (&p.months, "month"),
            (&p.days_of_week, "weekday"),
        ];
        if let Some((_, name)) = fields.iter().find(|(c, _)| c.values().is_empty() && !c.has_modifiers()) {
            return Err(CronPatternError::EmptyField(shown, name));
        }
        // A pattern such as "0 0 30 2 *" parses but never fires; refuse it here so that
        // finding the next deadline cannot fail later.
        let probe = chrono::DateTime::UNIX_EPOCH.with_timezone(&Tz::UTC);
        match cron.find_next_occurrence(&probe, false) {
            Ok(t) if t.year() < 1980 => Ok(CronPattern { text, cron }),
            _ => Err(CronPatternError::NeverMatches(shown)),
        }
    }
}

impl fmt::Display for CronPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Text that is not a span of time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a span of time (expected e.g. 48h, 2d, 90m or 1d12h, up to 365 days)")]
pub struct SpanError(pub String);

/// Reads a span of time such as "48h", "2d", "90m" or "1d12h" (1 minute to 365 days).
pub fn parse_span(s: &str) -> Result<Duration, SpanError> {
    let len: TurnLength = s.parse().map_err(|_| SpanError(s.chars().take(30).collect()))?;
    Ok(Duration::seconds(len.seconds()))
}

/// Prints a span in the form [`parse_span`] reads, e.g. "1d12h" (whole minutes).
pub fn format_span(d: Duration) -> String {
    TurnLength::from_seconds(d.num_seconds()).to_string()
}
