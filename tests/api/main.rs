//! Integration tests of the whole server against a real Postgres (one fresh database per test,
//! made by `#[sqlx::test]`): web pages, JSON API, turn loop, GM dashboard, console, reports.

mod absences;
mod bad_input;
mod console;
mod dev_mailbox;
mod docs;
mod feeds_webhooks;
mod game_1833;
mod gm;
mod handoff;
mod helpers;
mod imap;
mod inbound;
mod inbound_floods;
mod inbound_pipe;
mod lifecycle_clock;
mod lifecycle_seats;
mod log_secrets;
mod nmr_policy;
mod order_limits;
mod orders_api;
mod pictures;
mod postfix;
mod public_dir;
mod published_orders;
mod readiness;
mod reports_mail;
mod server_key;
mod server_limits;
mod shutdown;
mod signin_limits;
mod snapshots;
mod turn_loop;
mod typed_rows;
mod undelivered;
mod web_headers;
