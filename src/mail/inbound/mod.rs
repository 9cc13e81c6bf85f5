//! Inbound mail, the pure part: raw bytes → a [`ParsedMail`] (addresses, ids, the trusted
//! Authentication-Results, the body as text with quotes and signatures cut) → [`MailCommands`]
//! (order lines with their line numbers, FINAL, STATUS, RESEND, HELP, an ORDERS token line).
//! Storing, routing and answering live in `crate::service::inbound`.

mod body;
mod commands;
mod parse;

pub use body::clean_body;
pub use commands::{MailCommands, TokenLine};
pub use parse::{AuthResults, BodyKind, ParsedMail};
