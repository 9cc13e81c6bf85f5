//! Stock rounds (FACTS §6, §5.2, §2.4): buying from IPO and pool, the release order and its
//! Thompson changes, sales and the price drop, the pool limit, presidency, the certificate
//! limit with the 80 % bonus, and nationalisation.

use super::holdings::{Holder, pay};
use super::state::{Loc, Round};
use super::tests::*;
use super::*;
use serde_json::{Value, json};

/// Gives a seat (1-based) money from the bank.
fn give(s: &mut State, seat: u8, amount: i64) {
    pay(s, Holder::Bank, Holder::Player(seat - 1), amount);
}

/// The fixture after the packet, everyone rich, `seat` to act in a fresh stock round 2.
fn rich(g: &R1835, extra: Value, seat: u8) -> State {
    let mut s = sold_packet(g, extra);
    for p in 1..=4 {
        give(&mut s, p, 2000);
    }
    fresh_stock_round(g, &mut s, 2, seat);
    s
}

fn price(g: &R1835, s: &State, id: &str) -> i64 {
    s.majors[co(g, id)].price.map(|sp| g.data().market.price(sp)).unwrap_or(0)
}

#[test]
fn ipo_money_goes_to_the_bank_before_floating_and_to_the_company_after() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let sx = co(&g, "SX");
    let bank = s.bank;
    act(&g, &mut s, ipo("SX", 10));
    assert_eq!((s.bank, s.majors[sx].cash), (bank + 88, 0));
    act(&g, &mut s, Action::Pass);
    act(&g, &mut s, ipo("SX", 10));
    act(&g, &mut s, Action::Pass);
    act(&g, &mut s, ipo("SX", 10));
    assert!(s.majors[sx].floated, "20 % director + 3 × 10 % = 50 %");
    assert_eq!(s.majors[sx].cash, 5 * 88, "incremental capital: par × percentage sold");
    act(&g, &mut s, Action::Pass);
    act(&g, &mut s, ipo("SX", 10));
    assert_eq!(s.majors[sx].cash, 6 * 88);
    assert_eq!(s.money(), 12000);
}

#[test]
fn the_ipo_sells_its_stack_in_order_and_names_a_missing_size() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let err = try_act(&g, &mut s, ipo("SX", 20)).unwrap_err();
    assert_eq!(err, "SX has no 20 % certificate left in the IPO");
    let sx = co(&g, "SX");
    for c in s.majors[sx].certs.iter_mut().filter(|c| c.at == Loc::Ipo) {
        c.at = Loc::Player(3);
    }
    let err = try_act(&g, &mut s, ipo("SX", 10)).unwrap_err();
    assert_eq!(err, "SX has no certificate left in the IPO");
}

#[test]
fn one_purchase_per_turn_but_sales_before_and_after_it() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    act(&g, &mut s, sell("BY", 1, 10));
    act(&g, &mut s, ipo("SX", 10));
    let err = try_act(&g, &mut s, ipo("SX", 10)).unwrap_err();
    assert_eq!(err, "you have already bought a certificate this turn");
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(held(&g, &s, 1, "BY"), 20);
    act(&g, &mut s, Action::Pass);
    assert_eq!(to_act(&g, &s), 2);
}

#[test]
fn a_company_sold_this_round_cannot_be_bought_back_in_it() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 3);
    operated(&mut s);
    act(&g, &mut s, sell("BY", 1, 10));
    let err = try_act(&g, &mut s, pool("BY", 10)).unwrap_err();
    assert!(err.contains("you sold BY this stock round"), "{err}");
}

