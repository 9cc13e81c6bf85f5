//! Answering a decision from a seat's sheet. Lines are tried in order, each only at a decision
//! of a kind it names (`decision`); a line meant for another decision is kept for later; a line
//! that cannot be carried out is used up with the reason noted, and a line for the seat's own
//! turn still unused when the turn ends is noted as not carried out. `PLACE n` stays in force
//! until n resources went on the card this turn; a standing answer (`EVENT`, `REBELLION`) stays
//! in force for every decision it names.
//! A DRAFT list takes the first card still offered that the seat may take (RULING E30),
//! noting why each earlier preference was skipped.

use super::super::R1800;
use super::super::state::*;
use super::super::timing::Timing;
use super::{CardRef, Cond, Kind, Order, Pref, Subject};
use crate::engine::{Answer, LineNote, OrderSheet, Rules};

/// What one line makes of the decision.
enum Fit {
    Act(Action, String, bool),
    NotNow,
    Fail(String),
}

impl R1800 {
    /// The action the sheet calls for now, with notes per line tried.
    pub fn answer_from(&self, s: &State, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        if s.stage == Stage::War {
            return self.answer_war_from(s, sheet);
        }
        let legal = self.legal_actions(s);
        let now = Subject::now(s);
        let mut notes = Vec::new();
        for i in 0..sheet.orders.len() {
            if sheet.used.get(i).copied().unwrap_or(true) {
                continue;
            }
            let line = sheet.orders[i].line;
            // A line answers only a decision it names (DESIGN "Orders and decisions").
            let subjects = self.subjects(&sheet.orders[i].order.kind);
            if !now.is_some_and(|x| subjects.contains(&x)) {
                continue;
            }
            // RULING E99: an admin card written after an end-of-turn move waits for those moves.
            if now == Some(Subject::Turn)
                && subjects.contains(&Subject::EndMoves)
                && sheet.orders[..i].iter().any(|o| self.end_move_line(s, &o.order.kind))
            {
                continue;
            }
            match self.fit(s, &sheet.orders[i].order.kind, &legal) {
                Fit::Act(action, note, done) => {
                    if done {
                        sheet.used[i] = true;
                    }
                    notes.push(LineNote { line, executed: true, note });
                    return Answer { action: Some(action), notes };
                }
                Fit::NotNow => {}
                Fit::Fail(why) => {
                    sheet.used[i] = true;
                    notes.push(LineNote { line, executed: false, note: why });
                }
            }
        }
        if now == Some(Subject::EndMoves) {
            notes.extend(self.left_at_turn_end(sheet));
        }
        Answer { action: None, notes }
    }

    /// The seat's turn ends (no line fits its end-of-turn moves): its lines for decisions of its
    /// own turn still unused are used up and noted as not carried out, with the reason.
    /// RULING E96.
    fn left_at_turn_end(&self, sheet: &mut OrderSheet<Order>) -> Vec<LineNote> {
        let mut notes = Vec::new();
        for i in 0..sheet.orders.len() {
            let o = &sheet.orders[i];
            let subjects = self.subjects(&o.order.kind);
            // Line 0 holds the standing answers carried from earlier sheets: they wait quietly.
            if sheet.used[i] || o.line == 0 || !subjects.iter().all(|x| x.in_own_turn()) {
                continue;
            }
            sheet.used[i] = true;
            let note = match subjects.first() {
                Some(Subject::Turn | Subject::EndMoves) | None => {
                    "your turn ended before it could be done in full".to_string()
                }
                Some(x) => format!("{} never came up in your turn", x.words(self)),
            };
            notes.push(LineNote { line: o.line, executed: false, note });
        }
        notes
    }

    /// Whether a line is an end-of-turn move (`MOVE REGIMENT`, `DECLARE`, and `MOVE POP` but
    /// under a Command Economy, whose pop moves at the start of the turn), for RULING E99.
    fn end_move_line(&self, s: &State, k: &Kind) -> bool {
        let command = || {
            let d = self.data();
            let seat = self.seat(s);
            super::super::board::active_card(s, d, seat, super::super::data::DevType::Policy, 1)
                .is_some_and(|c| c.command_economy)
        };
        match k {
            Kind::MoveRegiment { .. } | Kind::Declare(_) => true,
            Kind::MovePop { .. } => !command(),
            Kind::If { then, otherwise, .. } => {
                self.end_move_line(s, then) || otherwise.as_deref().is_some_and(|o| self.end_move_line(s, o))
            }
            _ => false,
        }
    }

