//! Trains between two players' companies by mail (RULING K75): sealed orders that match. The
//! buying director orders `BY: BUY TRAIN 3 FROM SX FOR 250` (made an offer in BY's trains
//! step); the selling director has ordered `SX: SELL TRAIN 3 TO BY MIN 200` (any offer of at
//! least 200 M) or `… FOR 250` (that offer). A `SELL TRAIN` line answers only an offer naming its
//! train and buyer; an offer no line takes is declined, reported to both directors and is no
//! NMR. A declined offer lets the buyer's line go on to its other alternatives.

use super::operate::plan_for;
use super::plan::{Ctx, Outcome, commands};
use super::types::{Cmd, Kind, Order, Plan};
use crate::engine::{Answer, LineNote, OrderSheet};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::{State, TrainOffer};

/// Whether a plan answers offers for the company's trains (its `SELL TRAIN` lines).
pub(super) fn sells_train(plan: &Plan) -> bool {
    let mut cmds = Vec::new();
    commands(plan, &mut cmds);
    cmds.iter().any(|c| matches!(c, Cmd::SellTrain { .. }))
}

impl R1835 {
    /// The selling director's answer to the offer waiting, from the lines for the selling
    /// company: the first `SELL TRAIN` for this train and buyer whose price the offer meets
    /// sells; otherwise the offer is declined (never a default: no NMR).
    pub(crate) fn answer_offer(&self, s: &State, p: u8, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let mut notes = Vec::new();
        let Some((offer, buyer)) = s.or.turn.offer.clone().zip(self.operating_entity(s)) else {
            return Answer { action: None, notes };
        };
        let (sid, bid) = (self.entity_id(s, offer.seller), self.entity_id(s, buyer));
        let ctx = Ctx { seat: p, company: Some(&sid) };
        let lines: Vec<usize> = sheet
            .unused()
            .filter(|(_, o)| plan_for(&o.order, &sid).is_some_and(sells_train))
            .map(|(i, _)| i)
            .collect();
        for i in lines {
            let (line, order) = (sheet.orders[i].line, sheet.orders[i].order.clone());
            let Some(plan) = plan_for(&order, &sid) else { continue };
            let mut names_it = false;
            let outcome = self.walk(s, ctx, plan, &mut |c| {
                let Cmd::SellTrain { train, to, price } = c else {
                    return Err("not an answer to an offer".into());
                };
                if *train != offer.train || *to != bid {
                    return Err(format!("names {to}'s offer for the {train}-train, not this one"));
                }
                names_it = true;
                if !price.takes(offer.price) {
                    return Err(format!("{bid} offers {} M", offer.price));
                }
                let a = Action::AnswerTrainOffer { company: sid.clone(), accept: true };
                self.apply_action(&mut s.clone(), &a).map(|_| a).map_err(|e| e.0)
            });
            match outcome {
                Outcome::Done { action, cmd, path } => {
                    sheet.used[i] = true;
                    let how = if path.is_empty() { String::new() } else { format!(" ({})", path.join(", ")) };
                    let note = format!(
                        "{cmd}: sold {sid}'s {}-train to {bid} for its offer of {} M{how}",
                        offer.train, offer.price
                    );
                    notes.push(LineNote { line, executed: true, note });
                    return Answer { action: Some(action), notes };
                }
                // The line waits for another offer (a later, better one, or another train's).
                Outcome::Failed { why, .. } if names_it => {
                    notes.push(LineNote { line, executed: false, note: why.join("; ") })
                }
                Outcome::Nothing { path } if names_it => {
                    notes.push(LineNote { line, executed: false, note: path.join(", ") })
                }
                _ => {}
            }
        }
        notes.push(LineNote {
            line: 0,
            executed: false,
            note: format!(
                "{bid} offered {} M for {sid}'s {}-train; no order of yours sells it at that price ({sid}: SELL TRAIN {} TO {bid} MIN …), so {sid} keeps it — not an NMR (RULING K75)",
                offer.price, offer.train, offer.train
            ),
        });
        Answer { action: Some(Action::AnswerTrainOffer { company: sid, accept: false }), notes }
    }

    /// RULING K75: the notes for the seller's `SELL TRAIN` lines that no offer reached this turn
    /// (an offer that reached one and was too low has its own note already): not carried out,
    /// the company keeps its train. They go to that director alone, as every note on a line not
    /// carried out does, so the minimum stays private.
    pub(super) fn unmatched_sales(&self, sheet: &OrderSheet<Order>) -> Vec<LineNote> {
        sheet
            .unused()
            .filter(|(_, o)| o.line > 0)
            .filter_map(|(_, o)| match &o.order.kind {
                Kind::Plan { company: Some(id), plan } if sells_train(plan) => Some(LineNote {
                    line: o.line,
                    executed: false,
                    note: format!(
                        "{}: no matching purchase — no offer this line answers was made this turn, so {id} keeps its train (RULING K75)",
                        o.order
                    ),
                }),
                _ => None,
            })
            .collect()
    }

    /// RULING K75: the buyer's lines whose offer was declined this turn are open again, so
    /// their other alternatives are tried (the declined offer itself is not made again).
    pub(super) fn reopen_declined(&self, s: &State, sheet: &mut OrderSheet<Order>) {
        for (o, used) in sheet.orders.iter_mut().zip(sheet.used.iter_mut()) {
            let Some((train, from, price)) = o.order.progress.offered.clone() else { continue };
            let declined = self.entity_by_id(&from).is_some_and(|seller| {
                s.or.turn.declined.contains(&TrainOffer { seller, train: train.clone(), price })
            });
            if declined {
                o.order.progress.offered = None;
                *used = false;
            }
        }
    }

    /// The echo of a `SELL TRAIN` line: the offer it answers and when.
    pub(super) fn sale_echo(&self, plan: &Plan, id: &str) -> String {
        let mut cmds = Vec::new();
        commands(plan, &mut cmds);
        let sales: Vec<String> = cmds
            .iter()
            .filter_map(|c| match c {
                Cmd::SellTrain { train, to, price } => Some(format!(
                    "{to}'s offer for {id}'s {train}-train, in {to}'s trains step, {}",
                    match price {
                        super::types::Asking::Min(m) => format!("sold if it is at least {m} M"),
                        super::types::Asking::Exactly(x) => format!("sold if it is {x} M"),
                    }
                )),
                _ => None,
            })
            .collect();
        format!(
            "answers {}; no matching offer, no sale; only you and the buyer's director see the prices (RULING K75)",
            sales.join(" or ")
        )
    }
}
