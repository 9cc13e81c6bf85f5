//! Integration tests of the whole server against a real Postgres (one fresh database per test,
//! cloned from a migrated template by `db::test_db`): web pages, JSON API, turn loop, GM dashboard, console, reports.

mod absences;
mod bad_input;
mod browser;
mod console;
#[path = "../support/db.rs"]
mod db;
mod dev_mailbox;
mod dice;
mod docs;
mod e2e_1835_mail;
mod export_import;
mod feeds_webhooks;
mod game_1833;
mod gm;
mod gm_questions;
mod handoff;
mod helpers;
mod imap;
mod import_checks;
mod import_lifecycle;
mod inbound;
mod inbound_floods;
mod inbound_links;
mod inbound_pipe;
mod intentions;
mod lifecycle_clock;
mod lifecycle_seats;
mod metrics;
mod nmr_policy;
mod openapi;
mod order_limits;
mod orders_api;
mod pictures;
mod postfix;
mod public_dir;
mod published_orders;
mod readiness;
mod reports_mail;
mod seat_page;
mod secrets_at_rest;
mod secrets_upgrade;
mod server_key;
mod server_limits;
mod shutdown;
mod signin_limits;
mod signin_links;
mod signin_lockout;
#[path = "../support/smtp.rs"]
mod smtp;
mod snapshots;
mod turn_loop;
mod two_instances;
mod typed_rows;
mod undelivered;
mod web_headers;
