//! A simple random player for the tests and the benchmark: it activates most trains, takes
//! loads, walks each train toward its pickup or dropoff, and makes the other choices at random.

use super::Confed;
use super::board;
use super::state::{Action, Stage, State};
use crate::engine::{GameRng, Pick};

impl Confed {
    /// The action the random player picks among `legal` (never empty).
    pub fn sim_pick(&self, s: &State, legal: &[Action], p: &mut Pick) -> Action {
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
                    let hops = board::usable_hops(&self.data, s, goal);
                    let here = s
                        .train(seat, *train)
                        .and_then(|t| t.station())
                        .and_then(|x| hops.get(x).copied())
                        .unwrap_or(u32::MAX);
                    let best = legal
                        .iter()
                        .filter_map(|a| match a {
                            Action::Step { to, .. } => Some((hops.get(*to).copied().unwrap_or(u32::MAX), a)),
                            _ => None,
                        })
                        .filter(|(h, _)| *h < here)
                        .min_by_key(|(h, a)| (*h, matches!(a, Action::Step { fee: false, .. })));
                    if let Some((_, a)) = best {
                        return a.clone();
                    }
                    if here == u32::MAX && has(&Action::Abandon) {
                        return Action::Abandon;
                    }
                }
                if has(&Action::Draw) && p.next(2) == 0 {
                    return Action::Draw;
                }
                Action::EndMove
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
            _ => legal[p.next(legal.len())].clone(),
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
        use crate::engine::{Game, SetupSpec};
        let spec = SetupSpec { seats, options };
        let mut s = self.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.to_string())?;
        let mut pick = Pick(seed);
        let mut n = 0usize;
        while s.ended.is_none() {
            let legal = self.legal(&s);
            if legal.is_empty() {
                return Err("no legal action".into());
            }
            let a = self.sim_pick(&s, &legal, &mut pick);
            self.apply_action(&mut s, &a, &mut GameRng::for_action(seed, n as u64))
                .map_err(|e| e.to_string())?;
            n += 1;
            if n > 200_000 {
                return Err("the game did not end".into());
            }
        }
        Ok((s, n))
    }
}
