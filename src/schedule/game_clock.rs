//! A game's clock and policies as the GM sets them at creation: rhythm, cooling-off, reminders,
//! NMR policy, auto-release, absences, the GM's referrals. Pure data: the store writes it, the service reads it.

use super::Rhythm;
use crate::domain::NmrPolicy;
use chrono::Duration;

/// A game's clock and policies, as the GM sets them at creation.
#[derive(Debug, Clone)]
pub struct GameClock {
    /// Time of day, weekdays, zone, grace, cron; `None`: every turn length, UTC.
    pub rhythm: Option<Rhythm>,
    /// Delay between the last seat marking its orders final and the early close.
    pub cooling_off: Duration,
    /// Reminders, as times before the deadline.
    pub reminders: Vec<Duration>,
    pub nmr_policy: NmrPolicy,
    /// Publish a draft the GM leaves alone this long (review `gm` only).
    pub auto_release: Option<Duration>,
    /// Longest absence a player may take, in days.
    pub max_absence_days: i32,
    /// A player's own absence waits for the GM's approval before it moves a deadline (RULING S9).
    pub absence_approval: bool,
    /// A decision the rules refer to the GM stops the turn for the GM's choice; otherwise the
    /// best-ranked candidate is played (RULINGS S18).
    pub gm_referrals: bool,
}

impl Default for GameClock {
    fn default() -> Self {
        GameClock {
            rhythm: None,
            cooling_off: Duration::minutes(30),
            reminders: vec![Duration::hours(48), Duration::hours(12), Duration::hours(2)],
            nmr_policy: NmrPolicy::default(),
            auto_release: None,
            max_absence_days: 14,
            absence_approval: true,
            gm_referrals: true,
        }
    }
}
