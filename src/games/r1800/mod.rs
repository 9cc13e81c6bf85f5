//! 1800 (David Jacobson's unpublished design): the engine. This branch carries only the war
//! procedure (`war`); the rest of the engine is built beside it.

pub mod war;
