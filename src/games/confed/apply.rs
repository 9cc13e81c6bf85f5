//! Doing it: an action is checked first (against the legal list, or directly where listing is
//! costly: `Confed::allows`); once allowed nothing can fail, so it is carried out in place and
//! the game then runs on by itself (automatic tasks, the next train, the next Player Turn and
//! Round) until a seat must decide. A refused action changes nothing.
//!
//! By phase: `loads` (undertaking, Troops, pick-up, drop-off, abandoning: RT 5.1-5.2, 5.7),
//! `moves` (steps, fees, traffic, collisions: RT 5.3-5.6, 7.4), `war` (War Progress, occupation,
//! congestion, Raleigh: RT 5.5, 5.8, 5.9), `events` (RT 7.1-7.15), `iron` (RT 7.6's standing
//! diversions), `specials` (RT 6.1-6.8), `targets` (what an event's choice may be aimed at).

mod events;
mod iron;
mod loads;
pub(super) mod moves;
mod specials;
mod targets;
mod war;

use super::Confed;
use super::board;
use super::chits::{self, train_name};
use super::setup::roll_initiative;
use super::state::{Action, Chit, Place, Stage, State, Task, Then, Train};
use crate::engine::{Apply, Event, GameRng, Illegal, Rules, Seat};

impl Confed {
    fn why_not(&self, s: &State) -> String {
        self.next_decision(s)
            .map(|d| format!("{} must {}", d.seat, d.prompt))
            .unwrap_or_else(|| "the game is over".into())
    }

