//! Tests of the deadline core: examples for every rule (DST changes in Europe/Berlin and
//! America/New_York included) and property tests for its invariants.

mod changes;
mod ical;
mod proptests;
mod rhythm;

use super::*;
use chrono::{DateTime, Utc};

/// An instant from RFC 3339 text, for readable tests.
pub(super) fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().to_utc()
}

/// A rhythm from the GM's words.
pub(super) fn rhythm(length: &str, at: Option<&str>, days: Option<&str>, tz: Option<&str>) -> Rhythm {
    Rhythm::parse(&RhythmWords { length, at, days, tz, ..Default::default() }).unwrap()
}
