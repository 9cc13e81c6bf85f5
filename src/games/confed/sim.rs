//! A simple random player for the tests and the benchmark: it activates most trains, takes
//! loads, walks each train toward its pickup or dropoff, and makes the other choices at random.

use super::Confed;
use super::board;
use super::data::Data;
use super::state::{Action, Stage, State, Task};
use crate::engine::{Apply, GameRng, Pick, Rules, Setup};
use std::collections::{BTreeMap, BTreeSet};

/// The random player's memory of station distances to the goals it walked toward, kept while
/// the network they were counted on is unchanged (the Union's markers, disruptions, ripped-up
/// and built segments), so that a walk does not search the map at every step.
#[derive(Debug, Default)]
pub struct Walks {
    network: Option<Network>,
    to_goal: BTreeMap<usize, board::Hops>,
}

type Network = (BTreeSet<usize>, BTreeSet<usize>, Vec<usize>, BTreeSet<usize>);

impl Walks {
    /// The search of station distances to `goal` ([`board::usable_hops`]), as far as it went.
    fn hops(&mut self, d: &Data, s: &State, goal: usize) -> &mut board::Hops {
        let same = self.network.as_ref().is_some_and(|(occupied, bridges, ripped, built)| {
            *occupied == s.occupied
                && *bridges == s.bridges_out
                && ripped.iter().eq(s.ripped.keys())
                && *built == s.built
        });
        if !same {
            self.to_goal.clear();
            self.network = Some((
                s.occupied.clone(),
                s.bridges_out.clone(),
                s.ripped.keys().copied().collect(),
                s.built.clone(),
            ));
        }
        self.to_goal.entry(goal).or_insert_with(|| board::Hops::new(d, s, goal))
    }
}

impl Confed {
    /// The action the random player picks among `legal` (never empty).
    pub fn sim_pick(&self, s: &State, legal: &[Action], p: &mut Pick) -> Action {
        self.sim_pick_with(s, legal, p, &mut Walks::default())
    }

    /// [`Confed::sim_pick`] remembering distances across a game's steps in `walks`.
    pub fn sim_pick_with(&self, s: &State, legal: &[Action], p: &mut Pick, walks: &mut Walks) -> Action {
        let has = |a: &Action| legal.contains(a);
        match &s.stage {
            Stage::Activate if s.tasks.is_empty() => {
                let useful: Vec<&Action> = legal
                    .iter()
                    .filter(|a| !matches!(a, Action::Offer { .. } | Action::StartMoving))
                    .collect();
                if !useful.is_empty() && p.next(5) > 0 {
                    return useful[p.next(useful.len())].clone();
                }
                if let Some(o) = legal
                    .iter()
                    .find(|a| matches!(a, Action::Offer { amount: 100, cond: None, .. }))
                    .filter(|_| p.next(50) == 0)
                {
                    return o.clone();
                }
                Action::StartMoving
            }
            Stage::Move { train } if s.tasks.is_empty() => {
                for a in [Action::DropOff, Action::PickUp, Action::DepotDrop] {
                    if has(&a) {
                        return a;
                    }
                }
                let seat = s.active();
                // RT 7.6: an Iron load that repairs a Bad Rails line here is diverted.
                if has(&Action::Abandon) && self.diverts_here(s, seat, *train) {
                    return Action::Abandon;
                }
                let target = s
                    .train(seat, *train)
                    .and_then(|t| t.load.as_ref())
                    .map(|c| if c.picked { c.dropoff } else { c.pickup });
                if let Some(goal) = target {
                    let at = s.train(seat, *train).and_then(|t| t.station());
                    let hops = walks.hops(&self.data, s, goal);
                    // Once the train's station is reached, every nearer station has its distance.
                    let here = at.map(|x| hops.reach(&self.data, x)).unwrap_or(u32::MAX);
                    let h = |x: usize| hops.found(x);
                    // The steps a station nearer (listed here, not in `legal`: see `sim_legal`),
                    // paying the fee where that is a choice.
                    let best = self
                        .steps_where(s, seat, *train, s.mp, |to| h(to) < here)
                        .into_iter()
                        .min_by_key(|o| (h(o.to), !o.fee));
                    if let Some(o) = best {
                        return Action::Step { to: o.to, fee: o.fee };
                    }
                    if here == u32::MAX && has(&Action::Abandon) {
                        return Action::Abandon;
                    }
                }
                if has(&Action::Draw) && p.next(2) == 0 {
                    return Action::Draw;
                }
                if has(&Action::EndMove) {
                    return Action::EndMove;
                }
                // RT 5.2, 5.4.1: Troops, or a train passing a full station, must move on.
                let steps = self.steps(s, seat, *train, s.mp);
                match steps.get(p.next(steps.len().max(1))) {
                    Some(o) => Action::Step { to: o.to, fee: o.fee },
                    None => legal[p.next(legal.len())].clone(),
                }
            }
            // The Extended Game: open at the lowest bid or raise by $100, half the time.
            Stage::RrcPhase { .. } | Stage::Bidding { .. } if s.tasks.is_empty() => {
                let bids: Vec<&Action> = legal.iter().filter(|a| matches!(a, Action::Bid { .. })).collect();
                let floor = bids
                    .iter()
                    .filter_map(|a| if let Action::Bid { amount, .. } = a { Some(*amount) } else { None })
                    .min();
                let lowest: Vec<&&Action> = bids
                    .iter()
                    .filter(|a| matches!(a, Action::Bid { amount, .. } if Some(*amount) == floor))
                    .collect();
                if !lowest.is_empty() && p.next(2) == 0 {
                    return (*lowest[p.next(lowest.len())]).clone();
                }
                Action::Pass
            }
            // RT 6.0, 1.0: in another's window, play a Special Event now and then, else pass.
            _ if matches!(s.tasks.first(), Some(Task::Window { .. })) => {
                let plays: Vec<&Action> =
                    legal.iter().filter(|a| !matches!(a, Action::Offer { .. } | Action::Pass)).collect();
                if plays.is_empty() || p.next(5) > 0 {
                    Action::Pass
                } else {
                    plays[p.next(plays.len())].clone()
                }
            }
            _ => legal[p.next(legal.len())].clone(),
        }
    }

