//! Stationmaster: a game-master server for railroad board games played by email and on the web.
//!
//! Data flows one way: order text arrives (web, API, console, mail) → [`orders`] parses and seals
//! it → [`service`] closes a turn and runs [`adjudication`] over the game's [`engine`] → the GM
//! reviews a draft → publishing stores the new state and queues report mail in the outbox →
//! [`mail`] delivers it, and [`webhook`] tells chat channels. [`store`] is the only module that
//! speaks SQL; [`games`] holds the pure rules engines. See `docs/ARCHITECTURE.md`.

pub mod adjudication;
pub mod cli;
pub mod clock;
pub mod config;
pub mod domain;
pub mod draw;
pub mod engine;
pub mod games;
pub mod inbound_mail;
pub mod logs;
pub mod mail;
pub mod metrics;
pub mod orders;
pub mod registry;
pub mod schedule;
pub mod scheduler;
pub mod service;
pub mod store;
pub mod tls;
pub mod web;
pub mod webhook;
