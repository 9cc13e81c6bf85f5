//! The 1835 order language (issue 15; the player's guide is `docs/1835-orders.md`): order text
//! parsed into typed orders (`types`, `parse`, `commands`), contingencies walked against the
//! position (`plan`, `cond`), and every decision of the game answered from a seat's sheet —
//! stock rounds (`stock`: HR 18, 19, 20), operating rounds (`operate`, with the HR 17 ladder in
//! `ladder`), the Prussian's questions (here) — plus the echo and the HR 14 questions (`echo`).
//! The engine's `Orders` role is implemented here: parsing, the echo (`advise`, its helpers in
//! `echo`), answering, the HR 17 B referral (its candidates from `ladder`), HR 14's one-round
//! request and misfit (their helpers in `echo`), and the lines published.
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
mod trade;
mod types;

#[cfg(test)]
pub(crate) use ladder::LOOKAHEAD_LAYS;
pub use parse::ParseError;
pub use types::{Asking, Cmd, Cmp, Cond, Kind, Order, Plan, Progress, Refer, Seller, Timing};

use super::R1835;
use super::actions::Action;
use super::state::{Round, State};
use crate::engine::{
    Answer, Decision, Lasting, LineNote, Numbered, OrderError, OrderSheet, Orders, Referral, Seat,
    executed_lines,
};
use operate::{plan_for, sheet_trains};
use plan::{Ctx, Outcome, commands};
use std::collections::BTreeSet;

