//! The echo of a whole sheet (issue 34; DESIGN "Orders and decisions", the contract's
//! `Orders::advise_sheet`, as 1835's): each line is judged after the lines before it on the same
//! sheet. The lines are carried out in sheet order where they answer the same decision, so the
//! echo keeps a ledger as it reads them: the money the earlier lines spend (activations, repairs,
//! offers, donations, a fee budget) before any payout, the trains they activate, where their MOVE
//! lines leave each train, and the loads whose dropoff they designate. A line that spends money
//! the lines before it have already spent, activates a train again, moves a train from where an
//! earlier line no longer leaves it, or designates a dropoff again is flagged. Payouts are not
//! certain (a move can be stopped by congestion, a marker, an event or a seizure), so they are
//! not added to the money; where an earlier MOVE line would deliver a load the train carries, a
//! line short of money is told what that delivery would pay and that the echo cannot know
//! whether it arrives.

use super::super::Confed;
use super::super::board::name;
use super::super::chits::{self, train_name};
use super::super::decision::Kind;
use super::super::state::{Place, State};
use super::Order;
use crate::engine::{Numbered, Seat};
use std::collections::BTreeMap;

/// What the lines read so far will have done.
struct Ahead {
    /// The seat's money after them, before any payout.
    money: u32,
    /// The lines that spent money (their numbers).
    spent_by: Vec<usize>,
    /// The trains activated (or repaired) and by which line.
    activated: BTreeMap<u8, usize>,
    /// Where a MOVE line leaves a train, and which line.
    at: BTreeMap<u8, (usize, usize)>,
    /// Loads whose dropoff a line designates, and which.
    designated: BTreeMap<u32, usize>,
    /// Deliveries the MOVE lines would make if their trains arrive: load, line, payout.
    delivers: BTreeMap<u32, (usize, u32)>,
}

impl Confed {
    /// Each line's echo (`echo_line`) followed by what the lines before it change (module doc;
    /// RULING F85).
    pub(super) fn echo_sheet(
        &self,
        s: &State,
        seat: Seat,
        orders: &[Numbered<Order>],
    ) -> Vec<Option<String>> {
        let mut a = Ahead {
            money: s.player(seat).map(|p| p.money).unwrap_or(0),
            spent_by: Vec::new(),
            activated: BTreeMap::new(),
            at: BTreeMap::new(),
            designated: BTreeMap::new(),
            delivers: BTreeMap::new(),
        };
        let activates_anywhere = |t: u8| {
            orders.iter().any(|o| match &o.order {
                Order::Activate(v) => v.contains(&t),
                Order::ActivateAll => true,
                Order::Repair(x) => *x == t,
                _ => false,
            })
        };
        // The train whose activation is under way (its load, its steps, a fee) was activated
        // before this sheet's decision: a MOVE for it needs no ACTIVATE line.
        let under_way = match self.decision_kind(s) {
            Some(
                Kind::Move { train }
                | Kind::Undertake { train }
                | Kind::ChooseLoad { train, .. }
                | Kind::TroopsPickup { train, .. }
                | Kind::Fee { train, .. },
            ) => Some(train),
            Some(Kind::Dropoff { seat: owner, train, .. }) if owner == seat => Some(train),
            _ => None,
        };
        orders
            .iter()
            .map(|o| {
                let mut parts = vec![self.echo_line(s, seat, &o.order)];
                parts.extend(self.after_lines_before(s, seat, &mut a, o));
                if let Some(t) = moved_train(&o.order)
                    && s.active() == seat
                    && !s.to_move.contains(&t)
                    && under_way != Some(t)
                    && s.train(seat, t).is_some()
                    && !activates_anywhere(t)
                {
                    parts.push(format!("no line of this sheet activates your {}", train_name(t)));
                }
                Some(parts.join("; "))
            })
            .collect()
    }

