//! The order builder of Confederate Rails (issue 36): what a seat can order now, as lines of the
//! order language (`orders`). The seat whose decision it is gets that decision's legal actions,
//! each written as the line that orders it and kept only when a sheet of that one line is
//! answered with that very action now (so a line is never listed that the rules' default would
//! stand in for), an event's choice as `CHOOSE <choice> <option>` for each option it offers. A
//! seat whose Player Turn comes later gets its activation phase: its trains to activate or
//! repair. An offer of money is listed as `PAY 100 TO <seat>` for each other seat, the amount the
//! player's to edit. Only the seat's own counters and the table are read.

use super::Confed;
use super::actions::Action;
use super::board::name;
use super::decision::Kind;
use super::orders::{Order, Pick, When};
use super::state::{ChoiceKind, Place, State};
use crate::engine::{Choices, Decision, Game, Orders, Rules, Seat, carries_out_as};

/// At most this many lines of one decision are listed (bids, steps and an event's options can
/// be many), from at most `TRIED` candidates answered.
const SHOWN: usize = 16;
const TRIED: usize = 2 * SHOWN;
/// The Special Events by counter number, as `orders` numbers them.
const OFFENSIVE: u8 = 2;
const INTERVENTION: u8 = 4;
const TREASURE: u8 = 6;
const RAID: u8 = 7;
const FREIGHT: u8 = 8;
/// The amount an offer of money is listed at (RT 1.0: bribes; offers go in $100 steps, F36).
const OFFER: u32 = 100;

