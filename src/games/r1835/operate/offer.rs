//! What the operating entity's seat is offered: the prompt naming the step and what it allows,
//! every action `apply` accepts now (actions of later steps too, where the steps before them may
//! be passed), and the default for a seat that sent no orders — no tile, no station, the best
//! run, a payout (minors: the split), the trains helper's choice, then the end of the turn: an
//! operating company is never stuck (issue 14; RULING K34). An offer for another player's train
//! is answered first: accept or decline, declined by default (RULING K75).

use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Action, DividendKind};
use crate::games::r1835::options::{SilentDividend, SilentTrain};
use crate::games::r1835::state::{Entity, State, Step};

impl R1835 {
    /// The prompt of the operating round's decision.
    pub(crate) fn turn_prompt(&self, s: &State) -> String {
        let Some(e) = self.operating_entity(s) else { return String::from("no company is operating") };
        // RULING K75: the prompt is public, so it leaves the offer's price out.
        if let Some(words) = self.offer_words(s, false) {
            return words;
        }
        let id = self.entity_id(s, e);
        let t = &s.or.turn;
        let what = match t.step {
            Step::Track => {
                let left = self.lays_allowed(s, e).saturating_sub(t.lays);
                format!(
                    "track step: lay or upgrade a tile ({left} lay{} left), or pass",
                    if left == 1 { "" } else { "s" }
                )
            }
            Step::Token => String::from("token step: place a station, or pass"),
            Step::Run if self.entity_trains(s, e).is_empty() => {
                String::from("run step: no trains to run; pass")
            }
            Step::Run => {
                String::from("run step: run the trains (a run without routes takes the best revenue)")
            }
            Step::Dividend => match (t.revenue.unwrap_or(0), e) {
                (0, _) => String::from("dividend step: no revenue; pass (a withholding)"),
                (r, Entity::Minor(_)) => format!("dividend step: split the {r} M revenue 50/50"),
                (r, Entity::Major(_)) => format!("dividend step: pay out or withhold the {r} M revenue"),
            },
            Step::Trains => match self.check_trains_done(s, e) {
                Ok(()) => String::from("trains step: buy trains, or pass to end the turn"),
                Err(why) => format!("trains step: {why}"),
            },
        };
        format!("{id} operates ({} M in its treasury) — {what}", self.entity_cash(s, e))
    }

    /// Every action the operating entity's seat may send now.
    pub(crate) fn legal_turn(&self, s: &State) -> Vec<Action> {
        let mut out = Vec::new();
        let Some(e) = self.operating_entity(s) else { return out };
        if s.or.turn.offer.is_some() {
            self.legal_offer_answers(s, &mut out);
            return out;
        }
        let mut t = s.clone();
        let mut ev = Vec::new();
        loop {
            self.legal_in_step(&t, e, &mut out);
            if t.or.turn.step == Step::Trains || self.pass_step(&mut t, &mut ev).is_err() {
                break;
            }
        }
        if self.can_pass(s).is_ok() {
            out.push(Action::Pass);
        }
        out
    }

    /// The actions of the entity's current step.
    fn legal_in_step(&self, s: &State, e: Entity, out: &mut Vec<Action>) {
        let id = self.entity_id(s, e);
        match s.or.turn.step {
            Step::Track => {
                self.legal_lay_actions(s, e, out);
                self.legal_token_actions(s, e, Step::Track, out);
            }
            Step::Token => self.legal_token_actions(s, e, Step::Token, out),
            Step::Run => {
                if let Ok((_, best)) = self.best_run(s, e) {
                    out.push(Action::Run { company: id, routes: Vec::new(), revenue: Some(best.revenue) });
                }
            }
            Step::Dividend => {
                let kinds: &[DividendKind] = match e {
                    Entity::Minor(_) => &[DividendKind::Split],
                    Entity::Major(_) => &[DividendKind::Payout, DividendKind::Withhold],
                };
                out.extend(kinds.iter().map(|k| Action::Dividend { company: id.clone(), kind: *k }));
            }
            Step::Trains => self.legal_trains(s, e, out),
        }
    }

    /// The default for a seat that sent no orders (RULING K34): no tile, no station, the best
    /// run, a payout (the shareholders' interest; minors split), the trains helper's choice.
    pub(crate) fn default_turn(&self, s: &State) -> Option<Action> {
        let e = self.operating_entity(s)?;
        // RULING K75: a director who ordered no sale keeps the train.
        if let Some(offer) = &s.or.turn.offer {
            return Some(Action::AnswerTrainOffer {
                company: self.entity_id(s, offer.seller),
                accept: false,
            });
        }
        let id = self.entity_id(s, e);
        match s.or.turn.step {
            Step::Track | Step::Token => Some(Action::Pass),
            Step::Run => {
                let (_, best) = self.best_run(s, e).ok()?;
                Some(Action::Run { company: id, routes: Vec::new(), revenue: Some(best.revenue) })
            }
            Step::Dividend if s.or.turn.revenue.unwrap_or(0) == 0 => Some(Action::Pass),
            Step::Dividend => {
                // RULINGS K62: the game's `silent_dividend` option.
                let kind = match (e, s.options.silent_dividend) {
                    (Entity::Minor(_), _) => DividendKind::Split,
                    (Entity::Major(_), SilentDividend::Withhold) => DividendKind::Withhold,
                    (Entity::Major(_), SilentDividend::Payout) => DividendKind::Payout,
                };
                Some(Action::Dividend { company: id, kind })
            }
            Step::Trains => {
                // RULINGS K62: the game's `silent_train` option.
                let newest = (s.options.silent_train == SilentTrain::Newest && self.must_buy(s, e))
                    .then(|| self.bank_next(s))
                    .flatten()
                    .map(|t| Action::BuyTrain {
                        company: id.clone(),
                        train: self.data.trains[t].name.clone(),
                        from: "bank".into(),
                        price: self.data.trains[t].price,
                    })
                    .filter(|a| self.apply_action(&mut s.clone(), a).is_ok());
                newest
                    .or_else(|| self.default_trains(s, e))
                    .or_else(|| self.check_trains_done(s, e).ok().map(|()| Action::Pass))
            }
        }
    }
}
