//! The echo of a Confederate Rails sheet (issue 34, DESIGN "Orders and decisions"): for each line,
//! the decision it is written for (and whether it answers the decision pending now), every name
//! checked against the game's data and the seat's holdings — RRC numbers, stations, segments,
//! lines, loads, trains, seats, Special Events — with "did you mean" for a misspelt station, and
//! a flag on a line that cannot apply in this phase of the game. Nothing hidden is told: a
//! seat's own counters are its own, and where a load is is public (RULING F33); the draw pile's
//! order never enters.

use super::super::Confed;
use super::super::actions::Cond;
use super::super::chits::{self, special_name, train_name};
use super::super::data::Data;
use super::super::state::{Chit, Place, Stage, State};
use super::answer::{on_line, segments};
use super::{Order, Pick, When};
use crate::engine::Seat;
use crate::orders::nearest_name;

/// A station name the map does not know, with the nearest it does.
fn unknown_station(d: &Data, n: &str) -> Option<String> {
    if d.map.find_station(n).is_some() {
        return None;
    }
    let near = nearest_name(n, d.map.stations.iter().map(|x| x.name.as_str()));
    Some(match near {
        Some(x) => format!("unknown station \"{n}\" (did you mean {x}?)"),
        None => format!("unknown station \"{n}\""),
    })
}

/// Two stations that must be joined by a segment.
/// The second may name one line's segment of a parallel pair (`Richmond ON 4`, RULING F3).
fn unjoined(d: &Data, a: &str, b: &str) -> Option<String> {
    d.map.find_station(a)?;
    d.map.find_station(on_line(b).0)?;
    segments(d, a, b).is_empty().then(|| format!("no segment joins {a} and {b}"))
}

fn cond_stations(c: &Cond) -> Vec<&str> {
    match c {
        Cond::Open(n) | Cond::Occupied(n) | Cond::TrainAt { at: n, .. } => vec![n.as_str()],
        Cond::BadRails(_) => Vec::new(),
        Cond::Not(inner) => cond_stations(inner),
    }
}

