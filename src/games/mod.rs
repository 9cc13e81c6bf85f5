//! One pure rules engine per game, each implementing the contract `crate::engine::Game`
//! (registered in `crate::registry`). Component data lives in `rules/<game>/`.
//!
//! Every engine directory has the same file roles, so a newcomer knows where to look in any of
//! them; each role file implements its part of the contract, a role trait of
//! `crate::engine::contract`, so the code that answers that part is the implementation itself:
//!
//! | file | role | implements |
//! |---|---|---|
//! | `mod.rs` | the engine type; the game's facts (slug, title, rules version, seats, order example and guide) and the shape of its PBEM turns | `Game` |
//! | `state.rs` | the state and the actions (serde types stored as JSON) | — |
//! | `legal.rs` | what may be done now: the next decision, the legal actions, the default | `Rules` |
//! | `setup.rs` | dealing a new game | `Setup` |
//! | `apply.rs` | doing it: carrying out a legal action atomically, and the events players read | `Apply` |
//! | `orders.rs` or `orders/` | order text ↔ actions: the order language, answering decisions from a sheet (`OrderSheet::try_lines`), advice, the lines published | `Orders` |
//! | `view.rs` | what each viewer sees (JSON view, text), without hidden information | `View` (and `Scoring` where the view holds the standings) |
//! | `score.rs` | the final standings, where a game scores apart (1800, 1833) | `Scoring` |
//! | `draw.rs` or `draw/` | the picture of the table | `Draw` |
//! | `data.rs` or `data/` | loading and checking the game's files in `rules/<game>/` | — |
//! | `proptests.rs`, `tests*.rs` | tests; `proptests.rs` runs `crate::engine::conformance` | — |
//!
//! A game may have files of its own beside these (Railroaded's `cards`, 1833's `routes` and
//! `layout`, 1835's `stock` and `ledger`), but the roles above mean the same everywhere.

pub mod confed;
pub mod r1800;
pub mod r1833;
pub mod r1835;
pub mod railroaded;
