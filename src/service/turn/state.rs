//! The turn's state machine, pure: the phases a turn goes through and which steps between them
//! are legal. Every place in the lifecycle that changes a turn's status asks [`TurnPhase::step`]
//! first, so an illegal change (publishing a turn without a draft, closing a closed turn) is a
//! typed error before anything is written.
//!
//! ```text
//!            ┌── hold (strict NMR policy) / ask (a question for the GM) ──► held ◄─┐
//!   open ────┼── adjudicate ──► draft ── publish ──► published                   │
//!     ▲      └── fail ────────► failed                                           │
//!     │                                                                          │
//!     └────────── release (the GM moves the deadline) ── held    reopen (rollback, from any phase)
//! ```
//!
//! A held turn is adjudicated (again) when the GM answers its question or closes it, goes back
//! to open when the GM moves its deadline (release), and a rollback re-opens a turn held for the
//! GM to adjudicate again when ready (RULINGS S4).

use crate::domain::{GameId, TurnStatus};
use crate::registry::GmQuestion;
use crate::service::ServiceError;
use crate::store::turns::TurnRow;
use serde::Serialize;

/// Where a turn stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnPhase {
    /// Orders are being taken until the deadline.
    Open,
    /// Closed but waiting for the GM: a seat without orders under a strict NMR policy, or a
    /// question the adjudication stopped at. Stored as an open turn with a hold or a question.
    Held(Hold),
    /// Adjudicated; the draft waits for review.
    Draft,
    /// The adjudication failed; nothing was published.
    Failed,
    /// The result is public; the turn is history.
    Published,
}

/// Why a turn is held for the GM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// The NMR policy waits for the GM when a seat sent no orders, or a rollback re-opened the
    /// turn for the GM to adjudicate again.
    ForGm,
    /// The adjudication stopped at a decision the NMR policy leaves to the GM.
    Question,
}

/// What the lifecycle does to a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Adjudicate into a draft (at the deadline, early, by the GM, or after the GM's answer).
    Adjudicate,
    /// Record that the adjudication failed.
    Fail,
    /// Hold the turn for the GM.
    Hold(Hold),
    /// Publish the draft.
    Publish,
    /// Release a held turn back to taking orders (the GM moved its deadline).
    Release,
    /// Re-open the turn as it stood before its adjudication, held for the GM (rollback).
    Reopen,
}

/// A step the turn's phase does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a turn that is {from} cannot be {step}")]
pub struct IllegalStep {
    pub from: TurnPhase,
    pub step: Step,
}

impl std::fmt::Display for TurnPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TurnPhase::Open => "open",
            TurnPhase::Held(Hold::ForGm) => "held for the GM",
            TurnPhase::Held(Hold::Question) => "waiting for the GM's answer",
            TurnPhase::Draft => "a draft",
            TurnPhase::Failed => "failed",
            TurnPhase::Published => "published",
        })
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Step::Adjudicate => "adjudicated",
            Step::Fail => "marked failed",
            Step::Hold(_) => "held for the GM",
            Step::Publish => "published",
            Step::Release => "released",
            Step::Reopen => "re-opened",
        })
    }
}

impl TurnPhase {
    /// The phase a stored turn is in: its status, and for an open turn whether it is held.
    pub fn of(turn: &TurnRow) -> TurnPhase {
        match turn.status {
            // A question left behind when the GM released the hold no longer holds the turn.
            TurnStatus::Open if turn.held_at.is_some() && turn.question.is_some() => {
                TurnPhase::Held(Hold::Question)
            }
            TurnStatus::Open if turn.held_at.is_some() => TurnPhase::Held(Hold::ForGm),
            TurnStatus::Open => TurnPhase::Open,
            TurnStatus::Draft => TurnPhase::Draft,
            TurnStatus::Failed => TurnPhase::Failed,
            TurnStatus::Published => TurnPhase::Published,
        }
    }

    /// The phase after `step`, or why the step is not allowed from here.
    pub fn step(self, step: Step) -> Result<TurnPhase, IllegalStep> {
        use TurnPhase::{Draft, Failed, Held, Open, Published};
        let next = match (self, step) {
            (Open | Held(_), Step::Adjudicate) => Draft,
            (Open | Held(_), Step::Fail) => Failed,
            // A held turn asks its next question after the GM answered the last one.
            (Open | Held(_), Step::Hold(why)) => Held(why),
            (Held(_), Step::Release) => Open,
            (Draft, Step::Publish) => Published,
            // RULINGS S4: a rollback re-opens the turn rolled back to, whatever became of it (an
            // open turn: its orders are discarded), held for the GM.
            (_, Step::Reopen) => Held(Hold::ForGm),
            (from, step) => return Err(IllegalStep { from, step }),
        };
        Ok(next)
    }

    /// Whether the turn still takes orders and may be closed (open or held for the GM).
    pub fn is_open(self) -> bool {
        matches!(self, TurnPhase::Open | TurnPhase::Held(_))
    }
}

/// The phase `turn` reaches by `step`: the one gate every status change of the lifecycle passes.
/// An illegal step is a conflict that names the turn.
pub(crate) fn next_phase(turn: &TurnRow, step: Step) -> Result<TurnPhase, ServiceError> {
    step_from(turn.number, TurnPhase::of(turn), step)
}

