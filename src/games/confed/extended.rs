//! The Extended Game (RT 1.1): the Railroad Company Phase with its bidding (RT 4.1.1), the
//! train placed on a bought line, the Contract Phase (RT 4.1.2), and the start of the War
//! (RT 5.9: the Round after the last RRC is bought, RULING F40). Before the War the pile holds
//! only ordinary loads, no War Progress is rolled (RULING F39) and no Special Event is played
//! (RT 6.0). Once the War is on, each Player Turn begins with the other seats' window for Special
//! Events and offers of money (RT 6.0, 1.0).

use super::Confed;
use super::board;
use super::chits::{self, train_name};
use super::state::{Action, Chit, Stage, State, Task};
use crate::engine::{Event, GameRng, Seat};

/// RT 4.1.1: "The minimum bid, whether starting or upping the ante, is $100."
pub const BID_STEP: u32 = 100;

fn say(ev: &mut Vec<Event>, text: String) {
    ev.push(Event::public(text));
}

impl Confed {
    /// The RRCs nobody owns yet.
    pub(super) fn unowned(&self, s: &State) -> Vec<u8> {
        (1..=24u8).filter(|l| s.owner_of(*l).is_none()).collect()
    }

    /// The first phase of a Player Turn: the RRC Phase while RRCs are unsold (Extended Game),
    /// else the Contract Phase before the War, else the Load Phase.
    pub(super) fn first_phase(&self, s: &mut State, ev: &mut Vec<Event>) {
        if s.extended && !self.unowned(s).is_empty() {
            s.stage = Stage::RrcPhase { selector: s.active(), passes: 0 };
        } else {
            self.contract_phase(s, ev);
        }
    }

    /// RT 4.1.2: before the War, the active player draws a load to replace a displayed one.
    /// RULING F41: an empty display box takes it without a choice; an empty pile skips the phase.
    fn contract_phase(&self, s: &mut State, ev: &mut Vec<Event>) {
        s.stage = Stage::Activate;
        if !s.pre_war {
            // RT 6.0, 1.0 (RULINGS F22, F36 amended): the other seats' window before the
            // active player's activation phase, from his left.
            let others = s.seats_from(s.active()).into_iter().skip(1);
            s.tasks.extend(others.map(|seat| Task::Window { seat }));
            return;
        }
        let Some(chit) = s.pile.pop() else { return };
        let Chit::Load(drawn) = chit else {
            s.pile.insert(0, chit); // cannot happen before the War: the pile holds only loads
            return;
        };
        let label = chits::label(&self.data, drawn);
        if s.display.len() < 8 {
            s.display.push(drawn);
            say(ev, format!("RT 4.1.2: {} draws {label} into an empty display box (RULING F41)", s.active()));
        } else {
            say(ev, format!("RT 4.1.2: {} draws {label} for the Available Loads display", s.active()));
            s.stage = Stage::Contract { drawn };
        }
    }

    /// Legal actions of the Extended Game's stages (empty for the others).
    pub(super) fn extended_options(&self, s: &State, seat: Seat) -> Vec<Action> {
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        let bids = |rrc: u8, above: u32| {
            (above / BID_STEP + 1..=money / BID_STEP).map(move |k| Action::Bid { rrc, amount: k * BID_STEP })
        };
        match &s.stage {
            Stage::RrcPhase { .. } => {
                let mut v: Vec<Action> = self.unowned(s).into_iter().flat_map(|l| bids(l, 0)).collect();
                v.push(Action::Pass);
                v
            }
            Stage::Bidding { rrc, bid, .. } => {
                let mut v: Vec<Action> = bids(*rrc, *bid).collect();
                v.push(Action::Pass);
                v
            }
            Stage::PlaceBought { line, .. } => self.bought_sites(s, *line),
            Stage::Contract { .. } => s.display.iter().map(|n| Action::Replace(*n)).collect(),
            _ => Vec::new(),
        }
    }

    /// A bid checked directly (the list of every amount is long).
    pub(super) fn bid_allowed(&self, s: &State, seat: Seat, rrc: u8, amount: u32) -> bool {
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        let floor = match &s.stage {
            Stage::RrcPhase { .. } => 0,
            Stage::Bidding { rrc: r, bid, .. } if *r == rrc => *bid,
            _ => return false,
        };
        s.owner_of(rrc).is_none()
            && (1..=24).contains(&rrc)
            && amount.is_multiple_of(BID_STEP)
            && amount > floor
            && amount <= money
    }

    /// RT 4.1.1: the stations of a bought line where the new train may stand (RT 5.4.1).
    fn bought_sites(&self, s: &State, line: u8) -> Vec<Action> {
        let d = &self.data;
        d.map
            .line(line)
            .map(|x| x.stations.as_slice())
            .unwrap_or(&[])
            .iter()
            .filter(|st| !s.occupied.contains(st) && s.trains_at(**st) < board::stack_limit(d, s, **st))
            .map(|st| Action::PlaceTrain { station: *st, line })
            .collect()
    }

