//! What an adjudicated turn produced and what the GM is asked, in JSON form: the engine-agnostic
//! records the turn loop hands to the service and the store keeps (a turn's draft, its question).
//! They live in the contract, not in the registry, so storage can decode them without sitting
//! above the games.

use super::{Event, LineNote, LoggedAction, Seat, Standing};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What one adjudicated turn produced, in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnOutcome {
    pub state: Value,
    pub actions: Vec<LoggedAction>,
    pub events: Vec<Event>,
    pub notes: BTreeMap<Seat, Vec<LineNote>>,
    /// Per seat, for each of its notes (same order), how many of `events` came before it: the
    /// note stands after the events of the action it led to (issue 15's "every action with the
    /// order line that caused it"). Empty in outcomes stored before there were anchors.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub anchors: BTreeMap<Seat, Vec<usize>>,
    pub nmr: BTreeSet<Seat>,
    pub defaulted: BTreeSet<Seat>,
    pub game_over: bool,
    pub standings: Option<Vec<Standing>>,
}

/// A decision left to the GM (see `crate::adjudication::Question`), in JSON form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GmQuestion {
    pub number: usize,
    /// The seat the decision is about (a checkpoint: the first seat whose orders no longer fit).
    pub seat: Seat,
    pub prompt: String,
    /// Why the GM is asked. Questions stored before there were kinds are NMR-policy moves.
    #[serde(default)]
    pub kind: QuestionKind,
    /// The legal moves, the rules' default first; a referral's candidates best first; a
    /// checkpoint's two answers ([`Checkpoint::candidates`]).
    pub candidates: Vec<Candidate>,
}

impl GmQuestion {
    /// Why the GM is asked, in a sentence for the mail, the dashboard and the console.
    pub fn why(&self) -> String {
        let seat = self.seat.0;
        match self.kind {
            QuestionKind::Move => {
                format!("Seat {seat} sent no usable orders, and this game's NMR policy leaves its moves to you.")
            }
            QuestionKind::Referral => format!(
                "Seat {seat}'s orders could not be carried out here, and the rules refer the decision to you \
                 (the seat is not counted NMR for it)."
            ),
            QuestionKind::Checkpoint => {
                "A round of this multi-round turn is over and some orders no longer fit the position (HR 14): \
                 the turn goes on only if you say so."
                    .into()
            }
        }
    }
    /// What the first candidate is, when it is more than the first of the list.
    pub fn first_note(&self) -> Option<&'static str> {
        match self.kind {
            QuestionKind::Move => Some("the rules' default"),
            QuestionKind::Referral => Some("ranked best"),
            QuestionKind::Checkpoint => None,
        }
    }
}

/// Why a decision is the GM's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// A seat without orders whose moves the NMR policy leaves to the GM.
    #[default]
    Move,
    /// The rules refer a decision the seat's orders could not make to the GM (`Orders::refer`,
    /// 1835 HR 17 rung B).
    Referral,
    /// At a round's end inside a multi-round turn some seat's orders no longer fit (HR 14): does
    /// the turn go on?
    Checkpoint,
}

/// The GM's answer at an HR 14 checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checkpoint {
    /// Play the next round from the orders as they stand.
    Continue,
    /// The turn ends with the round just finished.
    Stop,
}

/// The JSON key of a checkpoint answer among a turn's stored GM answers (the other answers are
/// the engine's actions; no engine's action is an object with this key; RULINGS S20).
const CHECKPOINT_KEY: &str = "gm_checkpoint";

impl Checkpoint {
    /// The answer as stored among a turn's GM answers: `{"gm_checkpoint": "continue"}`.
    pub fn to_answer(self) -> Value {
        let word = match self {
            Checkpoint::Continue => "continue",
            Checkpoint::Stop => "stop",
        };
        serde_json::json!({ CHECKPOINT_KEY: word })
    }
    /// A stored GM answer read as a checkpoint answer, or `None` when it is a move.
    pub fn from_answer(v: &Value) -> Option<Checkpoint> {
        let obj = v.as_object().filter(|o| o.len() == 1)?;
        match obj.get(CHECKPOINT_KEY)?.as_str()? {
            "continue" => Some(Checkpoint::Continue),
            "stop" => Some(Checkpoint::Stop),
            _ => None,
        }
    }
    /// The two answers a checkpoint question offers, "continue" first.
    pub fn candidates() -> Vec<Candidate> {
        [
            (Checkpoint::Continue, "continue: play the next round from the orders as they stand"),
            (Checkpoint::Stop, "stop after this round: the turn ends here and new orders are asked for"),
        ]
        .into_iter()
        .map(|(c, label)| Candidate { action: c.to_answer(), label: label.into() })
        .collect()
    }
}

/// One move the GM may choose.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub action: Value,
    /// The move in words.
    pub label: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_stored_before_there_were_kinds_is_an_nmr_move() {
        let old = serde_json::json!({"number": 0, "seat": 2, "prompt": "bid", "candidates": []});
        let q: GmQuestion = serde_json::from_value(old).expect("decodes");
        assert_eq!(q.kind, QuestionKind::Move);
    }

    #[test]
    fn checkpoint_answers_round_trip_and_moves_are_not_checkpoints() {
        for c in [Checkpoint::Continue, Checkpoint::Stop] {
            assert_eq!(Checkpoint::from_answer(&c.to_answer()), Some(c));
        }
        assert_eq!(Checkpoint::from_answer(&serde_json::json!({"Buy": {"company": "BY"}})), None);
        assert_eq!(Checkpoint::from_answer(&serde_json::json!({"gm_checkpoint": "maybe"})), None);
        assert_eq!(Checkpoint::from_answer(&serde_json::json!(true)), None);
    }
}
