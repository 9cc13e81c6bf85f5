//! Answering operating-round decisions (RULINGS K64): the operating company's lines (`BY: …`) in
//! the rules' step order, whatever their order on the sheet (HR 6), each in its step (a line for a
//! later step leaves the current one to its default, a line for an earlier step is too late); where the orders are silent, the defaults (RULINGS K34, the
//! `silent_dividend` / `silent_train` options); an impossible tile or station goes down the
//! HR 17 ladder (`ladder`); an unclear one is not carried out (HR 16). A train of another
//! player's company is offered, not bought (`trade`, RULING K75).

use super::plan::{Ctx, Outcome, commands};
use super::trade::sells_train;
use super::types::{Cmd, Kind, Order, Refer, Seller};
use crate::engine::{Answer, LineNote, OrderSheet};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::{Entity, State, Step};

/// Marks an order that leaves a choice open: HR 16, not carried out, no ladder.
pub(super) const UNCLEAR: &str = "unclear (HR 16)";

/// HR 16, the one place that decides: a failed line is unclear when a command of it left open a
/// choice that matters (several rotations or cities fit). Such a line is not carried out, goes
/// down no ladder and is no NMR; the echo and the report say why in these words.
pub(super) fn unclear(why: &[String]) -> Option<String> {
    why.iter()
        .any(|w| w.contains(UNCLEAR))
        .then(|| format!("{} — not carried out, not an NMR", why.join("; ")))
}

/// The step a command belongs to.
fn step_of(c: &Cmd) -> Option<Step> {
    match c {
        Cmd::Lay { .. } => Some(Step::Track),
        Cmd::Token { .. } => Some(Step::Token),
        Cmd::Run { .. } => Some(Step::Run),
        Cmd::Dividend(_) => Some(Step::Dividend),
        Cmd::BuyTrain { .. } | Cmd::Discard { .. } | Cmd::Sell { .. } => Some(Step::Trains),
        _ => None,
    }
}

fn rank(step: Step) -> u8 {
    match step {
        Step::Track => 0,
        Step::Token => 1,
        Step::Run => 2,
        Step::Dividend => 3,
        Step::Trains => 4,
    }
}

/// The lowest step a plan's commands belong to (the rank of its first step).
fn first_rank(plan: &super::types::Plan) -> Option<u8> {
    let mut cmds = Vec::new();
    commands(plan, &mut cmds);
    cmds.iter().filter_map(|c| step_of(c)).map(rank).min()
}

/// HR 6 (RULINGS K64, amended): the unused lines for `id` in the order of the steps they belong to
/// — track, token, run, dividend, trains — lines of one step in the order written. A line naming
/// no step (`BY: PASS`) keeps its place after the line written before it; a line's own
/// contingencies (`ELSE`, `IF`) stay on it and place it by its earliest step.
fn in_step_order(sheet: &OrderSheet<Order>, id: &str) -> Vec<usize> {
    let mut keyed: Vec<(u8, usize)> = Vec::new();
    let mut last = 0;
    for (i, o) in sheet.unused() {
        let Some(plan) = plan_for(&o.order, id) else { continue };
        if sells_train(plan) {
            // A SELL TRAIN line answers another company's offer, never this turn's steps (K75).
            continue;
        }
        last = first_rank(plan).unwrap_or(last);
        keyed.push((last, i));
    }
    keyed.sort_by_key(|(r, _)| *r);
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The trains the sheet's lines not used yet buy for `id` this turn: each line's first
/// `BUY TRAIN` (issue 33: HR 17 C and D look ahead with them).
pub(super) fn sheet_trains(sheet: &OrderSheet<Order>, id: &str) -> Vec<String> {
    sheet
        .unused()
        .filter_map(|(_, o)| plan_for(&o.order, id))
        .filter_map(|plan| {
            let mut cmds = Vec::new();
            commands(plan, &mut cmds);
            cmds.into_iter().find_map(|c| match c {
                Cmd::BuyTrain { train, .. } => Some(train.clone()),
                _ => None,
            })
        })
        .collect()
}

/// The line's company plan, if it is for `id`.
pub(super) fn plan_for<'o>(o: &'o Order, id: &str) -> Option<&'o super::types::Plan> {
    match &o.kind {
        Kind::Plan { company: Some(c), plan } if c == id => Some(plan),
        _ => None,
    }
}

