//! What became of an inbound mail, and of the notice about a refusal.

use super::text_enum::text_enum;

text_enum! {
    /// An inbound mail's status (`inbound_messages.status`).
    pub enum InboundStatus {
        /// Stored, not processed yet.
        New => "new",
        /// Authenticated and carried out.
        Accepted => "accepted",
        /// Refused (the outcome says why).
        Rejected => "rejected",
        /// The same message came before.
        Duplicate => "duplicate",
        /// Not for us, or not readable: dropped without an answer.
        Ignored => "ignored",
    }
}

text_enum! {
    /// Whether a refusal's notice was sent or withheld by the flood limits
    /// (`inbound_messages.notice`).
    pub enum Notice {
        /// The sender was told.
        Sent => "sent",
        /// The sender was already told within the hour.
        Withheld => "withheld",
    }
}
