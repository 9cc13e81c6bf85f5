//! A simple random player for the tests and the benchmark: it activates whatever it can, places
//! resources at random, plays an admin card now and then, takes a random card in the draft and
//! makes the other choices at random.

use super::R1800;
use super::state::{Action, Stage, State};
use crate::engine::{Apply, GameRng, Pick, Rules, Setup, SetupSpec};

impl R1800 {
    /// The action the random player picks among `legal` (never empty).
    pub fn sim_pick(&self, s: &State, legal: &[Action], p: &mut Pick) -> Action {
        let of = |f: fn(&Action) -> bool| legal.iter().filter(|a| f(a)).collect::<Vec<_>>();
        // Before the draft and at the round's end, now and then the card or the war is declined.
        if matches!(s.stage, Stage::Call { .. } | Stage::Reprisal { .. })
            && s.pending.is_empty()
            && p.next(2) == 0
        {
            return Action::Skip;
        }
        let activate = of(|a| matches!(a, Action::Activate { .. }));
        if !activate.is_empty() {
            return activate[p.next(activate.len())].clone();
        }
        // RULING E79: now and then a card is activated by admin cards alone.
        let alone = of(|a| matches!(a, Action::ActivateAlone { .. }));
        if !alone.is_empty() && p.next(3) == 0 {
            return alone[p.next(alone.len())].clone();
        }
        let admin = of(|a| matches!(a, Action::Admin { .. }));
        if !admin.is_empty() && p.next(4) == 0 {
            return admin[p.next(admin.len())].clone();
        }
        let place = of(|a| matches!(a, Action::Place { .. }));
        if !place.is_empty() && p.next(8) > 0 {
            return place[p.next(place.len())].clone();
        }
        let picks = of(|a| matches!(a, Action::Pick(_)));
        if !picks.is_empty() && p.next(6) > 0 {
            return picks[p.next(picks.len())].clone();
        }
        let moves = of(|a| {
            matches!(
                a,
                Action::MovePop { .. }
                    | Action::MoveRegiment { .. }
                    | Action::Migrate { .. }
                    | Action::Declare(_)
                    | Action::Retaliate(_)
            )
        });
        if !moves.is_empty() && p.next(3) == 0 {
            return moves[p.next(moves.len())].clone();
        }
        for a in [Action::EndActions, Action::EndTurn, Action::PassPick] {
            if legal.contains(&a) {
                return a;
            }
        }
        let answers: Vec<&Action> = legal.iter().filter(|a| **a != Action::Skip).collect();
        if !answers.is_empty() {
            return answers[p.next(answers.len())].clone();
        }
        legal[p.next(legal.len())].clone()
    }

    /// Plays a whole random game from `seed`; the final state and the number of actions.
    pub fn sim_game(&self, seats: u8, seed: u64) -> Result<(State, usize), String> {
        let spec = SetupSpec { seats, options: serde_json::Value::Null };
        let mut s = self.setup(&spec, &mut GameRng::for_setup(seed)).map_err(|e| e.to_string())?;
        let mut pick = Pick(seed);
        let mut n = 0usize;
        while !s.over() {
            let legal = self.legal_actions(&s);
            if legal.is_empty() {
                return Err("no legal action".into());
            }
            let a = self.sim_pick(&s, &legal, &mut pick);
            self.apply(&mut s, &a, &mut GameRng::for_action(seed, n as u64)).map_err(|e| e.to_string())?;
            n += 1;
            if n > 500_000 {
                return Err("the game did not end".into());
            }
        }
        Ok((s, n))
    }
}