    /// The actions the random player chooses among: [`Confed::legal`], except that a moving
    /// train's steps are left out (the player lists only those toward its goal) and of the
    /// offers of money only the one it might make ($100 to the next seat).
    fn sim_legal(&self, s: &State) -> Vec<Action> {
        match (&s.stage, self.deciding_seat(s)) {
            (Stage::Move { train }, Some(seat)) if s.tasks.is_empty() => {
                let v = self.move_options(s, seat, *train, s.mp, false);
                // A train that must move on (RT 5.2, 5.4.1) lists its steps too.
                if v.contains(&Action::EndMove) { v } else { self.move_options(s, seat, *train, s.mp, true) }
            }
            (Stage::Activate, Some(seat)) if s.tasks.is_empty() => {
                let mut v = self.activate_options(s, seat, false);
                let next = s.seats_from(seat).get(1).copied().filter(|x| *x != seat);
                if let Some(to) = next.filter(|_| s.player(seat).is_some_and(|p| p.money >= 100)) {
                    v.push(Action::Offer { to, amount: 100, cond: None });
                }
                v
            }
            _ => self.legal_actions(s),
        }
    }

    /// Plays a whole random game from `seed`; returns the final state and the actions taken.
    pub fn sim_game(&self, seats: u8, seed: u64) -> Result<(State, usize), String> {
        self.sim_game_with(seats, seed, serde_json::Value::Null)
    }

    /// [`Confed::sim_game`] with set-up options (`{"extended": true}` for the Extended Game).
    pub fn sim_game_with(
        &self,
        seats: u8,
        seed: u64,
        options: serde_json::Value,
    ) -> Result<(State, usize), String> {
        use crate::engine::SetupSpec;
        let spec = SetupSpec { seats, options };
        let mut s = self.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.to_string())?;
        let mut pick = Pick(seed);
        let mut walks = Walks::default();
        let mut n = 0usize;
        while s.ended.is_none() {
            let legal = self.sim_legal(&s);
            if legal.is_empty() {
                return Err("no legal action".into());
            }
            let a = self.sim_pick_with(&s, &legal, &mut pick, &mut walks);
            self.apply(&mut s, &a, &mut GameRng::for_action(seed, n as u64)).map_err(|e| e.to_string())?;
            n += 1;
            if n > 200_000 {
                return Err("the game did not end".into());
            }
        }
        Ok((s, n))
    }
}
