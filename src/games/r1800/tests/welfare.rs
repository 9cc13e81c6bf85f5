//! One test per rule of Corporations and Hospitals (FACTS §4.1, §4.3; RULING E78).

use super::super::state::*;
use super::{card, game, held, new, rng, to_first_turn};
use crate::engine::{Apply, Orders, Rules};

#[test]
fn corporations_let_a_factory_be_taken_as_prosperity_and_commerce_on_a_stock_exchange() {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice: Choice::Factory });
    assert!(
        !game().legal_actions(&s).iter().any(|a| matches!(a, Action::Incorporate(_))),
        "not without Corporations"
    );
    game().adopt(&mut s, 0, card("Corporations"));
    assert!(
        game().legal_actions(&s).contains(&Action::Incorporate(None)),
        "the prosperity alone without a Stock Exchange"
    );
    game().adopt(&mut s, 0, card("Stock Exchange"));
    let se = held(&s, 0, "Stock Exchange") as u8;
    assert!(game().legal_actions(&s).contains(&Action::Incorporate(Some(se))));
    game().apply(&mut s, &Action::Incorporate(Some(se)), &mut rng()).expect("incorporate");
    assert_eq!(s.players[0].prosperity, 3);
    assert_eq!(s.players[0].cards[usize::from(se)].res[C], 1);
    assert!(s.pending.is_empty());
}

/// Seat 0's Granaries full, with a Hospitals holding `c` commerce.
fn growing(c: u8) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Hospitals"));
    let h = held(&s, 0, "Hospitals");
    s.players[0].cards[h].res[C] = c;
    let g = held(&s, 0, "Granaries");
    s.players[0].cards[g].res[F] = 3;
    let a = Action::Activate { card: g as u8, discard: vec![] };
    game().apply(&mut s, &a, &mut rng()).expect("growth");
    s
}

#[test]
fn hospitals_give_one_more_pop_for_two_commerce_when_a_pop_grows() {
    let mut s = growing(2);
    assert_eq!(s.pending.iter().map(|p| p.choice).collect::<Vec<_>>(), vec![Choice::Pop, Choice::Hospital]);
    let paris = game().data().province_named("Paris").unwrap();
    let me = usize::from(s.players[0].power);
    game().apply(&mut s, &Action::Grow(paris), &mut rng()).expect("grow");
    let h = held(&s, 0, "Hospitals") as u8;
    assert_eq!(game().legal_actions(&s), vec![Action::Heal { card: h, pop: true }, Action::Skip]);
    game().apply(&mut s, &Action::Heal { card: h, pop: true }, &mut rng()).expect("heal");
    game().apply(&mut s, &Action::Grow(paris), &mut rng()).expect("grow again");
    assert_eq!(s.provinces[usize::from(paris)].pops[me], 3);
    assert_eq!(s.players[0].cards[usize::from(h)].res[C], 0);
}

#[test]
fn hospitals_give_one_prosperity_for_three_commerce_and_ask_nothing_with_less_than_two() {
    let mut s = growing(3);
    let h = held(&s, 0, "Hospitals") as u8;
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("no pop");
    game().apply(&mut s, &Action::Heal { card: h, pop: false }, &mut rng()).expect("heal");
    assert_eq!(s.players[0].prosperity, 3);
    assert_eq!(growing(1).pending.iter().map(|p| p.choice).collect::<Vec<_>>(), vec![Choice::Pop]);
}

#[test]
fn incorporate_and_hospitals_orders_answer_their_choices() {
    use super::super::orders::Kind;
    assert_eq!(game().parse_order("INCORPORATE").unwrap().kind, Kind::Incorporate(None));
    assert_eq!(game().parse_order("hospitals pop").unwrap().kind, Kind::Hospital { pop: true, card: None });
    assert!(game().parse_order("HOSPITALS MORE").unwrap_err().0.contains("HOSPITALS Y"));
    let mut s = growing(3);
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("no pop");
    let o = game().parse_order("HOSPITALS Y").unwrap();
    let mut sh = crate::engine::OrderSheet::new(vec![crate::engine::Numbered { line: 1, order: o }]);
    let a = game().answer_from(&s, &mut sh).action;
    assert!(matches!(a, Some(Action::Heal { pop: false, .. })), "{a:?}");
}

// RULING E106: the order builder lists Corporations' and Hospitals' answers.
#[test]
fn the_order_builder_lists_incorporate_with_and_without_a_stock_exchange_answered_so() {
    use super::builder::lists;
    let mut s = new(2);
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice: Choice::Factory });
    game().adopt(&mut s, 0, card("Corporations"));
    lists(&s, "INCORPORATE", &Action::Incorporate(None));
    game().adopt(&mut s, 0, card("Stock Exchange"));
    let se = held(&s, 0, "Stock Exchange") as u8;
    lists(&s, &format!("INCORPORATE ON #{}", se + 1), &Action::Incorporate(Some(se)));
}

#[test]
fn the_order_builder_lists_hospitals_for_prosperity_or_a_pop_from_the_card_that_pays() {
    use super::builder::lists;
    let mut s = growing(3);
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("no pop");
    let h = held(&s, 0, "Hospitals") as u8;
    lists(&s, &format!("HOSPITALS Y FROM #{}", h + 1), &Action::Heal { card: h, pop: false });
    lists(&s, &format!("HOSPITALS POP FROM #{}", h + 1), &Action::Heal { card: h, pop: true });
}
