//! The order builder of Confederate Rails (issue 36): what a seat can order now, as lines of the
//! order language (`orders`). The seat whose decision it is gets that decision's legal actions,
//! each written as the line that orders it and kept only when a sheet of that one line is
//! answered with that very action now (so a line is never listed that the rules' default would
//! stand in for); an event's `CHOOSE` among its options is left to the order guide. A seat whose
//! Player Turn comes later gets its activation phase: its trains to activate or repair. Only the
//! seat's own counters and the table are read.

use super::Confed;
use super::actions::Action;
use super::board::name;
use super::decision::Kind;
use super::orders::{Order, When};
use super::state::{Place, State};
use crate::engine::{Choices, Game, Orders, Rules, Seat, carries_out_as};

/// At most this many lines of one decision are listed (bids and steps can be many).
const SHOWN: usize = 16;
/// The Special Events by counter number, as `orders` numbers them.
const OFFENSIVE: u8 = 2;
const INTERVENTION: u8 = 4;
const TREASURE: u8 = 6;
const RAID: u8 = 7;
const FREIGHT: u8 = 8;

impl Confed {
    // RULING F91: what the builder lists in Confederate Rails.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]).
    pub(super) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(d) = self.next_decision(s) else { return Vec::new() };
        if d.seat == seat {
            let Some(kind) = self.decision_kind(s) else { return Vec::new() };
            let mut lines: Vec<String> = Vec::new();
            for a in self.legal_actions(s) {
                if lines.len() >= SHOWN {
                    break;
                }
                for order in self.orders_for(s, seat, &kind, &a) {
                    let text = order.to_string();
                    if !lines.contains(&text) && carries_out_as(self, s, &d, &text, &a) {
                        lines.push(text);
                    }
                }
            }
            return Choices::group(&d.prompt, lines);
        }
        if !self.acting_seats(s).contains(&seat) || super::setting_up(s) {
            return Vec::new();
        }
        let Some(p) = s.player(seat) else { return Vec::new() };
        let mut lines: Vec<String> = Vec::new();
        for t in &p.trains {
            let order = match t.at {
                Place::Station(_) => Order::Activate(vec![t.id]),
                Place::RepairBox => Order::Repair(t.id),
            };
            lines.push(order.to_string());
        }
        Choices::group("Your activation phase when your Player Turn comes (RT 5.0)", lines)
    }

    /// The lines that could order `a` at a decision of `kind` (none for a choice among an
    /// event's options, which the guide explains).
    fn orders_for(&self, s: &State, seat: Seat, kind: &Kind, a: &Action) -> Vec<Order> {
        let d = &self.data;
        let at = |x: usize| name(d, x).to_string();
        let here = |train: u8| {
            s.player(seat)
                .and_then(|p| p.trains.iter().find(|t| t.id == train))
                .and_then(|t| t.station())
                .map(at)
        };
        let segment = |g: usize| {
            let x = d.map.segments.get(g)?;
            let b = match x.owners.as_slice() {
                [line] if d.map.segments_between(x.a, x.b).len() > 1 => format!("{} ON {line}", at(x.b)),
                _ => at(x.b),
            };
            Some((at(x.a), b))
        };
        let one = |o: Order| vec![o];
        match (a, kind) {
            (Action::ChooseRrc(n), _) => one(Order::Rrc(*n)),
            (Action::PlaceTrain { station, line }, Kind::Place { train }) => {
                one(Order::Place { train: *train, at: at(*station), line: Some(*line) })
            }
            (Action::SelectLoad(n), _) => one(Order::Select(*n)),
            (Action::Activate(t), _) => one(Order::Activate(vec![*t])),
            (Action::Repair(t), _) => one(Order::Repair(*t)),
            (Action::RepairBridge(g), _) => {
                segment(*g).map(|(a, b)| Order::RepairBridge(a, b)).into_iter().collect()
            }
            (Action::RemoveRipped(g), _) => {
                segment(*g).map(|(a, b)| Order::Clear(a, b)).into_iter().collect()
            }
            (Action::Offensive { station, general }, _) => one(Order::Play {
                special: OFFENSIVE,
                target: Some(at(*station)),
                with: *general,
                when: None,
            }),
            (Action::TreasureHunt(line), _) => {
                one(Order::Play { special: TREASURE, target: Some(line.to_string()), with: None, when: None })
            }
            (Action::GreatTrainRaid, _) => {
                one(Order::Play { special: RAID, target: None, with: None, when: None })
            }
            (Action::ThroughFreight, _) => {
                one(Order::Play { special: FREIGHT, target: None, with: None, when: None })
            }
            (Action::Intervene, _) => {
                one(Order::Play { special: INTERVENTION, target: None, with: None, when: None })
            }
            (Action::TakeDrawn, _) => one(Order::TakeDrawn),
            (Action::TakeDisplay(n) | Action::TakeAbandoned(n), _) => one(Order::Take(*n)),
            (Action::Designate(x), Kind::Dropoff { chit, .. }) => {
                one(Order::Deliver { load: *chit, to: at(*x) })
            }
            (Action::Step { to, .. }, Kind::Move { train }) => {
                one(Order::Move { train: *train, path: vec![at(*to)] })
            }
            (Action::Abandon, Kind::Move { train }) => {
                here(*train).map(|at| Order::Abandon { train: *train, at }).into_iter().collect()
            }
            (Action::DepotDrop, Kind::Move { train }) => {
                here(*train).map(|at| Order::Leave { train: *train, at }).into_iter().collect()
            }
            (Action::Pass, Kind::Choice(_)) => ["DEPOT", "IRON", "SEIZE"]
                .iter()
                .filter_map(|w| self.parse_order(&format!("DECLINE {w}")).ok())
                .collect(),
            (Action::Cancel(g), Kind::Cancel { station }) => {
                one(Order::PlayWhen { special: *g, when: When::Station(at(*station)) })
            }
            (Action::Support(g), Kind::Support { station }) => {
                one(Order::Support { general: *g, on: Some(at(*station)) })
            }
            (Action::Donate(k), _) => one(Order::Donate(*k)),
            (Action::Accept, Kind::Offer { from, amount }) => {
                one(Order::Accept { amount: *amount, from: *from })
            }
            (Action::Bid { rrc, amount }, _) => one(Order::Bid { rrc: *rrc, amount: *amount }),
            (Action::Replace(n), _) => one(Order::Replace(*n)),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared;
    use crate::engine::SetupSpec;
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;

    #[test]
    fn the_seat_choosing_an_rrc_at_set_up_is_offered_each_rrc_still_free() {
        let g = shared().expect("the data loads");
        let s = crate::engine::log::setup(g, &SetupSpec { seats: 4, options: serde_json::Value::Null }, 7)
            .expect("set-up");
        let d = g.next_decision(&s).expect("a decision");
        let now = g.choices(&s, d.seat);
        assert_eq!(now.len(), 1, "{now:?}");
        assert!(
            now[0].lines.len() > 1 && now[0].lines.iter().all(|l| l.starts_with("RRC ")),
            "{:?}",
            now[0].lines
        );
        check_choices(g, &s, 4, 7, 0).expect("every line read, carried out now, and known to its seat");
    }
}
