//! Round flow (FACTS §5.2, §6, §7.1-7.2, §13; HR 11): sold-out rise, the priority deal after
//! the last buyer, the end of a round on passes in succession, private income, the operating-
//! round hooks, the bank breaking and the final score, a player forced over the limit; and the
//! replay ledger of a long scripted game.

use super::holdings::{Holder, pay};
use super::state::{Loc, Round};
use super::tests::*;
use super::*;
use crate::engine::prelude::*;
use serde_json::{Value, json};

fn rich(g: &R1835, extra: Value, seat: u8) -> State {
    let mut s = sold_packet(g, extra);
    for p in 0..4 {
        pay(&mut s, Holder::Bank, Holder::Player(p), 2000);
    }
    fresh_stock_round(g, &mut s, 2, seat);
    s
}

fn pass_until_round_changes(g: &R1835, s: &mut State) {
    let start = s.round_seq;
    while s.round_seq == start {
        act(g, s, Action::Pass);
    }
}

#[test]
fn a_sold_out_company_rises_one_row_at_the_end_of_the_stock_round() {
    let g = engine();
    let mut s = rich(&g, json!({"empty_operating_rounds": true}), 1);
    let by = co(&g, "BY");
    for _ in 0..5 {
        g.move_cert(&mut s, by, Loc::Ipo, Loc::Player(3), |_| true);
    }
    pass_until_round_changes(&g, &mut s);
    assert_eq!(s.majors[by].price.map(|p| p.to_string()), Some("C2".into()), "92 → 98");
    assert_eq!(
        s.majors[co(&g, "SX")].price.map(|p| p.to_string()),
        Some("C4".into()),
        "SX still has IPO shares"
    );
}

#[test]
fn the_priority_deal_goes_to_the_player_after_the_last_buyer_not_the_last_seller() {
    let g = engine();
    let mut s = rich(&g, json!({"empty_operating_rounds": true}), 1);
    operated(&mut s);
    act(&g, &mut s, ipo("SX", 10)); // seat 1 buys
    act(&g, &mut s, Action::Pass);
    act(&g, &mut s, Action::Pass); // seat 2
    act(&g, &mut s, sell("BY", 1, 10)); // seat 3 sells …
    act(&g, &mut s, Action::Pass); // … and passes
    act(&g, &mut s, Action::Pass); // seat 4
    assert_eq!(s.round, Round::Stock { n: 2 }, "seat 1 has not passed since its purchase");
    act(&g, &mut s, Action::Pass); // seat 1
    assert_eq!(s.round, Round::Stock { n: 3 });
    assert_eq!(s.priority, 1, "seat 2, after the last buyer (seat 1), not seat 4 after the seller");
}

#[test]
fn without_any_purchase_the_priority_deal_stays() {
    let g = engine();
    let mut s = rich(&g, json!({"empty_operating_rounds": true}), 3);
    pass_until_round_changes(&g, &mut s);
    assert_eq!(s.priority, 2);
}

#[test]
fn private_income_is_paid_at_the_start_of_every_operating_round() {
    let g = engine();
    let mut s = rich(&g, json!({"empty_operating_rounds": true}), 1);
    let before: Vec<i64> = s.players.iter().map(|p| p.cash).collect();
    pass_until_round_changes(&g, &mut s);
    let after: Vec<i64> = s.players.iter().map(|p| p.cash).collect();
    // NF 5 + OBB 10; LD 20; PfB 15; BB 25 + HB 30.
    let gained: Vec<i64> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(gained, vec![15, 20, 15, 55]);
    let s2 = rich(&g, json!({"empty_operating_rounds": true, "ld_income": 30}), 1);
    let mut s2 = s2;
    pass_until_round_changes(&g, &mut s2);
    assert_eq!(s2.players[1].cash - before[1], 30);
}

