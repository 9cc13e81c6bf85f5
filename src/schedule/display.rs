//! A deadline as a person reads it: in their own zone, with UTC alongside so players in
//! different zones can compare (RULING D11).

use super::words::TimeZoneName;
use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// A deadline for people, in `tz` with UTC in brackets, e.g.
/// "Fri 27 Nov 2026, 20:00 CET (19:00 UTC)". The bracket names the UTC day too when it differs
/// ("Sat 28 Nov 2026, 06:00 AEDT (Fri 27 Nov, 19:00 UTC)"); in UTC itself there is no bracket.
pub fn format_deadline(instant: DateTime<Utc>, tz: TimeZoneName) -> String {
    if tz.tz() == Tz::UTC {
        return instant.format("%a %-d %b %Y, %H:%M UTC").to_string();
    }
    let local = instant.with_timezone(&tz.tz());
    let shown = local.format("%a %-d %b %Y, %H:%M %Z");
    if local.date_naive() == instant.date_naive() {
        format!("{shown} ({} UTC)", instant.format("%H:%M"))
    } else {
        format!("{shown} ({} UTC)", instant.format("%a %-d %b, %H:%M"))
    }
}
