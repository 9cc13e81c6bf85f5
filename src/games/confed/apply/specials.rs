//! Special Event counters (RT 6.0-6.8): played from the hand (then public), at most one per
//! Player Turn with the stated combinations. Offensive, Treasure Hunt, Train Raid and
//! Through-Freight Law are played by the active player in his activation phase and by the others
//! in the window before it; every seat may cancel a War Progress result with a General, add a
//! General to another's Offensive and play Foreign Intervention in the windows the engine opens
//! (RULING F22).

use super::super::Confed;
use super::super::board::name;
use super::super::chits::special_name;
use super::super::data::StationKind;
use super::super::setup::d6;
use super::super::state::{Action, ChoiceKind, E_TRAIN, State, Task};
use super::new_train;
use crate::engine::{Event, GameRng, Seat};

impl Confed {
    /// Takes a counter out of a seat's hand and notes it as played this Player Turn.
    fn spend(&self, s: &mut State, seat: Seat, number: u8) {
        if let Some(p) = s.player_mut(seat) {
            if let Some(i) = p.specials.iter().position(|x| *x == number) {
                p.specials.remove(i);
            }
            p.played_this_turn.push(number);
        }
    }

    /// Plays a Special Event (or answers a window with one).
    pub(in super::super) fn play_special(
        &self,
        s: &mut State,
        seat: Seat,
        a: &Action,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        match *a {
            Action::Offensive { station, general } => {
                self.spend(s, seat, 2);
                if let Some(g) = general {
                    self.spend(s, seat, g);
                }
                ev.push(Event::public(format!(
                    "RT 6.2: {seat} plays Confederate Offensive on {}",
                    name(d, station)
                )));
                // RT 6.2: "or having another player do so": without a General of his own, every
                // other seat is asked in turn whether it adds one (RULING F22: every seat).
                let mut tasks: Vec<Task> = match general {
                    Some(_) => Vec::new(),
                    None => s
                        .seats_from(seat)
                        .into_iter()
                        .skip(1)
                        .map(|x| Task::Support { seat: x, station })
                        .collect(),
                };
                tasks.push(Task::OffensiveRoll { seat, station, general: general.map(|g| (seat, g)) });
                s.tasks.splice(0..0, tasks);
            }
            Action::Support(g) => {
                self.spend(s, seat, g);
                // RT 6.2: "only one General counter may be played per Offensive"; another player's may be
                // the one (RULING F81).
                while matches!(s.tasks.first(), Some(Task::Support { .. })) {
                    s.tasks.remove(0);
                }
                if let Some(Task::OffensiveRoll { general, .. }) = s.tasks.first_mut() {
                    *general = Some((seat, g));
                }
            }
            Action::TreasureHunt(line) => {
                self.spend(s, seat, 6);
                s.bad_rails.remove(&line);
                self.lapse_diversions(s); // RULING F62: a diversion for this line lapses
                ev.push(Event::public(format!(
                    "RT 6.6: {seat} plays The Great Iron Treasure Hunt: RRC #{line} loses its Bad Rails; three segments are ripped up by the others"
                )));
                let options = self.treasure_options(s);
                let others: Vec<Seat> = s.seats_from(seat).into_iter().skip(1).collect();
                let tasks: Vec<Task> = others
                    .iter()
                    .cycle()
                    .take(3)
                    .map(|x| Task::Choose {
                        seat: *x,
                        kind: ChoiceKind::TreasureHunt,
                        options: options.clone(),
                        optional: false,
                    })
                    .collect();
                s.tasks.splice(0..0, tasks);
            }
            Action::GreatTrainRaid => {
                self.spend(s, seat, 7);
                if let (Some(staunton), Some(p)) = (d.map.station("Staunton"), s.player_mut(seat)) {
                    p.e_available = false;
                    p.trains.push(new_train(E_TRAIN, staunton));
                }
                ev.push(Event::public(format!(
                    "RT 6.7: {seat} plays The Great Train Raid: train E enters play at Staunton"
                )));
            }
            Action::ThroughFreight => {
                self.spend(s, seat, 8);
                ev.push(Event::public(format!(
                    "RT 6.8: {seat} plays The Through-Freight Law: donations, then the roll"
                )));
                let mut tasks: Vec<Task> =
                    s.seats_from(seat).into_iter().map(|x| Task::Donate { seat: x }).collect();
                tasks.push(Task::ThroughFreightRoll { bonus: 0 });
                s.tasks.splice(0..0, tasks);
            }
            Action::Donate(k) => {
                s.tasks.remove(0);
                let paid = self.charge(s, seat, k * d.tables.costs.through_freight_donation);
                if k > 0 {
                    ev.push(Event::public(format!("RT 6.8: {seat} donates ${paid} (+{k})")));
                }
                if let Some(Task::ThroughFreightRoll { bonus }) =
                    s.tasks.iter_mut().find(|t| matches!(t, Task::ThroughFreightRoll { .. }))
                {
                    *bonus += k;
                }
            }
            Action::Cancel(g) => {
                let Some(Task::Cancel { station, .. }) = s.tasks.first().cloned() else { return };
                s.tasks.remove(0);
                self.spend(s, seat, g);
                let need = match g {
                    1 => 3,
                    3 => 2,
                    _ => 4,
                };
                let roll = d6(rng);
                let ok = roll <= need;
                ev.push(Event::public(format!(
                    "RT 6.{g}: {seat} plays {} to save {}: roll {roll} (needs 1-{need}): {}",
                    special_name(d, g),
                    name(d, station),
                    if ok { "the War Progress result is cancelled" } else { "it fails" }
                )));
                if ok {
                    // The rest of the window and the occupation itself are dropped.
                    while matches!(s.tasks.first(), Some(Task::Cancel { .. })) {
                        s.tasks.remove(0);
                    }
                    if matches!(s.tasks.first(), Some(Task::Occupy { .. })) {
                        s.tasks.remove(0);
                    }
                }
            }
            Action::Intervene => {
                self.spend(s, seat, 4);
                s.blockade = 0;
                s.vd_retaken = false;
                while matches!(s.tasks.first(), Some(Task::Intervention { .. })) {
                    s.tasks.remove(0);
                }
                ev.push(Event::public(format!(
                    "RT 6.4: {seat} plays Foreign Intervention: every Union Blockade Increase is removed"
                )));
            }
            _ => {}
        }
    }

