//! One test per rule of paying an admin card's prosperity cost otherwise (FACTS §4.1, §5.1;
//! RULING E77).

use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, rng, to_first_turn};
use crate::engine::{Apply, Orders, Rules};

/// Seat 0's turn at prosperity `y` with a New Administration (cost 1) and these other cards.
fn short(y: u8, others: &[&str]) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].prosperity = y;
    s.players[0].admin =
        std::iter::once("New Administration").chain(others.iter().copied()).map(admin).collect();
    s.players[0].admin.sort_unstable();
    s
}

fn new_admin(instead: Option<Substitute>) -> Action {
    Action::Admin {
        card: admin("New Administration"),
        option: 0,
        target: Target { instead, ..Target::default() },
    }
}

#[test]
fn oligarchy_lets_a_player_short_of_prosperity_pay_an_admin_cards_cost_with_one_commerce() {
    let mut s = short(0, &[]);
    assert!(!game().legal_actions(&s).contains(&new_admin(None)));
    game().adopt(&mut s, 0, card("Oligarchy"));
    let ol = held(&s, 0, "Oligarchy");
    s.players[0].cards[ol].res[C] = 1;
    let a = new_admin(Some(Substitute::Commerce(ol as u8)));
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("paid with commerce");
    assert_eq!((s.players[0].prosperity, s.players[0].cards[ol].res[C]), (0, 0));
}

#[test]
fn police_state_at_prosperity_zero_pays_an_admin_cards_cost_with_a_military_card() {
    let mut s = short(0, &[]);
    game().adopt(&mut s, 0, card("Police State"));
    s.players[0].military = vec![0];
    let a = new_admin(Some(Substitute::Military(0)));
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("paid with a military card");
    assert!(s.players[0].military.is_empty());
    assert_eq!(s.military_discard, vec![0]);
    let mut t = short(0, &[]);
    t.players[0].prosperity = 0;
    t.players[0].military = vec![0];
    assert!(!game().legal_actions(&t).contains(&a), "without a Police State");
}

#[test]
fn propaganda_campaign_may_be_discarded_for_a_prosperity_cost_that_cannot_be_paid() {
    let mut s = short(0, &["Propaganda Campaign"]);
    let a = new_admin(Some(Substitute::Discard(admin("Propaganda Campaign"))));
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("paid with the campaign");
    assert!(s.admin_discard.contains(&admin("Propaganda Campaign")));
}

#[test]
fn ruling_e77_a_prosperity_cost_that_can_be_paid_must_be_paid_in_prosperity() {
    let s = short(2, &["Propaganda Campaign"]);
    let x = Substitute::Discard(admin("Propaganda Campaign"));
    let err = game()
        .check_admin(&s, 0, admin("New Administration"), 0, &Target { instead: Some(x), ..Target::default() })
        .unwrap_err();
    assert!(err.contains("paid in prosperity"), "{err}");
}

#[test]
fn instead_by_order_names_what_pays() {
    let mut s = short(0, &["Propaganda Campaign"]);
    let o =
        game().parse_order("PLAY New Administration INSTEAD DISCARD Propaganda Campaign").expect("parses");
    let mut sh = crate::engine::OrderSheet::new(vec![crate::engine::Numbered { line: 1, order: o }]);
    let a = game().answer_from(&s, &mut sh).action.expect("played");
    game().apply(&mut s, &a, &mut rng()).expect("applies");
    assert!(s.admin_discard.contains(&admin("Propaganda Campaign")));
    assert_eq!(s.players[0].prosperity, 0);
    assert!(
        game()
            .parse_order("PLAY New Administration INSTEAD PAY")
            .unwrap_err()
            .0
            .contains("INSTEAD PAY C FROM")
    );
}
