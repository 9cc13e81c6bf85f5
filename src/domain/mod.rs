//! Game-agnostic vocabulary, parsed at the edge: ids, mail addresses, secret tokens, a game's NMR
//! policy, the secrets sealed in stored inbound mail, and the closed word sets stored in text columns (turn and game status, review, timer
//! kind, inbound status, order source, outbox failure, sign-in realm), which decode as enums; chat webhook URLs
//! with their address screen.

mod email;
mod game_status;
mod ids;
mod inbound_status;
pub mod nmr_policy;
mod order_source;
mod outbox_failure;
mod places;
mod reply_address;
mod sealed;
mod signin_realm;
mod text_enum;
mod timer_kind;
mod token;
mod turn_length;
mod turn_status;
pub mod webhook_url;

pub use email::{EmailAddress, EmailError, Mailbox};
pub use game_status::{GameStatus, Review, ReviewError};
pub use ids::{GameId, GameIdError};
pub use inbound_status::{InboundStatus, Notice};
pub use nmr_policy::{Fallback, NmrPolicy, UnknownPolicy};
pub use order_source::OrderSource;
pub use outbox_failure::{FailureKind, GIVE_UP_AFTER};
pub use places::{PlaceKind, PlaceStatus, WaitingStatus};
pub use reply_address::{ReplyAddress, constant_time_eq};
pub use sealed::{SealedSecret, SealedSecrets};
pub use signin_realm::Realm;
pub use timer_kind::TimerKind;
pub use token::{SEAT_LINK, SecretToken};
pub use turn_length::{TurnLength, TurnLengthError};
pub use turn_status::TurnStatus;
pub use webhook_url::{WebhookUrl, WebhookUrlError};