    /// The notes on one line from the ledger, which the line then updates.
    fn after_lines_before(&self, s: &State, seat: Seat, a: &mut Ahead, o: &Numbered<Order>) -> Vec<String> {
        let d = &self.data;
        let c = &d.tables.costs;
        let mut notes = Vec::new();
        let mut cost = 0u32;
        let trains: Vec<(u8, bool)> = s
            .player(seat)
            .map(|p| p.trains.iter().map(|t| (t.id, t.at != Place::RepairBox)).collect())
            .unwrap_or_default();
        let can = |t: u8| trains.iter().any(|(x, _)| *x == t) && !s.to_move.contains(&t);
        match &o.order {
            Order::Activate(v) => {
                for t in v {
                    notes.extend(a.activate(*t, o.line, can(*t), &mut cost, c.activation));
                }
            }
            Order::ActivateAll => {
                let left: Vec<u8> = trains
                    .iter()
                    .filter(|(t, on_map)| *on_map && !a.activated.contains_key(t))
                    .map(|(t, _)| *t)
                    .collect();
                for t in left {
                    notes.extend(a.activate(t, o.line, can(t), &mut cost, c.activation));
                }
            }
            Order::Repair(t) => notes.extend(a.activate(*t, o.line, can(*t), &mut cost, c.repair)),
            Order::RepairBridge(..) => cost = c.bridge_repair,
            Order::Clear(..) => cost = c.ripped_up_repair,
            Order::Pay { amount, .. } => cost = *amount,
            Order::Donate(k) => cost = k.saturating_mul(c.through_freight_donation),
            Order::Fees(f) if f.pay => cost = f.up_to.unwrap_or(0),
            Order::Deliver { load, .. } => match a.designated.get(load) {
                Some(line) => notes.push(format!(
                    "load {load}'s dropoff is designated by line {line} already: this line will not be used"
                )),
                None => {
                    a.designated.insert(*load, o.line);
                }
            },
            Order::Move { train, path } => {
                let ids: Vec<usize> = path.iter().filter_map(|n| d.map.find_station(n)).collect();
                self.would_deliver(s, seat, a, *train, &ids, o.line);
                notes.extend(self.continues(s, seat, a, *train, path, o.line));
            }
            Order::Shortest { train, to } => {
                if let Some(x) = d.map.find_station(to) {
                    self.would_deliver(s, seat, a, *train, &[x], o.line);
                    a.at.insert(*train, (x, o.line));
                }
            }
            _ => {}
        }
        // RULING F85: money before any payout; an offer counts as spent.
        if cost > a.money {
            notes.push(a.short(cost));
        }
        if cost > 0 {
            a.money = a.money.saturating_sub(cost);
            a.spent_by.push(o.line);
        }
        notes
    }

    /// RULING F85 (amended): a MOVE line whose stations reach the dropoff of the load its train
    /// carries (after its pickup, if not yet picked up) would deliver it, if the train gets there.
    fn would_deliver(&self, s: &State, seat: Seat, a: &mut Ahead, train: u8, ids: &[usize], line: usize) {
        let Some(c) = s.train(seat, train).and_then(|t| t.load.as_ref()) else { return };
        let from = if c.picked { Some(0) } else { ids.iter().position(|x| *x == c.pickup) };
        let arrives = from.is_some_and(|i| ids.get(i..).is_some_and(|rest| rest.contains(&c.dropoff)));
        if arrives && !a.delivers.contains_key(&c.chit) {
            a.delivers.insert(c.chit, (line, chits::payout(&self.data, s, c.chit)));
        }
    }

    /// A MOVE line goes on from where the lines before it leave the train (or where it stands):
    /// its first station must be that one's neighbour, or that station itself.
    fn continues(
        &self,
        s: &State,
        seat: Seat,
        a: &mut Ahead,
        train: u8,
        path: &[String],
        line: usize,
    ) -> Option<String> {
        let d = &self.data;
        let ids: Vec<usize> = path.iter().filter_map(|n| d.map.find_station(n)).collect();
        if ids.len() != path.len() {
            return None; // an unknown station, told by the line's own echo
        }
        let before = a.at.get(&train).copied();
        if let Some(last) = ids.last() {
            a.at.insert(train, (*last, line));
        }
        let (from, by) = match before {
            Some((x, by)) => (x, Some(by)),
            None => (s.train(seat, train)?.station()?, None),
        };
        let first = *ids.first()?;
        if ids.contains(&from) || !d.map.segments_between(from, first).is_empty() {
            return None;
        }
        let where_ = match by {
            Some(l) => format!("line {l} leaves your {} at {}", train_name(train), name(d, from)),
            None => format!("your {} stands at {}", train_name(train), name(d, from)),
        };
        Some(format!("{where_}, and {} is not next to it", name(d, first)))
    }
}

impl Ahead {
    /// The note on a line needing `cost` when less is left before any payout; the deliveries
    /// earlier lines would make are named, as not certain (RULING F85 amended).
    fn short(&self, cost: u32) -> String {
        let before = match self.spent_by.as_slice() {
            [] => "you have".to_string(),
            lines => format!(
                "after line{} {} you will have",
                if lines.len() > 1 { "s" } else { "" },
                lines.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")
            ),
        };
        let mut note = format!("needs ${cost}, but {before} ${} before any payout", self.money);
        if self.delivers.is_empty() {
            return note;
        }
        let pays: u32 = self.delivers.values().map(|(_, p)| p).sum();
        let named: Vec<String> =
            self.delivers.iter().map(|(n, (l, p))| format!("load {n} by line {l}, ${p}")).collect();
        let with = self.money + pays;
        note.push_str(&format!(
            "; the deliveries the lines before would make ({}) would bring it to ${with}{}, but the echo cannot know whether the trains get there",
            named.join("; "),
            if with >= cost { ", enough" } else { ", still short" }
        ));
        note
    }

    /// A line activates train `t` (at `price`, if the seat `can`): flagged if a line before did.
    fn activate(&mut self, t: u8, line: usize, can: bool, cost: &mut u32, price: u32) -> Option<String> {
        if let Some(by) = self.activated.get(&t) {
            return Some(format!("your {} is activated already by line {by}", train_name(t)));
        }
        if can {
            self.activated.insert(t, line);
            *cost += price;
        }
        None
    }
}

/// The train a line moves, if it moves one.
fn moved_train(o: &Order) -> Option<u8> {
    match o {
        Order::Move { train, .. } | Order::Shortest { train, .. } => Some(*train),
        _ => None,
    }
}
