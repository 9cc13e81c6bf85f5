//! The words of games that wait for their seats (issue 37): a waiting game's status, and each
//! place's kind and status (`waiting_games.status`, `seat_places.kind`, `seat_places.status`).

use super::text_enum::text_enum;

text_enum! {
    /// Whether a game created from the web still waits for its seats.
    pub enum WaitingStatus {
        /// Seats are being filled.
        Waiting => "waiting",
        /// Its seats were filled (or the GM started it early): the game is played.
        Started => "started",
        /// The GM cancelled it.
        Cancelled => "cancelled",
    }
}

text_enum! {
    /// How a player came to a place.
    pub enum PlaceKind {
        /// The GM invited the address.
        Invited => "invited",
        /// The player asked to join an open seat.
        Joined => "joined",
        /// A running game's seat offered as a replacement, to whoever has its link (RULING W61).
        Replacement => "replacement",
    }
}

text_enum! {
    /// Where a place stands.
    pub enum PlaceStatus {
        /// An invitation not yet answered: it holds its seat until it is declined or expires.
        Pending => "pending",
        /// A request to join whose address is not yet confirmed.
        Unconfirmed => "unconfirmed",
        /// A confirmed request waiting for the GM's approval.
        Unapproved => "unapproved",
        /// The player holds a seat.
        Accepted => "accepted",
        /// The player waits for a seat to free.
        Waitlisted => "waitlisted",
        /// The player declined the invitation.
        Declined => "declined",
        /// The invitation or the request was not answered in time.
        Expired => "expired",
        /// The GM refused the request.
        Refused => "refused",
        /// The game started or was cancelled before the place was used.
        Withdrawn => "withdrawn",
    }
}

impl PlaceStatus {
    /// Whether the place holds one of the game's seats (an invitation out holds it too).
    pub fn holds_seat(self) -> bool {
        matches!(self, PlaceStatus::Pending | PlaceStatus::Accepted)
    }
}
