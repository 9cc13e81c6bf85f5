//! Answering a decision from a seat's sheet. Orders are tried in sheet order; one-shot orders
//! are used up when carried out, a MOVE when its last station is reached, `PAY FEES` stands
//! for the whole turn. A train reaching its pickup or dropoff station picks up or drops off
//! there. With no order that fits, the documented default applies (issue 17: the train stands
//! still and keeps its load; interrupts and voluntary choices pass).

use super::super::Confed;
use super::super::board;
use super::super::bribe::holds;
use super::super::chits::{is_troops, line_fee};
use super::super::data::Data;
use super::super::movement::cheapest_path;
use super::super::state::{Action, Stage, State, Task};
use super::Order;
use crate::engine::{Answer, LineNote, OrderSheet, Rules, Seat};

/// A station name that may end in `ON n` (or `#n`) to name one line's segment of a parallel
/// pair (RT 2.3.3, RULING F3: `Hanover, Richmond ON 4`): the name and the line.
pub(super) fn on_line(b: &str) -> (&str, Option<u8>) {
    let upper = b.to_ascii_uppercase();
    match upper.rfind(" ON ").or_else(|| upper.rfind(" #")) {
        Some(i) => match b.get(i..).map(|x| x.trim_start_matches([' ', 'O', 'N', 'o', 'n', '#'])) {
            Some(n) if n.trim().parse::<u8>().is_ok() => (b.get(..i).unwrap_or(b), n.trim().parse().ok()),
            _ => (b, None),
        },
        None => (b, None),
    }
}

/// The segments two station names join, the second name perhaps qualified by [`on_line`]; a
/// decision takes the first of them it allows, so either Hanover-Richmond segment can be named
/// by its stations alone (issue 34).
pub(super) fn segments(d: &Data, a: &str, b: &str) -> Vec<usize> {
    let (b, line) = on_line(b);
    board::segments_named(d, a, b, line)
}

/// The order is about this train's movement.
fn names_train(o: &Order, train: u8) -> bool {
    match o {
        Order::Move { train: x, .. }
        | Order::Shortest { train: x, .. }
        | Order::Abandon { train: x, .. }
        | Order::Leave { train: x, .. }
        | Order::Again(x) => *x == train,
        _ => false,
    }
}

struct Found {
    index: usize,
    action: Action,
    note: String,
    used: bool,
}

impl Confed {
    /// The action the sheet calls for at this decision.
    pub(in super::super) fn answer_from(&self, s: &State, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        let legal = self.legal_actions(s);
        let seat = self.deciding_seat(s).unwrap_or(Seat(1));
        // A train with orders picks up and drops off where it stands (RT 5.1.5, 5.1.6), even
        // once its MOVE is used up.
        if let (Stage::Move { train }, true) = (&s.stage, s.tasks.is_empty()) {
            let line = sheet.orders.iter().find(|o| names_train(&o.order, *train)).map(|o| o.line);
            let auto = [Action::DropOff, Action::PickUp].into_iter().find(|a| legal.contains(a));
            if let (Some(line), Some(a)) = (line, auto) {
                let note = if a == Action::PickUp { "picked up the load" } else { "delivered the load" };
                return Answer {
                    action: Some(a),
                    notes: vec![LineNote { line, executed: true, note: note.into() }],
                };
            }
        }
        let kind = self.decision_kind(s);
        let found = sheet.unused().find_map(|(i, o)| {
            // A line answers only the decisions it names (issue 34).
            if !kind.as_ref().is_some_and(|k| o.order.answers(&self.data, k)) {
                return None;
            }
            self.fit(s, seat, &o.order, &legal, sheet).map(|(action, note, used)| Found {
                index: i,
                action,
                note,
                used,
            })
        });
        match found {
            Some(f) if legal.contains(&f.action) || self.allows(s, &f.action) => {
                let line = sheet.orders.get(f.index).map(|o| o.line).unwrap_or(0);
                if f.used
                    && let Some(u) = sheet.used.get_mut(f.index)
                {
                    *u = true;
                }
                let mut notes = vec![LineNote { line, executed: true, note: f.note }];
                notes.extend(self.fee_note(s, seat, &f.action, sheet));
                Answer { action: Some(f.action), notes }
            }
            _ => Answer { action: None, notes: Vec::new() },
        }
    }

