//! What may be done now: the next decision (a queued task's seat, else the stage's), the
//! legal actions there, and the rules' default when a seat gives no usable order (issue 17:
//! the train stands still and keeps its load; interrupts and voluntary choices pass).

use super::Confed;
use super::board::{self, name};
use super::chits::{self, is_troops};
use super::state::{Action, Place, Stage, State, Task};
use crate::engine::{Decision, Rules, Seat};

/// The Generals that cancel a War Progress result (RT 6.1, 6.3, 6.5).
pub const CANCELLERS: [u8; 3] = [1, 3, 5];

impl Confed {
    /// The seat that decides now, if the game is not over.
    pub(super) fn deciding_seat(&self, s: &State) -> Option<Seat> {
        if let Some(t) = s.tasks.first() {
            return t.seat();
        }
        match &s.stage {
            Stage::Over => None,
            Stage::ChooseRrc { order } => order.first().copied(),
            Stage::Place => {
                s.order.iter().copied().find(|x| s.player(*x).is_some_and(|p| !p.unplaced.is_empty()))
            }
            Stage::SelectLoads => self.next_selector(s),
            Stage::RrcPhase { selector: x, .. }
            | Stage::Bidding { next: x, .. }
            | Stage::PlaceBought { seat: x, .. } => Some(*x),
            // RT 3.7, RULING F34 (amended, issue 34): a starting load's dropoff is designated by
            // the seat whose train holds it, not by the seat first in the order.
            Stage::Dropoff { train, chit, setup: true, .. } => {
                s.holder(*chit).filter(|(_, t)| t == train).map(|(x, _)| x).or(Some(s.active()))
            }
            _ => Some(s.active()),
        }
    }

    /// RT 5.1.3: the prompt of a dropoff: the load, the train and the stations to choose from.
    pub(super) fn dropoff_prompt(&self, train: u8, chit: u32, options: &[usize]) -> String {
        let d = &self.data;
        let mut names: Vec<&str> = options.iter().map(|o| name(d, *o)).collect();
        let last = names.pop().unwrap_or_default();
        let choices =
            if names.is_empty() { last.to_string() } else { format!("{} or {last}", names.join(", ")) };
        format!("dropoff station for {} on {}: {choices}", chits::label(d, chit), chits::train_name(train))
    }

    /// RT 3.7: one load at a time per seat, in seating order, until every train has one.
    pub(super) fn next_selector(&self, s: &State) -> Option<Seat> {
        let need = |seat: Seat| {
            s.player(seat).map(|p| p.trains.iter().filter(|t| t.load.is_none()).count()).unwrap_or(0)
        };
        let have = |seat: Seat| {
            s.player(seat).map(|p| p.trains.iter().filter(|t| t.load.is_some()).count()).unwrap_or(0)
        };
        s.order.iter().copied().filter(|x| need(*x) > 0).min_by_key(|x| have(*x))
    }

    /// Whether `seat` may play Special Event `number` now (RT 6.0: one per Player Turn, but a
    /// Confederate Offensive may go with a General, and Foreign Intervention with anything).
    pub(super) fn may_play(&self, s: &State, seat: Seat, number: u8) -> bool {
        let Some(p) = s.player(seat) else { return false };
        // RT 6.0: in the Extended Game, only once the War has started.
        if s.pre_war || !p.specials.contains(&number) {
            return false;
        }
        let others: Vec<u8> = p.played_this_turn.iter().copied().filter(|x| *x != 4).collect();
        match number {
            4 => true,
            1 | 3 => others.is_empty() || others == [2],
            2 => others.is_empty() || others == [1] || others == [3],
            _ => others.is_empty(),
        }
    }

    /// Whether `a` is legal now. Where listing every action is costly (a train's steps, the
    /// offers of money) the one action is checked directly; the answer is the same as
    /// `legal(s).contains(a)` (a property test holds them equal).
    pub(super) fn allows(&self, s: &State, a: &Action) -> bool {
        let Some(seat) = self.deciding_seat(s) else { return false };
        if let (Some(Task::Window { .. }), Action::Offer { to, amount, .. }) = (s.tasks.first(), a) {
            return self.offer_ok(s, seat, *to, *amount);
        }
        if s.tasks.is_empty() {
            match (&s.stage, a) {
                (Stage::Move { train }, Action::Step { to, fee }) => {
                    return self.step_option(s, seat, *train, s.mp, *to, *fee).is_some();
                }
                (Stage::Move { train }, _) => {
                    return self.move_options(s, seat, *train, s.mp, false).contains(a);
                }
                (Stage::Activate, Action::Offer { to, amount, .. }) => {
                    return self.offer_ok(s, seat, *to, *amount);
                }
                (Stage::Activate, _) => return self.activate_options(s, seat, false).contains(a),
                (Stage::RrcPhase { .. } | Stage::Bidding { .. }, Action::Bid { rrc, amount }) => {
                    return self.bid_allowed(s, seat, *rrc, *amount);
                }
                _ => {}
            }
        }
        self.legal_actions(s).contains(a)
    }

