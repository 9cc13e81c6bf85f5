//! The turn lifecycle, in one home: a turn opens, takes orders, closes into a draft (or fails, or
//! is held for the GM), and the draft is published — which opens the next turn.
//!
//! The face (what the web, the console and the scheduler call) is re-exported here and from
//! `service`. Inside, each file has one job and the imports run one way, top to bottom:
//!
//! - `timers`, `questions`, `rollback`, `correction`: the GM's and the scheduler's entry points
//!   besides closing and publishing (reminders, auto-release, the outage guard; answering a GM
//!   question; rolling back; correcting the state).
//! - `gm_mail`: the GM's answers by mail, carried out through `questions`; `gm_address`: the
//!   signed reply address they are sent to (`hold` puts it on every question mail).
//! - `close`: adjudicating a due turn into a draft, a failure, or a hold (`hold`); review `auto`
//!   publishes at once.
//! - `publish`: one transaction that logs the actions, counts the NMRs, opens the next turn
//!   (`open`) and queues the reports (`reports`).
//! - `nmr`: what counts as an NMR, counting and flagging (HR 12–13, HR 16, RULINGS S2): the one place.
//! - `intentions`: the stated intentions each seat has in force (HR 12), folded from its sheets.
//! - `preview`: the draft's preview mail to the GM.
//! - `draft`: the current turn locked, its draft decoded; `state`: the pure state machine every
//!   status change passes.
//!
//! Deadline wording, calendars and table news live apart in `service::deadlines`, so this
//! module and the rest of the service share them without importing turn opening.

mod close;
mod correction;
mod draft;
pub mod gm_address;
pub mod gm_mail;
mod hold;
mod intentions;
mod nmr;
mod open;
mod preview;
mod publish;
pub mod questions;
mod reports;
pub mod rollback;
mod state;
mod timers;

pub use close::{close_due_turns, close_turn};
pub use correction::correct_state;
pub use publish::publish_turn;
pub use state::{CloseOutcome, Hold, IllegalStep, Step, TurnPhase};
pub use timers::{guard_outage, run_due_timers};

pub(crate) use draft::{draft_of, lock_current};
pub(crate) use intentions::{fold as fold_intentions, of_seat as intentions_of_seat};
pub(crate) use nmr::{SheetsAtClose, settle as settle_standing, sheets_at_close};
pub(crate) use open::open_turn;
pub(crate) use reports::{ReportContext, archived, seat_report};
pub(crate) use state::step_from;
