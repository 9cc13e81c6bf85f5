//! The start packet (FACTS §4): row availability, purchases, skipped players, the lap orders
//! of the Snake, Clemens and Thompson variants, and an unsold packet carried over.

use super::state::Round;
use super::tests::*;
use super::*;
use crate::engine::prelude::*;
use serde_json::{Value, json};

fn on_sale(g: &R1835, s: &State) -> Vec<String> {
    g.available_items(s).iter().map(|i| g.data().packet[*i].id.clone()).collect()
}

#[test]
fn only_the_top_row_is_on_sale_plus_the_next_rows_first_item_while_one_is_left() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    assert_eq!(on_sale(&g, &s), ["NF", "M1"], "row 1 has one item left, so M1 joins it");
    act(&g, &mut s, item("M1"));
    assert_eq!(on_sale(&g, &s), ["NF", "LD"], "M1 was bought from row 2: its next leftmost joins");
    act(&g, &mut s, item("NF"));
    assert_eq!(on_sale(&g, &s), ["LD", "M2"]);
    let err = try_act(&g, &mut s, item("M3")).unwrap_err();
    assert!(err.contains("M3 is not on sale yet (on sale now: LD, M2)"), "{err}");
    act(&g, &mut s, item("LD"));
    assert_eq!(on_sale(&g, &s), ["M2", "M3"]);
    act(&g, &mut s, item("M2"));
    assert_eq!(on_sale(&g, &s), ["M3", "M4", "BY", "BB"]);
}

#[test]
fn purchases_go_clockwise_pay_the_bank_and_minors_start_with_their_price() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    let bank = s.bank;
    act(&g, &mut s, item("NF"));
    assert_eq!((to_act(&g, &s), cash(&s, 1), s.bank), (2, 375, bank + 100));
    assert_eq!(held(&g, &s, 1, "BY"), 10, "NF comes with a 10 % BY certificate");
    act(&g, &mut s, item("LD"));
    assert_eq!(g.president(&s, co(&g, "SX")), Some(1), "LD comes with SX's director's certificate");
    assert_eq!(s.majors[co(&g, "SX")].price.map(|p| p.to_string()), Some("C4".to_string()));
    act(&g, &mut s, item("M1"));
    assert_eq!((s.minors[0].owner, s.minors[0].cash, s.bank), (Some(2), 80, bank + 290));
    assert_eq!(to_act(&g, &s), 4);
}

#[test]
fn by_floats_when_its_director_and_the_three_private_shares_are_sold() {
    let g = engine();
    let s = sold_packet(&g, Value::Null);
    assert!(s.majors[co(&g, "BY")].floated);
    assert_eq!(s.majors[co(&g, "BY")].cash, 5 * 92);
    assert!(!s.majors[co(&g, "SX")].floated);
    let s = {
        let mut s = standard(&g, 4, json!({"by_float_percent": 20}));
        for id in ["NF", "LD", "M2", "M1", "BY"] {
            act(&g, &mut s, item(id));
        }
        s
    };
    assert!(s.majors[co(&g, "BY")].floated, "with by_float_percent 20 it floats with 30 % out");
    assert_eq!(s.majors[co(&g, "BY")].cash, 3 * 92);
}

#[test]
fn a_player_who_cannot_afford_any_item_is_skipped() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    for id in ["NF", "LD", "M2", "M1", "BY", "M4", "M3", "BB", "OBB", "M5", "PfB", "HB"] {
        act(&g, &mut s, item(id));
    }
    // Seats 1-3 have 71, 45 and 75 M: only seat 4 can pay the 80 M for M6.
    assert_eq!(to_act(&g, &s), 4);
    assert!(s.sr.passed[0] && s.sr.passed[1] && s.sr.passed[2]);
    act(&g, &mut s, item("M6"));
    assert!(!s.packet_open());
    assert_eq!(to_act(&g, &s), 1, "the same round goes on as a stock round, clockwise");
}

#[test]
fn no_share_can_be_bought_before_the_packet_is_sold() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    let err = try_act(&g, &mut s, ipo("SX", 10)).unwrap_err();
    assert!(err.contains("start packet"), "{err}");
    let s2 = sold_packet(&g, Value::Null);
    assert!(g.ipo_open(&s2, co(&g, "SX")).is_ok());
    assert!(g.ipo_open(&s2, co(&g, "BA")).is_err());
}

#[test]
fn clemens_and_thompson_put_every_item_on_sale() {
    let g = engine();
    for variant in ["clemens", "full_thompson", "half_thompson"] {
        let s = game(&g, 4, json!({"variant": variant}));
        assert_eq!(on_sale(&g, &s).len(), 13, "{variant}");
    }
}