impl Orders for R1835 {
    type Order = Order;

    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        self.parse_line(line).map_err(|e| OrderError(e.to_string()))
    }

    // HR 12 (RULING S24): `INTENT BY: …` lasts until `INTENT BY: NONE` or a new `INTENT BY`.
    fn lasting(&self, order: &Order) -> Option<Lasting> {
        match &order.kind {
            Kind::Intent { company, toward } => {
                Some(Lasting { key: format!("INTENT {company}"), withdraws: toward.is_none() })
            }
            _ => None,
        }
    }

    /// The order builder's lines (issue 36): the decision now, or the seat's later move
    /// (`crate::games::r1835::choices`).
    fn choices(&self, s: &State, seat: Seat) -> Vec<crate::engine::Choices> {
        self.choices_of(s, seat)
    }

    /// Answers any decision of the game from the acting seat's sheet.
    fn answer(&self, s: &State, d: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let Some(p) = self.acting(s).filter(|p| Seat::from_index(usize::from(*p)) == d.seat) else {
            return Answer { action: None, notes: Vec::new() };
        };
        if self.prussian_pending(s).is_some() {
            return self.answer_prussian(s, p, sheet);
        }
        match s.round {
            Round::Stock { .. } => self.answer_stock(s, p, sheet),
            Round::Operating { .. } if s.or.turn.offer.is_some() => self.answer_offer(s, p, sheet),
            Round::Operating { .. } => self.answer_operating(s, p, sheet),
            Round::Over => Answer { action: None, notes: Vec::new() },
        }
    }

    // RULINGS P2, K74: the lines of the sheet played that were carried out are public, as PBEM
    // 1835 publishes the orders played; a line not carried out (an alternative not taken, a
    // contingency for what did not happen, an impossible order) goes only to its player (issue
    // 15), and so do standing intentions (HR 12), plans for later turns (RULINGS K63), and the
    // lines trading trains between companies, whose offers and minimums stay with the two
    // directors (the events say what was traded and for how much; RULING K75).
    fn public_lines(&self, sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        let executed = executed_lines(notes);
        sheet
            .orders
            .iter()
            .filter(|o| !matches!(o.order.kind, Kind::Intent { .. }))
            .filter(|o| !trades_train(&o.order))
            .filter(|o| executed.contains(&o.line))
            .map(|o| o.line)
            .collect()
    }

    /// The echo of one line for `seat` in position `s` (None: nothing to add).
    fn advise(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        let p = u8::try_from(seat.index()).ok()?;
        let mut out = Vec::new();
        match &order.kind {
            Kind::OneRound => out.push("you ask for a one-round turn (HR 14)".to_string()),
            Kind::Intent { company, toward: None } => {
                out.push(format!("withdraws {company}'s stated intention, if it has one (HR 12)"));
            }
            Kind::Intent { company, toward: Some(toward) } => {
                let name = self.data.hex(toward).map(|h| h.name.clone()).unwrap_or_default();
                out.push(format!(
                    "standing until withdrawn: when {company}'s orders are silent or its tile or station cannot be placed, the GM builds toward {toward} {name} (HR 12, HR 17 B)"
                ));
                out.extend(self.not_directed(s, p, company));
            }
            Kind::Plan { company: None, plan } => {
                let mut cmds = Vec::new();
                commands(plan, &mut cmds);
                out.extend(self.holding_warnings(s, p, &cmds));
                let stock = matches!(s.round, Round::Stock { .. }) && self.prussian_pending(s).is_none();
                let prussian = cmds.iter().all(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. }));
                if stock && !prussian {
                    out.push(self.now(
                        self.walk(s, Ctx { seat: p, company: None }, plan, &mut |c| {
                            self.stock_action(s, p, c)
                        }),
                    ));
                } else {
                    out.push(self.branches(s, Ctx { seat: p, company: None }, plan, "when its turn comes"));
                }
            }
            Kind::Plan { company: Some(id), plan } if trade::sells_train(plan) => {
                out.extend(self.not_directed(s, p, id));
                out.push(self.sale_echo(plan, id));
            }
            Kind::Plan { company: Some(id), plan } => {
                out.extend(self.not_directed(s, p, id));
                let ctx = Ctx { seat: p, company: Some(id) };
                match self.operating_entity(s).filter(|e| self.entity_id(s, *e) == *id) {
                    Some(e) => out.push(
                        self.now(self.walk(s, ctx, plan, &mut |c| self.operating_action(s, e, c, &[]))),
                    ),
                    None => out.push(self.branches(s, ctx, plan, &format!("when {id} operates"))),
                }
            }
        }
        let out: Vec<String> = out.into_iter().filter(|x| !x.is_empty()).collect();
        (!out.is_empty()).then(|| out.join("; "))
    }

    /// Each line judged after the lines before it (`echo`).
    fn advise_sheet(&self, s: &State, seat: Seat, orders: &[Numbered<Order>]) -> Vec<Option<String>> {
        self.advise_lines(s, seat, orders)
    }

    /// RULING K75: a `SELL TRAIN … TO` line no offer reached this turn is told so.
    fn unreached(&self, _s: &State, _seat: Seat, sheet: &OrderSheet<Order>) -> Vec<LineNote> {
        self.unmatched_sales(sheet)
    }

    /// HR 14: whether the sheet asks for a one-round turn.
    fn wants_one_round(&self, sheet: &OrderSheet<Order>) -> bool {
        sheet.orders.iter().any(|o| o.order.kind == Kind::OneRound)
    }

    /// HR 14 (RULINGS K61, K72): why the seat's unused lines no longer fit at a round's end —
    /// lines for a company it no longer directs or that has closed, a line for the Prussian's
    /// formation once it has formed (or for a paper already exchanged), or most of its stock
    /// lines impossible in a stock round.
    fn misfit(&self, s: &State, seat: Seat, sheet: &OrderSheet<Order>) -> Option<String> {
        let p = u8::try_from(seat.index()).ok()?;
        let mut why = Vec::new();
        let (mut stock, mut failing) = (0, 0);
        for (_, n) in sheet.unused() {
            match &n.order.kind {
                Kind::Plan { company: Some(id), .. } | Kind::Intent { company: id, .. } => {
                    if let Some(w) = self.not_directed(s, p, id) {
                        why.push(format!("line {} ({}): {w}", n.line, n.order));
                    }
                }
                Kind::Plan { company: None, plan } if self.prussian_line(plan) => {
                    why.extend(
                        self.prussian_misfit(s, plan).map(|w| format!("line {} ({}): {w}", n.line, n.order)),
                    );
                }
                Kind::Plan { company: None, plan } if matches!(s.round, Round::Stock { .. }) => {
                    stock += 1;
                    let o = self
                        .walk(s, Ctx { seat: p, company: None }, plan, &mut |c| self.stock_action(s, p, c));
                    failing += usize::from(matches!(o, Outcome::Failed { .. }));
                }
                _ => {}
            }
        }
        if stock >= 2 && failing * 2 > stock {
            why.push(format!("{failing} of the {stock} stock-round lines left cannot be carried out now"));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }

    /// The pending HR 17 B referral of the operating company, if any.
    fn refer(&self, s: &State, _d: &Decision, sheet: &OrderSheet<Order>) -> Option<Referral<Action>> {
        let e = self.operating_entity(s)?;
        let id = self.entity_id(s, e);
        let (order, refer) = sheet.orders.iter().find_map(|o| {
            let mine = plan_for(&o.order, &id).is_some() || o.order.company() == Some(id.as_str());
            o.order.progress.referral.clone().filter(|_| mine).map(|r| (&o.order, r))
        })?;
        let bought = sheet_trains(sheet, &id);
        let mut candidates: Vec<Action> = self.referral_candidates(s, e, &refer, &bought);
        if candidates.is_empty() {
            return None;
        }
        candidates.push(Action::Pass);
        let place = refer.target.as_deref().map(|t| {
            let name = self.data.hex(t).map(|h| h.name.clone()).filter(|n| !n.is_empty());
            name.map(|n| format!("{t} ({n})")).unwrap_or_else(|| t.to_string())
        });
        let what = if refer.station { "station" } else { "tile" };
        let plan = match (&refer.line, &place) {
            (Some((hex, _)), Some(p)) => format!("keeps the line it ordered on {hex}, then heads toward {p}"),
            (Some((hex, _)), None) => format!("keeps the line it ordered on {hex}"),
            (None, Some(p)) => format!("best follows {id}'s plan toward {p}"),
            (None, None) => format!("best follows {id}'s plan"),
        };
        Some(Referral {
            prompt: format!(
                "HR 17 B: {id}'s order \"{order}\" cannot be carried out — which {what} {plan}? Candidates best first; the last is none."
            ),
            candidates,
        })
    }
}

impl R1835 {
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

/// Whether a line trades a train with another company (a `BUY TRAIN … FROM` a company, a
/// `SELL TRAIN`): never published (RULING K75).
fn trades_train(o: &Order) -> bool {
    let mut cmds = Vec::new();
    if let Some(plan) = o.plan() {
        commands(plan, &mut cmds);
    }
    cmds.iter().any(|c| {
        matches!(c, Cmd::SellTrain { .. } | Cmd::BuyTrain { from: Some(types::Seller::Company(_)), .. })
    })
}

/// Parses one line with the standard engine's names (for tests and tools).
pub fn parse(line: &str) -> Result<Order, OrderError> {
    match super::shared() {
        Ok(engine) => engine.parse_order(line),
        Err(e) => Err(OrderError(e.to_string())),
    }
}