    /// What one order means here: (action, note, used up), or None if it does not apply.
    fn fit(
        &self,
        s: &State,
        seat: Seat,
        o: &Order,
        legal: &[Action],
        sheet: &OrderSheet<Order>,
    ) -> Option<(Action, String, bool)> {
        let d = &self.data;
        let ok = |a: Action| legal.contains(&a).then_some(a);
        let station = |n: &str| d.map.find_station(n);
        if let Some(task) = s.tasks.first() {
            return match (task, o) {
                (Task::Choose { kind, .. }, Order::Decline(_)) => {
                    ok(Action::Pass).map(|a| (a, format!("declined ({})", kind.title()), true))
                }
                (Task::Choose { kind, options, .. }, Order::Choose { pick, .. }) => {
                    let code = super::choose::code(d, kind, pick, seat, options)?;
                    ok(Action::Choose(code))
                        .map(|a| (a, format!("chosen: {}", self.option_words(kind, code)), true))
                }
                (Task::Cancel { .. }, Order::PlayWhen { special, .. }) => ok(Action::Cancel(*special))
                    .map(|a| (a, "played to cancel the Union's advance".into(), true)),
                (Task::Window { .. }, Order::Pay { .. } | Order::Play { .. }) => self.anytime(s, o, legal),
                (Task::Support { .. }, Order::Support { general, .. }) => {
                    ok(Action::Support(*general)).map(|a| (a, "played for the Offensive".into(), true))
                }
                (Task::Intervention { .. }, Order::Play { special: 4, .. }) => {
                    ok(Action::Intervene).map(|a| (a, "played".into(), true))
                }
                (Task::Donate { .. }, Order::Donate(k)) => {
                    ok(Action::Donate(*k)).map(|a| (a, "donated".into(), true))
                }
                (Task::Offer { from, amount, .. }, Order::Accept { amount: x, from: f })
                    if f == from && x == amount =>
                {
                    ok(Action::Accept).map(|a| (a, "accepted".into(), true))
                }
                _ => None,
            };
        }
        match (&s.stage, o) {
            (Stage::ChooseRrc { .. }, Order::Rrc(n)) => {
                ok(Action::ChooseRrc(*n)).map(|a| (a, "chosen".into(), true))
            }
            (Stage::Place, Order::Place { train, at, line }) => {
                let next = s.player(seat).and_then(|p| p.unplaced.first().copied())?;
                if *train != next {
                    return None;
                }
                let st = station(at)?;
                let a = legal.iter().find(|a| matches!(a, Action::PlaceTrain { station: x, line: l } if *x == st && line.is_none_or(|w| w == *l)))?;
                Some((a.clone(), "placed".into(), true))
            }
            (Stage::SelectLoads, Order::Select(n)) => {
                ok(Action::SelectLoad(*n)).map(|a| (a, "selected".into(), true))
            }
            (Stage::Dropoff { chit, .. }, Order::Deliver { load, to }) if load == chit => {
                ok(Action::Designate(station(to)?)).map(|a| (a, "designated".into(), true))
            }
            (Stage::Dropoff { chit, .. }, Order::Troops { to, .. }) if is_troops(d, *chit) => {
                ok(Action::Designate(station(to)?)).map(|a| (a, "designated".into(), true))
            }
            (Stage::TroopsPickup { .. }, Order::Troops { from, .. }) => {
                ok(Action::Designate(station(from)?)).map(|a| (a, "pickup designated".into(), false))
            }
            (Stage::Activate, Order::Activate(v)) => {
                let next = v.iter().find(|t| legal.contains(&Action::Activate(**t)))?;
                let last = v.iter().filter(|t| legal.contains(&Action::Activate(**t))).count() == 1;
                Some((Action::Activate(*next), "activated".into(), last))
            }
            (Stage::Activate, Order::ActivateAll) => {
                let a = legal.iter().find(|a| matches!(a, Action::Activate(_)))?;
                Some((a.clone(), "activated".into(), false))
            }
            (Stage::Activate, Order::Repair(t)) => {
                ok(Action::Repair(*t)).map(|a| (a, "repaired".into(), true))
            }
            (Stage::Activate | Stage::Move { .. }, Order::RepairBridge(a, b)) => {
                let x = segments(d, a, b).into_iter().find_map(|g| ok(Action::RepairBridge(g)))?;
                Some((x, "repaired".into(), true))
            }
            (Stage::Activate | Stage::Move { .. }, Order::Clear(a, b)) => {
                let x = segments(d, a, b).into_iter().find_map(|g| ok(Action::RemoveRipped(g)))?;
                Some((x, "cleared".into(), true))
            }
            (Stage::Activate, Order::Pay { .. } | Order::Play { .. }) => self.anytime(s, o, legal),
            (Stage::Undertake { .. } | Stage::Move { .. }, Order::Take(n)) => ok(Action::TakeAbandoned(*n))
                .or_else(|| ok(Action::TakeDisplay(*n)))
                .map(|a| (a, "undertaken".into(), true)),
            (Stage::ChooseLoad { drawn, .. }, Order::Take(n)) if n != drawn => {
                ok(Action::TakeDisplay(*n)).map(|a| (a, "taken from the display".into(), true))
            }
            (Stage::ChooseLoad { drawn, .. }, Order::Take(n)) if n == drawn => {
                ok(Action::TakeDrawn).map(|a| (a, "kept the drawn load".into(), true))
            }
            (Stage::ChooseLoad { .. }, Order::TakeDrawn) => {
                ok(Action::TakeDrawn).map(|a| (a, "kept the drawn load".into(), true))
            }
            // RULING F84: the drawn load kept, or declined for a displayed one, only if it passes
            // the test the line names.
            // With `FOR`, only the choice made for that train (the kinds already say so).
            (Stage::ChooseLoad { drawn, train }, Order::TakeDrawnIf { test, train: t })
                if t.is_none_or(|t| t == *train) && self.drawn_passes(s, *drawn, test) =>
            {
                ok(Action::TakeDrawn).map(|a| (a, format!("kept the drawn load ({test})"), true))
            }
            (Stage::ChooseLoad { drawn, train }, Order::TakeInstead { load, when, train: t })
                if t.is_none_or(|t| t == *train) && load != drawn && self.drawn_passes(s, *drawn, when) =>
            {
                ok(Action::TakeDisplay(*load)).map(|a| {
                    (a, format!("took load {load} from the display instead (the drawn load: {when})"), true)
                })
            }
            (Stage::Move { train }, _) => self.fit_move(s, seat, *train, o, legal, sheet),
            (Stage::RrcPhase { .. }, Order::Bid { rrc, amount }) => {
                ok(Action::Bid { rrc: *rrc, amount: *amount }).map(|a| (a, "bid".into(), true))
            }
            (Stage::RrcPhase { .. }, Order::BidUpTo { rrc, .. }) => {
                ok(Action::Bid { rrc: *rrc, amount: 100 }).map(|a| (a, "opened the bidding".into(), false))
            }
            (Stage::Bidding { rrc, .. }, Order::Bid { rrc: r, amount }) if r == rrc => {
                ok(Action::Bid { rrc: *rrc, amount: *amount }).map(|a| (a, "bid".into(), true))
            }
            // RT 4.1.1: the smallest raise, as long as the limit allows.
            (Stage::Bidding { rrc, bid, .. }, Order::BidUpTo { rrc: r, max })
                if r == rrc && bid + 100 <= *max =>
            {
                ok(Action::Bid { rrc: *rrc, amount: bid + 100 }).map(|a| (a, "raised".into(), false))
            }
            (Stage::PlaceBought { .. }, Order::Place { at, .. }) => {
                let st = station(at)?;
                let a =
                    legal.iter().find(|a| matches!(a, Action::PlaceTrain { station: x, .. } if *x == st))?;
                Some((a.clone(), "placed".into(), true))
            }
            (Stage::Contract { .. }, Order::Replace(n)) => {
                ok(Action::Replace(*n)).map(|a| (a, "replaced".into(), true))
            }
            _ => None,
        }
    }

