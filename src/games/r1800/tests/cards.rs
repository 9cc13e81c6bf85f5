//! One test per rule of the admin cards played in the draft (Accelerate Development, Policy
//! Initiative) and of Free Enterprise and Espionage (FACTS §5.1; RULINGS E69–E71, E75).

use super::super::state::*;
use super::{card, game, held, new, prov, rng, settle, to_first_turn};
use crate::engine::{Apply, Rules};

pub(super) fn admin(name: &str) -> u8 {
    game().data().admin_named(name).expect(name)
}

fn play(card: u8, option: u8, target: Target) -> Action {
    Action::Admin { card, option, target }
}

/// A seat's turn with these admin cards in hand.
fn turn_with(seats: u8, hand: &[&str]) -> State {
    let mut s = new(seats);
    to_first_turn(&mut s);
    s.players[0].admin = hand.iter().map(|n| admin(n)).collect();
    s.players[0].admin.sort_unstable();
    s
}

#[test]
fn accelerate_development_lets_its_player_pick_before_those_who_did_not_play_one() {
    let mut s = new(3);
    s.players[2].admin = vec![admin("Accelerate Development")];
    game().open_draft(&mut s);
    assert_eq!(s.stage, Stage::Call { to_ask: vec![2], early: vec![] });
    let a = play(admin("Accelerate Development"), 0, Target::default());
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("accelerate");
    assert_eq!(s.stage, Stage::Draft { to_pick: vec![2, 0, 1] });
    assert!(s.admin_discard.contains(&admin("Accelerate Development")));
}

#[test]
fn ruling_e69_every_seat_holding_admin_cards_is_asked_before_the_draft_and_may_decline() {
    let mut s = new(3);
    s.players[0].admin = vec![admin("Urbanization")];
    s.players[1].admin = vec![admin("Accelerate Development")];
    game().open_draft(&mut s);
    assert_eq!(s.stage, Stage::Call { to_ask: vec![0, 1], early: vec![] });
    assert_eq!(game().legal_actions(&s), vec![Action::Skip], "a seat without the card is asked too");
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("seat 1 declines");
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("seat 2 declines");
    assert_eq!(s.stage, Stage::Draft { to_pick: vec![0, 1, 2] });
}

#[test]
fn accelerate_development_is_not_played_during_a_turn() {
    let s = turn_with(2, &["Accelerate Development"]);
    assert!(!game().legal_actions(&s).iter().any(|a| matches!(a, Action::Admin { .. })));
    let err = game().check_admin(&s, 0, admin("Accelerate Development"), 0, &Target::default()).unwrap_err();
    assert!(err.contains("at the start of the development draft"), "{err}");
}

#[test]
fn policy_initiative_gives_two_picks_and_then_a_card_from_the_deck_joins_the_offer() {
    let mut s = new(2);
    s.offer = vec![card("Oligarchy"), card("Great Works")];
    s.stage = Stage::Draft { to_pick: vec![0, 1] };
    s.players[0].admin = vec![admin("Policy Initiative")];
    let a = play(admin("Policy Initiative"), 0, Target::default());
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("initiative");
    assert_eq!(s.players[0].prosperity, 1, "it costs 1 prosperity");
    assert_eq!(s.stage, Stage::Draft { to_pick: vec![0, 0, 1] });
    assert!(!game().legal_actions(&s).contains(&a), "one Policy Initiative a pick");
    let top = s.dev_deck.last().copied();
    game().apply(&mut s, &Action::Pick(0), &mut rng()).expect("first pick");
    assert_eq!(s.offer, vec![card("Great Works")], "no card joins before the second pick");
    game().apply(&mut s, &Action::Pick(0), &mut rng()).expect("second pick");
    assert_eq!(s.offer, top.into_iter().collect::<Vec<_>>(), "the deck's top card joins the offer");
    assert_eq!(s.stage, Stage::Draft { to_pick: vec![1] });
    assert_eq!(s.initiative, None);
}

#[test]
fn policy_initiative_is_played_only_at_its_players_pick() {
    let mut s = new(2);
    s.stage = Stage::Draft { to_pick: vec![1, 0] };
    s.players[0].admin = vec![admin("Policy Initiative")];
    let err = game().check_admin(&s, 0, admin("Policy Initiative"), 0, &Target::default()).unwrap_err();
    assert!(err.contains("when it is your pick"), "{err}");
}

/// Free Enterprise with 1 C on Autocracy to pay, and only `kinds` left to find.
fn enterprise(kinds: &[&str]) -> State {
    let mut s = turn_with(2, &["Free Enterprise"]);
    let keep: Vec<u16> = kinds.iter().map(|n| card(n)).collect();
    let searched = [card("Infrastructure"), card("Industrial Agriculture"), card("Financial Institution")];
    s.dev_deck.retain(|c| !searched.contains(c) || keep.contains(c));
    s.dev_discard.retain(|c| !searched.contains(c));
    let at = held(&s, 0, "Autocracy");
    s.players[0].cards[at].res[C] = 1;
    s
}