    /// RT 6.2: 1d6, +1 with a General; 6 or more retakes the station (then Foreign
    /// Intervention may be played, RT 6.4).
    pub(in super::super) fn offensive_roll(
        &self,
        s: &mut State,
        seat: Seat,
        station: usize,
        general: Option<(Seat, u8)>,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let d = &self.data;
        let roll = d6(rng);
        let bonus = u32::from(general.is_some());
        let won = roll + bonus >= 6;
        let with = match general {
            Some((x, g)) if x == seat => format!(" with {}", special_name(d, g)),
            Some((x, g)) => format!(" with {x}'s {}", special_name(d, g)),
            None => String::new(),
        };
        ev.push(Event::public(format!(
            "RT 6.2: the Offensive on {}{with}: roll {roll}+{bonus}: {}",
            name(d, station),
            if won { "the Confederates retake it" } else { "it fails" }
        )));
        if won {
            s.occupied.remove(&station);
            let vd = d.map.stations.get(station).is_some_and(|x| x.kind == StationKind::VictoryDepot);
            if vd {
                s.vd_retaken = true;
                let window: Vec<Task> =
                    s.seats_from(seat).into_iter().map(|x| Task::Intervention { seat: x }).collect();
                s.tasks.splice(0..0, window);
            }
        }
    }

    /// RT 6.8: 1d6 plus the donations; 7 or more passes the law.
    pub(in super::super) fn through_freight_roll(
        &self,
        s: &mut State,
        bonus: u32,
        rng: &mut GameRng,
        ev: &mut Vec<Event>,
    ) {
        let roll = d6(rng);
        let passed = roll + bonus >= 7;
        s.through_freight |= passed;
        ev.push(Event::public(format!(
            "RT 6.8: Through-Freight Law roll {roll}+{bonus}: {}",
            if passed { "passed: no more line usage fees" } else { "it fails" }
        )));
    }
}
