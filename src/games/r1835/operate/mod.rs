//! A company's turn in an operating round (issue 13 wiring, issue 14 dividends): the step
//! machine of FACTS §7.3 — track, token, run, dividend, trains, in that order — and what each
//! step allows. Actions move the turn forward only: an action of a later step first passes the
//! steps before it (each pass checked as if sent), so a turn never goes back to an earlier step
//! (HR 6: the NF's and PfB's stations come after the track). Ending the turn = passing the
//! trains step (RULING K35).
//!
//! Files: `track` (tile lays, private free lays), `token` (stations, homes, private stations),
//! `run` (revenue: declared routes or the optimum, RULING K21), `dividend` (payout, withhold,
//! the minors' split, price moves), `offer` (prompts, legal actions, defaults for seats that sent
//! no orders). The trains step is `super::trains`.

mod dividend;
mod offer;
mod run;
mod token;
mod track;

#[cfg(test)]
mod tests_dividend;
#[cfg(test)]
mod tests_replay;
#[cfg(test)]
mod tests_run;
#[cfg(test)]
mod tests_support;
#[cfg(test)]
mod tests_token;
#[cfg(test)]
mod tests_track;

use super::R1835;
use super::actions::{Refusal, illegal};
use super::data::{Phase, TrainType};
use super::holdings::Holder;
use super::state::{CompanyTurn, Entity, State, Step};
use crate::engine::Event;
use std::fmt::Display;

/// A refusal with the board's typed reason as the player's message.
fn refuse(e: impl Display) -> Refusal {
    Refusal::Illegal(e.to_string())
}

impl R1835 {
    /// The entity operating now.
    pub(crate) fn operating_entity(&self, s: &State) -> Option<Entity> {
        s.or.queue.first().copied()
    }

    /// The id printed on an entity ("BY", "M2").
    pub(crate) fn entity_id(&self, s: &State, e: Entity) -> String {
        match e {
            Entity::Minor(m) => s.minors.get(usize::from(m)).map(|x| x.id.clone()),
            Entity::Major(c) => s.majors.get(usize::from(c)).map(|x| x.id.clone()),
        }
        .unwrap_or_default()
    }

    /// Who holds an entity's treasury.
    pub(crate) fn treasury(e: Entity) -> Holder {
        match e {
            Entity::Minor(m) => Holder::Minor(usize::from(m)),
            Entity::Major(c) => Holder::Major(usize::from(c)),
        }
    }

    /// An entity's cash.
    pub(crate) fn entity_cash(&self, s: &State, e: Entity) -> i64 {
        match e {
            Entity::Minor(m) => s.minors.get(usize::from(m)).map_or(0, |x| x.cash),
            Entity::Major(c) => s.majors.get(usize::from(c)).map_or(0, |x| x.cash),
        }
    }

    /// The train types an entity owns, in the order it owns them.
    pub(crate) fn entity_trains(&self, s: &State, e: Entity) -> Vec<TrainType> {
        let names = match e {
            Entity::Minor(m) => s.minors.get(usize::from(m)).map(|x| x.trains.clone()),
            Entity::Major(c) => s.majors.get(usize::from(c)).map(|x| x.trains.clone()),
        };
        names
            .unwrap_or_default()
            .iter()
            .filter_map(|n| self.data.trains.iter().find(|t| &t.name == n).cloned())
            .collect()
    }

    /// The current phase's data.
    pub(crate) fn phase_now(&self, s: &State) -> Result<&Phase, Refusal> {
        match self.data.phases.get(usize::from(s.phase)) {
            Some(p) => Ok(p),
            None => illegal(format!("the game is in phase number {}, which the data does not have", s.phase)),
        }
    }

    /// The operating entity, checked against the company an action names.
    pub(crate) fn operating_named(&self, s: &State, company: &str) -> Result<Entity, Refusal> {
        let Some(e) = self.operating_entity(s) else { return illegal("no company is operating") };
        let id = self.entity_id(s, e);
        if !id.eq_ignore_ascii_case(company.trim()) {
            return illegal(format!("it is {id}'s turn, not {company}'s"));
        }
        Ok(e)
    }