    fn seat(&self, s: &State) -> usize {
        self.next_decision(s).map(|d| d.seat.index()).unwrap_or(0)
    }

    fn fit(&self, s: &State, k: &Kind, legal: &[Action]) -> Fit {
        let d = self.data();
        let seat = self.seat(s);
        let pending = s.pending.first().map(|p| p.choice);
        let main = matches!(s.stage, Stage::Turn { end_moves: false, .. }) && pending.is_none();
        let end = matches!(s.stage, Stage::Turn { end_moves: true, .. }) && pending.is_none();
        let draft = matches!(s.stage, Stage::Draft { .. }) && pending.is_none();
        let take = |a: Action, note: String, done: bool| {
            if legal.contains(&a) {
                Fit::Act(a, note, done)
            } else {
                Fit::Fail(format!("{note}: not allowed now"))
            }
        };
        let first_of = |choice: Choice, wanted: Vec<Action>, what: &str| {
            if pending != Some(choice) {
                return Fit::NotNow;
            }
            match wanted.into_iter().find(|a| legal.contains(a)) {
                Some(a) => Fit::Act(a, format!("{what} as ordered"), true),
                None => Fit::Fail(format!("none of the places named for the {what} is possible")),
            }
        };
        match k {
            Kind::Draft(prefs) if draft => self.draft_fit(s, seat, prefs).kept_for_a_second_pick(s, seat),
            Kind::Place { n, res, card } if main => {
                let pl = &s.players[seat];
                let candidates = self.cards_named(s, seat, card);
                let Some(&at) = candidates
                    .iter()
                    .find(|&&i| self.can_place(s, seat, i, *res).is_ok())
                    .or_else(|| candidates.first())
                else {
                    return Fit::Fail("you have no such card".into());
                };
                let done = pl.cards[at].placed[*res] + 1 >= *n;
                if let Err(why) = self.can_place(s, seat, at, *res) {
                    return Fit::Fail(why);
                }
                take(
                    Action::Place { card: at as u8, res: *res as u8 },
                    format!("placed 1 {} on {}", RES[*res], d.dev_name(pl.cards[at].card)),
                    done,
                )
            }
            Kind::Activate { card, discard, alone, military } if main => {
                let mut why = String::from("you have no such card");
                for at in self.cards_named(s, seat, card) {
                    // RULING E79: `ALONE` asks for the card's activation by admin cards alone.
                    let (ok, a) = if *alone {
                        let military = military.clone();
                        let ok = self.check_activation_paid(s, seat, at, discard, &military, true);
                        (ok, Action::ActivateAlone { card: at as u8, discard: discard.clone(), military })
                    } else {
                        (
                            self.can_activate(s, seat, at, discard),
                            Action::Activate { card: at as u8, discard: discard.clone() },
                        )
                    };
                    match ok {
                        Ok(()) => {
                            let how = if *alone { " alone" } else { "" };
                            return take(
                                a,
                                format!("activated {}{how}", d.dev_name(s.players[seat].cards[at].card)),
                                true,
                            );
                        }
                        Err(w) => why = w,
                    }
                }
                Fit::Fail(why)
            }
            Kind::Play { card, args } => {
                let Some(opt) = d.admin[usize::from(*card)].play.get(usize::from(args.option)) else {
                    return Fit::Fail("that card has no such option".into());
                };
                if Timing::now(s, seat) != Some(Timing::of(opt.what)) {
                    return Fit::NotNow;
                }
                let t = match self.play_target(s, seat, args) {
                    Ok(t) => self.with_count(s, seat, opt.what, t),
                    Err(why) => return Fit::Fail(why),
                };
                match self.check_admin(s, seat, *card, args.option, &t) {
                    Ok(_) => take(
                        Action::Admin { card: *card, option: args.option, target: t },
                        format!("played {}", d.admin[usize::from(*card)].name),
                        true,
                    ),
                    Err(why) => Fit::Fail(why),
                }
            }
            Kind::Shift { from, to } if main => {
                let mut why = String::from("you have no such card");
                for a in self.cards_named(s, seat, from) {
                    for b in self.cards_named(s, seat, to) {
                        match self.can_shift(s, seat, a, b) {
                            Ok(()) => {
                                let names = (
                                    d.dev_name(s.players[seat].cards[a].card),
                                    d.dev_name(s.players[seat].cards[b].card),
                                );
                                let note = format!("moved 1 C from {} to {}", names.0, names.1);
                                return take(Action::Shift { from: a as u8, to: b as u8 }, note, true);
                            }
                            Err(w) => why = w,
                        }
                    }
                }
                Fit::Fail(why)
            }
            Kind::Migrate { from, to } if main => {
                take(Action::Migrate { from: *from, to: *to }, "migrated".into(), true)
            }
            Kind::MovePop { from, to } if end => {
                take(Action::MovePop { from: *from, to: *to }, "moved a pop".into(), true)
            }
            // RULING E22: Command Economy's move at the start of the turn.
            Kind::MovePop { from, to } if pending == Some(Choice::StartMove) => take(
                Action::MovePop { from: *from, to: *to },
                "moved a pop (Command Economy, at the start of your turn)".into(),
                true,
            ),
            Kind::MoveRegiment { from, to } if end => {
                take(Action::MoveRegiment { from: *from, to: *to }, "moved a regiment".into(), true)
            }
            Kind::Build(ps) => {
                first_of(Choice::Factory, ps.iter().map(|p| Action::Build(*p)).collect(), "factory")
            }
            Kind::Grow(ps) => first_of(Choice::Pop, ps.iter().map(|p| Action::Grow(*p)).collect(), "new pop"),
            Kind::Recruit(ps) => {
                first_of(Choice::Recruit, ps.iter().map(|p| Action::Recruit(*p)).collect(), "regiment")
            }
            Kind::Tech(cs) => {
                first_of(Choice::Tech, cs.iter().map(|c| Action::Tech(*c)).collect(), "technology")
            }
            Kind::TradeTech { cards, with } => {
                let partner = match pending {
                    Some(Choice::Barter { with: o } | Choice::TechOf { of: o }) => usize::from(o),
                    _ => return Fit::NotNow,
                };
                let power = usize::from(s.players[partner].power);
                if with.is_some_and(|w| w != power) {
                    return Fit::NotNow;
                }
                match cards.iter().map(|c| Action::Tech(*c)).find(|a| legal.contains(a)) {
                    Some(a) => {
                        Fit::Act(a, format!("traded technologies with {}", d.powers[power].name), true)
                    }
                    // A line naming none of this trade's technologies may fit a later trade.
                    None if with.is_none() => Fit::NotNow,
                    None => Fit::Fail(format!(
                        "none of the technologies named can be taken from {}",
                        d.powers[power].name
                    )),
                }
            }
            // Issue 35: `OF` names whose pop; without it, the first owner with a pop there.
            Kind::Convert(ps) => {
                let wanted = ps
                    .iter()
                    .flat_map(|&(p, o)| {
                        o.map_or(0..9u8, |o| o..o + 1)
                            .map(move |owner| Action::Convert { province: p, owner })
                    })
                    .collect();
                first_of(Choice::Convert, wanted, "conversion")
            }
            Kind::Educate(pairs) => first_of(
                Choice::Educate,
                pairs.iter().map(|&(from, to)| Action::Educate { from, to }).collect(),
                "move into a city",
            ),
            // RULING E81: without OF, the first owner with a pop there (powers in data order, then
            // neutral).
            Kind::Massacre(ts) => {
                let wanted = ts
                    .iter()
                    .flat_map(|&(p, o)| {
                        o.map_or(0..9u8, |o| o..o + 1)
                            .map(move |owner| Action::Massacre { province: p, owner })
                    })
                    .collect();
                first_of(Choice::Massacre, wanted, "massacre")
            }
            Kind::DiscardMilitary(cs) => first_of(
                Choice::DiscardMilitary,
                cs.iter().map(|c| Action::DiscardMilitary(*c)).collect(),
                "discard",
            ),
            Kind::Raid { power, route } => {
                let Some(o) = s.seat_of(*power) else {
                    return Fit::Fail("that power is not in the game".into());
                };
                first_of(Choice::NavyRaid, vec![Action::Raid { seat: o, route: *route }], "raid")
            }
            // FACTS §6.1: the Conquest ambition declares war at the end of its turn (RULING E68).
            Kind::Declare(power) if end => {
                let name = &d.powers[*power].name;
                match s.seat_of(*power) {
                    None => Fit::Fail(format!("{name} is not in the game")),
                    Some(_) if legal.contains(&Action::Declare(*power as u8)) => {
                        Fit::Act(Action::Declare(*power as u8), format!("declared war on {name}"), true)
                    }
                    Some(_) => Fit::Fail(format!(
                        "war on {name} cannot be declared: it needs the Conquest ambition, {name} \
                         controlling a province next to one of yours, and no war between you this round"
                    )),
                }
            }
            Kind::Retaliate(power) if matches!(s.stage, Stage::Reprisal { .. }) && pending.is_none() => {
                // RULING E72: the answer to a wrong is a Diplomatic Action (no free declaration).
                let name = &d.powers[*power].name;
                let on = s.seat_of(*power);
                let diplomatic = legal.iter().find(|a| {
                    matches!(a, Action::Admin { card, option, target } if target.seat == on
                        && d.admin[usize::from(*card)].play.get(usize::from(*option))
                            .is_some_and(|o| o.what == super::super::data::AdminEffect::Retaliate))
                });
                match diplomatic {
                    Some(a) => Fit::Act(a.clone(), format!("played Diplomatic Action: war on {name}"), true),
                    None => Fit::Fail(format!(
                        "war on {name} cannot be declared: it takes a Diplomatic Action in hand and a wrong done by {name} this round (a raid, cleansing, massacre, sabotage or supported rebellion), with no war between you yet"
                    )),
                }
            }
            // FACTS §4.1 Corporations, §4.3 Hospitals (RULING E78).
            Kind::Incorporate(r) if pending == Some(Choice::Factory) => {
                let named = |i: &Option<u8>| match (r, i) {
                    (None, _) => true,
                    (Some(r), Some(i)) => self.cards_named(s, seat, r).contains(&usize::from(*i)),
                    (Some(_), None) => false,
                };
                match legal.iter().find(|a| matches!(a, Action::Incorporate(i) if named(i))) {
                    Some(a) => Fit::Act(a.clone(), "took prosperity instead of a factory".into(), true),
                    None => Fit::Fail(
                        "Corporations are not your industry policy, or no such Stock Exchange has room"
                            .into(),
                    ),
                }
            }
            // Issue 35: `FROM` names the Hospitals that pays.
            Kind::Hospital { pop, card } if pending == Some(Choice::Hospital) => {
                let named = |c: &u8| {
                    card.as_ref().is_none_or(|r| self.cards_named(s, seat, r).contains(&usize::from(*c)))
                };
                match legal
                    .iter()
                    .find(|a| matches!(a, Action::Heal { pop: p, card: c } if p == pop && named(c)))
                {
                    Some(a) => Fit::Act(a.clone(), "used your Hospitals".into(), true),
                    None => Fit::Fail("no Hospitals of yours named holds the commerce for that".into()),
                }
            }
            // The subject check above lets a DECLINE line reach only the decision it names.
            Kind::Decline(x) if Subject::now(s) == Some(*x) => {
                take(Action::Skip, format!("declined {}", x.words(self)), true)
            }
            Kind::Deficit(_) | Kind::Upkeep(_) | Kind::Event { .. } | Kind::Rebellion(_) => {
                let Some(&p) = s.pending.first() else { return Fit::NotNow };
                // A standing answer stays in force for every decision it names.
                let done = matches!(k, Kind::Deficit(_) | Kind::Upkeep(_));
                match self.fit_owed(p, k, legal) {
                    Ok(Some((a, note))) => Fit::Act(a, note, done),
                    Ok(None) => Fit::NotNow,
                    Err(why) if done => Fit::Fail(why),
                    // A standing answer that cannot be carried out here leaves this one to the
                    // rules' default and stays for the next.
                    Err(_) => Fit::NotNow,
                }
            }
            Kind::If { cond, then, otherwise } => {
                let branch = if self.holds(s, seat, cond) { Some(then) } else { otherwise.as_ref() };
                match branch {
                    Some(b) => self.fit(s, b, legal),
                    None if main || end => Fit::Fail("the condition did not hold".into()),
                    None => Fit::NotNow,
                }
            }
            _ => Fit::NotNow,
        }
    }

