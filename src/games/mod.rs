//! One pure rules engine per game, each implementing the contract `crate::engine::Game`
//! (registered in `crate::registry`). Component data lives in `rules/<game>/`.
//!
//! Every engine directory has the same file roles, so a newcomer knows where to look in any of
//! them:
//!
//! | file | role |
//! |---|---|
//! | `mod.rs` | the engine type and its `Game` impl, thin: each method delegates to a role below |
//! | `state.rs` | the state and the actions (serde types stored as JSON) |
//! | `legal.rs` | what may be done now: the next decision, the legal actions, the default |
//! | `apply.rs` | doing it: carrying out a legal action atomically, and the events players read |
//! | `orders.rs` or `orders/` | order text ↔ actions: the order language, answering decisions from a sheet (`OrderSheet::try_lines`), advice |
//! | `view.rs` | what each viewer sees (JSON view, text), without hidden information |
//! | `data.rs` or `data/` | loading and checking the game's files in `rules/<game>/` |
//! | `proptests.rs`, `tests*.rs` | tests; `proptests.rs` runs `crate::engine::conformance` |
//!
//! A game may have files of its own beside these (Railroaded's `cards`, 1833's `routes` and
//! `layout`, 1835's `stock` and `ledger`), but the roles above mean the same everywhere.

pub mod confed;
pub mod r1800;
pub mod r1833;
pub mod r1835;
pub mod railroaded;
