//! 1835 (Meier-Bachl / Tresham, Hans im Glück): the engine. Part 1 — components as data, the
//! start packet, stock rounds and the replayable action log; operating rounds come next and
//! are hooks here (see `hooks.rs`).

pub mod data;
pub mod options;