    /// RT 3.5: a station of one of the seat's lines not yet used, where stacking allows.
    fn placements(&self, s: &State, seat: Seat) -> Vec<Action> {
        let d = &self.data;
        let Some(p) = s.player(seat) else { return Vec::new() };
        let mut v = Vec::new();
        for &l in p.rrcs.iter().filter(|l| !p.placed_on.contains(l)) {
            for &st in d.map.line(l).map(|x| x.stations.as_slice()).unwrap_or(&[]) {
                if s.trains_at(st) < board::stack_limit(d, s, st) {
                    v.push(Action::PlaceTrain { station: st, line: l });
                }
            }
        }
        v
    }

    /// The active player's options before moving.
    /// `offers`: list the offers of money too (one per seat and $100 step).
    pub(super) fn activate_options(&self, s: &State, seat: Seat, offers: bool) -> Vec<Action> {
        let d = &self.data;
        let c = &d.tables.costs;
        let Some(p) = s.player(seat) else { return Vec::new() };
        let mut v = Vec::new();
        let raleigh = board::raleigh(d);
        for t in &p.trains {
            if s.to_move.contains(&t.id) {
                continue;
            }
            match t.at {
                Place::Station(_) if p.money >= c.activation => v.push(Action::Activate(t.id)),
                Place::RepairBox
                    if p.money >= c.repair
                        && !s.occupied.contains(&raleigh)
                        && s.trains_at(raleigh) < board::stack_limit(d, s, raleigh) =>
                {
                    v.push(Action::Repair(t.id))
                }
                _ => {}
            }
        }
        v.extend(self.repair_options(s, seat));
        v.extend(self.plays(s, seat, offers));
        v.push(Action::StartMoving);
        v
    }

    /// What a seat may do "at any time" (RT 1.0, 6.0): play the Offensive, Treasure Hunt, Train
    /// Raid or Through-Freight Law, and (`offers`: listed too) offer money to another seat.
    pub(super) fn plays(&self, s: &State, seat: Seat, offers: bool) -> Vec<Action> {
        let Some(p) = s.player(seat) else { return Vec::new() };
        let mut v = Vec::new();
        for other in s.seats_from(seat).into_iter().skip(1).filter(|_| offers) {
            v.extend((1..=p.money / 100).map(|k| Action::Offer { to: other, amount: k * 100, cond: None }));
        }
        if self.may_play(s, seat, 2) {
            // RT 6.2: one General per Offensive, and RT 6.0: one General per Player Turn (RULING F82; a
            // General that cancelled a result this turn leaves the Offensive without one).
            let general_played = p.played_this_turn.iter().any(|x| CANCELLERS.contains(x));
            let generals: Vec<Option<u8>> = std::iter::once(None)
                .chain([1u8, 3].into_iter().filter(|g| p.specials.contains(g) && !general_played).map(Some))
                .collect();
            for &st in &s.occupied {
                for g in &generals {
                    v.push(Action::Offensive { station: st, general: *g });
                }
            }
        }
        if self.may_play(s, seat, 6) {
            v.extend(s.bad_rails.iter().map(|l| Action::TreasureHunt(*l)));
        }
        if self.may_play(s, seat, 7) && self.train_raid_possible(s, seat) {
            v.push(Action::GreatTrainRaid);
        }
        if self.may_play(s, seat, 8) && !s.through_freight {
            v.push(Action::ThroughFreight);
        }
        v
    }

    /// An offer of money `seat` may make (RT 1.0; issue 17: in $100s, at most its Treasury).
    fn offer_ok(&self, s: &State, seat: Seat, to: Seat, amount: u32) -> bool {
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        to != seat
            && to.index() < s.players.len()
            && amount >= 100
            && amount.is_multiple_of(100)
            && amount <= money
    }

    /// RT 6.7 (RULING F28, amended): the E train is free, Strasburg is open to the Confederacy
    /// ("unblocked by Union-occupied markers": only they close it), Staunton has room.
    pub(super) fn train_raid_possible(&self, s: &State, seat: Seat) -> bool {
        let d = &self.data;
        let (Some(strasburg), Some(staunton)) = (d.map.station("Strasburg"), d.map.station("Staunton"))
        else {
            return false;
        };
        s.player(seat).is_some_and(|p| p.e_available)
            && !s.occupied.contains(&strasburg)
            && !s.occupied.contains(&staunton)
            && s.trains_at(staunton) < board::stack_limit(d, s, staunton)
            && board::open_to_confederacy(d, s, strasburg)
    }