    /// A war decision: the seat's `WAR` lines are the war procedure's standing orders.
    fn answer_war_from(&self, s: &State, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let Some(power) = s.war.to_act() else { return Answer { action: None, notes: Vec::new() } };
        // An IF line wraps a WAR line: its condition is read now, for the seat at war.
        let seat = s.seat_of(usize::from(power.0)).map(usize::from);
        let war_line = |k: &Kind| -> Option<super::super::war::WarStandingOrder> {
            match k {
                Kind::War(w) => Some(w.clone()),
                Kind::If { cond, then, otherwise } => {
                    let branch = if seat.is_some_and(|x| self.holds(s, x, cond)) {
                        Some(then)
                    } else {
                        otherwise.as_ref()
                    };
                    match branch.map(|b| &**b) {
                        Some(Kind::War(w)) => Some(w.clone()),
                        _ => None,
                    }
                }
                _ => None,
            }
        };
        let (idx, orders): (Vec<usize>, Vec<_>) = (0..sheet.orders.len())
            .filter(|&i| !sheet.used[i])
            .filter_map(|i| {
                let w = war_line(&sheet.orders[i].order.kind)?;
                Some((i, crate::engine::Numbered { line: sheet.orders[i].line, order: w }))
            })
            .unzip();
        let mut war_sheet = OrderSheet::new(orders);
        let mut t = s.clone();
        let b = super::super::warlink::Board { d: self.data(), s: &mut t };
        let a = super::super::war::answer_war(&b, &s.war, power, &mut war_sheet);
        for (k, &i) in idx.iter().enumerate() {
            sheet.used[i] = war_sheet.used[k];
        }
        Answer { action: a.action.map(Action::War), notes: a.notes }
    }

