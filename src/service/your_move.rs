//! "Your move now" (issue 36): the one sentence at the top of a seat page that says what this
//! seat has to decide this turn and by when — built from the turn's acting seats and the engine's
//! next decision, and never naming another seat's decision.

use crate::domain::TurnStatus;
use crate::engine::{Decision, Seat};

/// Where the seat stands in the game's current turn.
pub struct Standing<'a> {
    pub seat: Seat,
    pub turn: i32,
    pub status: TurnStatus,
    /// The seat is among the turn's acting seats.
    pub acting: bool,
    pub finished: bool,
    /// The engine's next decision in the turn's start state.
    pub next: Option<&'a Decision>,
    /// The deadline, in the player's words ("Tue 1 Dec 2026, 11:08 UTC").
    pub deadline: &'a str,
}

/// The sentence for `s`.
pub fn sentence(s: &Standing<'_>) -> String {
    if s.finished {
        return "The game is over: nothing is left to decide.".into();
    }
    match (s.status, s.acting) {
        (TurnStatus::Open, true) => match s.next {
            Some(d) if d.seat == s.seat => {
                format!("Your move: {} — send your orders by {}.", d.prompt, s.deadline)
            }
            // The turn opens with another seat's decision: this seat's lines answer its own
            // decisions when they come (its sheet covers the whole turn).
            _ => format!(
                "Your move: your orders for turn {} answer each of your decisions as the turn comes to them — send them by {}.",
                s.turn, s.deadline
            ),
        },
        (TurnStatus::Open, false) => {
            format!("Nothing for you to decide in turn {}; it closes by {}.", s.turn, s.deadline)
        }
        _ => format!(
            "Turn {} is being adjudicated: nothing for you to decide until the next turn opens.",
            s.turn
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing<'a>(status: TurnStatus, acting: bool, next: Option<&'a Decision>) -> Standing<'a> {
        Standing {
            seat: Seat(2),
            turn: 3,
            status,
            acting,
            finished: false,
            next,
            deadline: "Tue 1 Dec, 12:00 UTC",
        }
    }

    #[test]
    fn an_acting_seat_whose_decision_is_next_reads_it_and_the_deadline() {
        let d = Decision { seat: Seat(2), prompt: "claim a suit".into() };
        assert_eq!(
            sentence(&standing(TurnStatus::Open, true, Some(&d))),
            "Your move: claim a suit — send your orders by Tue 1 Dec, 12:00 UTC."
        );
    }

    #[test]
    fn another_seats_decision_is_never_named() {
        let d = Decision { seat: Seat(1), prompt: "choose the dropoff of load 51".into() };
        let s = sentence(&standing(TurnStatus::Open, true, Some(&d)));
        assert!(!s.contains("load 51") && s.contains("turn 3") && s.contains("Tue 1 Dec"), "{s}");
    }

    #[test]
    fn a_seat_not_acting_and_a_closed_turn_and_the_end_say_so() {
        assert!(
            sentence(&standing(TurnStatus::Open, false, None))
                .starts_with("Nothing for you to decide in turn 3")
        );
        assert!(sentence(&standing(TurnStatus::Draft, true, None)).contains("being adjudicated"));
        let over = Standing { finished: true, ..standing(TurnStatus::Published, false, None) };
        assert!(sentence(&over).starts_with("The game is over"));
    }
}
