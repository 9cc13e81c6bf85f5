//! The one source of "now" for the imperative shell. Engines never read a clock; services take
//! `now` as an argument; web handlers, the console and the scheduler ask a [`Clock`], which tests
//! can fix and advance.

use chrono::{DateTime, Duration, Utc};
use std::sync::{Arc, Mutex};

/// The system clock, or a fixed clock that tests move by hand.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    fixed: Option<Arc<Mutex<DateTime<Utc>>>>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Clock { fixed: None }
    }
    /// A clock that stands at `at` until advanced.
    pub fn fixed(at: DateTime<Utc>) -> Self {
        Clock { fixed: Some(Arc::new(Mutex::new(at))) }
    }
    /// The current time.
    pub fn now(&self) -> DateTime<Utc> {
        match &self.fixed {
            Some(t) => *t.lock().unwrap_or_else(|p| p.into_inner()),
            None => Utc::now(),
        }
    }
    /// Moves a fixed clock forward (no effect on the system clock).
    pub fn advance(&self, by: Duration) {
        if let Some(t) = &self.fixed {
            let mut g = t.lock().unwrap_or_else(|p| p.into_inner());
            *g += by;
        }
    }
}
