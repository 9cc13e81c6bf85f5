//! The 1835 order language (issue 15; the player's guide is `docs/1835-orders.md`): order text
//! parsed into typed orders (`types`, `parse`, `commands`), contingencies walked against the
//! position (`plan`, `cond`), and every decision of the game answered from a seat's sheet —
//! stock rounds (`stock`: HR 18, 19, 20), operating rounds (`operate`, with the HR 17 ladder in
//! `ladder`), the Prussian's questions (here) — plus the echo and the HR 14 questions (`echo`).
//!
//! ```text
//! BUY 2 MSE                       two purchases, one per stock turn (HR 20)
//! SELL 1 SX                       with the BUY after it (HR 18); ANYWAY / ALONE / AFTER
//! IF AVAILABLE BY IPO THEN BUY 1 BY ELSE BUY 1 SX
//! BY: LAY 201 O15 ROTATION 2 ELSE LAY TOWARD E19
//! BY: RUN BEST                    BY: PAY     BY: BUY TRAIN 3 FROM BANK
//! FORM PR    EXCHANGE M1          the Prussian's questions
//! INTENT BY: TOWARD Berlin        a standing target (HR 12)
//! ONE ROUND                       a one-round turn (HR 14)
//! ```

mod commands;
mod cond;
mod echo;
mod ladder;
mod operate;
mod parse;
mod plan;
mod stock;
mod types;

#[cfg(test)]
pub(crate) use ladder::LOOKAHEAD_LAYS;
pub use parse::ParseError;
pub use types::{Cmd, Cmp, Cond, Kind, Order, Plan, Progress, Seller, Timing};

use super::R1835;
use super::actions::Action;
use super::state::{Round, State};
use crate::engine::{Answer, Decision, LineNote, OrderError, OrderSheet, Seat};
use plan::{Ctx, Outcome};

impl R1835 {
    /// Answers any decision of the game from the acting seat's sheet.
    pub(crate) fn answer_from(
        &self,
        s: &State,
        d: &Decision,
        sheet: &mut OrderSheet<Order>,
    ) -> Answer<Action> {
        let Some(p) = self.acting(s).filter(|p| Seat::from_index(usize::from(*p)) == d.seat) else {
            return Answer { action: None, notes: Vec::new() };
        };
        if self.prussian_pending(s).is_some() {
            return self.answer_prussian(s, p, sheet);
        }
        match s.round {
            Round::Stock { .. } => self.answer_stock(s, p, sheet),
            Round::Operating { .. } => self.answer_operating(s, p, sheet),
            Round::Over => Answer { action: None, notes: Vec::new() },
        }
    }

    /// The Prussian's questions: the first line (without a company) naming a legal FORM /
    /// DECLINE / EXCHANGE / KEEP answers; otherwise the seat declines (RULINGS K50).
    fn answer_prussian(&self, s: &State, p: u8, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let mut notes = Vec::new();
        let ctx = Ctx { seat: p, company: None };
        let lines: Vec<usize> = sheet.unused().map(|(i, _)| i).collect();
        for i in lines {
            let (line, order) = (sheet.orders[i].line, sheet.orders[i].order.clone());
            let Some(plan) = order.plan().filter(|_| order.company().is_none()) else { continue };
            let mut cmds = Vec::new();
            plan::commands(plan, &mut cmds);
            if !cmds.iter().any(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. })) {
                continue;
            }
            let attempt = &mut |c: &Cmd| {
                let a = match c {
                    Cmd::Form(form) => Action::FormPrussian { form: *form },
                    Cmd::Exchange { paper, accept } => {
                        Action::ExchangeForPrussian { paper: paper.clone(), accept: *accept }
                    }
                    other => return Err(format!("'{other}' does not answer the Prussian's question")),
                };
                self.apply_action(&mut s.clone(), &a).map(|_| a).map_err(|e| e.0)
            };
            match self.walk(s, ctx, plan, attempt) {
                Outcome::Done { action, cmd, path } => {
                    sheet.used[i] = true;
                    notes.push(LineNote {
                        line,
                        executed: true,
                        note: stock::describe(&cmd, &action, &path),
                    });
                    return Answer { action: Some(action), notes };
                }
                // Not this question (another paper, or not yet): the line waits.
                Outcome::Failed { .. } | Outcome::Nothing { .. } => {}
            }
        }
        let action = if sheet.is_empty() { None } else { self.default_prussian(s) };
        Answer { action, notes }
    }
}

/// Parses one line with the standard engine's names (for tests and tools).
pub fn parse(line: &str) -> Result<Order, OrderError> {
    match super::shared() {
        Ok(engine) => engine.parse_line(line).map_err(|e| OrderError(e.to_string())),
        Err(e) => Err(OrderError(e.to_string())),
    }
}