/// The seats (1-based) that act in the first `turns` turns when players alternately buy the
/// cheapest item on sale and pass (so the round never ends on passes and nobody runs dry).
fn order_of_turns(g: &R1835, variant: &str, seats: u8, turns: usize) -> Vec<u8> {
    let mut s = game(g, seats, json!({"variant": variant}));
    let mut out = Vec::new();
    for t in 0..turns {
        out.push(to_act(g, &s));
        let legal = g.legal_actions(&s);
        let cheapest = legal
            .into_iter()
            .filter_map(|a| match &a {
                Action::BuyItem { item } => g.data().item_index(item).map(|i| (g.data().packet[i].price, a)),
                _ => None,
            })
            .min_by_key(|(price, _)| *price)
            .map(|(_, a)| a);
        act(g, &mut s, if t % 2 == 0 { cheapest.unwrap_or(Action::Pass) } else { Action::Pass });
    }
    out
}

#[test]
fn the_thompson_dealing_order_reverses_every_other_lap_for_3_to_7_players() {
    let g = engine();
    for n in 3..=7u8 {
        let mut expected = Vec::new();
        for lap in 1..=3 {
            let mut seats: Vec<u8> = (1..=n).collect();
            if lap % 2 == 0 {
                seats.reverse();
            }
            expected.extend(seats);
        }
        let got = order_of_turns(&g, "half_thompson", n, 3 * usize::from(n));
        assert_eq!(got, expected, "{n} players, three laps");
    }
}

#[test]
fn snake_reverses_only_the_second_lap_of_the_first_stock_round() {
    let g = engine();
    assert_eq!(order_of_turns(&g, "snake", 3, 12), vec![1, 2, 3, 3, 2, 1, 1, 2, 3, 1, 2, 3]);
}

#[test]
fn clemens_starts_in_reverse_and_the_first_player_buys_twice_at_the_turn() {
    let g = engine();
    assert_eq!(order_of_turns(&g, "clemens", 4, 12), vec![4, 3, 2, 1, 1, 2, 3, 4, 1, 2, 3, 4]);
}

#[test]
fn an_unsold_packet_leads_to_an_operating_round_and_the_sale_continues_next_stock_round() {
    let g = engine();
    let mut s = standard(&g, 4, json!({"empty_operating_rounds": true}));
    act(&g, &mut s, item("NF"));
    act(&g, &mut s, item("M1"));
    for _ in 0..4 {
        act(&g, &mut s, Action::Pass);
    }
    // SR1 ended, OR1.1 paid NF's 5 M and M1 did nothing, SR2 continues the packet sale.
    assert_eq!(s.round, Round::Stock { n: 2 });
    assert_eq!(s.priority, 2, "priority after the last buyer (seat 2)");
    assert_eq!(to_act(&g, &s), 3);
    assert_eq!(cash(&s, 1), 475 - 100 + 5);
    assert!(s.packet_open());
    let closed: Vec<String> = s.closed.iter().map(|c| c.round.clone()).collect();
    assert_eq!(closed, ["SR1", "OR1.1"]);
}

#[test]
fn in_enforced_operating_rounds_a_minor_owner_ends_the_minors_turn() {
    let g = engine();
    let mut s = standard(&g, 4, Value::Null);
    act(&g, &mut s, item("NF"));
    act(&g, &mut s, item("M1"));
    for _ in 0..4 {
        act(&g, &mut s, Action::Pass);
    }
    assert_eq!(s.round, Round::Operating { set: 1, n: 1, of: 1 });
    assert_eq!(to_act(&g, &s), 2, "M1's owner");
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    assert!(g.legal_actions(&s).contains(&Action::Pass));
    for _ in 0..5 {
        act(&g, &mut s, Action::Pass); // track, token, run, dividend, trains
    }
    assert_eq!(s.round, Round::Stock { n: 2 });
}

#[test]
fn issue_36_the_order_box_shows_items_bought_by_name_while_the_start_packet_is_on_sale() {
    let g = engine();
    let s = standard(&g, 4, Value::Null);
    let example = g.order_example_at(&s);
    assert!(!example.contains("IPO") && !example.contains("BUY 1 "), "{example}");
    let (_, echo) = crate::orders::parse_sheet(&g, example, Some((&s, crate::engine::Seat(1))));
    assert_eq!(echo.errors, 0, "{echo:?}");
    assert!(
        echo.lines.iter().all(|l| !l.advice.as_deref().unwrap_or("").contains("not possible")),
        "{echo:?}"
    );
    let sold = sold_packet(&g, json!({}));
    assert_eq!(g.order_example_at(&sold), g.order_example(), "a normal stock round: the whole example");
}
