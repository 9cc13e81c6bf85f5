//! Walking a plan against a position: which branch each condition takes, which alternative can
//! be carried out; and the names players use for hexes.

use super::types::{Cmd, Plan};
use crate::engine::LineNote;
use crate::games::r1835::R1835;
use crate::games::r1835::state::State;

/// What a plan comes to in a position.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<A> {
    /// An alternative can be carried out: the action, the command, and the branches taken
    /// ("IF FLOATED BA: yes").
    Done { action: A, cmd: Cmd, path: Vec<String> },
    /// Nothing the plan names can be carried out now: why, alternative by alternative.
    Failed { why: Vec<String>, cmds: Vec<Cmd> },
    /// A condition without an ELSE did not hold: the plan orders nothing now.
    Nothing { path: Vec<String> },
}

/// Who is asking: the seat (index) and the company the line is for.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    pub seat: u8,
    pub company: Option<&'a str>,
}

/// The note of a line whose condition without ELSE did not hold: it is used up (RULINGS K58).
pub fn nothing_note(line: usize, path: &[String]) -> LineNote {
    LineNote {
        line,
        executed: false,
        note: format!("{} — nothing ordered in this case (RULINGS K58)", path.join(", ")),
    }
}

/// Every command a plan names, in order.
pub fn commands<'p>(plan: &'p Plan, out: &mut Vec<&'p Cmd>) {
    match plan {
        Plan::Cmd(c) => out.push(c),
        Plan::Alts(alts) => alts.iter().for_each(|a| commands(a, out)),
        Plan::If { then, otherwise, .. } => {
            commands(then, out);
            if let Some(o) = otherwise {
                commands(o, out);
            }
        }
    }
}

/// Whether a command belongs to a company's operating turn.
pub fn is_operating(c: &Cmd) -> bool {
    matches!(
        c,
        Cmd::Lay { .. }
            | Cmd::Token { .. }
            | Cmd::Run { .. }
            | Cmd::Dividend(_)
            | Cmd::BuyTrain { .. }
            | Cmd::Discard { .. }
            | Cmd::SellTrain { .. }
    )
}

impl R1835 {
    /// A hex by its coordinate (any case) or its printed city name (any case; `Munchen` and
    /// `Muenchen` for `München`).
    pub(crate) fn hex_named(&self, word: &str) -> Option<String> {
        let fold = |w: &str| {
            w.to_lowercase()
                .replace("ä", "a")
                .replace("ö", "o")
                .replace("ü", "u")
                .replace("ß", "ss")
                .replace("ae", "a")
                .replace("oe", "o")
                .replace("ue", "u")
        };
        let up = word.to_ascii_uppercase();
        if let Some(h) = self.data.hex(&up) {
            return Some(h.at.clone());
        }
        let want = fold(word);
        self.data.hexes.iter().find(|h| !h.name.is_empty() && fold(&h.name) == want).map(|h| h.at.clone())
    }

    /// Walks `plan` in `s`: conditions pick branches, alternatives are tried in order with
    /// `attempt` (an action or why not).
    pub(crate) fn walk<A>(
        &self,
        s: &State,
        ctx: Ctx<'_>,
        plan: &Plan,
        attempt: &mut dyn FnMut(&Cmd) -> Result<A, String>,
    ) -> Outcome<A> {
        match plan {
            Plan::Cmd(c) => match attempt(c) {
                Ok(action) => Outcome::Done { action, cmd: c.clone(), path: Vec::new() },
                Err(why) => Outcome::Failed { why: vec![format!("{c}: {why}")], cmds: vec![c.clone()] },
            },
            Plan::Alts(alts) => {
                let (mut why, mut cmds) = (Vec::new(), Vec::new());
                for (i, alt) in alts.iter().enumerate() {
                    match self.walk(s, ctx, alt, attempt) {
                        Outcome::Done { action, cmd, mut path } => {
                            if i > 0 {
                                path.insert(0, format!("alternative {} (not {})", i + 1, why.join("; not ")));
                            }
                            return Outcome::Done { action, cmd, path };
                        }
                        Outcome::Failed { why: w, cmds: c } => {
                            why.extend(w);
                            cmds.extend(c);
                        }
                        Outcome::Nothing { path } => why.push(path.join(", ")),
                    }
                }
                Outcome::Failed { why, cmds }
            }
            Plan::If { cond, then, otherwise } => {
                let holds = self.holds(s, ctx, cond);
                let step = format!("IF {cond}: {}", if holds { "yes" } else { "no" });
                let branch = if holds { Some(then.as_ref()) } else { otherwise.as_deref() };
                let Some(branch) = branch else { return Outcome::Nothing { path: vec![step] } };
                match self.walk(s, ctx, branch, attempt) {
                    Outcome::Done { action, cmd, mut path } => {
                        path.insert(0, step);
                        Outcome::Done { action, cmd, path }
                    }
                    Outcome::Nothing { mut path } => {
                        path.insert(0, step);
                        Outcome::Nothing { path }
                    }
                    Outcome::Failed { mut why, cmds } => {
                        why.insert(0, step);
                        Outcome::Failed { why, cmds }
                    }
                }
            }
        }
    }
}