    /// RT 5.1.1-5.1.2 and RULINGS F11, F12 and F32: what an empty active train may undertake.
    /// `forced`: the activation begins (the train must undertake something if it can).
    pub(super) fn undertake_options(&self, s: &State, forced: bool) -> Vec<Action> {
        let d = &self.data;
        let troops_shown = s.display.iter().any(|n| is_troops(d, *n));
        let mut v = Vec::new();
        if troops_shown || !s.pile.is_empty() {
            v.push(Action::Draw);
        }
        if troops_shown {
            return v;
        }
        if s.pile.is_empty() {
            v.extend(s.display.iter().map(|n| Action::TakeDisplay(*n)));
        }
        // RT 7.6 (RULING F62): a seized Iron shipment is for the seizing seat alone.
        let active = s.active();
        v.extend(
            s.abandoned
                .iter()
                .filter(|a| a.reserved.is_none_or(|r| r == active))
                .map(|a| Action::TakeAbandoned(a.chit)),
        );
        if forced && s.pile.is_empty() {
            v.push(Action::MoveLight);
        }
        v
    }

    /// The moving train's options (RT 5.1.5-5.1.8, 5.3); `with_steps`: its steps too.
    pub(super) fn move_options(
        &self,
        s: &State,
        seat: Seat,
        id: u8,
        mp: u32,
        with_steps: bool,
    ) -> Vec<Action> {
        let d = &self.data;
        let Some(t) = s.train(seat, id) else { return vec![Action::EndMove] };
        let Some(at) = t.station() else { return vec![Action::EndMove] };
        let steps = self.steps(s, seat, id, mp);
        let mut v: Vec<Action> = Vec::new();
        if with_steps {
            v.extend(steps.iter().map(|o| Action::Step { to: o.to, fee: o.fee }));
        }
        // RT 5.4.1 (RULING F21): in a station over its limit the train only moves on (a pick-up
        // only if it can move on after it; anything else could leave it standing there).
        let over = s.trains_at(at) > board::stack_limit(d, s, at) && !steps.is_empty();
        let action_mp = super::movement::ACTION_MP;
        let troops = t.load.as_ref().is_some_and(|c| is_troops(d, c.chit));
        let mut must_go = !steps.is_empty() && (troops || over);
        match &t.load {
            Some(c) if mp >= action_mp => {
                let blockade = chits::is_blockade(d, c.chit);
                let picked_on = || {
                    self.moves_on_after(s, seat, id, mp - action_mp, |t| {
                        if let Some(l) = t.load.as_mut() {
                            l.picked = true;
                        }
                        t.fee_paid.clear();
                    })
                };
                if !c.picked && c.pickup == at && (!over || (!blockade && picked_on())) {
                    v.push(Action::PickUp);
                    must_go |= troops; // RT 5.2: the Troops are picked up, not left standing
                }
                if c.picked && c.dropoff == at && !over {
                    v.push(Action::DropOff);
                    must_go |= troops;
                }
                if !over {
                    v.push(Action::Abandon);
                }
                if c.picked && !over && board::is_depot(d, s, at) && self.stranded(s, c.dropoff, at) {
                    v.push(Action::DepotDrop);
                }
            }
            None if mp > 0 && !over => v.extend(self.undertake_options(s, false)),
            _ => {}
        }
        v.extend(self.repair_options(s, seat));
        // RT 5.2: Troops do not stand still while an expeditious step (or their pick-up or
        // drop-off) is open to them; RT 5.4.1: no train ends its movement over a limit.
        if !must_go {
            v.push(Action::EndMove);
        }
        v
    }

    /// RT 2.3.3 / 7.9: the line owner may repair a bridge ($300) or remove a Ripped Up! marker
    /// ($200) at any time during his Player Turn.
    pub(super) fn repair_options(&self, s: &State, seat: Seat) -> Vec<Action> {
        let d = &self.data;
        let c = &d.tables.costs;
        let Some(p) = s.player(seat) else { return Vec::new() };
        let mine =
            |seg: usize| d.map.segments.get(seg).is_some_and(|x| x.owners.iter().any(|o| p.rrcs.contains(o)));
        let mut v = Vec::new();
        if p.money >= c.bridge_repair {
            v.extend(s.bridges_out.iter().filter(|g| mine(**g)).map(|g| Action::RepairBridge(*g)));
        }
        if p.money >= c.ripped_up_repair {
            v.extend(s.ripped.keys().filter(|g| mine(**g)).map(|g| Action::RemoveRipped(*g)));
        }
        v
    }

