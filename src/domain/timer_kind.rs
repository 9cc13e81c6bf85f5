//! What a durable timer does when it is due.

use super::text_enum::text_enum;

text_enum! {
    /// A timer's kind (`timers.kind`).
    pub enum TimerKind {
        /// Reminds the seats without orders of the deadline.
        Reminder => "reminder",
        /// Publishes a draft the GM left alone for too long.
        AutoRelease => "auto_release",
    }
}
