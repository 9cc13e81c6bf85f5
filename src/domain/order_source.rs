//! Where a version of a seat's orders came from.

use super::text_enum::text_enum;

text_enum! {
    /// An order version's source (`order_versions.source`).
    pub enum OrderSource {
        /// The seat's web form.
        Web => "web",
        /// The JSON API (Bearer token).
        Api => "api",
        /// The GM's console, for orders received by other means.
        Console => "console",
        /// An order mail.
        Mail => "mail",
        /// The GM.
        Gm => "gm",
        /// Entered by the GM for a seat through the dashboard's "act as seat".
        GmAsSeat => "gm_as_seat",
        /// Standing orders (a word the schema allows since migration 0003; standing orders are
        /// used at adjudication, not stored as versions, by this version).
        Standing => "standing",
    }
}

impl OrderSource {
    /// Whether the GM (not the player) entered the orders: the console is the GM's tool for
    /// orders received by other means.
    pub fn by_gm(self) -> bool {
        matches!(self, OrderSource::Console | OrderSource::Gm | OrderSource::GmAsSeat)
    }
}