    /// RT 5.1.8: the dropoff cannot be reached from `at` through the Union's markers.
    pub(super) fn stranded(&self, s: &State, dropoff: usize, at: usize) -> bool {
        s.occupied.contains(&dropoff) || !board::reaches(&self.data, s, at, dropoff, false)
    }

    /// The chits a seat can see are on the Available Loads Display (Troops first).
    pub(super) fn shown_troops(&self, s: &State) -> Option<u32> {
        s.display.iter().copied().find(|n| is_troops(&self.data, *n))
    }
}

impl Rules for Confed {
    type State = State;
    type Action = Action;

    /// The decision, in words.
    fn next_decision(&self, s: &State) -> Option<Decision> {
        let seat = self.deciding_seat(s)?;
        let prompt = self.kind_words(s, &self.decision_kind(s)?);
        Some(Decision { seat, prompt })
    }

    /// Every legal action now.
    fn legal_actions(&self, s: &State) -> Vec<Action> {
        let Some(seat) = self.deciding_seat(s) else { return Vec::new() };
        let d = &self.data;
        let money = s.player(seat).map(|p| p.money).unwrap_or(0);
        if let Some(task) = s.tasks.first() {
            return match task {
                Task::Choose { options, optional, .. } => {
                    let mut v: Vec<Action> = options.iter().map(|o| Action::Choose(*o)).collect();
                    if *optional || v.is_empty() {
                        v.push(Action::Pass);
                    }
                    v
                }
                Task::Cancel { .. } => {
                    let mut v: Vec<Action> = CANCELLERS
                        .iter()
                        .filter(|g| self.may_play(s, seat, **g))
                        .map(|g| Action::Cancel(*g))
                        .collect();
                    v.push(Action::Pass);
                    v
                }
                Task::Intervention { .. } => {
                    let mut v = vec![Action::Pass];
                    if self.may_play(s, seat, 4) {
                        v.insert(0, Action::Intervene);
                    }
                    v
                }
                Task::Donate { .. } => {
                    (0..=money / d.tables.costs.through_freight_donation.max(1)).map(Action::Donate).collect()
                }
                Task::Offer { .. } => vec![Action::Accept, Action::Pass],
                Task::Window { .. } => {
                    let mut v = self.plays(s, seat, true);
                    v.push(Action::Pass);
                    v
                }
                Task::Support { .. } => {
                    let mut v: Vec<Action> = [1u8, 3]
                        .into_iter()
                        .filter(|g| self.may_play(s, seat, *g))
                        .map(Action::Support)
                        .collect();
                    v.push(Action::Pass);
                    v
                }
                _ => Vec::new(),
            };
        }
        match &s.stage {
            Stage::Over => Vec::new(),
            Stage::ChooseRrc { .. } => {
                (1..=24u8).filter(|l| s.owner_of(*l).is_none()).map(Action::ChooseRrc).collect()
            }
            Stage::Place => self.placements(s, seat),
            Stage::SelectLoads => s.offer.iter().map(|n| Action::SelectLoad(*n)).collect(),
            Stage::Activate => self.activate_options(s, seat, true),
            Stage::Undertake { .. } => self.undertake_options(s, true),
            Stage::ChooseLoad { .. } => std::iter::once(Action::TakeDrawn)
                .chain(s.display.iter().map(|n| Action::TakeDisplay(*n)))
                .collect(),
            Stage::Dropoff { options, .. } | Stage::TroopsPickup { options, .. } => {
                options.iter().map(|o| Action::Designate(*o)).collect()
            }
            Stage::Move { train } => self.move_options(s, seat, *train, s.mp, true),
            Stage::RrcPhase { .. }
            | Stage::Bidding { .. }
            | Stage::PlaceBought { .. }
            | Stage::Contract { .. } => self.extended_options(s, seat),
        }
    }

    /// The default when a seat gives no usable order (RULING F35): stand still, keep loads, pass.
    fn default_action(&self, s: &State) -> Option<Action> {
        let legal = self.legal_actions(s);
        let prefer =
            [Action::Pass, Action::Donate(0), Action::StartMoving, Action::EndMove, Action::TakeDrawn];
        // Where the train must move on (RT 5.2, 5.4.1): its pick-up or drop-off, else a step
        // that pays no fee.
        let moving = [Action::PickUp, Action::DropOff];
        prefer
            .into_iter()
            .chain(moving)
            .find(|a| legal.contains(a))
            .or_else(|| legal.iter().find(|a| matches!(a, Action::Step { fee: false, .. })).cloned())
            .or_else(|| legal.into_iter().next())
    }
}
