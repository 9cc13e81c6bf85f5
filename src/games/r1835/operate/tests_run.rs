//! The run step (FACTS §10; RULING K21): the optimum without routes, declared routes checked,
//! a revenue above the maximum refused naming it, the run compulsory for a company with trains.

use super::tests_support::{best_lay, first_or, operating};
use crate::engine::prelude::*;
use crate::games::r1835::actions::Action;
use crate::games::r1835::state::Step;
use crate::games::r1835::tests::{act, engine, try_act};
use serde_json::Value;

/// M1 with a 2-train, after the lay that earns it most, at its run step.
fn m1_ready_to_run() -> (crate::games::r1835::R1835, crate::games::r1835::State, i64) {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    assert_eq!(operating(&g, &s), "M1");
    s.minors[0].trains = vec!["2".into()];
    let (lay, best) = best_lay(&g, &s).expect("a lay that earns something");
    act(&g, &mut s, lay);
    act(&g, &mut s, Action::Pass); // the track step
    act(&g, &mut s, Action::Pass); // the token step
    assert_eq!(s.or.turn.step, Step::Run);
    (g, s, best)
}

#[test]
fn a_run_without_routes_takes_the_optimum() {
    let (g, mut s, best) = m1_ready_to_run();
    assert!(best > 0);
    act(&g, &mut s, Action::Run { company: "M1".into(), routes: vec![], revenue: None });
    assert_eq!(s.or.turn.revenue, Some(best));
    assert_eq!(s.or.turn.step, Step::Dividend);
    assert_eq!(s.or.turn.routes.len(), 1);
}

#[test]
fn a_run_above_the_maximum_is_refused_naming_the_maximum() {
    let (g, mut s, best) = m1_ready_to_run();
    let err =
        try_act(&g, &mut s, Action::Run { company: "M1".into(), routes: vec![], revenue: Some(best + 10) })
            .unwrap_err();
    assert!(err.contains(&format!("the {best} the trains can earn")), "{err}");
}

#[test]
fn a_run_below_the_maximum_is_refused_unless_the_option_allows_it() {
    // RULING K21: the PBEM option set makes the company claim the maximum; Rails' option set
    // (games imported from Rails, where a lower revenue may have been entered) lets it stand.
    let (g, mut s, best) = m1_ready_to_run();
    let low = Action::Run { company: "M1".into(), routes: vec![], revenue: Some(best - 10) };
    let err = try_act(&g, &mut s, low.clone()).unwrap_err();
    assert!(err.contains(&best.to_string()), "{err}");
    s.options.revenue_below_maximum = true;
    act(&g, &mut s, low);
    assert_eq!(s.or.turn.revenue, Some(best - 10));
}

#[test]
fn declared_routes_are_checked_and_valued() {
    let (g, mut s, best) = m1_ready_to_run();
    let e = g.operating_entity(&s).expect("M1");
    let (graph, opt) = g.best_run(&s, e).expect("a run");
    let route = opt.routes.iter().flatten().next().expect("a route").describe(&graph);
    let stops: Vec<String> = route.split('-').map(String::from).collect();
    act(&g, &mut s, Action::Run { company: "M1".into(), routes: vec![stops], revenue: Some(best) });
    assert_eq!(s.or.turn.revenue, Some(best));
}

#[test]
fn a_company_with_trains_that_can_earn_must_run() {
    let (g, mut s, best) = m1_ready_to_run();
    let err = try_act(&g, &mut s, Action::Pass).unwrap_err();
    assert!(err.contains(&format!("can earn {best} M")), "{err}");
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(
        g.default_action(&s),
        Some(Action::Run { company: "M1".into(), routes: vec![], revenue: Some(best) })
    );
}

#[test]
fn a_run_is_kept_as_the_companys_last_run_for_the_drawing() {
    // RULING K68: the optimum's stops, and declared routes as declared.
    let (g, mut s, best) = m1_ready_to_run();
    let mut declared = s.clone();
    act(&g, &mut s, Action::Run { company: "M1".into(), routes: vec![], revenue: None });
    let run = &s.last_runs["M1"];
    assert_eq!((run.revenue, run.routes.len()), (best, 1));
    assert_eq!(run.routes[0].join("-"), s.or.turn.routes[0]);
    let stops: Vec<String> = run.routes[0].iter().map(|x| x.to_lowercase()).collect();
    act(&g, &mut declared, Action::Run { company: "M1".into(), routes: vec![stops], revenue: None });
    assert_eq!(declared.last_runs["M1"], s.last_runs["M1"]);
}