#[test]
fn prussian_shares_may_be_sold_as_soon_as_the_prussian_has_formed() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let pr = co(&g, "PR");
    let public = s.majors[pr].certs.iter().position(|c| c.at == Loc::Ipo && !c.director).unwrap();
    s.majors[pr].certs[public].at = Loc::Player(0); // seat 1
    let err = try_act(&g, &mut s, sell("PR", 1, 10)).unwrap_err();
    assert_eq!(err, "the Prussian's shares cannot be sold before it has formed");
    // Formed (the operating round's formation sets its price and floats it), not yet operated.
    s.majors[pr].floated = true;
    s.majors[pr].price = Some(g.data().majors[pr].start_space);
    assert!(!s.majors[pr].operated);
    act(&g, &mut s, sell("PR", 1, 10));
    assert_eq!(held(&g, &s, 1, "PR"), 0);
}

#[test]
fn nobody_sells_in_the_first_stock_round_nor_before_the_company_has_operated() {
    let g = engine();
    let mut s = sold_packet(&g, Value::Null);
    operated(&mut s);
    let err = try_act(&g, &mut s, sell("BY", 1, 10)).unwrap_err();
    assert!(err.contains("first stock round"), "{err}");
    let mut s = rich(&g, Value::Null, 1);
    let err = try_act(&g, &mut s, sell("BY", 1, 10)).unwrap_err();
    assert_eq!(err, "BY has not operated yet; its shares can be sold once it has");
    let mut s = sold_packet(&g, json!({"no_sales_in": "start_packet"}));
    operated(&mut s);
    assert!(try_act(&g, &mut s, sell("BY", 1, 10)).is_ok(), "Rails' 'First Round' only bars the packet sale");
}

/// Moves `n` IPO certificates of a company to a seat (1-based), as if bought earlier.
fn hand(g: &R1835, s: &mut State, id: &str, seat: u8, n: usize) {
    let c = co(g, id);
    for _ in 0..n {
        g.move_cert(s, c, Loc::Ipo, Loc::Player(seat - 1), |_| true).expect("an IPO certificate left");
    }
}

#[test]
fn each_sale_action_drops_the_price_one_row_and_pays_the_price_before_the_drop() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    hand(&g, &mut s, "BY", 1, 3);
    let before = cash(&s, 1);
    act(&g, &mut s, sell("BY", 2, 10));
    assert_eq!(cash(&s, 1), before + 2 * 92, "two certificates at 92 in one action");
    assert_eq!(price(&g, &s, "BY"), 88, "one row down: C3 → C4");
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(cash(&s, 1), before + 2 * 92 + 88, "a second action pays the current price …");
    assert_eq!(price(&g, &s, "BY"), 86, "… and drops again (strict reading, PBEM default)");
}

#[test]
fn with_separate_sales_at_the_same_price_a_later_sale_keeps_the_first_price() {
    let g = engine();
    let mut s = rich(&g, json!({"separate_sales_same_price": true}), 1);
    operated(&mut s);
    hand(&g, &mut s, "BY", 1, 3);
    let before = cash(&s, 1);
    act(&g, &mut s, sell("BY", 2, 10));
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(cash(&s, 1), before + 3 * 92);
    assert_eq!(price(&g, &s, "BY"), 88, "only the first sale action moved the marker");
}

#[test]
fn a_sale_at_the_bottom_of_a_column_leaves_the_price() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    let by = co(&g, "BY");
    s.majors[by].price = data::Space::parse("C7");
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(price(&g, &s, "BY"), 76);
}

#[test]
fn the_pool_may_hold_at_most_50_percent_of_a_company() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    hand(&g, &mut s, "BY", 1, 5);
    act(&g, &mut s, sell("BY", 4, 10));
    let err = try_act(&g, &mut s, sell("BY", 2, 10)).unwrap_err();
    assert!(err.starts_with("the bank pool may hold at most 50 % of BY and already holds 40 %"), "{err}");
    act(&g, &mut s, sell("BY", 1, 10));
    assert_eq!(g.pool_percent(&s, co(&g, "BY")), 50);
}