    fn execute(&self, s: &mut State, seat: Seat, a: &Action, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let d = &self.data;
        if s.tasks.is_empty() && self.extended_action(s, seat, a, ev) {
            return;
        }
        match a {
            Action::ChooseRrc(l) => {
                if let Some(p) = s.player_mut(seat) {
                    p.rrcs.insert(*l);
                }
                ev.push(Event::public(format!("RT 3.4: {seat} chooses RRC #{l}")));
                if let Stage::ChooseRrc { order } = &mut s.stage {
                    if !order.is_empty() {
                        order.remove(0);
                    }
                    if order.is_empty() {
                        self.deal_rrcs(s, rng, ev);
                    }
                }
            }
            Action::PlaceTrain { station, line } => {
                if let Some(p) = s.player_mut(seat)
                    && !p.unplaced.is_empty()
                {
                    let id = p.unplaced.remove(0);
                    p.trains.push(new_train(id, *station));
                    p.placed_on.push(*line);
                    ev.push(Event::public(format!(
                        "RT 3.5: {seat} places {} at {} (RRC #{line})",
                        train_name(id),
                        board::name(d, *station)
                    )));
                }
                if s.players.iter().all(|p| p.unplaced.is_empty()) {
                    self.open_offer(s, ev);
                }
            }
            Action::SelectLoad(n) => self.select_start_load(s, seat, *n, rng, ev),
            Action::Activate(id) => {
                self.charge(s, seat, d.tables.costs.activation);
                s.to_move.push(*id);
                s.activations_this_round += 1;
                ev.push(Event::public(format!("RT 5.3.1: {seat} activates {} ($100)", train_name(*id))));
            }
            Action::Repair(id) => {
                self.charge(s, seat, d.tables.costs.repair);
                let raleigh = board::raleigh(d);
                if let Some(t) = s.train_mut(seat, *id) {
                    t.at = Place::Station(raleigh);
                    t.line = None;
                    t.fee_paid.clear();
                }
                s.to_move.push(*id);
                s.activations_this_round += 1;
                ev.push(Event::public(format!(
                    "RT 5.8: {seat} repairs {} at Raleigh and activates it ($300)",
                    train_name(*id)
                )));
            }
            Action::RepairBridge(g) => {
                self.charge(s, seat, d.tables.costs.bridge_repair);
                s.bridges_out.remove(g);
                ev.push(Event::public(format!(
                    "RT 2.3.3: {seat} repairs the bridge {} ($300)",
                    board::segment_name(d, *g)
                )));
            }
            Action::RemoveRipped(g) => {
                self.charge(s, seat, d.tables.costs.ripped_up_repair);
                if let Some(k) = s.ripped.get_mut(g) {
                    *k = k.saturating_sub(1);
                    if *k == 0 {
                        s.ripped.remove(g);
                    }
                }
                ev.push(Event::public(format!(
                    "RT 2.3.3: {seat} removes a Ripped Up! marker from {} ($200)",
                    board::segment_name(d, *g)
                )));
            }
            // RULING F36 (amended): an offer binds only when the other seat accepts it, which it
            // answers once the Player Turn's play is over.
            Action::Offer { to, amount, cond } => {
                s.offers.push(Task::Offer { seat: *to, from: seat, amount: *amount, cond: cond.clone() });
                ev.push(Event::public(format!("{seat} offers {to} ${amount}")));
            }
            Action::Accept | Action::Pass if matches!(s.tasks.first(), Some(Task::Offer { .. })) => {
                if let Some(Task::Offer { from, amount, cond, .. }) = s.tasks.first().cloned() {
                    s.tasks.remove(0);
                    // RULING F42: the condition is evaluated now, as the money would move.
                    let held = cond.as_ref().is_none_or(|c| super::bribe::holds(d, s, c));
                    if *a == Action::Accept && !held {
                        ev.push(Event::public(format!(
                            "{seat} accepts, but the condition of {from}'s offer does not hold: nothing is paid (RULING F42)"
                        )));
                    } else if *a == Action::Accept {
                        let paid = s.player(from).map(|p| p.money.min(amount)).unwrap_or(0);
                        if let Some(p) = s.player_mut(from) {
                            p.money -= paid;
                        }
                        if let Some(p) = s.player_mut(seat) {
                            p.money += paid;
                        }
                        ev.push(Event::public(format!("{from} pays {seat} ${paid} (both ordered it)")));
                    } else {
                        ev.push(Event::public(format!(
                            "{seat} declines the ${amount} of {from}: nothing is paid"
                        )));
                    }
                }
            }
            Action::Offensive { .. }
            | Action::TreasureHunt(_)
            | Action::GreatTrainRaid
            | Action::ThroughFreight
            | Action::Cancel(_)
            | Action::Intervene
            | Action::Support(_)
            | Action::Donate(_) => self.play_special(s, seat, a, rng, ev),
            Action::Bid { .. } | Action::Replace(_) => {} // the Extended Game's stages, above
            Action::Pass
                if matches!(
                    s.tasks.first(),
                    Some(
                        Task::Cancel { .. }
                            | Task::Intervention { .. }
                            | Task::Window { .. }
                            | Task::Support { .. }
                    )
                ) =>
            {
                s.tasks.remove(0);
            }
            Action::Choose(_) | Action::Pass => self.answer_choice(s, seat, a, rng, ev),
            Action::Accept => {}
            Action::StartMoving => {
                ev.push(Event::public(format!("{seat} moves {} train(s)", s.to_move.len())));
                self.next_train(s, rng, ev);
            }
            Action::Draw
            | Action::TakeDrawn
            | Action::TakeDisplay(_)
            | Action::TakeAbandoned(_)
            | Action::MoveLight
            | Action::Designate(_) => self.undertake(s, seat, a, rng, ev),
            Action::Step { to, fee } => {
                if let Stage::Move { train } = s.stage
                    && let Some(opt) = self.step_option(s, seat, train, s.mp, *to, *fee)
                {
                    self.step(s, seat, opt, rng, ev)
                }
            }
            Action::PickUp | Action::DropOff | Action::Abandon | Action::DepotDrop => {
                self.load_action(s, seat, a, rng, ev)
            }
            Action::EndMove => {
                if let Stage::Move { train } = s.stage {
                    ev.push(Event::public(format!("{seat}'s {} ends its activation", train_name(train))));
                }
                self.next_train(s, rng, ev);
            }
        }
    }

