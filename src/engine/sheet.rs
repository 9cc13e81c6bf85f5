//! The common way an engine answers a decision from a sheet whose lines list alternatives
//! ("PLAY 7H N / DRAW"): try each unused line in order and each of its alternatives in order,
//! note why an alternative could not be carried out, and mark the line used once one is. Each
//! engine keeps its own "is this alternative legal now" and says what becomes of a line none of
//! whose alternatives fits.

use super::{LineNote, OrderSheet};
use std::fmt::Display;

/// What becomes of a line none of whose alternatives can be carried out now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoFit {
    /// The line stays unused (it may fit a later decision); the next line is tried.
    Keep,
    /// The line is used up; the next line is tried.
    UseUp,
    /// The line is used up and the search stops; the text is appended to the line's note.
    Stop(String),
}

/// The outcome of [`OrderSheet::try_lines`].
#[derive(Debug, Clone, PartialEq)]
pub struct Tried<A> {
    /// The action of the first alternative that fits, if any.
    pub action: Option<A>,
    /// One note per line tried, in sheet order.
    pub notes: Vec<LineNote>,
    /// true when a line's [`NoFit::Stop`] ended the search.
    pub stopped: bool,
}

impl<O> OrderSheet<O> {
    /// Tries the unused lines in order, and each line's `alternatives` in order. The first
    /// alternative `attempt` turns into an action (with the words for its note) is carried out:
    /// its line is marked used and noted with those words followed by why the alternatives
    /// before it were not ("… (not X: reason; not Y: reason)"). A line none of whose
    /// alternatives fits is noted with every alternative's reason and handled as `no_fit` says.
    pub fn try_lines<Alt: Display, A>(
        &mut self,
        alternatives: impl Fn(&O) -> &[Alt],
        mut attempt: impl FnMut(&Alt) -> Result<(A, String), String>,
        no_fit: impl Fn(&O) -> NoFit,
    ) -> Tried<A> {
        let mut notes = Vec::new();
        for i in 0..self.orders.len() {
            if self.used.get(i).copied().unwrap_or(true) {
                continue;
            }
            let Some(numbered) = self.orders.get(i) else { continue };
            let line = numbered.line;
            let mut why_not = Vec::new();
            for alt in alternatives(&numbered.order) {
                match attempt(alt) {
                    Ok((action, mut note)) => {
                        if !why_not.is_empty() {
                            note.push_str(&format!(" (not {})", why_not.join("; not ")));
                        }
                        notes.push(LineNote { line, executed: true, note });
                        if let Some(u) = self.used.get_mut(i) {
                            *u = true;
                        }
                        return Tried { action: Some(action), notes, stopped: false };
                    }
                    Err(reason) => why_not.push(format!("{alt}: {reason}")),
                }
            }
            let mut note = why_not.join("; ");
            let fate = no_fit(&numbered.order);
            if fate != NoFit::Keep
                && let Some(u) = self.used.get_mut(i)
            {
                *u = true;
            }
            if let NoFit::Stop(tail) = fate {
                note.push_str(&tail);
                notes.push(LineNote { line, executed: false, note });
                return Tried { action: None, notes, stopped: true };
            }
            notes.push(LineNote { line, executed: false, note });
        }
        Tried { action: None, notes, stopped: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Numbered;

    fn sheet(lines: &[&[&'static str]]) -> OrderSheet<Vec<&'static str>> {
        OrderSheet::new(
            lines.iter().enumerate().map(|(i, l)| Numbered { line: i + 1, order: l.to_vec() }).collect(),
        )
    }

    fn attempt(alt: &&str) -> Result<(String, String), String> {
        match alt.strip_prefix("ok ") {
            Some(a) => Ok((a.to_string(), format!("did {a}"))),
            None => Err("not now".into()),
        }
    }

    #[test]
    fn the_first_fitting_alternative_is_carried_out_and_the_ones_before_it_are_noted() {
        let mut s = sheet(&[&["no a", "no b"], &["no c", "ok d", "ok e"]]);
        let t = s.try_lines(|o| o.as_slice(), attempt, |_| NoFit::Keep);
        assert_eq!(t.action.as_deref(), Some("d"));
        assert_eq!(t.notes[0].note, "no a: not now; no b: not now");
        assert!(!t.notes[0].executed);
        assert_eq!(t.notes[1].note, "did d (not no c: not now)");
        assert_eq!(s.used, vec![false, true], "a line that did not fit is kept for later");
    }

    #[test]
    fn a_stopping_line_is_used_up_and_ends_the_search_with_its_tail() {
        let mut s = sheet(&[&["no a"], &["ok b"]]);
        let t = s.try_lines(|o| o.as_slice(), attempt, |_| NoFit::Stop(" — the turn ends".into()));
        assert_eq!((t.action, t.stopped), (None, true));
        assert_eq!(t.notes[0].note, "no a: not now — the turn ends");
        assert_eq!(s.used, vec![true, false]);
    }

    #[test]
    fn used_lines_are_skipped_and_used_up_lines_stay_used() {
        let mut s = sheet(&[&["ok a"], &["no b"], &["ok c"]]);
        s.used[0] = true;
        let t = s.try_lines(|o| o.as_slice(), attempt, |_| NoFit::UseUp);
        assert_eq!(t.action.as_deref(), Some("c"));
        assert_eq!(s.used, vec![true, true, true]);
    }
}
