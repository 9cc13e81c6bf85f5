//! The dividend step (FACTS §10, §5.2; RULING K33): payout to holders and the pool's part to
//! the treasury, withholding, the minors' 50/50 split, price moves, money conserved.

use super::tests_support::{first_or, pass_to};
use crate::engine::prelude::*;
use crate::games::r1835::actions::{Action, DividendKind};
use crate::games::r1835::data::Space;
use crate::games::r1835::state::{Loc, State, Step};
use crate::games::r1835::tests::{act, engine, try_act};
use serde_json::Value;

/// BY in its dividend step with `revenue` to decide on, one 10 % of seat 2 moved to the pool.
fn by_with_revenue(revenue: i64) -> (crate::games::r1835::R1835, State, usize) {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    pass_to(&g, &mut s, "BY");
    let by = g.data().major_index("BY").expect("BY");
    if let Some(c) = s.majors[by].certs.iter_mut().find(|c| c.at == Loc::Player(0) && !c.director) {
        c.at = Loc::Pool;
    }
    s.or.turn.step = Step::Dividend;
    s.or.turn.revenue = Some(revenue);
    (g, s, by)
}

fn dividend(id: &str, kind: DividendKind) -> Action {
    Action::Dividend { company: id.into(), kind }
}

#[test]
fn a_payout_pays_each_holder_a_tenth_per_10_percent_and_the_pools_part_to_the_treasury() {
    let (g, mut s, by) = by_with_revenue(70);
    let held: Vec<i64> = (0..4u8)
        .map(|p| {
            s.majors[by].certs.iter().filter(|c| c.at == Loc::Player(p)).map(|c| i64::from(c.percent)).sum()
        })
        .collect();
    let (before, treasury, money) = (s.players.clone(), s.majors[by].cash, s.money());
    act(&g, &mut s, dividend("BY", DividendKind::Payout));
    for p in 0..4 {
        assert_eq!(s.players[p].cash - before[p].cash, 70 * held[p] / 100, "seat {}", p + 1);
    }
    assert_eq!(s.majors[by].cash - treasury, 7, "the pool's 10 %");
    assert_eq!(s.money(), money);
}

#[test]
fn a_payout_moves_the_price_one_column_right() {
    let (g, mut s, by) = by_with_revenue(70);
    let at = s.majors[by].price.expect("BY has a price");
    act(&g, &mut s, dividend("BY", DividendKind::Payout));
    assert_eq!(s.majors[by].price, Some(Space { row: at.row, col: at.col + 1 }));
}

#[test]
fn withholding_puts_the_revenue_in_the_treasury_and_moves_the_price_one_column_left() {
    let (g, mut s, by) = by_with_revenue(70);
    let at = s.majors[by].price.expect("BY has a price");
    let (players, treasury) = (s.players.clone(), s.majors[by].cash);
    act(&g, &mut s, dividend("BY", DividendKind::Withhold));
    assert_eq!(s.majors[by].cash, treasury + 70);
    assert_eq!(s.players, players);
    assert_eq!(s.majors[by].price, Some(Space { row: at.row, col: at.col - 1 }));
}

#[test]
fn zero_revenue_is_a_withholding_and_moves_the_price_left() {
    let (g, mut s, by) = by_with_revenue(0);
    let at = s.majors[by].price.expect("BY has a price");
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.majors[by].price, Some(Space { row: at.row, col: at.col - 1 }));
    assert_eq!(s.or.turn.step, Step::Trains);
}

#[test]
fn the_market_moves_up_at_the_end_of_a_row_and_down_at_its_start() {
    let g = engine();
    let m = &g.data().market;
    let o3 = Space::parse("O3").expect("O3");
    assert_eq!(m.right(o3), Space::parse("O2").expect("O2"));
    let a3 = Space::parse("A3").expect("A3");
    assert_eq!(m.left(a3), Space::parse("A4").expect("A4"));
    let p1 = Space::parse("P1").expect("P1");
    assert_eq!(m.right(p1), p1);
}

#[test]
fn a_minor_splits_its_revenue_50_50() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    s.or.turn.step = Step::Dividend;
    s.or.turn.revenue = Some(50);
    let owner = usize::from(s.minors[0].owner.expect("M1 is owned"));
    let (cash, treasury, money) = (s.players[owner].cash, s.minors[0].cash, s.money());
    let err = try_act(&g, &mut s, dividend("M1", DividendKind::Payout)).unwrap_err();
    assert!(err.contains("splits its revenue 50/50"), "{err}");
    act(&g, &mut s, dividend("M1", DividendKind::Split));
    assert_eq!(s.players[owner].cash, cash + 25);
    assert_eq!(s.minors[0].cash, treasury + 25);
    assert_eq!(s.money(), money);
}

#[test]
fn a_share_company_does_not_split() {
    let (g, mut s, _) = by_with_revenue(70);
    let err = try_act(&g, &mut s, dividend("BY", DividendKind::Split)).unwrap_err();
    assert!(err.contains("only minors split"), "{err}");
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert_eq!(g.default_action(&s), Some(dividend("BY", DividendKind::Payout)));
}
