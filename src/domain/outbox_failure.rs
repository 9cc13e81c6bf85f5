//! Why an outbound mail's delivery attempt failed.

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
