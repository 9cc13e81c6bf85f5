//! Inbound mail, the pure part: raw bytes → a [`ParsedMail`] (addresses, ids, the trusted
//! Authentication-Results, the body as text — HTML by its block structure — with quotes,
//! forwards and signatures set aside wherever they stand, RULINGS M20–M22) → [`MailCommands`]
//! (order lines with their line numbers, FINAL, STATUS, RESEND, HELP, an ORDERS token line);
//! and the message as it is stored ([`for_storage`]): without the seat links a reply quotes, its
//! reply addresses' tags and `ORDERS` tokens sealed, in its bytes as written and in its base64
//! parts at any depth (`rewrite`).
//! Storing, routing and answering live in `crate::service::inbound`; this module is a pure
//! functional core below the service (it does no I/O), beside `crate::orders`.

mod body;
mod commands;
mod html;
mod parse;
mod quotes;
mod rewrite;
mod sealing;
mod seat_links;
mod signoff;

pub use body::{Body, SetAside, clean_body, read_body};
pub use commands::{GmAnswer, GmChoice, GmCommands, MailCommands, TokenLine};
pub use html::html_to_text;
pub use parse::{AuthResults, BodyKind, FromProblem, ParsedMail};
pub use quotes::Aside;
pub use sealing::{ForStorage, for_storage};
pub use signoff::{SignOff, sign_off};
