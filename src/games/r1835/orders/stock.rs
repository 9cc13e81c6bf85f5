//! Answering stock-round decisions from a sheet: lines in order, one stock turn at a time.
//!
//! - HR 20: `BUY n X` is n purchases, one per turn; a bare number takes the certificate chosen
//!   as RULINGS K55 says.
//! - HR 18: a SELL goes with the BUY after it, in the same turn, before it; it is carried out
//!   only when that BUY can then be carried out (RULINGS K56). `ANYWAY` sells whatever becomes
//!   of the BUY, `ALONE` is a sale turn of its own, `AFTER` sells after the purchase before it.
//! - HR 19: an impossible BUY is replaced only by the player's own contingency (`ELSE`, `IF`);
//!   the turn then counts as a pass (RULINGS K57).
//! - A condition without `ELSE` that does not hold orders nothing: the line is used up and the
//!   next one is read (RULINGS K58).

use super::plan::{Ctx, Outcome};
use super::types::{Cmd, Kind, Order, Timing};
use crate::engine::{Answer, LineNote, OrderSheet, Rules};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Action, Source};
use crate::games::r1835::state::{Loc, State};

/// Sizes tried for a SELL or NATIONALISE without a size (RULINGS K55).
const SALE_SIZES: [u8; 3] = [10, 5, 20];

/// A stock line: no company, a plan.
fn stock_plan(o: &Order) -> Option<&super::types::Plan> {
    match &o.kind {
        Kind::Plan { company: None, plan } => Some(plan),
        _ => None,
    }
}

fn has_buy(cmds: &[Cmd]) -> bool {
    cmds.iter().any(|c| matches!(c, Cmd::Buy { .. } | Cmd::Nationalise { .. }))
}

impl R1835 {
    /// The first legal action a stock command names (RULINGS K55 for what it leaves open).
    pub(crate) fn stock_action(&self, s: &State, _seat: u8, cmd: &Cmd) -> Result<Action, String> {
        let legal = |a: Action| self.apply_action(&mut s.clone(), &a).map(|_| a).map_err(|e| e.0);
        let first_legal = |v: Vec<Action>| {
            let mut why = None;
            for a in v {
                match legal(a) {
                    Ok(a) => return Ok(a),
                    Err(e) => {
                        why.get_or_insert(e);
                    }
                }
            }
            Err(why.unwrap_or_else(|| "nothing of that is on sale".into()))
        };
        let sizes = |given: Option<u8>| given.map(|x| vec![x]).unwrap_or_else(|| SALE_SIZES.to_vec());
        match cmd {
            Cmd::Pass => legal(Action::Pass),
            Cmd::Buy { count, name, from, percent } if s.packet_open() => {
                if count.is_some_and(|c| c != 1) || from.is_some() || percent.is_some() {
                    return Err(
                        "while the start packet is on sale, buy an item by its name, e.g. BUY M2".into()
                    );
                }
                legal(Action::BuyItem { item: name.clone() })
            }
            Cmd::Buy { name, from, percent, .. } => {
                if self.data.major_index(name).is_none() {
                    return Err(format!("{name} is sold with the start packet, which is sold out"));
                }
                // RULINGS K55: the IPO before the pool, the largest certificate first.
                let places = from.map(|f| vec![f]).unwrap_or_else(|| vec![Source::Ipo, Source::Pool]);
                let sizes = percent.map(|x| vec![x]).unwrap_or_else(|| vec![20, 10, 5]);
                let mut v: Vec<(Source, u8)> =
                    places.into_iter().flat_map(|f| sizes.iter().map(move |x| (f, *x))).collect();
                // What the player did not name is chosen among the certificates on offer, so the
                // reason given is about those (the cash), not a size nobody sells now.
                if let Some(co) = self.data.major_index(name)
                    && v.iter().any(|(f, x)| self.on_offer(s, co, *f, *x))
                {
                    v.retain(|(f, x)| self.on_offer(s, co, *f, *x));
                }
                let v = v
                    .into_iter()
                    .map(|(from, percent)| Action::BuyShare { company: name.clone(), from, percent })
                    .collect();
                first_legal(v)
            }
            Cmd::Sell { count, company, percent, .. } => first_legal(
                sizes(*percent)
                    .into_iter()
                    .map(|percent| Action::Sell { company: company.clone(), count: *count, percent })
                    .collect(),
            ),
            Cmd::Nationalise { company, from_seat, percent } => first_legal(
                sizes(*percent)
                    .into_iter()
                    .map(|percent| Action::Nationalise {
                        company: company.clone(),
                        from_seat: *from_seat,
                        percent,
                    })
                    .collect(),
            ),
            other => Err(format!("'{other}' is not a stock-round order")),
        }
    }

