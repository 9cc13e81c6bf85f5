//! Adjudication: the generic turn loop that plays one PBEM turn of any game from sealed orders.
//!
//! The loop pulls decisions from the engine, answers each from the acting seat's order sheet,
//! falls back to the game's forced default where the orders give no legal answer (recording the
//! seat as NMR) or to the GM where the rules or the NMR policy say so (`gm`: the questions and
//! answers, HR 14 checkpoints between rounds, HR 17 referrals), and applies each action with the RNG stream of its log sequence number. It is
//! pure: storage, clocks and mail belong to the callers (`crate::service`: closing a turn).

mod gm;
mod run;
#[cfg(test)]
pub(crate) mod tests;

pub use gm::{GmAnswer, GmInput, Question};
pub use run::{Adjudicated, AdjudicationError, TurnResult, run_turn, run_turn_asking};
