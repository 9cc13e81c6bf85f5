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
//!    ([`crate::store::outbox::claim_due`]): due, unsent rows whose lease is free get a lease
//!    and one more attempt counted. `FOR UPDATE SKIP LOCKED` plus the lease mean several server
//!    processes never claim the same row; a worker that dies leaves a lease that expires, and the
//!    row is retried.
//! 2. **Send** each row over SMTP with no database transaction open.
//! 3. **Mark** it sent, or failed with the error and an exponential backoff
//!    ([`deliver::retry_at`]); after [`deliver::MAX_ATTEMPTS`] attempts, or for a mail that
//!    cannot even be built (a bad address), delivery is given up and `last_error` stays.
//!
//! Delivery is at-least-once: a crash between a successful send and the mark sends the mail
//! again, but with the same Message-ID, so receiving systems and mail clients drop the copy.
//!
//! Without an SMTP server configured ([`Transport::Keep`]) mail is never sent; it stays
//! in the outbox and is read on the dev mailbox page.

pub mod deliver;
pub mod handoff;
pub mod imap;
pub mod inbound;
pub mod transport;
pub mod worker;

pub use deliver::{DeliveryStats, build_message, deliver_due};
pub use transport::Transport;
pub use worker::run_worker;
