//! The 1800 war procedure (issue 18), pure and deterministic: how wars start, the war phase's
//! actions by communications technology, moves, conscription, military cards, battles with
//! supporting regiments and ties, losses, and how a war ends (rules "Wars"; FACTS §5.2 and the
//! reconstructed procedure of §10; rulings E40–E69 in docs/RULINGS.md, "1800 — war").
//!
//! The war reads and changes the game only through [`board::WarBoard`], which the engine's state
//! implements, and keeps its own [`WarState`] (stored in the engine's state). A round goes:
//! [`declare_war`] / [`great_war`] during the turns, [`begin_war`] after them, then
//! [`apply_war_action`] for each action of the participant [`WarState::to_act`] names (choices:
//! [`legal_war_actions`]; from mail: [`orders::answer_war`]; silent: [`default_war_action`]);
//! the last action resolves the battles and ends the war.
//!
//! Files: `board` (the trait, ids, military cards as data), `state` (war state, actions, events,
//! errors), `legal` (what may be done), `apply` (doing it), `battle` (scores and losses),
//! `orders` (standing war orders by mail).

mod apply;
pub mod battle;
pub mod board;
mod legal;
pub mod orders;
pub mod state;

#[cfg(test)]
mod orders_tests;
#[cfg(test)]
mod proptests;
#[cfg(test)]
pub mod testboard;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod text_tests;

pub use apply::{apply_war_action, begin_war, conquest_targets, declare_war, end_war, great_war};
pub use board::{
    BonusScope, MilitaryCard, MilitaryCardId, MilitaryEffect, Owner, PowerId, ProvinceId, Regiment, WarBoard,
    control,
};
pub use legal::{Entry, check, default_war_action, entry, legal_war_actions, regiments_in_supply};
pub use orders::{WarOrderError, WarStandingOrder, answer_war, parse_war_line, parse_war_orders};
pub use state::{
    Battle, Bonus, CardUse, Declaration, WarAction, WarCause, WarDeed, WarError, WarEvent, WarPhase,
    WarRecord, WarState,
};