impl R1835 {
    /// The action an operating command names for entity `e` now, or why not.
    /// `bought`: the trains the same sheet buys for the company this turn (issue 33: `LAY BEST`
    /// and `TOKEN BEST`, HR 17 C, look ahead with them).
    pub(crate) fn operating_action(
        &self,
        s: &State,
        e: Entity,
        cmd: &Cmd,
        bought: &[String],
    ) -> Result<Action, String> {
        let company = self.entity_id(s, e);
        let legal = |a: Action| self.apply_action(&mut s.clone(), &a).map(|_| a).map_err(|x| x.0);
        let one_of = |v: Vec<Action>, what: &str| {
            let mut ok = Vec::new();
            let mut why = None;
            for a in v {
                match legal(a) {
                    Ok(a) => ok.push(a),
                    Err(x) => {
                        why.get_or_insert(x);
                    }
                }
            }
            match ok.len() {
                0 => Err(why.unwrap_or_else(|| "not possible now".into())),
                1 => Ok(ok.remove(0)),
                n => Err(format!("{UNCLEAR}: {n} {what} fit — say which")),
            }
        };
        match cmd {
            Cmd::Pass => legal(Action::Pass),
            Cmd::Lay { tile: Some(tile), hex: Some(hex), rotation, .. } => {
                let rotations = rotation.map_or_else(|| (0..6).collect(), |r| vec![r]);
                let v = rotations
                    .into_iter()
                    .map(|rotation| Action::LayTile {
                        company: company.clone(),
                        tile: tile.clone(),
                        hex: hex.clone(),
                        rotation,
                    })
                    .collect();
                one_of(v, "rotations (ROTATION 0-5)")
            }
            Cmd::Lay { toward: Some(t), .. } => self
                .lay_candidates(s, e, Some(t))
                .into_iter()
                .find(|c| c.distance.is_some())
                .map(|c| c.action)
                .ok_or_else(|| format!("no lay brings {company} nearer to {t}")),
            Cmd::Lay { .. } => self
                .most_income_lay_with(s, e, bought)
                .ok_or_else(|| "no lay gives more income this turn and next (RULINGS K71)".into()),
            Cmd::Token { hex: Some(hex), city, .. } => {
                let cities = city.map_or_else(|| (1..=4).collect(), |c| vec![c]);
                let v = cities
                    .into_iter()
                    .map(|city| Action::PlaceToken { company: company.clone(), hex: hex.clone(), city })
                    .collect();
                one_of(v, "cities (CITY n)")
            }
            Cmd::Token { toward: Some(t), .. } => self
                .token_candidates(s, e, Some(t))
                .into_iter()
                .next()
                .map(|c| c.action)
                .ok_or_else(|| format!("{company} can place no station now")),
            Cmd::Token { .. } => self
                .most_income_token(s, e, bought)
                .ok_or_else(|| "no station gives more income this turn".into()),
            Cmd::Run { routes } if routes.is_empty() => {
                let (_, best) = self.best_run(s, e).map_err(|x| x.to_string())?;
                legal(Action::Run { company, routes: Vec::new(), revenue: Some(best.revenue) })
            }
            Cmd::Run { routes } => legal(Action::Run { company, routes: routes.clone(), revenue: None }),
            Cmd::Dividend(kind) => legal(Action::Dividend { company, kind: *kind }),
            Cmd::BuyTrain { train, from, price } => {
                let sellers: Vec<String> = match from {
                    Some(Seller::Bank) => vec!["bank".into()],
                    Some(Seller::Pool) => vec!["pool".into()],
                    Some(Seller::Company(c)) => vec![c.clone()],
                    None => vec!["bank".into(), "pool".into()],
                };
                // RULING K75: another player's company is offered the price; its director answers.
                if let Some(Seller::Company(c)) = from
                    && let Some(seller) = self.entity_by_id(c)
                    && self.controller(s, seller).is_some_and(|x| self.controller(s, e) != Some(x))
                {
                    let Some(price) = *price else {
                        return Err(format!(
                            "{c} is directed by another player: name the price you offer, e.g. {company}: BUY TRAIN {train} FROM {c} FOR 100"
                        ));
                    };
                    return legal(Action::OfferTrain {
                        company,
                        train: train.clone(),
                        from: c.clone(),
                        price,
                    });
                }
                let price = price.unwrap_or_else(|| self.train_price(train));
                let mut why = None;
                for from in sellers {
                    match legal(Action::BuyTrain {
                        company: company.clone(),
                        train: train.clone(),
                        from,
                        price,
                    }) {
                        Ok(a) => return Ok(a),
                        Err(x) => {
                            why.get_or_insert(x);
                        }
                    }
                }
                Err(why.unwrap_or_default())
            }
            Cmd::Discard { train } => legal(Action::DiscardTrain { company, train: train.clone() }),
            Cmd::SellTrain { to, .. } => {
                Err(format!("it answers {to}'s offer in {to}'s trains step, not {company}'s own turn"))
            }
            Cmd::Sell { .. } => match self.controller(s, e) {
                Some(p) => self.stock_action(s, p, cmd),
                None => Err("no president to sell".into()),
            },
            other => Err(format!("'{other}' is not an operating order")),
        }
    }