    /// A DRAFT list at the seat's pick (RULING E30).
    fn draft_fit(&self, s: &State, seat: usize, prefs: &[Pref]) -> Fit {
        let d = self.data();
        let mut skipped = Vec::new();
        for p in prefs {
            match p {
                Pref::Pass => {
                    return Fit::Act(Action::PassPick, with_skips("passed", &skipped), true);
                }
                Pref::Card(c) => match s.offer.iter().position(|x| x == c) {
                    None => skipped.push(format!("{} is not offered", d.dev_name(*c))),
                    Some(at) => match super::super::board::meets(s, d, seat, *c) {
                        Ok(()) => {
                            return Fit::Act(
                                Action::Pick(at as u8),
                                with_skips(&format!("took {}", d.dev_name(*c)), &skipped),
                                true,
                            );
                        }
                        Err(why) => skipped.push(why),
                    },
                },
            }
        }
        Fit::Act(Action::PassPick, with_skips("passed: no preference could be taken", &skipped), true)
    }

    /// Tableau indices a card reference may mean (uncovered cards only).
    pub(super) fn cards_named(&self, s: &State, seat: usize, r: &CardRef) -> Vec<usize> {
        let cards = &s.players[seat].cards;
        match r {
            CardRef::Number(n) => {
                let i = usize::from(*n).wrapping_sub(1);
                cards.get(i).filter(|h| !h.covered).map(|_| vec![i]).unwrap_or_default()
            }
            CardRef::Named(c) => {
                (0..cards.len()).filter(|&i| cards[i].card == *c && !cards[i].covered).collect()
            }
        }
    }

