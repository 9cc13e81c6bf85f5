//! The trains step and the Prussian together, through the engine's `apply` (FACTS §9, HR 9,
//! HR 10): a purchase's Prussian moment is asked before the buyer goes on.

use super::super::R1835;
use super::super::actions::Action;
use super::super::state::{State, Step};
use super::super::tests::{act, engine, to_act, try_act};
use super::tests::{bank_at, fund, give, major, operating};
use crate::engine::prelude::*;

fn m2_owner(s: &State) -> u8 {
    s.minors.get(1).and_then(|m| m.owner).map(|p| p + 1).unwrap_or(0)
}

/// BY in its trains step with 1000 M and a 3-train, the first 4 next in the bank (phase 2);
/// and the seat (1-based) of its president.
fn by_in_its_trains_step_before_the_first_4(g: &R1835) -> (State, u8) {
    let by = major(g, "BY");
    let mut s = operating(g, by);
    bank_at(g, &mut s, "4", "2");
    fund(&mut s, by, 1000);
    give(&mut s, by, &["3"]);
    s.or.turn.step = Step::Trains;
    let president = to_act(g, &s);
    (s, president)
}

#[test]
fn the_first_4_asks_m2s_owner_before_the_buyer_goes_on() {
    let g = engine();
    let (mut s, president) = by_in_its_trains_step_before_the_first_4(&g);
    let money = s.money();
    act(
        &g,
        &mut s,
        Action::BuyTrain { company: "BY".into(), train: "4".into(), from: "bank".into(), price: 360 },
    );
    let owner = m2_owner(&s);
    assert_eq!(to_act(&g, &s), owner, "M2's owner answers first (HR 10)");
    let d = g.next_decision(&s).expect("a question");
    assert!(d.prompt.contains("form the Prussian"), "{}", d.prompt);
    assert_eq!(g.default_action(&s), Some(Action::FormPrussian { form: false }), "RULING K50");
    let err = try_act(&g, &mut s, Action::Pass).unwrap_err();
    assert!(err.contains("Prussian question is open"), "{err}");
    act(&g, &mut s, Action::FormPrussian { form: true });
    let pr = g.data().major_index("PR").expect("PR");
    assert!(s.majors[pr].floated && s.minors[1].closed, "formed from M2");
    // FACTS §9 step 4: then every other paper's owner is asked once around the table.
    let mut asked = 0;
    while g.next_decision(&s).is_some_and(|d| d.prompt.contains("exchange")) {
        let answer = g.default_action(&s).expect("a default answer");
        assert!(matches!(answer, Action::ExchangeForPrussian { accept: false, .. }), "K50 declines");
        act(&g, &mut s, answer);
        asked += 1;
    }
    assert!(asked > 0, "the other papers' owners were asked");
    assert_eq!(to_act(&g, &s), president, "then BY's turn goes on");
    assert_eq!(s.money(), money);
    let err = try_act(&g, &mut s, Action::FormPrussian { form: true }).unwrap_err();
    assert!(err.starts_with("no Prussian question is open now"), "{err}");
}

#[test]
fn declining_leaves_the_question_for_the_start_of_the_next_round() {
    let g = engine();
    let (mut s, president) = by_in_its_trains_step_before_the_first_4(&g);
    act(
        &g,
        &mut s,
        Action::BuyTrain { company: "BY".into(), train: "4".into(), from: "bank".into(), price: 360 },
    );
    act(&g, &mut s, Action::FormPrussian { form: false });
    assert_eq!(to_act(&g, &s), president);
    assert!(!s.minors[1].closed);
    act(&g, &mut s, Action::Pass); // BY ends its turn, the round ends, the next one asks again
    assert_eq!(to_act(&g, &s), m2_owner(&s), "asked again at the start of the next round (K46)");
}