impl Order {
    /// The station names a line writes.
    fn stations(&self) -> Vec<&str> {
        match self {
            Order::Place { at, .. }
            | Order::Deliver { to: at, .. }
            | Order::Shortest { to: at, .. }
            | Order::Abandon { at, .. }
            | Order::Leave { at, .. } => vec![at.as_str()],
            Order::Troops { from, to } => vec![from.as_str(), to.as_str()],
            Order::Move { path, .. } => path.iter().map(String::as_str).collect(),
            Order::RepairBridge(a, b) | Order::Clear(a, b) => vec![a.as_str(), on_line(b).0],
            Order::Pay { cond: Some(c), .. } => cond_stations(c),
            Order::PlayWhen { when: When::Station(n), .. } => vec![n.as_str()],
            Order::Play { special, target, when, .. } => {
                let mut v: Vec<&str> = when.as_ref().map(cond_stations).unwrap_or_default();
                v.extend(target.as_deref().filter(|_| *special == 2));
                v
            }
            Order::Support { on: Some(n), .. } => vec![n.as_str()],
            Order::TakeDrawnIf { test, .. } | Order::TakeInstead { when: test, .. } => test.stations(),
            Order::Choose { pick, .. } => match pick {
                Pick::Station(n) => vec![n.as_str()],
                Pick::Segment(a, b) | Pick::Bridge(a, b) | Pick::Rip(a, b) => vec![a.as_str(), on_line(b).0],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}

impl Confed {
    /// The echo of one line for `seat` on the position `s`.
    pub(super) fn echo_line(&self, s: &State, seat: Seat, o: &Order) -> String {
        let d = &self.data;
        let mut out = Vec::new();
        let now = self.decision_kind(s).filter(|_| self.deciding_seat(s) == Some(seat));
        match now {
            Some(k) if o.answers(d, &k) => {
                out.push(format!("answers the decision now: {}", self.kind_words(s, &k)))
            }
            _ => out.push(format!("for {}", o.decision_named())),
        }
        out.extend(o.stations().into_iter().filter_map(|n| unknown_station(d, n)));
        out.extend(self.goods_notes(o));
        out.extend(self.segment_notes(o));
        out.extend(self.holding_notes(s, seat, o));
        out.extend(self.phase_note(s, o));
        out.join("; ")
    }

    /// Segments and paths: consecutive stations must be joined.
    fn segment_notes(&self, o: &Order) -> Vec<String> {
        let d = &self.data;
        match o {
            Order::RepairBridge(a, b) | Order::Clear(a, b) => unjoined(d, a, b).into_iter().collect(),
            Order::Choose { pick: Pick::Segment(a, b) | Pick::Bridge(a, b) | Pick::Rip(a, b), .. } => {
                unjoined(d, a, b).into_iter().collect()
            }
            Order::Move { path, .. } => path.windows(2).filter_map(|w| unjoined(d, &w[0], &w[1])).collect(),
            _ => Vec::new(),
        }
    }

    /// Numbers checked against the data and the seat's holdings.
    fn holding_notes(&self, s: &State, seat: Seat, o: &Order) -> Vec<String> {
        let d = &self.data;
        let mut w = Vec::new();
        let p = s.player(seat);
        let has_train =
            |t: u8| p.is_some_and(|p| p.trains.iter().any(|x| x.id == t) || p.unplaced.contains(&t));
        let train = |t: u8, w: &mut Vec<String>| {
            if !has_train(t) {
                w.push(format!("you have no {}", train_name(t)));
            }
        };
        let seat_ok = |x: Seat| x.0 >= 1 && x.index() < s.players.len();
        let is_load = |n: u32| chits::is_troops(d, n) || chits::load(d, n).is_some();
        match o {
            Order::Rrc(n) | Order::Bid { rrc: n, .. } | Order::BidUpTo { rrc: n, .. } => {
                if d.map.line(*n).is_none() {
                    w.push(format!("there is no RRC #{n} (they are numbered 1-24)"));
                } else if let Some(owner) = s.owner_of(*n) {
                    w.push(if owner == seat {
                        format!("you own RRC #{n} already")
                    } else {
                        format!("RRC #{n} belongs to {owner}")
                    });
                }
            }
            Order::Place { train: t, at, line } => {
                train(*t, &mut w);
                if let Some(l) = line {
                    match d.map.line(*l) {
                        None => w.push(format!("there is no RRC #{l}")),
                        Some(x) => {
                            if !p.is_some_and(|p| p.rrcs.contains(l))
                                && !matches!(s.stage, Stage::ChooseRrc { .. })
                            {
                                w.push(format!("you do not own RRC #{l}"));
                            }
                            if d.map.find_station(at).is_some_and(|st| !x.stations.contains(&st)) {
                                w.push(format!("{at} is not on RRC #{l}"));
                            }
                        }
                    }
                }
            }
            Order::Select(n) if matches!(s.stage, Stage::SelectLoads) && !s.offer.contains(n) => {
                w.push(format!("load {n} is not among the starting loads offered"));
            }
            Order::Deliver { load: n, .. }
            | Order::Take(n)
            | Order::TakeInstead { load: n, .. }
            | Order::Replace(n) => {
                if !is_load(*n) {
                    w.push(format!("there is no load {n}"));
                } else if s.discarded.contains(&Chit::Load(*n)) {
                    w.push(format!("{} has left play", chits::label(d, *n)));
                } else if let Some((x, t)) = s.holder(*n).filter(|(x, _)| *x != seat) {
                    w.push(format!("{} is on {x}'s {}", chits::label(d, *n), train_name(t)));
                }
            }
            Order::Activate(v) => v.iter().for_each(|t| train(*t, &mut w)),
            // RULING F83: a fee line names one of the seat's trains and another player's line.
            Order::Fees(f) => {
                f.train.iter().for_each(|t| train(*t, &mut w));
                match f.line {
                    Some(l) if d.map.line(l).is_none() => w.push(format!("there is no RRC #{l}")),
                    Some(l) if p.is_some_and(|p| p.rrcs.contains(&l)) => {
                        w.push(format!("you own RRC #{l}: no fee is due on it (RT 5.6)"))
                    }
                    _ => {}
                }
                if s.through_freight {
                    w.push("the Through-Freight Law has passed: no line usage fees are due (RT 6.8)".into());
                }
            }
            Order::Repair(t) => {
                train(*t, &mut w);
                if s.train(seat, *t).is_some_and(|x| x.at != Place::RepairBox) {
                    w.push(format!("your {} is not in the Raleigh Repair Box now", train_name(*t)));
                }
            }
            Order::Again(t)
            | Order::Move { train: t, .. }
            | Order::Shortest { train: t, .. }
            | Order::Abandon { train: t, .. }
            | Order::Leave { train: t, .. } => train(*t, &mut w),
            Order::Pay { to, amount, .. } => {
                if !seat_ok(*to) || *to == seat {
                    w.push(format!("there is no other seat {}", to.0));
                }
                if !amount.is_multiple_of(100) {
                    w.push("payments are in $100s".into());
                }
            }
            Order::Accept { from, .. } if !seat_ok(*from) || *from == seat => {
                w.push(format!("there is no other seat {}", from.0));
            }
            Order::PlayWhen { special, .. } => w.extend(self.held(s, seat, *special)),
            Order::Play { special, target, with, .. } => {
                w.extend(self.held(s, seat, *special));
                w.extend(with.and_then(|g| self.held(s, seat, g)));
                if *special == 6 {
                    let l = target.as_deref().and_then(|t| t.trim_start_matches('#').parse::<u8>().ok());
                    match l {
                        Some(l) if d.map.line(l).is_some() => {}
                        _ => w.push("name the line: PLAY TREASURE ON <RRC number>".into()),
                    }
                }
            }
            Order::Choose { pick: Pick::Train(x, _), .. } if !seat_ok(*x) => {
                w.push(format!("there is no seat {}", x.0));
            }
            Order::Choose { pick: Pick::Line(l), .. } if d.map.line(*l).is_none() => {
                w.push(format!("there is no RRC #{l}"));
            }
            _ => {}
        }
        // RULING F84: the train a `TAKE … FOR` line names.
        if let Order::TakeDrawnIf { train: Some(t), .. } | Order::TakeInstead { train: Some(t), .. } = o {
            train(*t, &mut w);
        }
        w
    }

    /// Goods a `TAKE … IF` test names that no load chit carries (RULING F84).
    fn goods_notes(&self, o: &Order) -> Vec<String> {
        let d = &self.data;
        let test = match o {
            Order::TakeDrawnIf { test, .. } | Order::TakeInstead { when: test, .. } => test,
            _ => return Vec::new(),
        };
        let known = || std::iter::once("Troops").chain(d.loads.iter().map(|l| l.goods.as_str()));
        test.goods()
            .into_iter()
            .filter(|g| !known().any(|k| k.eq_ignore_ascii_case(g.trim())))
            .map(|g| match nearest_name(g, known()) {
                Some(x) => format!("no load carries \"{g}\" (did you mean {x}?)"),
                None => format!("no load carries \"{g}\""),
            })
            .collect()
    }

    /// A Special Event the seat does not hold (told only to the seat itself).
    fn held(&self, s: &State, seat: Seat, special: u8) -> Option<String> {
        let mine = s.player(seat).is_some_and(|p| p.specials.contains(&special));
        (!mine).then(|| format!("you do not hold {}", special_name(&self.data, special)))
    }

    /// A line that cannot apply in this phase of the game.
    fn phase_note(&self, s: &State, o: &Order) -> Option<String> {
        let setting_up = super::super::setting_up(s);
        let unused = |why: &str| Some(format!("will not be used: {why}"));
        match o {
            Order::Rrc(_) if !matches!(s.stage, Stage::ChooseRrc { .. }) => {
                unused("the RRCs have been chosen")
            }
            Order::Select(_) | Order::Place { .. } if !setting_up && !s.extended => unused("set-up is over"),
            Order::Select(_) if !setting_up => unused("set-up is over"),
            Order::Bid { .. } | Order::BidUpTo { .. } | Order::Replace(_) if !s.extended => {
                unused("bids and contracts are for the Extended Game (RT 4.1)")
            }
            Order::Play { .. } | Order::PlayWhen { .. } | Order::Donate(_) if s.pre_war => {
                unused("Special Events are played only once the War has started (RT 6.0)")
            }
            Order::Rrc(_) | Order::Select(_) | Order::Deliver { .. } | Order::Place { .. } => None,
            _ if setting_up => unused("this turn is the set-up; Player Turns begin with the next one"),
            _ => None,
        }
    }
}