    /// What may be done "at any time" (RT 1.0, 6.0), in the activation phase or a window: an
    /// offer of money, or a Special Event whose `WHEN` condition, if any, holds now.
    fn anytime(&self, s: &State, o: &Order, legal: &[Action]) -> Option<(Action, String, bool)> {
        let d = &self.data;
        let ok = |a: Action| legal.contains(&a).then_some(a);
        match o {
            // RULING F42: an offer with a condition is checked directly (the list holds none).
            Order::Pay { amount, to, cond } => {
                let a = Action::Offer { to: *to, amount: *amount, cond: cond.clone() };
                self.allows(s, &a).then_some((a, "offered".into(), true))
            }
            Order::Play { special, target, with, when } => {
                if when.as_ref().is_some_and(|c| !holds(d, s, c)) {
                    return None;
                }
                let a = match special {
                    2 => {
                        Action::Offensive { station: d.map.find_station(target.as_deref()?)?, general: *with }
                    }
                    6 => Action::TreasureHunt(target.as_deref()?.trim_start_matches('#').parse().ok()?),
                    7 => Action::GreatTrainRaid,
                    8 => Action::ThroughFreight,
                    _ => return None,
                };
                let note = match when {
                    Some(c) => format!("played ({c})"),
                    None => "played".into(),
                };
                ok(a).map(|a| (a, note, true))
            }
            _ => None,
        }
    }

