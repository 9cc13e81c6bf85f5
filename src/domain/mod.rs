//! Game-agnostic vocabulary, parsed at the edge: ids, mail addresses, secret tokens.

mod email;
mod ids;
mod token;

pub use email::{EmailAddress, EmailError, Mailbox};
pub use ids::{GameId, GameIdError};
pub use token::SecretToken;