    /// Whether a certificate of this size is the one the IPO sells next (RULING K5), or lies in
    /// the pool.
    fn on_offer(&self, s: &State, co: usize, from: Source, percent: u8) -> bool {
        let certs = &s.majors[co].certs;
        match from {
            Source::Ipo => self.ipo_top(s, co).is_some_and(|i| certs[i].percent == percent),
            Source::Pool => certs.iter().any(|c| c.at == Loc::Pool && c.percent == percent),
        }
    }

    /// Answers a stock-round decision of seat `p` (see the module comment).
    pub(crate) fn answer_stock(&self, s: &State, p: u8, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let mut notes = Vec::new();
        let ctx = Ctx { seat: p, company: None };
        let may_pass = self.check_stock_pass(s, p).is_ok();
        // A `SELL … ALONE` was carried out: that turn ends now.
        let alone = sheet.orders.iter_mut().any(|o| std::mem::take(&mut o.order.progress.end_turn));
        if alone && may_pass && !s.sr.turn.sales.is_empty() {
            return Answer { action: Some(Action::Pass), notes };
        }
        let lines: Vec<usize> =
            sheet.unused().filter(|(_, o)| stock_plan(&o.order).is_some()).map(|(i, _)| i).collect();
        let mut k = 0;
        while k < lines.len() {
            let i = lines[k];
            k += 1;
            let (line, order) = (sheet.orders[i].line, sheet.orders[i].order.clone());
            let Some(plan) = stock_plan(&order) else { continue };
            let mut cmds = Vec::new();
            super::plan::commands(plan, &mut cmds);
            let cmds: Vec<Cmd> = cmds.into_iter().cloned().collect();
            if cmds.iter().all(|c| matches!(c, Cmd::Form(_) | Cmd::Exchange { .. })) {
                continue; // Prussian answers wait for a Prussian question.
            }
            let after = cmds.iter().any(|c| matches!(c, Cmd::Sell { timing: Timing::After, .. }));
            if s.sr.turn.bought && !after {
                break; // HR 18: after the purchase the turn ends (unless a SELL … AFTER follows).
            }
            if after && !s.sr.turn.bought {
                sheet.used[i] = true;
                notes.push(LineNote {
                    line,
                    executed: false,
                    note: format!("{order}: no purchase this turn to sell after"),
                });
                continue;
            }
            let outcome = self.walk(s, ctx, plan, &mut |c| self.stock_action(s, p, c));
            match outcome {
                Outcome::Done { action, cmd, path } => {
                    if let Cmd::Sell { timing: Timing::Paired, .. } = cmd
                        && let Some(why) = self.partner_fails(s, p, sheet, &lines[k..], &action)
                    {
                        // RULINGS K56: the pair fails together; the turn counts as a pass.
                        sheet.used[i] = true;
                        notes.push(LineNote { line, executed: false, note: format!("{order}: {why} — the sale goes with that purchase (HR 18), so neither is carried out; the turn counts as a pass (HR 19, RULINGS K57)") });
                        if let Some(j) = self.partner(sheet, &lines[k..]) {
                            sheet.used[j] = true;
                        }
                        return Answer { action: may_pass.then_some(Action::Pass), notes };
                    }
                    let mut note = describe(&cmd, &action, &path);
                    match &cmd {
                        Cmd::Buy { count: Some(n), .. } if *n > 1 => {
                            let o = &mut sheet.orders[i].order.progress;
                            o.done += 1;
                            note.push_str(&format!(" ({} of {n}, one per turn: HR 20)", o.done));
                            sheet.used[i] = o.done >= *n;
                        }
                        Cmd::Sell { timing: Timing::Alone, .. } => {
                            sheet.orders[i].order.progress.end_turn = true;
                            sheet.used[i] = true;
                        }
                        _ => sheet.used[i] = true,
                    }
                    notes.push(LineNote { line, executed: true, note });
                    return Answer { action: Some(action), notes };
                }
                Outcome::Nothing { path } => {
                    sheet.used[i] = true;
                    notes.push(super::plan::nothing_note(line, &path));
                }
                Outcome::Failed { why, cmds } => {
                    sheet.used[i] = true;
                    let why = why.join("; ");
                    if has_buy(&cmds) {
                        notes.push(LineNote {
                            line,
                            executed: false,
                            note: format!(
                                "{why} — no substitution (HR 19): the turn counts as a pass (RULINGS K57)"
                            ),
                        });
                        return Answer {
                            action: if may_pass { Some(Action::Pass) } else { self.default_action(s) },
                            notes,
                        };
                    }
                    notes.push(LineNote {
                        line,
                        executed: false,
                        note: format!("{why} — not carried out (HR 19)"),
                    });
                }
            }
        }
        let action = if sheet.is_empty() { None } else { self.default_action(s) };
        Answer { action, notes }
    }