    /// Carries out an action of the Extended Game's stages; false if the stage is not one.
    pub(super) fn extended_action(&self, s: &mut State, seat: Seat, a: &Action, ev: &mut Vec<Event>) -> bool {
        let n = s.players.len() as u32;
        match (s.stage.clone(), a) {
            (Stage::RrcPhase { .. }, Action::Bid { rrc, amount }) => {
                say(ev, format!("RT 4.1.1: {seat} selects RRC #{rrc} and bids ${amount}"));
                let next = self.after(s, seat);
                s.stage = Stage::Bidding { rrc: *rrc, high: seat, bid: *amount, next, passes: 0 };
            }
            (Stage::RrcPhase { passes, .. }, Action::Pass) => {
                // RULING F38: the privilege passes clockwise; when all pass, nothing is sold.
                if passes + 1 >= n {
                    say(ev, format!("RT 4.1.1: {seat} passes; no RRC is sold this Player Turn"));
                    self.contract_phase(s, ev);
                } else {
                    say(ev, format!("RT 4.1.1: {seat} passes the privilege to select an RRC"));
                    s.stage = Stage::RrcPhase { selector: self.after(s, seat), passes: passes + 1 };
                }
            }
            (Stage::Bidding { rrc, .. }, Action::Bid { amount, .. }) => {
                say(ev, format!("RT 4.1.1: {seat} bids ${amount} for RRC #{rrc}"));
                let next = self.after(s, seat);
                s.stage = Stage::Bidding { rrc, high: seat, bid: *amount, next, passes: 0 };
            }
            (Stage::Bidding { rrc, high, bid, passes, .. }, Action::Pass) => {
                say(ev, format!("RT 4.1.1: {seat} passes on RRC #{rrc}"));
                if passes + 1 >= n - 1 {
                    self.sell(s, rrc, high, bid, ev);
                } else {
                    let next = self.after(s, seat);
                    s.stage = Stage::Bidding { rrc, high, bid, next, passes: passes + 1 };
                }
            }
            (Stage::PlaceBought { seat: owner, line }, Action::PlaceTrain { station, .. }) => {
                if let Some(p) = s.player_mut(owner)
                    && !p.reserve.is_empty()
                {
                    let id = p.reserve.remove(0);
                    p.trains.push(super::apply::new_train(id, *station));
                    say(
                        ev,
                        format!(
                            "RT 4.1.1: {owner} places {} at {} (RRC #{line})",
                            train_name(id),
                            board::name(&self.data, *station)
                        ),
                    );
                }
                self.contract_phase(s, ev);
            }
            (Stage::Contract { drawn }, Action::Replace(old)) => {
                if let Some(x) = s.display.iter_mut().find(|x| **x == *old) {
                    *x = drawn;
                }
                s.discarded.push(Chit::Load(*old));
                say(
                    ev,
                    format!(
                        "RT 4.1.2: {seat} replaces {} (removed from the game) with {}",
                        chits::label(&self.data, *old),
                        chits::label(&self.data, drawn)
                    ),
                );
                s.stage = Stage::Activate;
            }
            _ => return false,
        }
        true
    }

    /// The seat after `seat`, clockwise.
    fn after(&self, s: &State, seat: Seat) -> Seat {
        s.seats_from(seat).get(1).copied().unwrap_or(seat)
    }

    /// RT 4.1.1: all others passed after the high bid: the bidder pays the bank and takes the
    /// RRC, then places an available train on it.
    fn sell(&self, s: &mut State, rrc: u8, high: Seat, bid: u32, ev: &mut Vec<Event>) {
        let paid = self.charge(s, high, bid);
        if let Some(p) = s.player_mut(high) {
            p.rrcs.insert(rrc);
        }
        say(ev, format!("RT 4.1.1: {high} wins RRC #{rrc} for ${paid}"));
        let has_train = s.player(high).is_some_and(|p| !p.reserve.is_empty());
        if has_train && !self.bought_sites(s, rrc).is_empty() {
            s.stage = Stage::PlaceBought { seat: high, line: rrc };
        } else {
            self.contract_phase(s, ev);
        }
    }

    /// RT 5.9 (RULING F40): the War starts with the Round after the last RRC is bought, or
    /// after the pile ran dry before that; the set-aside chits join the pile.
    pub(super) fn maybe_start_war(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        if !s.pre_war || (!self.unowned(s).is_empty() && !s.pile.is_empty()) {
            return;
        }
        s.pre_war = false;
        s.pile.append(&mut s.set_aside);
        rng.shuffle(&mut s.pile);
        let why = if self.unowned(s).is_empty() {
            "every RRC is owned".to_string()
        } else {
            format!("the draw pile ran dry (RULING F40); RRCs {:?} are still for sale", self.unowned(s))
        };
        say(
            ev,
            format!(
                "RT 5.9: the War begins ({why}): the Troops, Blockade Runners and Events join the pile ({} chits)",
                s.pile.len()
            ),
        );
    }
}