#[test]
fn in_an_operating_round_a_prussian_answer_needs_an_open_question_and_a_share_company_must_buy_a_train() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    pass_until_round_changes(&g, &mut s);
    assert_eq!(s.round, Round::Operating { set: 2, n: 1, of: 1 });
    // M1 (seat 4) operates first; the minor may end its turn.
    assert_eq!(to_act(&g, &s), 4);
    let err = try_act(&g, &mut s, Action::FormPrussian { form: true }).unwrap_err();
    assert!(err.starts_with("no Prussian question is open now"), "{err}");
    let err = try_act(&g, &mut s, ipo("SX", 10)).unwrap_err();
    assert!(err.contains("an operating round is under way"), "{err}");
    // The six minors pass their five steps each (track, token, run, dividend, trains).
    for _ in 0..6 * 5 {
        act(&g, &mut s, Action::Pass);
    }
    for _ in 0..4 {
        act(&g, &mut s, Action::Pass); // BY's track, token, run and dividend steps
    }
    // BY (floated, no train) cannot end its turn without a train; its default buys one.
    let d = g.next_decision(&s).expect("BY's turn");
    assert_eq!(d.seat.0, 1);
    assert!(try_act(&g, &mut s, Action::Pass).is_err());
    assert!(matches!(g.default_action(&s), Some(Action::BuyTrain { .. })));
}

#[test]
fn the_bank_breaking_in_a_stock_round_ends_the_game_after_the_next_operating_round() {
    let g = engine();
    let mut s = rich(&g, json!({"empty_operating_rounds": true}), 1);
    operated(&mut s);
    let spare = s.bank - 50;
    pay(&mut s, Holder::Bank, Holder::Player(3), spare);
    let ev = act(&g, &mut s, sell("BY", 1, 10));
    assert!(s.bank < 0);
    assert!(ev.iter().any(|e| e.public.starts_with("The bank has broken")));
    pass_until_round_changes(&g, &mut s);
    assert_eq!(s.round, Round::Over, "SR2 finished, OR2.1 played, then the end");
    assert_eq!(s.closed.iter().map(|c| c.round.as_str()).collect::<Vec<_>>(), ["SR2", "OR2.1"]);
    let st = g.standings(&s).expect("standings");
    let worth: Vec<i64> = (0..4).map(|p| g.worth(&s, p)).collect();
    assert_eq!(st[0].seat.0, 4, "seat 4 got the bank's money");
    assert_eq!(st[0].score, format!("{} M", worth[3]));
    // Seat 1: cash plus 30 % of BY at 88 after the sale.
    assert_eq!(worth[0], s.players[0].cash + 3 * 88);
    assert_eq!(s.money(), 12000);
}

#[test]
fn a_player_pushed_over_the_limit_by_a_presidency_change_must_sell_down() {
    let mut data = Data::standard().expect("data");
    data.players.iter_mut().filter(|p| p.count == 4).for_each(|p| p.cert_limit = 10);
    let g = R1835::with_data(data);
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    let (by, sx) = (co(&g, "BY"), co(&g, "SX"));
    for c in s.majors[by].certs.iter_mut().filter(|c| c.director) {
        c.at = Loc::Player(1);
    }
    for _ in 0..5 {
        g.move_cert(&mut s, sx, Loc::Ipo, Loc::Player(1), |_| true);
    }
    assert_eq!((g.cert_count(&s, 1), g.cert_limit(&s, 1)), (10, 10), "70 % of SX: no bonus");
    act(&g, &mut s, ipo("BY", 10)); // seat 1: 30 % against seat 2's 20 %
    assert_eq!(g.president(&s, by), Some(0));
    assert_eq!(g.cert_count(&s, 1), 11, "two 10 % for the director's certificate");
    act(&g, &mut s, Action::Pass);
    let err = try_act(&g, &mut s, Action::Pass).unwrap_err();
    assert!(err.contains("must sell before ending your turn (RULING K8)"), "{err}");
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert!(!g.legal_actions(&s).contains(&Action::Pass));
    assert!(matches!(g.default_action(&s), Some(Action::Sell { .. })));
    act(&g, &mut s, sell("BY", 1, 10));
    act(&g, &mut s, Action::Pass);
}
