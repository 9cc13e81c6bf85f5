//! The run step (FACTS §10; RULING K21): the trains run declared routes, checked and valued by
//! the board (`check_routes`), or, without routes, the engine's optimal routes (`claim`); a
//! declared revenue above the maximum is refused with the maximum in the message, a lower one
//! too (the company runs for the maximum). A company with trains must run them when they can
//! earn anything; the revenue is kept for the dividend step.

use super::refuse;
use crate::engine::Event;
use crate::games::r1835::R1835;
use crate::games::r1835::actions::{Refusal, illegal};
use crate::games::r1835::board::{Graph, Optimum, StopRef, check_routes, claim, optimal};
use crate::games::r1835::state::{Entity, LastRun, State, Step};

impl R1835 {
    /// The optimal run of an entity's trains on the board now.
    pub(crate) fn best_run(&self, s: &State, e: Entity) -> Result<(Graph, Optimum), Refusal> {
        let phase = self.phase_now(s)?;
        let g = Graph::build(&self.data, &s.board, phase);
        let best = optimal(&g, &self.entity_id(s, e), &self.entity_trains(s, e));
        Ok((g, best))
    }

    /// Whether the run step may be passed: no train, or no route worth anything.
    pub(crate) fn check_no_run(&self, s: &State, e: Entity) -> Result<(), Refusal> {
        if self.entity_trains(s, e).is_empty() {
            return Ok(());
        }
        let (_, best) = self.best_run(s, e)?;
        if best.revenue == 0 {
            return Ok(());
        }
        illegal(format!(
            "{} must run its trains (they can earn {} M): send a run, without routes for the best one",
            self.entity_id(s, e),
            best.revenue
        ))
    }

    /// Runs the operating entity's trains: declared routes, or the optimum without them.
    pub(crate) fn run_trains(
        &self,
        s: &mut State,
        e: Entity,
        routes: &[Vec<String>],
        revenue: Option<i64>,
        ev: &mut Vec<Event>,
    ) -> Result<(), Refusal> {
        self.advance_to(s, Step::Run, ev)?;
        let id = self.entity_id(s, e);
        let trains = self.entity_trains(s, e);
        let phase = self.phase_now(s)?;
        let g = Graph::build(&self.data, &s.board, phase);
        let (value, shown, stops) = if routes.is_empty() {
            let best = claim(&g, &id, &trains, revenue, s.options.revenue_below_maximum).map_err(refuse)?;
            let shown: Vec<String> = best.routes.iter().flatten().map(|r| r.describe(&g)).collect();
            let stops =
                best.routes.iter().flatten().map(|r| r.stops.iter().map(|x| g.stop_label(*x)).collect());
            (revenue.unwrap_or(best.revenue), shown, stops.collect())
        } else {
            let mut declared = Vec::new();
            for route in routes {
                let stops: Result<Vec<StopRef>, String> =
                    route.iter().map(|x| x.parse::<StopRef>()).collect();
                declared.push(stops.map_err(Refusal::Illegal)?);
            }
            let value = check_routes(&g, &id, &trains, &declared).map_err(refuse)?;
            if let Some(d) = revenue.filter(|d| *d != value) {
                return illegal(format!("the routes declared earn {value} M, not {d} M"));
            }
            claim(&g, &id, &trains, Some(value), s.options.revenue_below_maximum).map_err(refuse)?;
            let label =
                |x: &StopRef| format!("{}{}", x.hex, x.n.map(|n| format!(".{n}")).unwrap_or_default());
            let stops = declared.iter().map(|r| r.iter().map(label).collect()).collect();
            (value, routes.iter().map(|r| r.join("-")).collect(), stops)
        };
        let how = if shown.is_empty() { String::from("no route") } else { shown.join(", ") };
        ev.push(Event::public(format!("{id} runs {how}: revenue {value} M")));
        s.or.turn.revenue = Some(value);
        s.or.turn.routes = shown;
        s.last_runs.insert(id.clone(), LastRun { revenue: value, routes: stops });
        s.or.turn.step = Step::Dividend;
        Ok(())
    }
}