#[test]
fn the_directors_certificate_stays_unless_another_player_can_take_over() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    act(&g, &mut s, sell("BY", 2, 10));
    assert_eq!(held(&g, &s, 1, "BY"), 20);
    let err = try_act(&g, &mut s, sell("BY", 2, 10)).unwrap_err();
    assert_eq!(
        err,
        "you may not sell the director's certificate of BY: no other player holds enough to take over"
    );
}

#[test]
fn selling_below_another_player_hands_over_the_presidency() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    operated(&mut s);
    hand(&g, &mut s, "BY", 3, 2);
    assert_eq!(held(&g, &s, 3, "BY"), 30);
    act(&g, &mut s, sell("BY", 2, 10));
    let by = co(&g, "BY");
    assert_eq!(g.president(&s, by), Some(2), "seat 3 holds 30 %, seat 1 only 20 %");
    assert_eq!((held(&g, &s, 1, "BY"), held(&g, &s, 3, "BY")), (20, 30));
    let seat1: Vec<(u8, bool)> = s.majors[by]
        .certs
        .iter()
        .filter(|c| c.at == Loc::Player(0))
        .map(|c| (c.percent, c.director))
        .collect();
    assert_eq!(seat1, vec![(10, false), (10, false)]);
    act(&g, &mut s, sell("BY", 2, 10));
    assert_eq!(held(&g, &s, 1, "BY"), 0);
}

#[test]
fn buying_more_than_the_president_takes_over_the_presidency() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 3);
    hand(&g, &mut s, "BY", 3, 3);
    assert_eq!(held(&g, &s, 3, "BY"), 40);
    act(&g, &mut s, ipo("BY", 10));
    assert_eq!(g.president(&s, co(&g, "BY")), Some(2), "50 % beats 40 %");
}

#[test]
fn the_standard_release_order_opens_ba_then_wt_then_he_and_pr_after_bas_director() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let open = |s: &State, id: &str| g.ipo_open(s, co(&g, id)).is_ok();
    assert!(!open(&s, "BA"));
    let err = try_act(&g, &mut s, ipo("BA", 20)).unwrap_err();
    assert!(err.contains("BY and SX must first be sold out of the IPO"), "{err}");
    hand(&g, &mut s, "BY", 2, 5);
    hand(&g, &mut s, "SX", 3, 8);
    assert!(open(&s, "BA") && !open(&s, "WT") && !open(&s, "PR"));
    act(&g, &mut s, ipo("BA", 20));
    assert!(open(&s, "PR"), "PR's public shares open with BA's director's certificate");
    hand(&g, &mut s, "BA", 4, 2);
    assert!(!open(&s, "WT"));
    hand(&g, &mut s, "BA", 4, 1);
    assert!(open(&s, "WT") && !open(&s, "HE") && !open(&s, "MS"));
}

#[test]
fn full_thompson_opens_every_company_once_sx_is_sold_out_and_pr_after_the_next_director() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    s.options.variant = options::Variant::FullThompson;
    let open = |s: &State, id: &str| g.ipo_open(s, co(&g, id)).is_ok();
    hand(&g, &mut s, "SX", 3, 8);
    for id in ["BA", "WT", "HE", "MS", "OL"] {
        assert!(open(&s, id), "{id}");
    }
    assert!(!open(&s, "PR"));
    act(&g, &mut s, ipo("OL", 20));
    assert!(open(&s, "PR"));
}

#[test]
fn half_thompson_opens_the_sales_groups_2_3_2_in_turn() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    s.options.variant = options::Variant::HalfThompson;
    let open = |s: &State, id: &str| g.ipo_open(s, co(&g, id)).is_ok();
    hand(&g, &mut s, "SX", 3, 8);
    assert!(!open(&s, "HE"), "BY is not sold out yet");
    hand(&g, &mut s, "BY", 2, 5);
    assert!(open(&s, "BA") && open(&s, "WT") && open(&s, "HE") && !open(&s, "MS") && !open(&s, "PR"));
    act(&g, &mut s, ipo("HE", 20));
    assert!(open(&s, "PR"), "the first director's certificate of group 2 opens the Prussian");
    for id in ["BA", "WT", "HE"] {
        let n = s.majors[co(&g, id)].certs.iter().filter(|c| c.at == Loc::Ipo).count();
        hand(&g, &mut s, id, 4, n);
    }
    assert!(
        open(&s, "MS") && open(&s, "OL"),
        "group 3 opens once group 2 is sold out (PR does not hold it back)"
    );
}

