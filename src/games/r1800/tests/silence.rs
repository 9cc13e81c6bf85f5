//! What silence takes when a card leaves a choice open (RULING E82): earned factories, pops and
//! regiments go to the first possible place in map order; choices that cost, harm another power
//! or bind the seat to a trade are declined. Checked on the engine's default and through the mail
//! order layer, where a sheet without a fitting line falls back to the same default.

use super::super::orders::tests::sheet;
use super::super::state::*;
use super::{game, new, rng, to_first_turn};
use crate::engine::prelude::*;
use crate::engine::{Decision, Orders};

/// Seat 0 in its turn with `choice` open.
fn open(choice: Choice) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice });
    s
}

/// The lowest-numbered province named by the options of this kind.
fn first_place(s: &State, of: impl Fn(&Action) -> Option<u16>) -> u16 {
    game().legal_actions(s).iter().filter_map(of).min().expect("at least one place is open")
}

#[test]
fn a_silent_seat_builds_its_earned_factory_in_the_first_city_in_map_order() {
    let mut s = open(Choice::Factory);
    let want = first_place(&s, |a| if let Action::Build(q) = a { Some(*q) } else { None });
    let before = s.provinces[usize::from(want)].factories;
    let a = game().default_action(&s).expect("a default");
    assert_eq!(a, Action::Build(want));
    game().apply(&mut s, &a, &mut rng()).expect("build");
    assert_eq!(s.provinces[usize::from(want)].factories, before + 1);
    assert!(s.pending.is_empty());
}

#[test]
fn a_silent_seat_places_its_new_pop_and_its_regiment_at_the_first_possible_province() {
    let s = open(Choice::Pop);
    let want = first_place(&s, |a| if let Action::Grow(q) = a { Some(*q) } else { None });
    assert_eq!(game().default_action(&s), Some(Action::Grow(want)));
    let s = open(Choice::Recruit);
    let want = first_place(&s, |a| if let Action::Recruit(q) = a { Some(*q) } else { None });
    assert_eq!(game().default_action(&s), Some(Action::Recruit(want)));
}

#[test]
fn a_silent_seat_discards_the_first_military_card_of_its_hand() {
    let mut s = open(Choice::DiscardMilitary);
    s.players[0].military = vec![2, 5, 5];
    assert_eq!(game().default_action(&s), Some(Action::DiscardMilitary(2)));
}

#[test]
fn ruling_e82_a_silent_seat_takes_the_conversion_it_paid_for() {
    let mut s = open(Choice::Convert);
    let mine = (0..s.provinces.len() as u16).find(|&q| s.controls(0, q)).expect("a province");
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(mine)].pops[me] = 3;
    s.provinces[usize::from(mine)].pops[NEUTRAL] = 1;
    let want =
        first_place(&s, |a| if let Action::Convert { province, .. } = a { Some(*province) } else { None });
    assert!(matches!(game().default_action(&s), Some(Action::Convert { province, .. }) if province == want));
}

#[test]
fn a_silent_seat_declines_a_raid_a_trade_and_a_hospitals_spend() {
    for choice in [Choice::NavyRaid, Choice::Barter { with: 1 }, Choice::Hospital] {
        assert_eq!(game().default_action(&open(choice)), Some(Action::Skip), "{choice:?}");
    }
}

#[test]
fn a_sheet_without_a_build_line_builds_where_the_guide_says() {
    let s = open(Choice::Factory);
    let want = first_place(&s, |a| if let Action::Build(q) = a { Some(*q) } else { None });
    let mut orders = sheet(&["PLACE P ON Autocracy"]);
    let d: Decision = game().next_decision(&s).expect("the factory is asked for");
    let answer = Orders::answer(game(), &s, &d, &mut orders);
    assert_eq!(answer.action, Some(Action::Build(want)));
}
