//! The GM's part in a turn: what the loop asks ([`Question`]: an NMR seat's move, a referral, an
//! HR 14 checkpoint), what the GM has answered so far ([`GmInput`]), and how an answer is
//! matched to the question it answers.

use super::AdjudicationError;
use crate::engine::outcome::{Checkpoint, QuestionKind};
use crate::engine::{Game, Referral, Seat};
use std::collections::BTreeSet;

/// One GM answer, in the order the questions were asked.
#[derive(Debug, Clone, PartialEq)]
pub enum GmAnswer<A> {
    /// The move chosen for a seat (an NMR-policy question or a referral).
    Move(A),
    /// "continue" or "stop after this round" at an HR 14 checkpoint.
    Checkpoint(Checkpoint),
}

/// The GM's part in a turn: the seats whose decisions go to the GM when their orders give no
/// answer (an NMR policy), whether referrals and checkpoints are asked, and the GM's answers so
/// far, one per question in the order asked.
#[derive(Debug, Clone)]
pub struct GmInput<A> {
    pub ask_for: BTreeSet<Seat>,
    /// Whether a decision the rules refer to the GM ([`Orders::refer`]) stops the turn for the
    /// GM's choice; otherwise the best-ranked candidate is played and noted (RULINGS S18).
    pub referrals: bool,
    /// Whether a round's end at which some seat's orders no longer fit stops the turn for the
    /// GM (HR 14); otherwise the turn goes on (RULINGS S19).
    pub checkpoints: bool,
    pub answers: Vec<GmAnswer<A>>,
}

impl<A> Default for GmInput<A> {
    /// No GM in the loop: nobody asked about, referrals played by their first candidate,
    /// checkpoints passed.
    fn default() -> Self {
        GmInput { ask_for: BTreeSet::new(), referrals: false, checkpoints: false, answers: Vec::new() }
    }
}

/// A decision the adjudication leaves to the GM.
#[derive(Debug, Clone, PartialEq)]
pub struct Question<A> {
    /// 0 for the turn's first question, 1 for the next, …
    pub number: usize,
    /// The seat the decision is about (a checkpoint: the first seat whose orders no longer fit).
    pub seat: Seat,
    pub prompt: String,
    pub kind: QuestionKind,
    /// A move question: the legal moves, the rules' default first, then the rest in the engine's
    /// order. A referral: the engine's candidates, best first. A checkpoint: none (the answers
    /// are "continue" and "stop after this round").
    pub candidates: Vec<A>,
}

/// Numbers the questions of one run and hands out the answers already given.
pub(super) struct Asker<'a, A> {
    gm: &'a GmInput<A>,
    asked: usize,
}

impl<'a, A: Clone> Asker<'a, A> {
    pub(super) fn new(gm: &'a GmInput<A>) -> Self {
        Asker { gm, asked: 0 }
    }

    /// The GM's move for the next question, or the question itself when it is not answered yet.
    /// `candidates` are listed only for a question still to ask: a turn played again with its
    /// answers (each answer, an import's check) does not compute every legal move again.
    pub(super) fn move_for(
        &mut self,
        seat: Seat,
        prompt: String,
        kind: QuestionKind,
        candidates: impl FnOnce() -> Vec<A>,
    ) -> Result<Result<(usize, A), Question<A>>, AdjudicationError> {
        let number = self.next();
        match self.gm.answers.get(number) {
            None => Ok(Err(Question { number, seat, prompt, kind, candidates: candidates() })),
            Some(GmAnswer::Move(a)) => Ok(Ok((number, a.clone()))),
            Some(GmAnswer::Checkpoint(_)) => Err(AdjudicationError::GmAnswerRefused {
                number,
                reason: "\"continue\"/\"stop\" answers a checkpoint, but a move was asked".into(),
            }),
        }
    }

    /// The GM's word at the next question, a checkpoint, or the question itself.
    pub(super) fn checkpoint(
        &mut self,
        seat: Seat,
        prompt: String,
    ) -> Result<Result<Checkpoint, Question<A>>, AdjudicationError> {
        let number = self.next();
        match self.gm.answers.get(number) {
            None => {
                let kind = QuestionKind::Checkpoint;
                Ok(Err(Question { number, seat, prompt, kind, candidates: Vec::new() }))
            }
            Some(GmAnswer::Checkpoint(c)) => Ok(Ok(*c)),
            Some(GmAnswer::Move(_)) => Err(AdjudicationError::GmAnswerRefused {
                number,
                reason: "a move answers a seat's decision, but \"continue\" or \"stop\" was asked".into(),
            }),
        }
    }

    fn next(&mut self) -> usize {
        self.asked += 1;
        self.asked - 1
    }
}

/// The question for the GM at a seat's decision under the NMR policy: the legal moves, the
/// rules' default first.
pub(super) fn legal_moves<G: Game>(game: &G, state: &G::State) -> Vec<G::Action> {
    let default = game.default_action(state);
    let mut candidates: Vec<G::Action> = default.iter().cloned().collect();
    candidates.extend(game.legal_actions(state).into_iter().filter(|a| Some(a) != default.as_ref()));
    candidates
}

/// A referral the loop can act on: one with at least one candidate.
pub(super) fn usable<A>(referral: Option<Referral<A>>) -> Option<Referral<A>> {
    referral.filter(|r| !r.candidates.is_empty())
}
