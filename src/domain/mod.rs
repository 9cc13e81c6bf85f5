//! Game-agnostic vocabulary, parsed at the edge: ids, mail addresses, secret tokens, a game's NMR
//! policy.

mod email;
mod ids;
pub mod nmr_policy;
mod reply_address;
mod token;
mod turn_length;

pub use email::{EmailAddress, EmailError, Mailbox};
pub use ids::{GameId, GameIdError};
pub use nmr_policy::{Fallback, NmrPolicy, UnknownPolicy};
pub use reply_address::{ReplyAddress, constant_time_eq};
pub use token::SecretToken;
pub use turn_length::{TurnLength, TurnLengthError};
