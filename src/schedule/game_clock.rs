//! A game's clock and policies as the GM sets them at creation: rhythm, cooling-off, reminders,
//! NMR policy, auto-release, absences, the GM's referrals. Pure data: the store writes it, the service reads it.

use super::Rhythm;
use super::{RhythmWords, parse_span};
use crate::domain::NmrPolicy;
use chrono::Duration;
use serde::{Deserialize, Serialize};

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

/// A game's clock and policies in the GM's words, as `game create` and the web's "New game" form
/// take them (issue 37): parsed by [`ClockWords::parse`], the one reading both share. A game that
/// waits for its seats keeps these words and reads them again when it starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockWords {
    /// Turn length, e.g. 48h.
    pub deadline: String,
    pub at: Option<String>,
    pub days: Option<String>,
    pub tz: Option<String>,
    pub grace: Option<String>,
    pub cron: Option<String>,
    /// e.g. "48h,12h,2h", or "none".
    pub reminders: String,
    pub cooling_off: String,
    /// An NMR preset name (HR 12–13).
    pub nmr_policy: String,
    pub auto_release: Option<String>,
    pub max_absence_days: i32,
    /// A player's own absence waits for the GM's approval ("gm") or not ("auto").
    pub absence_approval: String,
    /// A referred decision asks the GM ("ask") or plays the best-ranked choice ("first").
    pub referrals: String,
}

impl Default for ClockWords {
    fn default() -> Self {
        ClockWords {
            deadline: "48h".into(),
            at: None,
            days: None,
            tz: None,
            grace: None,
            cron: None,
            reminders: "48h,12h,2h".into(),
            cooling_off: "30m".into(),
            nmr_policy: "hr1835".into(),
            auto_release: None,
            max_absence_days: 14,
            absence_approval: "gm".into(),
            referrals: "ask".into(),
        }
    }
}

/// A word of [`ClockWords`] that does not parse: which one, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ClockWordError {
    /// The field (the `game create` flag without its dashes).
    pub field: &'static str,
    pub message: String,
}

fn word_error(field: &'static str) -> impl Fn(String) -> ClockWordError {
    move |message| ClockWordError { field, message }
}

fn span(field: &'static str, s: &str) -> Result<Duration, ClockWordError> {
    parse_span(s.trim()).map_err(|e| word_error(field)(e.to_string()))
}

/// A word given: not absent and not blank.
fn given(w: &Option<String>) -> Option<&str> {
    w.as_deref().map(str::trim).filter(|w| !w.is_empty())
}

impl ClockWords {
    /// The clock and policies these words give.
    pub fn parse(&self) -> Result<GameClock, ClockWordError> {
        let (at, days, tz, grace, cron) =
            (given(&self.at), given(&self.days), given(&self.tz), given(&self.grace), given(&self.cron));
        let rhythm = if at.is_some() || days.is_some() || tz.is_some() || grace.is_some() || cron.is_some() {
            let words = RhythmWords { length: self.deadline.trim(), at, days, tz, grace, cron };
            Some(Rhythm::parse(&words).map_err(|e| word_error("rhythm")(e.to_string()))?)
        } else {
            None
        };
        let reminders =
            if self.reminders.trim().eq_ignore_ascii_case("none") || self.reminders.trim().is_empty() {
                Vec::new()
            } else {
                self.reminders.split(',').map(|r| span("reminders", r)).collect::<Result<Vec<_>, _>>()?
            };
        let pick = |field: &'static str, word: &str, yes: &str, no: &str| match word.trim() {
            w if w == yes => Ok(true),
            w if w == no => Ok(false),
            w => Err(word_error(field)(format!("\"{w}\" is {yes} or {no}"))),
        };
        Ok(GameClock {
            rhythm,
            cooling_off: span("cooling-off", &self.cooling_off)?,
            reminders,
            nmr_policy: NmrPolicy::preset(self.nmr_policy.trim())
                .map_err(|e| word_error("nmr-policy")(e.to_string()))?,
            auto_release: given(&self.auto_release).map(|a| span("auto-release", a)).transpose()?,
            max_absence_days: self.max_absence_days.clamp(0, 366),
            absence_approval: pick("absence-approval", &self.absence_approval, "gm", "auto")?,
            gm_referrals: pick("referrals", &self.referrals, "ask", "first")?,
        })
    }
}