impl Confed {
    // RULING F91: what the builder lists in Confederate Rails.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]).
    pub(super) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(d) = self.next_decision(s) else { return Vec::new() };
        if d.seat == seat {
            let Some(kind) = self.decision_kind(s) else { return Vec::new() };
            let (mut lines, mut tried): (Vec<String>, usize) = (Vec::new(), 0);
            for a in self.legal_actions(s) {
                // The candidates are capped before they are answered (each answer costs).
                if lines.len() >= SHOWN || tried >= TRIED {
                    break;
                }
                for order in self.orders_for(s, seat, &kind, &a) {
                    let text = order.to_string();
                    if lines.contains(&text) {
                        continue;
                    }
                    tried += 1;
                    if carries_out_as(self, s, &d, &text, &a) {
                        lines.push(text);
                    }
                }
            }
            if matches!(kind, Kind::Activate | Kind::Window) {
                lines.extend(self.offer_lines(s, seat, &d));
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

    // RULING F91: an offer of money is listed at a round amount, the player's to edit.
    /// `PAY 100 TO <seat>` for each other seat, where the seat may offer money now (its
    /// activation phase or the window before another's) and can afford it; offers to it are
    /// sealed, so no `ACCEPT` is listed before its own decision on one.
    fn offer_lines(&self, s: &State, seat: Seat, d: &Decision) -> Vec<String> {
        s.seats_from(seat)
            .into_iter()
            .skip(1)
            .filter_map(|to| {
                let a = Action::Offer { to, amount: OFFER, cond: None };
                let text = Order::Pay { amount: OFFER, to, cond: None }.to_string();
                (self.allows(s, &a) && carries_out_as(self, s, d, &text, &a)).then_some(text)
            })
            .collect()
    }

    /// The lines that could order `a` at a decision of `kind` (an offer of money, whose amount
    /// is the seat's own to write, apart: `offer_lines`).
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
            // RT 5.2.1: the pickup Depot, with the first station the Troops could then go to.
            (Action::Designate(x), Kind::TroopsPickup { chit, .. }) => {
                let to = self.dropoff_options(s, *chit, *x).first().map(|y| at(*y));
                to.map(|to| Order::Troops { from: at(*x), to }).into_iter().collect()
            }
            (Action::Choose(o), Kind::Choice(c)) => self
                .pick(*o, c, &segment)
                .map(|pick| Order::Choose { kind: c.clone(), pick })
                .into_iter()
                .collect(),
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

    /// What a `CHOOSE` line names for option `o` of choice `c` (the inverse of the option codes
    /// `orders::choose` reads; `segment` names a segment by its stations, `ON n` where two run
    /// side by side).
    fn pick(
        &self,
        o: usize,
        c: &ChoiceKind,
        segment: &dyn Fn(usize) -> Option<(String, String)>,
    ) -> Option<Pick> {
        let train = |code: usize| Pick::Train(Seat::from_index(code / 16), (code % 16) as u8);
        Some(match c {
            ChoiceKind::Occupy | ChoiceKind::DepotConstruction => {
                Pick::Station(name(&self.data, o).to_string())
            }
            ChoiceKind::BridgeCollapse | ChoiceKind::TreasureHunt => {
                let (a, b) = segment(o)?;
                Pick::Segment(a, b)
            }
            ChoiceKind::Sabotage | ChoiceKind::Raid if o.is_multiple_of(2) => {
                let (a, b) = segment(o / 2)?;
                if *c == ChoiceKind::Sabotage { Pick::Bridge(a, b) } else { Pick::Rip(a, b) }
            }
            ChoiceKind::Sabotage => {
                let (a, b) = segment(o / 2)?;
                Pick::Rip(a, b)
            }
            ChoiceKind::Raid => train(o / 2),
            ChoiceKind::Seizure | ChoiceKind::IronSeizure => train(o),
            ChoiceKind::BreakDown | ChoiceKind::WearAndTear => Pick::Own(u8::try_from(o).ok()?),
            ChoiceKind::DivertIron => Pick::Line(u8::try_from(o).ok()?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::proptests::game;
    use super::super::shared;
    use super::super::state::{Action, ChoiceKind, Stage, State, Task};
    use super::super::tests::{put, st, started};
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;
    use crate::engine::{GameRng, Seat, SetupSpec, answer_alone};

    /// The lines listed for `seat`.
    fn lines(s: &State, seat: Seat) -> Vec<String> {
        game().choices(s, seat).into_iter().flat_map(|c| c.lines).collect()
    }

    /// The action a sheet of `line` alone is answered with at the decision now.
    fn answered(s: &State, line: &str) -> Option<Action> {
        let g = game();
        let d = g.next_decision(s).expect("a decision");
        answer_alone(g, s, &d, line).and_then(|a| a.action)
    }

    /// Seat 1 is asked `kind` among `options`.
    fn choosing(kind: ChoiceKind, options: Vec<usize>, optional: bool) -> State {
        let mut s = started(2);
        s.tasks = vec![Task::Choose { seat: Seat(1), kind, options, optional }];
        s
    }

    #[test]
    fn an_events_choice_lists_a_choose_line_per_option_each_answered_with_that_option() {
        let s = choosing(ChoiceKind::DepotConstruction, vec![st("Corinth"), st("Dalton")], true);
        let listed = lines(&s, Seat(1));
        for (line, o) in [("CHOOSE DEPOT Corinth", "Corinth"), ("CHOOSE DEPOT Dalton", "Dalton")] {
            assert!(listed.iter().any(|l| l == line), "{line} in {listed:?}");
            assert_eq!(answered(&s, line), Some(Action::Choose(st(o))));
        }
        assert!(listed.iter().any(|l| l == "DECLINE DEPOT"), "{listed:?}");
        assert!(lines(&s, Seat(2)).iter().all(|l| !l.starts_with("CHOOSE")), "not the other seat's choice");
        check_choices(game(), &s, 2, 7, 0).expect("every line read, carried out now, and known to its seat");
    }

    #[test]
    fn every_kind_of_choice_lists_its_options_in_the_words_that_answer_them() {
        let d = game().data();
        let pair = d.map.segments_between(st("Hanover"), st("Richmond"));
        let knox = d.map.segments_between(st("Knoxville"), st("Loudon"))[0];
        let mut s = started(2);
        put(&mut s, Seat(2), 3, "Atlanta", None);
        put(&mut s, Seat(1), 2, "Griffin", None);
        let train = |seat: Seat, id: usize| seat.index() * 16 + id;
        let cases = [
            (ChoiceKind::Occupy, vec![st("Corinth"), st("Dalton")]),
            (ChoiceKind::BridgeCollapse, pair.clone()),
            (ChoiceKind::TreasureHunt, vec![knox]),
            (ChoiceKind::Sabotage, vec![knox * 2, knox * 2 + 1]),
            (ChoiceKind::Raid, vec![knox * 2, train(Seat(2), 3) * 2 + 1]),
            (ChoiceKind::Seizure, vec![train(Seat(2), 3)]),
            (ChoiceKind::IronSeizure, vec![train(Seat(2), 3)]),
            (ChoiceKind::BreakDown, vec![2]),
            (ChoiceKind::WearAndTear, vec![2]),
            (ChoiceKind::DivertIron, vec![12, 14]),
        ];
        for (kind, options) in cases {
            s.tasks = vec![Task::Choose {
                seat: Seat(1),
                kind: kind.clone(),
                options: options.clone(),
                optional: false,
            }];
            let listed = lines(&s, Seat(1));
            let chosen: Vec<Option<Action>> = listed.iter().map(|l| answered(&s, l)).collect();
            for o in &options {
                assert!(chosen.contains(&Some(Action::Choose(*o))), "{kind:?} option {o}: {listed:?}");
            }
            assert_eq!(listed.len(), options.len(), "{kind:?}: {listed:?}");
        }
    }

    #[test]
    fn a_troops_pickup_lists_each_depot_with_a_dropoff_the_troops_could_then_reach() {
        let mut s = started(2);
        put(&mut s, Seat(1), 1, "Atlanta", None);
        s.occupied.insert(st("Knoxville"));
        s.stage = Stage::TroopsPickup { train: 1, chit: 74, options: vec![st("Atlanta")] };
        let listed = lines(&s, Seat(1));
        let line = listed.iter().find(|l| l.starts_with("TROOPS FROM Atlanta TO ")).expect("a TROOPS line");
        assert_eq!(answered(&s, line), Some(Action::Designate(st("Atlanta"))));
        check_choices(game(), &s, 2, 7, 0).expect("every line read, carried out now, and known to its seat");
    }

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

    // RULING F91: offers of money, at a round amount; offers made are sealed.
    #[test]
    fn a_seat_that_may_offer_money_is_listed_pay_100_to_each_other_seat_and_no_offer_made_to_it() {
        let mut s = started(3);
        s.players[0].money = 500;
        let listed = lines(&s, Seat(1));
        for to in [Seat(2), Seat(3)] {
            let line = format!("PAY 100 TO {}", to.0);
            assert!(listed.contains(&line), "{line} in {listed:?}");
            assert_eq!(answered(&s, &line), Some(Action::Offer { to, amount: 100, cond: None }));
        }
        assert!(lines(&s, Seat(2)).iter().all(|l| !l.starts_with("PAY ")), "not another seat's money");
        game()
            .apply(
                &mut s,
                &Action::Offer { to: Seat(2), amount: 100, cond: None },
                &mut GameRng::for_action(7, 1),
            )
            .expect("an offer");
        assert!(lines(&s, Seat(2)).iter().all(|l| !l.starts_with("ACCEPT")), "sealed until answered");
        check_choices(game(), &s, 3, 7, 0).expect("every line read, carried out now, and known to its seat");
        s.players[0].money = 0;
        assert!(lines(&s, Seat(1)).iter().all(|l| !l.starts_with("PAY ")), "none it cannot afford");
    }
}