    /// Whether a condition holds for the seat now.
    fn holds(&self, s: &State, seat: usize, c: &Cond) -> bool {
        let pl = &s.players[seat];
        match c {
            Cond::Supply(r, n) => pl.supply[*r] >= *n,
            Cond::Prosperity(n) => pl.prosperity >= *n,
            Cond::Round(n) => s.round + 1 >= *n,
            Cond::Holds(a) => pl.admin.contains(a),
            Cond::HasCard(c) => pl.cards.iter().any(|h| h.card == *c && !h.covered),
            Cond::Military(n) => pl.military.len() >= usize::from(*n),
            Cond::AtWar(with) => {
                let me = super::super::war::PowerId(pl.power);
                match with {
                    None => s.war.involved(me),
                    Some(o) => s.war.hostile(me, super::super::war::PowerId(*o as u8)),
                }
            }
            Cond::Controls(p) => s.controls(seat, *p),
            Cond::Not(x) => !self.holds(s, seat, x),
        }
    }
}

impl Fit {
    /// RULING E70: a DRAFT list taking a card for a seat with a second pick to come (Policy
    /// Initiative) stays in force for that pick.
    fn kept_for_a_second_pick(self, s: &State, seat: usize) -> Fit {
        match self {
            Fit::Act(a, note, _) => {
                let again = matches!(&s.stage, Stage::Draft { to_pick }
                    if to_pick.iter().filter(|x| usize::from(**x) == seat).count() > 1);
                Fit::Act(a, note, !again)
            }
            other => other,
        }
    }
}

fn with_skips(what: &str, skipped: &[String]) -> String {
    if skipped.is_empty() { what.to_string() } else { format!("{what} (skipped: {})", skipped.join("; ")) }
}