    /// Answers the operating company's decision for its director `p` (see the module comment).
    pub(crate) fn answer_operating(&self, s: &State, p: u8, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let mut notes = Vec::new();
        for o in &mut sheet.orders {
            o.order.progress.referral = None;
        }
        let Some(e) = self.operating_entity(s) else { return Answer { action: None, notes } };
        self.reopen_declined(s, sheet);
        let id = self.entity_id(s, e);
        let step = s.or.turn.step;
        let ctx = Ctx { seat: p, company: Some(&id) };
        let lines = in_step_order(sheet, &id);
        let bought = sheet_trains(sheet, &id);
        for i in lines {
            let (line, order) = (sheet.orders[i].line, sheet.orders[i].order.clone());
            let Some(plan) = plan_for(&order, &id) else { continue };
            let mut cmds = Vec::new();
            commands(plan, &mut cmds);
            let first = first_rank(plan);
            // A step may be passed (track → token); the token step's TOKEN is offered in the track step too.
            match first {
                Some(r)
                    if r > rank(step)
                        && !(r == 1
                            && step == Step::Track
                            && cmds.iter().all(|c| matches!(c, Cmd::Token { .. }))) =>
                {
                    break;
                }
                Some(r) if r < rank(step) => {
                    sheet.used[i] = true;
                    notes.push(LineNote {
                        line,
                        executed: false,
                        note: format!("{order}: too late, {id} is in its {} step", step.name()),
                    });
                    continue;
                }
                _ => {}
            }
            match self.walk(s, ctx, plan, &mut |c| self.operating_action(s, e, c, &bought)) {
                Outcome::Nothing { path } => {
                    sheet.used[i] = true;
                    notes.push(super::plan::nothing_note(line, &path));
                }
                Outcome::Done { action, cmd, path } => {
                    sheet.used[i] = true;
                    if let Action::OfferTrain { train, from, price, .. } = &action {
                        sheet.orders[i].order.progress.offered = Some((train.clone(), from.clone(), *price));
                        let note = format!(
                            "{cmd}: offered {from} {price} M for its {train}-train; {from}'s director answers (RULING K75)"
                        );
                        notes.push(LineNote { line, executed: true, note });
                        return Answer { action: Some(action), notes };
                    }
                    let mut note = super::stock::describe(&cmd, &action, &path);
                    if !path.is_empty() && matches!(cmd, Cmd::Lay { .. } | Cmd::Token { .. }) {
                        note.push_str(" — HR 17 A: the director's own contingency");
                    }
                    notes.push(LineNote { line, executed: true, note });
                    return Answer { action: Some(action), notes };
                }
                Outcome::Failed { why, cmds } => {
                    sheet.used[i] = true;
                    if let Some(note) = unclear(&why) {
                        notes.push(LineNote { line, executed: false, note });
                        return Answer { action: self.can_pass(s).is_ok().then_some(Action::Pass), notes };
                    }
                    let why = why.join("; ");
                    if let Some(c) = cmds.iter().find(|c| matches!(c, Cmd::Lay { .. } | Cmd::Token { .. })) {
                        return self.ladder(s, e, sheet, i, c, why, notes);
                    }
                    notes.push(LineNote { line, executed: false, note: why });
                }
            }
        }
        // Silent about this step: a stated intention (HR 12) or the defaults.
        if matches!(step, Step::Track | Step::Token)
            && !self.orders_step(sheet, &id, step)
            && let Some((j, toward)) = super::ladder::stated_intent(sheet, &id)
        {
            let station = step == Step::Token;
            if self.has_candidates(s, e, station) {
                sheet.orders[j].order.progress.referral =
                    Some(Refer { station, target: Some(toward.clone()), line: None });
                notes.push(LineNote { line: sheet.orders[j].line, executed: false, note: format!("{id} has no {} order: its stated intention toward {toward} goes to the GM (HR 12, HR 17 B)", if station { "station" } else { "track" }) });
                return Answer { action: None, notes };
            }
        }
        let action = if sheet.is_empty() { None } else { self.default_turn(s) };
        Answer { action, notes }
    }

    /// Whether the sheet orders anything for `id` in `step` (used or not).
    fn orders_step(&self, sheet: &OrderSheet<Order>, id: &str, step: Step) -> bool {
        sheet.orders.iter().any(|o| {
            plan_for(&o.order, id).is_some_and(|p| {
                let mut cmds = Vec::new();
                commands(p, &mut cmds);
                cmds.iter().any(|c| step_of(c) == Some(step))
            })
        })
    }
}