    /// Starts the turn of the entity at the head of the queue: a fresh turn, and the Badische's
    /// home station in its first operating round (HR 8).
    pub(crate) fn begin_turn(&self, s: &mut State, ev: &mut Vec<Event>) {
        s.or.turn = CompanyTurn::default();
        if let Some(Entity::Major(c)) = self.operating_entity(s) {
            let waits = s.majors.get(usize::from(c)).is_some_and(|m| !m.home_placed);
            if waits {
                self.place_home(s, Entity::Major(c), ev);
            }
        }
    }

    /// Whether the current step may be passed (the trains step: whether the turn may end).
    pub(crate) fn can_pass(&self, s: &State) -> Result<(), Refusal> {
        let Some(e) = self.operating_entity(s) else { return illegal("no company is operating") };
        match s.or.turn.step {
            Step::Track | Step::Token => Ok(()),
            Step::Run => self.check_no_run(s, e),
            Step::Dividend => match s.or.turn.revenue.unwrap_or(0) {
                0 => Ok(()),
                r => illegal(format!(
                    "{} must decide what to do with its {r} M revenue: {}",
                    self.entity_id(s, e),
                    match e {
                        Entity::Minor(_) => "send a dividend \"split\" (minors split 50/50)",
                        Entity::Major(_) => "send a dividend \"payout\" or \"withhold\"",
                    }
                )),
            },
            Step::Trains => self.check_trains_done(s, e),
        }
    }

    /// Passes the current step and moves to the next; passing the trains step ends the turn.
    pub(crate) fn pass_step(&self, s: &mut State, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        self.can_pass(s)?;
        let Some(e) = self.operating_entity(s) else { return illegal("no company is operating") };
        match s.or.turn.step {
            Step::Track => s.or.turn.step = Step::Token,
            Step::Token => s.or.turn.step = Step::Run,
            Step::Run => {
                // Nothing to run: a revenue of 0 (FACTS §10).
                s.or.turn.revenue = Some(0);
                s.or.turn.step = Step::Dividend;
            }
            Step::Dividend => {
                // Zero revenue is a withholding (FACTS §5.2; RULING K33).
                self.settle_dividend(s, e, false, ev);
                s.or.turn.step = Step::Trains;
            }
            Step::Trains => self.end_company_turn(s, e, ev),
        }
        Ok(())
    }

    /// Moves the turn forward to `step`, passing the steps before it; an earlier step is over.
    pub(crate) fn advance_to(&self, s: &mut State, step: Step, ev: &mut Vec<Event>) -> Result<(), Refusal> {
        if s.or.turn.step > step {
            let id = self.operating_entity(s).map(|e| self.entity_id(s, e)).unwrap_or_default();
            return illegal(format!(
                "{id}'s {} step is over: it is in its {} step (a turn goes track, token, run, dividend, trains)",
                step.name(),
                s.or.turn.step.name()
            ));
        }
        while s.or.turn.step < step {
            self.pass_step(s, ev)?;
        }
        Ok(())
    }

    /// Ends the entity's turn: it has operated; the next entity operates (the share companies
    /// in the order of their prices now, FACTS §7.2), or the round ends.
    pub(crate) fn end_company_turn(&self, s: &mut State, e: Entity, ev: &mut Vec<Event>) {
        match e {
            Entity::Minor(m) => {
                if let Some(x) = s.minors.get_mut(usize::from(m)) {
                    x.operated = true;
                }
            }
            Entity::Major(c) => {
                if let Some(x) = s.majors.get_mut(usize::from(c)) {
                    x.operated = true;
                }
            }
        }
        ev.push(Event::public(format!("{} ends its turn", self.entity_id(s, e))));
        if !s.or.queue.is_empty() {
            s.or.queue.remove(0);
        }
        self.reorder_majors(s);
        s.or.turn = CompanyTurn::default();
        if s.or.queue.is_empty() {
            self.finish_operating_round(s, ev);
        } else {
            self.begin_turn(s, ev);
        }
    }
}
