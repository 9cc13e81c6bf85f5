//! The order builder's shared pieces (issue 36; [`Orders::choices`]): a group of lines for one
//! decision, and one line answered alone — how an engine keeps only the lines its own answering
//! carries out now, and how the conformance harness checks them.

use super::{Answer, Choices, Decision, Numbered, OrderSheet, Orders};

impl Choices {
    /// One group of lines for a decision, none when there are no lines.
    pub fn group(decision: impl Into<String>, lines: Vec<String>) -> Vec<Choices> {
        if lines.is_empty() { Vec::new() } else { vec![Choices { decision: decision.into(), lines }] }
    }
}

/// What `game` answers at `decision` from a sheet of the one line `text` (line 1); `None` when
/// the language does not read the line.
pub fn answer_alone<G: Orders>(
    game: &G,
    state: &G::State,
    decision: &Decision,
    text: &str,
) -> Option<Answer<G::Action>> {
    let order = game.parse_order(text).ok()?;
    let mut sheet = OrderSheet::new(vec![Numbered { line: 1, order }]);
    Some(game.answer(state, decision, &mut sheet))
}

// RULING W56: the decision now lists only lines a sheet of that one line carries out.
/// Whether the answer to a sheet of `text` alone carries the line out: an action, and the line
/// noted as carried out (not the rules' default standing in for a line that failed).
pub fn carries_out_alone<G: Orders>(game: &G, state: &G::State, decision: &Decision, text: &str) -> bool {
    answer_alone(game, state, decision, text).is_some_and(|a| a.action.is_some() && carried(&a))
}

/// Whether the answer to a sheet of `text` alone carries the line out with `action` — for an
/// engine whose answering falls back on the rules' default when no line fits, so that an action
/// alone would not tell the line from the default.
pub fn carries_out_as<G: Orders>(
    game: &G,
    state: &G::State,
    decision: &Decision,
    text: &str,
    action: &G::Action,
) -> bool {
    answer_alone(game, state, decision, text)
        .is_some_and(|a| a.action.as_ref() == Some(action) && carried(&a))
}

/// Whether line 1 of an answer's sheet is noted as carried out.
fn carried<A>(a: &Answer<A>) -> bool {
    a.notes.iter().any(|n| n.line == 1 && n.executed)
}
