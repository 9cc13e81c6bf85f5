//! Game-agnostic vocabulary, parsed at the edge: ids, mail addresses, secret tokens.

mod email;
mod ids;
mod reply_address;
mod token;
mod turn_length;

pub use email::{EmailAddress, EmailError, Mailbox};
pub use ids::{GameId, GameIdError};
pub use reply_address::{ReplyAddress, constant_time_eq};
pub use token::SecretToken;
pub use turn_length::{TurnLength, TurnLengthError};
