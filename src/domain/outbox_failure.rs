//! Outbound delivery vocabulary: why an attempt failed, and how long a mail is retried.

use super::text_enum::text_enum;

text_enum! {
    /// Why an attempt failed, as stored in `outbox.failure` (ruling O1).
    pub enum FailureKind {
        /// No SMTP reply at all (or not tried because the server was found unreachable): retried
        /// until the horizon, and at once when the server accepts mail again.
        Unreachable => "unreachable",
        /// A temporary refusal (4xx), or a refusal that is not about this mail (a syntax or
        /// authentication 5xx): retried with the backoff until the horizon.
        Deferred => "deferred",
        /// The server refused this mail for good (55x): not retried.
        Refused => "refused",
        /// The row cannot become a message: not retried.
        Unsendable => "unsendable",
    }
}

/// How long after its first failure a mail is still retried; then delivery is given up and the
/// GM is told (RULING O1: Postfix's default queue lifetime).
pub const GIVE_UP_AFTER: chrono::TimeDelta = chrono::TimeDelta::days(5);
