//! Pure decisions about an announced deadline: the GM's changes ([`apply_change`], never
//! earlier unless forced), when a turn closes ([`close_at`]: deadline, early close after a
//! cooling-off, grace), when reminders go out ([`reminder_times`]) and how far an outage of the
//! scheduler extends a deadline ([`outage_extension`]).

use super::utc_text;
use super::words::{SpanError, format_span, parse_span};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A GM's change to an announced deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineChange {
    /// Later by this much.
    Extend(Duration),
    /// To this instant, which must not be earlier than the announced deadline.
    SetTo(DateTime<Utc>),
    /// To this earlier instant; refused unless `forced`.
    Shorten {
        /// The new deadline.
        to: DateTime<Utc>,
        /// The GM confirmed moving an announced deadline earlier.
        forced: bool,
    },
}

/// Why a deadline change is refused; the message is for the GM.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChangeRefused {
    /// An extension of zero or less.
    #[error("an extension must be positive (got {0})")]
    NotAnExtension(String),
    /// A set-to earlier than announced.
    #[error(
        "{} is earlier than the announced deadline {}; a deadline is never moved earlier unless you shorten it with force",
        utc_text(.requested), utc_text(.announced)
    )]
    EarlierThanAnnounced {
        /// The deadline players were told.
        announced: DateTime<Utc>,
        /// What the GM asked for.
        requested: DateTime<Utc>,
    },
    /// A shortening that is not earlier.
    #[error(
        "{} is not earlier than the announced deadline {}; use extend or set instead",
        utc_text(.requested), utc_text(.announced)
    )]
    NotEarlier {
        /// The deadline players were told.
        announced: DateTime<Utc>,
        /// What the GM asked for.
        requested: DateTime<Utc>,
    },
    /// A shortening without force.
    #[error(
        "moving the announced deadline {} earlier to {} needs force: players planned around it",
        utc_text(.announced), utc_text(.requested)
    )]
    NeedsForce {
        /// The deadline players were told.
        announced: DateTime<Utc>,
        /// What the GM asked for.
        requested: DateTime<Utc>,
    },
    /// A new deadline already past.
    #[error("the new deadline {} is already past (it is now {})", utc_text(.requested), utc_text(.now))]
    InThePast {
        /// What the change would give.
        requested: DateTime<Utc>,
        /// The time of the request.
        now: DateTime<Utc>,
    },
}

/// Applies a GM's change to the `announced` deadline at time `now` (RULING D6): the result is
/// never earlier than announced unless the change is a forced shortening, and never before `now`.
pub fn apply_change(
    announced: DateTime<Utc>,
    change: DeadlineChange,
    now: DateTime<Utc>,
) -> Result<DateTime<Utc>, ChangeRefused> {
    let requested = match change {
        DeadlineChange::Extend(by) => {
            if by <= Duration::zero() {
                return Err(ChangeRefused::NotAnExtension(format!("{} minutes", by.num_minutes())));
            }
            announced + by
        }
        DeadlineChange::SetTo(to) => {
            // RULING D6: only a forced shortening moves an announced deadline earlier.
            if to < announced {
                return Err(ChangeRefused::EarlierThanAnnounced { announced, requested: to });
            }
            to
        }
        DeadlineChange::Shorten { to, forced } => {
            if to >= announced {
                return Err(ChangeRefused::NotEarlier { announced, requested: to });
            }
            if to < now {
                return Err(ChangeRefused::InThePast { requested: to, now });
            }
            if !forced {
                return Err(ChangeRefused::NeedsForce { announced, requested: to });
            }
            to
        }
    };
    if requested < now {
        return Err(ChangeRefused::InThePast { requested, now });
    }
    Ok(requested)
}

/// Why a turn closes when it does, for the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseReason {
    /// The deadline was reached.
    Deadline,
    /// Every acting seat marked its orders final, and the cooling-off passed.
    EarlyClose,
    /// The deadline was reached with a seat lacking orders; the grace period ran out.
    Grace,
}