    /// Runs the automatic steps until a seat must decide.
    fn advance(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        for _ in 0..10_000 {
            if s.ended.is_some() {
                s.stage = Stage::Over;
                s.tasks.clear();
                return;
            }
            match s.tasks.first().cloned() {
                Some(t) if t.seat().is_some() => return,
                Some(Task::Occupy { station }) => {
                    s.tasks.remove(0);
                    self.occupy(s, station, ev);
                }
                Some(Task::OffensiveRoll { seat, station, general }) => {
                    s.tasks.remove(0);
                    self.offensive_roll(s, seat, station, general, rng, ev);
                }
                Some(Task::ThroughFreightRoll { bonus }) => {
                    s.tasks.remove(0);
                    self.through_freight_roll(s, bonus, rng, ev);
                }
                Some(Task::Then(then)) => {
                    s.tasks.remove(0);
                    self.resume(s, then, rng, ev);
                }
                Some(_) => {
                    s.tasks.remove(0);
                }
                None => {
                    // A train that left the map (destroyed, disabled, seized) ends its activation.
                    let gone = match &s.stage {
                        Stage::Move { train }
                        | Stage::Undertake { train }
                        | Stage::ChooseLoad { train, .. }
                        | Stage::TroopsPickup { train, .. } => {
                            s.train(s.active(), *train).and_then(Train::station).is_none()
                        }
                        Stage::Dropoff { train, setup: false, .. } => {
                            s.train(s.active(), *train).and_then(Train::station).is_none()
                        }
                        _ => false,
                    };
                    if !gone {
                        return;
                    }
                    self.next_train(s, rng, ev);
                }
            }
        }
    }

    /// Goes on after a War Progress roll.
    fn resume(&self, s: &mut State, then: Then, rng: &mut GameRng, ev: &mut Vec<Event>) {
        match then {
            Then::Move { train } => {
                s.stage = Stage::Move { train };
            }
            Then::Enact { event, choice } => self.enact(s, event, choice, rng, ev),
            Then::EndActivation => self.next_train(s, rng, ev),
            Then::EndTurn => self.end_turn(s, rng, ev),
        }
    }

    /// The next activated train begins, or the Player Turn ends (RT 5.3.6).
    pub(super) fn next_train(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        let seat = s.active();
        while !s.to_move.is_empty() {
            let id = s.to_move.remove(0);
            let Some(t) = s.train(seat, id) else { continue };
            if t.station().is_none() {
                continue;
            }
            let empty = t.load.is_none();
            s.mp = self.data.tables.costs.movement_points;
            s.moved_in = false;
            s.stage = if empty { Stage::Undertake { train: id } } else { Stage::Move { train: id } };
            return;
        }
        self.end_turn(s, rng, ev);
    }

    fn end_turn(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        // RULING F36 (amended): the turn's offers are answered now, in the order made.
        if !s.offers.is_empty() {
            let offers = std::mem::take(&mut s.offers);
            s.tasks.extend(offers);
            s.tasks.push(Task::Then(Then::EndTurn));
            return;
        }
        s.turn += 1;
        if s.turn < s.order.len() {
            self.start_turn(s, ev);
            return;
        }
        // RULING F20 / F14: the game ends with the Round in which the pile ran dry, or a
        // Round in which nobody activated a train; before the War neither (RULING F40).
        if s.pre_war {
            // RULING F40: the War starts with the next Round instead.
        } else if s.pile.is_empty() {
            s.ended = Some("the draw pile is exhausted (RULING F20)".into());
        } else if s.activations_this_round == 0 && s.round > 0 {
            s.ended = Some("a whole Round passed without any train activated (RULING F14)".into());
        }
        if s.ended.is_some() {
            ev.push(Event::public(format!("the game ends: {}", s.ended.clone().unwrap_or_default())));
            return;
        }
        self.start_round(s, rng, ev);
    }

    /// RT 4.0 / RULING F10: a new Round: initiative rolled anew, turns from the initiative player.
    pub(super) fn start_round(&self, s: &mut State, rng: &mut GameRng, ev: &mut Vec<Event>) {
        self.maybe_start_war(s, rng, ev);
        let (init, words) = roll_initiative(s.players.len(), rng);
        s.order = s.seats_from(init);
        self.open_round(s, words, ev);
    }