    /// MOVE, SHORTEST, ABANDON, LEAVE and AGAIN for the moving train.
    fn fit_move(
        &self,
        s: &State,
        seat: Seat,
        train: u8,
        o: &Order,
        legal: &[Action],
        sheet: &OrderSheet<Order>,
    ) -> Option<(Action, String, bool)> {
        let d = &self.data;
        let t = s.train(seat, train)?;
        let at = t.station()?;
        let ok = |a: Action| legal.contains(&a).then_some(a);
        if !names_train(o, train) {
            return None;
        }
        // RT 5.6 (RULING F83): a step that may pay the fee pays it when the sheet's fee line for
        // this train and that line says so.
        let step_to = |to: usize| {
            let paid = ok(Action::Step { to, fee: true });
            let pays = paid.is_some() && self.fee_choice(s, seat, train, to, sheet).is_some_and(|(_, p)| p);
            if pays { paid } else { ok(Action::Step { to, fee: false }) }
        };
        match o {
            Order::Abandon { at: x, .. } if d.map.find_station(x) == Some(at) => {
                ok(Action::Abandon).map(|a| (a, "abandoned".into(), true))
            }
            Order::Leave { at: x, .. } if d.map.find_station(x) == Some(at) => {
                ok(Action::DepotDrop).map(|a| (a, "left at the Depot".into(), true))
            }
            Order::Again(_) => ok(Action::Draw).map(|a| (a, "undertakes again".into(), true)),
            Order::Move { path, .. } => {
                let ids: Vec<usize> = path.iter().filter_map(|n| d.map.find_station(n)).collect();
                if ids.len() != path.len() || ids.last() == Some(&at) {
                    return None;
                }
                let next = match ids.iter().rposition(|x| *x == at) {
                    Some(i) => *ids.get(i + 1)?,
                    None => *ids.first()?,
                };
                let last = ids.last() == Some(&next);
                step_to(next).map(|a| (a, format!("moved to {}", board::name(d, next)), last))
            }
            Order::Shortest { to, .. } => {
                let goal = d.map.find_station(to)?;
                if goal == at {
                    return None;
                }
                let b = board::board(s, Some((seat, train)));
                let mut m = board::mover(s, seat, t);
                // The route is planned with the fees the sheet would pay (RULING F6, F83).
                let amount = line_fee(d, t.load.as_ref().map(|c| c.chit));
                m.fee_paid.extend(
                    (1..=24u8).filter(|l| self.fee_line(s, sheet, train, *l, amount).is_some_and(|(_, p)| p)),
                );
                let route = cheapest_path(&d.map, &b, &m, t.line, at, goal)?;
                let next = route.steps.first()?.station;
                step_to(next).map(|a| {
                    (
                        a,
                        format!("moved to {} (shortest to {})", board::name(d, next), board::name(d, goal)),
                        next == goal,
                    )
                })
            }
            _ => None,
        }
    }
}

impl Confed {
    /// RT 5.6 (RULING F83): the fee line deciding the fee of `train`'s step into `to`, when the
    /// step may be taken paying it: its index in the sheet and whether it pays.
    fn fee_choice(
        &self,
        s: &State,
        seat: Seat,
        train: u8,
        to: usize,
        sheet: &OrderSheet<Order>,
    ) -> Option<(usize, bool)> {
        let opt = self.step_option(s, seat, train, s.mp, to, true)?;
        let amount = line_fee(&self.data, s.train(seat, train)?.load.as_ref().map(|c| c.chit));
        self.fee_line(s, sheet, train, opt.line, amount)
    }

    /// The note on the fee line that decided a step's fee, if one did.
    fn fee_note(&self, s: &State, seat: Seat, a: &Action, sheet: &OrderSheet<Order>) -> Option<LineNote> {
        let (Stage::Move { train }, Action::Step { to, fee }) = (&s.stage, a) else { return None };
        let (i, pays) = self.fee_choice(s, seat, *train, *to, sheet)?;
        let line = sheet.orders.get(i)?.line;
        let note = if pays && *fee { "paid the line usage fee" } else { "did not pay the line usage fee" };
        Some(LineNote {
            line,
            executed: true,
            note: format!("{note} (into {})", board::name(&self.data, *to)),
        })
    }
}