/// When a turn closes, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CloseDecision {
    /// The instant the turn closes.
    pub at: DateTime<Utc>,
    /// Why then.
    pub why: CloseReason,
}

/// When a turn closes (RULINGS D7, D8): at `all_acting_final_at + cooling_off` when that is
/// before the deadline; otherwise at the deadline, unless some acting seat has no orders at all
/// (`all_have_orders` false) and the game has a grace period, which postpones the close to
/// `deadline + grace`. Call it again whenever orders change: the answer may be in the past,
/// which means "close now".
pub fn close_at(
    deadline: DateTime<Utc>,
    grace: Option<Duration>,
    all_acting_final_at: Option<DateTime<Utc>>,
    cooling_off: Duration,
    all_have_orders: bool,
) -> CloseDecision {
    if let Some(final_at) = all_acting_final_at {
        // RULING D7: the cooling-off never keeps a turn open past its deadline.
        let early = final_at + cooling_off.max(Duration::zero());
        if early < deadline {
            return CloseDecision { at: early, why: CloseReason::EarlyClose };
        }
    }
    // RULING D8: grace waits only for seats with no orders at all.
    match grace {
        Some(g) if !all_have_orders && g > Duration::zero() => {
            CloseDecision { at: deadline + g, why: CloseReason::Grace }
        }
        _ => CloseDecision { at: deadline, why: CloseReason::Deadline },
    }
}

/// A game's reminder schedule: how long before the deadline to remind, e.g. "48h,12h,2h".
/// Stored as its text, e.g. `"2d,12h,2h"`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ReminderOffsets(Vec<Duration>);

impl TryFrom<String> for ReminderOffsets {
    type Error = SpanError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<ReminderOffsets> for String {
    fn from(r: ReminderOffsets) -> Self {
        r.to_string()
    }
}

impl ReminderOffsets {
    /// The offsets, longest first, without repeats.
    pub fn as_slice(&self) -> &[Duration] {
        &self.0
    }
}

impl FromStr for ReminderOffsets {
    type Err = SpanError;
    /// Reads spans separated by commas or spaces ("48h,12h,2h"); "none" or nothing is no reminders.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("none") {
            return Ok(ReminderOffsets::default());
        }
        let mut offsets = s
            .split([',', ' '])
            .filter(|w| !w.trim().is_empty())
            .map(parse_span)
            .collect::<Result<Vec<_>, _>>()?;
        offsets.sort_by(|a, b| b.cmp(a));
        offsets.dedup();
        Ok(ReminderOffsets(offsets))
    }
}

impl fmt::Display for ReminderOffsets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("none");
        }
        let parts: Vec<String> = self.0.iter().map(|d| format_span(*d)).collect();
        f.write_str(&parts.join(","))
    }
}

/// The instants at which to remind seats without final orders (RULING D9): `deadline − offset`
/// for each positive offset, keeping only those after `opened_at`, earliest first, no repeats.
pub fn reminder_times(
    deadline: DateTime<Utc>,
    offsets: &[Duration],
    opened_at: DateTime<Utc>,
) -> Vec<DateTime<Utc>> {
    let mut times: Vec<DateTime<Utc>> = offsets
        .iter()
        .filter(|o| **o > Duration::zero())
        .map(|o| deadline - *o)
        .filter(|t| *t > opened_at)
        .collect();
    times.sort();
    times.dedup();
    times
}

/// How far to extend a deadline after the scheduler was not running (RULING D10): when the gap
/// `now − last_heartbeat` is longer than `threshold` and the deadline fell inside it
/// (`last_heartbeat < deadline ≤ now`), the deadline moves later by the whole gap, which puts it
/// after `now` by as long as it was ahead of the last heartbeat.
pub fn outage_extension(
    deadline: DateTime<Utc>,
    last_heartbeat: DateTime<Utc>,
    now: DateTime<Utc>,
    threshold: Duration,
) -> Option<Duration> {
    let gap = now - last_heartbeat;
    (gap > threshold && last_heartbeat < deadline && deadline <= now).then_some(gap)
}