/// The phase turn `number` reaches from `from` by `step`, or a conflict that names the turn.
pub(crate) fn step_from(number: i32, from: TurnPhase, step: Step) -> Result<TurnPhase, ServiceError> {
    from.step(step).map_err(|e| ServiceError::Conflict(format!("turn {number}: {e}")))
}

/// What closing a turn led to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CloseOutcome {
    /// A draft waits for the GM.
    Drafted { game: GameId, turn: i32 },
    /// The draft was published at once (review `auto`).
    Published { game: GameId, turn: i32 },
    /// The adjudication failed; the turn waits for the GM, nothing was published.
    Failed { game: GameId, turn: i32, reason: String },
    /// The NMR policy holds the turn for the GM: some seat sent no orders.
    Held { game: GameId, turn: i32, missing: Vec<u8> },
    /// The adjudication stopped at a decision for the GM (answer it to go on).
    Asked { game: GameId, turn: i32, question: GmQuestion },
}

#[cfg(test)]
mod tests {
    use super::*;
    use TurnPhase::{Draft, Failed, Held, Open, Published};

    const ALL_PHASES: [TurnPhase; 6] =
        [Open, Held(Hold::ForGm), Held(Hold::Question), Draft, Failed, Published];
    const ALL_STEPS: [Step; 7] = [
        Step::Adjudicate,
        Step::Fail,
        Step::Hold(Hold::ForGm),
        Step::Hold(Hold::Question),
        Step::Publish,
        Step::Release,
        Step::Reopen,
    ];

    /// Every legal step, with where it leads; everything else must be refused.
    const LEGAL: [(TurnPhase, Step, TurnPhase); 21] = [
        (Open, Step::Adjudicate, Draft),
        (Open, Step::Fail, Failed),
        (Open, Step::Hold(Hold::ForGm), Held(Hold::ForGm)),
        (Open, Step::Hold(Hold::Question), Held(Hold::Question)),
        (Held(Hold::ForGm), Step::Adjudicate, Draft),
        (Held(Hold::Question), Step::Adjudicate, Draft),
        (Held(Hold::ForGm), Step::Fail, Failed),
        (Held(Hold::Question), Step::Fail, Failed),
        (Held(Hold::ForGm), Step::Hold(Hold::ForGm), Held(Hold::ForGm)),
        (Held(Hold::ForGm), Step::Hold(Hold::Question), Held(Hold::Question)),
        (Held(Hold::Question), Step::Hold(Hold::Question), Held(Hold::Question)),
        (Held(Hold::Question), Step::Hold(Hold::ForGm), Held(Hold::ForGm)),
        (Held(Hold::ForGm), Step::Release, Open),
        (Held(Hold::Question), Step::Release, Open),
        (Draft, Step::Publish, Published),
        (Draft, Step::Reopen, Held(Hold::ForGm)),
        (Failed, Step::Reopen, Held(Hold::ForGm)),
        (Published, Step::Reopen, Held(Hold::ForGm)),
        (Held(Hold::ForGm), Step::Reopen, Held(Hold::ForGm)),
        (Held(Hold::Question), Step::Reopen, Held(Hold::ForGm)),
        (Open, Step::Reopen, Held(Hold::ForGm)),
    ];

    fn legal(from: TurnPhase, step: Step) -> Option<TurnPhase> {
        LEGAL.iter().find(|(f, s, _)| *f == from && *s == step).map(|(_, _, to)| *to)
    }

    #[test]
    fn every_legal_step_is_accepted_and_leads_where_the_diagram_says() {
        for (from, step, to) in LEGAL {
            assert_eq!(from.step(step), Ok(to), "{from:?} --{step:?}-->");
        }
    }

    #[test]
    fn every_other_step_is_refused_with_the_phase_and_the_step_named() {
        for from in ALL_PHASES {
            for step in ALL_STEPS {
                if legal(from, step).is_none() {
                    let err = from.step(step).unwrap_err();
                    assert_eq!(err, IllegalStep { from, step });
                    assert!(err.to_string().contains(&from.to_string()), "{err}");
                }
            }
        }
    }

    #[test]
    fn a_draft_cannot_be_adjudicated_again_nor_fail_nor_be_held() {
        for step in [Step::Adjudicate, Step::Fail, Step::Hold(Hold::Question), Step::Release] {
            assert!(Draft.step(step).is_err(), "{step:?}");
        }
    }

    #[test]
    fn only_a_draft_can_be_published() {
        for from in ALL_PHASES {
            assert_eq!(from.step(Step::Publish).is_ok(), from == Draft, "{from:?}");
        }
    }

    #[test]
    fn only_a_held_turn_is_released() {
        for from in ALL_PHASES {
            assert_eq!(from.step(Step::Release).is_ok(), matches!(from, Held(_)), "{from:?}");
        }
    }

    #[test]
    fn a_failed_turn_only_goes_back_to_the_gm_by_a_rollback() {
        for step in ALL_STEPS {
            assert_eq!(Failed.step(step).is_ok(), step == Step::Reopen, "{step:?}");
        }
    }

    #[test]
    fn a_published_turn_only_leaves_its_phase_by_a_rollback() {
        for step in ALL_STEPS {
            assert_eq!(Published.step(step).is_ok(), step == Step::Reopen, "{step:?}");
        }
    }
}