#[test]
fn free_enterprise_plays_one_of_the_three_kinds_found_in_the_deck() {
    let mut s = enterprise(&["Industrial Agriculture"]);
    let at = held(&s, 0, "Autocracy") as u8;
    let a = play(admin("Free Enterprise"), 0, Target { card: Some(at), ..Target::default() });
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("free enterprise");
    assert!(s.players[0].cards.iter().any(|h| h.card == card("Industrial Agriculture")));
    assert_eq!(s.players[0].cards[usize::from(at)].res[C], 0, "1 C paid");
    let mut t = enterprise(&[]);
    assert!(
        game()
            .check_admin(&t, 0, admin("Free Enterprise"), 0, &Target { card: Some(at), ..Target::default() })
            .is_err()
    );
    t.dev_discard.push(card("Financial Institution"));
    game().apply(&mut t, &a, &mut rng()).expect("found in the discard pile");
    assert!(t.players[0].cards.iter().any(|h| h.card == card("Financial Institution")));
}

#[test]
fn free_enterprise_may_be_paid_by_moving_commerce_from_a_financial_institution_to_a_stock_exchange() {
    let mut s = enterprise(&["Infrastructure"]);
    game().adopt(&mut s, 0, card("Financial Institution"));
    game().adopt(&mut s, 0, card("Stock Exchange"));
    let (fi, se) = (held(&s, 0, "Financial Institution"), held(&s, 0, "Stock Exchange"));
    s.players[0].cards[fi].res[C] = 1;
    let a = play(
        admin("Free Enterprise"),
        1,
        Target { card: Some(fi as u8), onto: Some(se as u8), ..Target::default() },
    );
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("shift");
    assert_eq!((s.players[0].cards[fi].res[C], s.players[0].cards[se].res[C]), (0, 1));
    assert!(s.players[0].cards.iter().any(|h| h.card == card("Infrastructure")));
}

#[test]
fn free_enterprise_cannot_be_played_with_command_economy_or_state_ownership() {
    let mut s = enterprise(&["Infrastructure"]);
    game().adopt(&mut s, 0, card("State Ownership"));
    let at = held(&s, 0, "Autocracy") as u8;
    let err = game()
        .check_admin(&s, 0, admin("Free Enterprise"), 0, &Target { card: Some(at), ..Target::default() })
        .unwrap_err();
    assert!(err.contains("with State Ownership in force"), "{err}");
}

#[test]
fn espionage_steals_every_face_up_technology_the_chosen_power_has_discovered() {
    let mut s = enterprise(&[]);
    s.players[0].admin = vec![admin("Espionage")];
    s.provinces[usize::from(prov("Paris"))].factories += 1;
    game().adopt(&mut s, 1, card("Canning"));
    s.offer = vec![card("Canning"), card("Telegraph")];
    let at = held(&s, 0, "Autocracy") as u8;
    let a = play(admin("Espionage"), 0, Target { seat: Some(1), card: Some(at), ..Target::default() });
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("steal");
    assert_eq!(s.offer, vec![card("Telegraph")], "Prussia never had the Telegraph");
    assert!(s.players[0].cards.iter().any(|h| h.card == card("Canning") && !h.covered));
}

#[test]
fn espionage_sabotage_removes_up_to_three_production_from_another_powers_card() {
    let mut s = enterprise(&[]);
    s.players[0].admin = vec![admin("Espionage")];
    let at = held(&s, 0, "Autocracy") as u8;
    let (gw, a) = sabotage_great_works(&mut s, 4, at);
    game().apply(&mut s, &a, &mut rng()).expect("sabotage");
    assert_eq!(s.players[1].cards[gw].res[P], 1);
}

/// Seat 1 holds a Great Works with `p` production on it; seat 0's Sabotage of it, paid by its
/// card `paying`: the Great Works' place and the action.
pub(super) fn sabotage_great_works(s: &mut State, p: u8, paying: u8) -> (usize, Action) {
    game().adopt(s, 1, card("Great Works"));
    let gw = held(s, 1, "Great Works");
    s.players[1].cards[gw].res[P] = p;
    let t = Target {
        seat: Some(1),
        their: Some(gw as u8),
        res: Some(P as u8),
        card: Some(paying),
        ..Target::default()
    };
    (gw, play(admin("Espionage"), 1, t))
}

#[test]
fn espionage_support_rebellion_makes_the_occupier_discard_military_cards_or_lose_its_regiment() {
    let mut s = enterprise(&[]);
    s.players[0].admin = vec![admin("Espionage"), admin("Espionage")];
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(s.players[1].power), conscripted: None });
    s.players[1].military = vec![0];
    let at = held(&s, 0, "Autocracy") as u8;
    let t = Target { to: Some(champagne), card: Some(at), ..Target::default() };
    let a = play(admin("Espionage"), 2, t);
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("rebellion");
    settle(&mut s);
    assert!(s.players[1].military.is_empty(), "one occupied pop, none of its own: one card");
    assert!(s.provinces[usize::from(champagne)].regiment.is_some());
    s.players[0].cards[usize::from(at)].res[C] = 1;
    game().apply(&mut s, &a, &mut rng()).expect("rebellion again");
    settle(&mut s);
    assert_eq!(s.provinces[usize::from(champagne)].regiment, None, "no card left: the regiment goes");
}
