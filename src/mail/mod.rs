//! Outgoing mail: the outbox pattern.
//!
//! Nothing in the server sends mail directly. Whatever causes a mail (a published turn, a
//! welcome, a GM login link) calls [`crate::store::outbox::enqueue`] **in the same transaction**
//! as the change itself, so a mail exists exactly when its cause was committed. Each row carries
//! an idempotency key (enqueueing the same logical mail twice is a no-op) and our own
//! Message-ID, fixed at enqueue time.
//!
//! Delivery happens afterwards, in [`deliver::deliver_due`], driven by [`worker::run_worker`]:
//!
//! 1. **Claim** a small batch in one short statement
//!    ([`crate::store::outbox::claim_due`]): due, unsent rows whose lease is free and whose
//!    delivery was not given up get a short lease and one more attempt counted. `FOR UPDATE SKIP
//!    LOCKED` plus the lease mean several server processes never claim the same row; the worker
//!    renews its lease while it sends, so a worker that dies leaves rows that come back within
//!    the lease (30 s; ruling O4).
//! 2. **Send** each row over SMTP with no database transaction open.
//! 3. **Mark** it sent at once, in its own statement on a connection taken before the send
//!    (ruling O5), or failed with the error and a capped backoff ([`deliver::retry_at`]; ruling
//!    O1): retried for 5 days, given up at once for a refusal of this mail (55x; ruling O2) or a
//!    mail that cannot be built. Given-up mail stays, listed for the GM, until the GM re-sends it
//!    ([`crate::service::undelivered`]); the GM also gets one summary mail once the server works
//!    again (ruling O3).
//!
//! A sent mail's body is emptied after the retention period ([`retention`], RULING O9). A stored
//! mail never holds a seat's link or a signed reply address, only placeholders the worker fills
//! from the server key as it builds the message (`crate::service::mail_secrets`, RULING P8).
//!
//! Delivery is at-least-once: a crash between a successful send and the mark sends the mail
//! again, but with the same Message-ID, so receiving systems and mail clients drop the copy.
//!
//! Without an SMTP server configured ([`Transport::Keep`]) mail is never sent; it stays
//! in the outbox and is read on the dev mailbox page.

pub mod deliver;
pub mod handoff;
pub mod imap;
pub mod message;
pub mod retention;
pub mod transport;
pub mod worker;

pub use deliver::{DeliveryStats, build_message, deliver_due};
pub use transport::Transport;
pub use worker::run_worker;
