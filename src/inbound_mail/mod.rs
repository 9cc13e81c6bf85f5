//! Inbound mail, the pure part: raw bytes → a [`ParsedMail`] (addresses, ids, the trusted
//! Authentication-Results, the body as text — HTML by its block structure — with quotes,
//! forwards and signatures set aside wherever they stand, RULINGS M20–M22) → [`MailCommands`]
//! (order lines with their line numbers, FINAL, STATUS, RESEND, HELP, an ORDERS token line);
//! and the bytes to store, without the seat links a reply quotes ([`without_seat_links`]).
//! Storing, routing and answering live in `crate::service::inbound`; this module is a pure
//! functional core below the service (it does no I/O), beside `crate::orders`.

mod body;
mod commands;
mod html;
mod parse;
mod quotes;
mod seat_links;
mod signoff;

pub use body::{Body, SetAside, clean_body, read_body};
pub use commands::{GmAnswer, GmChoice, GmCommands, MailCommands, TokenLine};
pub use html::html_to_text;
pub use parse::{AuthResults, BodyKind, FromProblem, ParsedMail};
pub use quotes::Aside;
pub use seat_links::without_seat_links;
pub use signoff::{SignOff, sign_off};
