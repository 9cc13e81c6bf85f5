//! Where a turn is in its life: open → draft | failed → published.

use super::text_enum::text_enum;

text_enum! {
    /// A turn's status (`turns.status`).
    pub enum TurnStatus {
        /// Taking orders.
        Open => "open",
        /// Adjudicated, waiting for the GM's review (or publication).
        Draft => "draft",
        /// Published: its actions are in the log and its reports are sent.
        Published => "published",
        /// Its adjudication failed; parked for the GM.
        Failed => "failed",
    }
}