#[test]
fn the_certificate_limit_rises_by_one_for_a_company_held_at_80_percent() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    hand(&g, &mut s, "BY", 1, 3);
    hand(&g, &mut s, "SX", 1, 7);
    assert_eq!((g.cert_count(&s, 0), g.cert_limit(&s, 0)), (15, 15));
    let err = try_act(&g, &mut s, ipo("BY", 10)).unwrap_err();
    assert!(
        err.contains("over your certificate limit (15 of 15 held)"),
        "at the limit, not even the 80 % certificate: {err}"
    );
    let mut s = rich(&g, Value::Null, 1);
    hand(&g, &mut s, "BY", 1, 4);
    hand(&g, &mut s, "SX", 1, 6);
    assert_eq!((g.cert_count(&s, 0), g.cert_limit(&s, 0)), (15, 16), "80 % of BY");
    act(&g, &mut s, ipo("SX", 10));
    // The 16th certificate made seat 1 president of SX: two 10 % went to seat 2 for the
    // director's certificate, so 15 papers remain.
    assert_eq!((g.cert_count(&s, 0), g.president(&s, co(&g, "SX"))), (15, Some(0)));
}

#[test]
fn nationalisation_buys_one_certificate_from_another_player_at_150_percent() {
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let nat = |seat, percent| Action::Nationalise { company: "BY".into(), from_seat: seat, percent };
    hand(&g, &mut s, "BY", 1, 1);
    let err = try_act(&g, &mut s, nat(3, 10)).unwrap_err();
    assert_eq!(err, "nationalising BY needs 55 % of it; you hold 50 %");
    hand(&g, &mut s, "BY", 1, 1);
    let (c1, c3) = (cash(&s, 1), cash(&s, 3));
    act(&g, &mut s, nat(3, 10));
    assert_eq!((cash(&s, 1), cash(&s, 3)), (c1 - 138, c3 + 138), "1.5 × 92");
    assert_eq!((held(&g, &s, 1, "BY"), held(&g, &s, 3, "BY")), (70, 0));
    let err = try_act(&g, &mut s, ipo("SX", 10)).unwrap_err();
    assert_eq!(err, "you have already bought a certificate this turn", "it is the turn's purchase");
    assert_eq!(s.round, Round::Stock { n: 2 });
}

#[test]
fn nationalising_a_5_percent_prussian_certificate_rounds_the_price_up_to_the_holders_favour() {
    // RULING K9: 150 % of 154 for 5 % is 115.5 M; the holder, who cannot refuse, gets 116.
    let g = engine();
    let mut s = rich(&g, Value::Null, 1);
    let pr = co(&g, "PR");
    s.majors[pr].floated = true;
    s.majors[pr].price = data::Space::parse("I4");
    let mut tens = 0;
    for c in s.majors[pr].certs.iter_mut() {
        if c.percent == 10 && tens < 6 {
            c.at = Loc::Player(0);
            tens += 1;
        } else if c.percent == 5 {
            c.at = Loc::Player(2);
            break;
        }
    }
    assert_eq!((held(&g, &s, 1, "PR"), held(&g, &s, 3, "PR")), (60, 5));
    let (c1, c3, money) = (cash(&s, 1), cash(&s, 3), s.money());
    act(&g, &mut s, Action::Nationalise { company: "PR".into(), from_seat: 3, percent: 5 });
    assert_eq!((cash(&s, 1), cash(&s, 3)), (c1 - 116, c3 + 116));
    assert_eq!((held(&g, &s, 1, "PR"), s.money()), (65, money));
}