    /// The line a paired SELL goes with: the next unused stock line that is not a SELL.
    fn partner(&self, sheet: &OrderSheet<Order>, rest: &[usize]) -> Option<usize> {
        rest.iter().copied().find(|j| {
            let Some(plan) = stock_plan(&sheet.orders[*j].order) else { return false };
            let mut cmds = Vec::new();
            super::plan::commands(plan, &mut cmds);
            !cmds.iter().all(|c| matches!(c, Cmd::Sell { .. }))
        })
    }

    /// Why the BUY a paired sale goes with could not be carried out after the sale (RULINGS
    /// K56), or None when it can (or no BUY follows: the sale stands alone).
    fn partner_fails(
        &self,
        s: &State,
        p: u8,
        sheet: &OrderSheet<Order>,
        rest: &[usize],
        sale: &Action,
    ) -> Option<String> {
        let j = self.partner(sheet, rest)?;
        let plan = stock_plan(&sheet.orders[j].order)?;
        let mut after = s.clone();
        self.apply_action(&mut after, sale).ok()?;
        // Sales listed between the two go first as well.
        for k in rest.iter().copied().take_while(|k| *k < j) {
            if let Some(sell) = stock_plan(&sheet.orders[k].order)
                && let Outcome::Done { action, .. } =
                    self.walk(&after, Ctx { seat: p, company: None }, sell, &mut |c| {
                        self.stock_action(&after, p, c)
                    })
            {
                let _ = self.apply_action(&mut after, &action);
            }
        }
        match self
            .walk(&after, Ctx { seat: p, company: None }, plan, &mut |c| self.stock_action(&after, p, c))
        {
            Outcome::Failed { why, cmds } if has_buy(&cmds) => Some(format!(
                "line {} cannot be carried out after it ({})",
                sheet.orders[j].line,
                why.join("; ")
            )),
            _ => None,
        }
    }
}

/// The note of a carried-out command: what was done and which branch led there.
pub(crate) fn describe(cmd: &Cmd, action: &Action, path: &[String]) -> String {
    let did = match action {
        Action::BuyShare { company, from, percent } => {
            format!("bought a {percent} % {company} certificate from the {from}")
        }
        Action::Sell { company, count, percent } => format!("sold {count} × {percent} % {company}"),
        Action::BuyItem { item } => format!("bought {item}"),
        _ => cmd.to_string(),
    };
    if path.is_empty() { did } else { format!("{did} ({})", path.join(", ")) }
}