    /// RT 3.3: Round 1 is led by the high roller of the set-up, in the set-up's order (no new
    /// roll: RULING F10 amended, issue 34).
    pub(super) fn first_round(&self, s: &mut State, ev: &mut Vec<Event>) {
        s.turn = 0;
        let words = format!("{} has the initiative (RT 3.3: the set-up roll)", s.active());
        self.open_round(s, words, ev);
    }

    fn open_round(&self, s: &mut State, words: String, ev: &mut Vec<Event>) {
        s.round += 1;
        s.turn = 0;
        s.activations_this_round = 0;
        ev.push(Event::public(format!("Round {}: {words}", s.round)));
        self.start_turn(s, ev);
    }

    fn start_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        for p in s.players.iter_mut() {
            p.played_this_turn.clear();
        }
        s.congestion_rolled = false;
        s.to_move.clear();
        s.fees_paid.clear();
        self.first_phase(s, ev);
    }

    /// Takes up to `amount` from a seat for the bank (RULING F16: never below $0); returns it.
    pub(super) fn charge(&self, s: &mut State, seat: Seat, amount: u32) -> u32 {
        let Some(p) = s.player_mut(seat) else { return 0 };
        let paid = p.money.min(amount);
        p.money -= paid;
        s.bank_in += u64::from(paid);
        paid
    }

    /// The bank pays a seat.
    pub(super) fn pay_out(&self, s: &mut State, seat: Seat, amount: u32) {
        if let Some(p) = s.player_mut(seat) {
            p.money += amount;
            s.bank_out += u64::from(amount);
        }
    }

    /// A chit leaves play.
    pub(super) fn discard(&self, s: &mut State, chit: u32) {
        s.discarded.push(Chit::Load(chit));
    }
}

impl Apply for Confed {
    /// Applies one action: refused unchanged, or carried out whole.
    fn apply(&self, s: &mut State, a: &Action, rng: &mut GameRng) -> Result<Vec<Event>, Illegal> {
        let Some(seat) = self.deciding_seat(s) else {
            return Err(Illegal("the game is over".into()));
        };
        // A step is checked once and carried out with the cost and line the check found.
        let step = match (&s.stage, a) {
            (Stage::Move { train }, Action::Step { to, fee }) if s.tasks.is_empty() => {
                Some(self.step_option(s, seat, *train, s.mp, *to, *fee))
            }
            _ => None,
        };
        if !step.map_or_else(|| self.allows(s, a), |o| o.is_some()) {
            return Err(Illegal(format!(
                "{} is not allowed now ({})",
                self.describe_action(a),
                self.why_not(s)
            )));
        }
        // Checked: from here on nothing can fail, so the state changes in place (no copy).
        let mut ev = Vec::new();
        match step.flatten() {
            Some(opt) => self.step(s, seat, opt, rng, &mut ev),
            None => self.execute(s, seat, a, rng, &mut ev),
        }
        self.advance(s, rng, &mut ev);
        Ok(ev)
    }

    /// An action in words.
    fn describe_action(&self, a: &Action) -> String {
        let d = &self.data;
        match a {
            Action::PlaceTrain { station, line } => {
                format!("place at {} (#{line})", board::name(d, *station))
            }
            Action::SelectLoad(n) | Action::TakeDisplay(n) | Action::TakeAbandoned(n) => {
                format!("{a:?} {}", chits::label(d, *n)).replace(&format!("({n})"), "")
            }
            Action::Designate(x) => format!("designate {}", board::name(d, *x)),
            Action::Step { to, fee } => {
                format!("move to {}{}", board::name(d, *to), if *fee { " paying the fee" } else { "" })
            }
            Action::RepairBridge(g) | Action::RemoveRipped(g) => {
                format!("{a:?} {}", board::segment_name(d, *g))
            }
            // RULING F31: an offer's condition is never shown.
            Action::Offer { to, amount, .. } => format!("offer {to} ${amount}"),
            other => format!("{other:?}"),
        }
    }
}

/// A train newly in a station, on no line yet (RULING F5).
pub(super) fn new_train(id: u8, station: usize) -> Train {
    Train { id, at: Place::Station(station), load: None, line: None, fee_paid: Default::default() }
}
