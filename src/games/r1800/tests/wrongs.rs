//! One test per rule of the wrongs answered by war and of Diplomatic Action (FACTS §4.3 Navy,
//! §5.1, §10.1; RULINGS E72–E74).

use super::super::state::*;
use super::super::war::{PowerId, WarCause};
use super::cards::{admin, sabotage_great_works};
use super::{card, game, held, new, prov, rng, settle, to_first_turn};
use crate::engine::{Apply, Rules};

/// Seat 0 (France, with a Navy) about to raid in its turn; seat 1 (Prussia) holds route 3.
fn at_raid() -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Navy"));
    s.players[1].overseas = vec![3];
    s.pending.push(Pending { seat: 0, choice: Choice::NavyRaid });
    s
}

/// Seat 0 (France, with a Navy) raids seat 1's (Prussia's) route in its turn.
fn raided() -> State {
    let mut s = at_raid();
    game().apply(&mut s, &Action::Raid { seat: 1, route: 3 }, &mut rng()).expect("raid");
    s
}

/// Ends every turn of the round.
fn end_turns(s: &mut State) {
    while let Stage::Turn { .. } = s.stage {
        let a = if game().legal_actions(s).contains(&Action::EndActions) {
            Action::EndActions
        } else {
            Action::EndTurn
        };
        game().apply(s, &a, &mut rng()).expect("end");
    }
}

/// Diplomatic Action's option `option` aimed at seat `seat`.
fn diplomatic(option: u8, seat: u8) -> Action {
    Action::Admin {
        card: admin("Diplomatic Action"),
        option,
        target: Target { seat: Some(seat), ..Target::default() },
    }
}

fn hostile(s: &State, a: usize, b: usize) -> Option<WarCause> {
    let (a, b) = (PowerId(s.players[a].power), PowerId(s.players[b].power));
    s.war.declarations.iter().find(|d| (d.declarer, d.target) == (a, b)).map(|d| d.cause)
}

#[test]
fn rules_a_navy_raid_gives_its_victim_no_free_declaration_of_war_only_a_diplomatic_action() {
    // "There are three ways a war can be initiated": Conquest, the Great War, a Diplomatic Action.
    let mut s = raided();
    assert!(s.players[1].overseas.is_empty());
    end_turns(&mut s);
    assert_eq!(s.stage, Stage::Reprisal { to_ask: vec![1] }, "the victim is asked, whatever its cards");
    let free = Action::Retaliate(s.players[0].power);
    assert!(!game().legal_actions(&s).contains(&free));
    let err = game().apply(&mut s.clone(), &free, &mut rng()).unwrap_err();
    assert!(err.0.contains("Diplomatic Action"), "{err}");
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("let it be");
    assert!(s.war.declarations.is_empty());
    assert!(s.grievances.is_empty());
}

#[test]
fn diplomatic_action_lets_the_victim_of_a_removed_trade_token_declare_war() {
    let mut s = raided();
    s.players[1].admin = vec![admin("Diplomatic Action")];
    end_turns(&mut s);
    let a = diplomatic(0, 0);
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("retaliate");
    assert_eq!(hostile(&s, 1, 0), Some(WarCause::Retaliation));
    assert!(s.admin_discard.contains(&admin("Diplomatic Action")));
}

#[test]
fn diplomatic_action_lets_the_victim_of_cleansed_pops_declare_war() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().grieve(&mut s, 1, 0, false);
    s.players[1].admin = vec![admin("Diplomatic Action")];
    end_turns(&mut s);
    assert_eq!(s.stage, Stage::Reprisal { to_ask: vec![1] });
    assert!(!game().legal_actions(&s).contains(&Action::Retaliate(s.players[0].power)));
    assert!(game().legal_actions(&s).iter().any(|a| matches!(a, Action::Admin { option: 0, .. })));
}

#[test]
fn without_a_wrong_this_round_nobody_retaliates_and_the_round_ends() {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[1].admin = vec![admin("Diplomatic Action")];
    end_turns(&mut s);
    assert!(matches!(s.stage, Stage::Draft { .. } | Stage::Call { .. }), "{:?}", s.stage);
    assert_eq!(s.round, 1);
}

#[test]
fn ruling_e72_retaliation_is_not_played_during_a_turn() {
    let mut s = raided();
    s.players[1].admin = vec![admin("Diplomatic Action")];
    let err = game()
        .check_admin(&s, 1, admin("Diplomatic Action"), 0, &Target { seat: Some(0), ..Target::default() })
        .unwrap_err();
    assert!(err.contains("at the end of the round"), "{err}");
}

/// France's turn with a regiment in Lyon, a Diplomatic Action and `n` military cards.
fn conqueror(n: usize) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = vec![admin("Diplomatic Action")];
    s.players[0].military = s.military_deck.drain(..n).collect();
    s.players[0].military.sort_unstable();
    s.provinces[usize::from(prov("Lyon"))].regiment =
        Some(Piece { owner: Some(s.players[0].power), conscripted: None });
    s
}

#[test]
fn conquest_removes_a_neutral_regiment_for_military_cards_and_may_move_a_regiment_in() {
    let mut s = conqueror(2);
    let (lyon, swiss) = (prov("Lyon"), prov("Switzerland"));
    let cards = s.players[0].military.clone();
    let t = Target { from: Some(lyon), to: Some(swiss), military: cards, ..Target::default() };
    let a = Action::Admin { card: admin("Diplomatic Action"), option: 1, target: t };
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("conquest");
    assert!(s.controls(0, swiss));
    assert_eq!(s.provinces[usize::from(lyon)].regiment, None);
    assert!(s.players[0].military.is_empty());
    assert_eq!(s.military_discard.len(), 2);
}

#[test]
fn a_conquest_costs_one_military_card_and_one_more_for_each_neutral_regiment() {
    let s = conqueror(1);
    let legal = game().legal_actions(&s);
    let aims: Vec<(Option<u16>, Option<u16>)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Admin { option: 1, target, .. } => Some((target.from, target.to)),
            _ => None,
        })
        .collect();
    assert!(!aims.iter().any(|(_, to)| *to == Some(prov("Switzerland"))), "a neutral regiment: two cards");
    assert!(aims.contains(&(Some(prov("Lyon")), Some(prov("Provence")))), "{aims:?}");
    assert!(!aims.iter().any(|(_, to)| *to == Some(prov("Champagne"))), "only neutral provinces");
}

/// Seat 0 has Steel Plough and an Army; seat 1 has the Bolt-Action Rifle and an Industrial
/// Agriculture: each may take the other's.
fn traders() -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = vec![admin("Diplomatic Action")];
    game().adopt(&mut s, 0, card("Steel Plough"));
    game().adopt(&mut s, 0, card("Standing Army"));
    game().adopt(&mut s, 1, card("Bolt-Action Rifle"));
    game().adopt(&mut s, 1, card("Industrial Agriculture"));
    s
}

#[test]
fn trade_technology_needs_a_willing_partner_who_takes_one_of_the_players_technologies() {
    let mut s = traders();
    let a = diplomatic(2, 1);
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("offer");
    assert_eq!(s.pending[0], Pending { seat: 1, choice: Choice::Barter { with: 0 } });
    assert_eq!(game().legal_actions(&s), vec![Action::Tech(card("Steel Plough")), Action::Skip]);
    game().apply(&mut s, &Action::Tech(card("Steel Plough")), &mut rng()).expect("agree");
    assert!(s.players[1].cards.iter().any(|h| h.card == card("Steel Plough")));
    assert_eq!(game().legal_actions(&s), vec![Action::Tech(card("Bolt-Action Rifle")), Action::Skip]);
    game().apply(&mut s, &Action::Tech(card("Bolt-Action Rifle")), &mut rng()).expect("take");
    assert!(s.players[0].cards.iter().any(|h| h.card == card("Bolt-Action Rifle") && !h.covered));
}

#[test]
fn a_partner_who_declines_refuses_the_trade() {
    let mut s = traders();
    let a = diplomatic(2, 1);
    game().apply(&mut s, &a, &mut rng()).expect("offer");
    game().apply(&mut s, &Action::Skip, &mut rng()).expect("decline");
    assert!(s.pending.is_empty());
    let _ = held(&s, 0, "Steel Plough");
}

#[test]
fn expansionism_cleanse_removes_up_to_two_pops_of_others_where_its_regiment_stands_and_wrongs_them() {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = vec![admin("Expansionism")];
    let hesse = prov("Hesse");
    let (fr, pr) = (s.players[0].power, s.players[1].power);
    s.provinces[usize::from(hesse)].regiment = Some(Piece { owner: Some(fr), conscripted: None });
    let t = Target { to: Some(hesse), pops: vec![pr], ..Target::default() };
    let a = Action::Admin { card: admin("Expansionism"), option: 1, target: t };
    assert!(game().legal_actions(&s).contains(&a));
    let two = Target { to: Some(hesse), pops: vec![pr, pr], ..Target::default() };
    assert!(game().check_admin(&s, 0, admin("Expansionism"), 1, &two).is_err(), "Hesse has one Prussian pop");
    game().apply(&mut s, &a, &mut rng()).expect("cleanse");
    assert_eq!(s.provinces[usize::from(hesse)].pops[usize::from(pr)], 0);
    assert_eq!(s.players[0].prosperity, 1, "Y-1");
    assert_eq!(s.grievances, vec![Grievance { victim: 1, offender: 0, raid: false }]);
}

#[test]
fn expansionism_conquest_costs_a_prosperity_as_well_as_the_military_cards() {
    let mut s = conqueror(1);
    s.players[0].admin = vec![admin("Expansionism")];
    let cards = s.players[0].military.clone();
    let t =
        Target { from: Some(prov("Lyon")), to: Some(prov("Provence")), military: cards, ..Target::default() };
    game()
        .apply(&mut s, &Action::Admin { card: admin("Expansionism"), option: 2, target: t }, &mut rng())
        .expect("conquest");
    assert!(s.controls(0, prov("Provence")));
    assert_eq!(s.players[0].prosperity, 1);
}

/// Seat 0 (France) in its turn with an Espionage, its Autocracy paying the commerce; seat 1
/// (Prussia) holds a Diplomatic Action. Returns the state and the paying card.
fn spy() -> (State, u8) {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.players[0].admin = vec![admin("Espionage")];
    s.players[1].admin = vec![admin("Diplomatic Action")];
    let at = held(&s, 0, "Autocracy");
    s.players[0].cards[at].res[C] = 1;
    (s, at as u8)
}

/// After seat 0's aggressive action: the round ends, Prussia is asked and answers with its
/// Diplomatic Action, which declares war on France.
fn prussia_answers(mut s: State) {
    assert_eq!(s.grievances, vec![Grievance { victim: 1, offender: 0, raid: false }]);
    end_turns(&mut s);
    assert_eq!(s.stage, Stage::Reprisal { to_ask: vec![1] }, "the wronged power is asked");
    let a = diplomatic(0, 0);
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("retaliate");
    assert_eq!(hostile(&s, 1, 0), Some(WarCause::Retaliation));
}

#[test]
fn ruling_e72_a_sabotage_is_an_aggressive_action_its_victim_may_answer_with_diplomatic_action() {
    let (mut s, at) = spy();
    let (gw, a) = sabotage_great_works(&mut s, 2, at);
    game().apply(&mut s, &a, &mut rng()).expect("sabotage");
    assert_eq!(s.players[1].cards[gw].res[P], 0);
    prussia_answers(s);
}

#[test]
fn ruling_e72_supporting_a_rebellion_wrongs_the_occupier_who_may_answer_with_diplomatic_action() {
    let (mut s, at) = spy();
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(s.players[1].power), conscripted: None });
    s.players[1].military = vec![0];
    let t = Target { to: Some(champagne), card: Some(at), ..Target::default() };
    let a = Action::Admin { card: admin("Espionage"), option: 2, target: t };
    game().apply(&mut s, &a, &mut rng()).expect("rebellion");
    settle(&mut s);
    assert!(s.players[1].military.is_empty(), "the occupier paid");
    prussia_answers(s);
}

#[test]
fn ruling_e72_a_stolen_technology_or_a_conversion_removes_nothing_of_the_victims_and_is_no_wrong() {
    let (mut s, at) = spy();
    let (paris, fr, pr) = (prov("Paris"), s.players[0].power, s.players[1].power);
    s.provinces[usize::from(paris)].pops[usize::from(fr)] = 3;
    s.provinces[usize::from(paris)].pops[usize::from(pr)] = 1;
    s.pending.push(Pending { seat: 0, choice: Choice::Convert });
    game().apply(&mut s, &Action::Convert { province: paris, owner: pr }, &mut rng()).expect("convert");
    assert_eq!(s.provinces[usize::from(paris)].pops[usize::from(pr)], 0);
    game().adopt(&mut s, 1, card("Canning"));
    s.offer = vec![card("Canning")];
    s.provinces[usize::from(paris)].factories += 1; // Canning needs factories
    let t = Target { seat: Some(1), card: Some(at), ..Target::default() };
    let a = Action::Admin { card: admin("Espionage"), option: 0, target: t };
    game().apply(&mut s, &a, &mut rng()).expect("steal");
    assert!(s.grievances.is_empty(), "{:?}", s.grievances);
    end_turns(&mut s);
    assert!(!matches!(s.stage, Stage::Reprisal { .. }), "{:?}", s.stage);
}

// RULING E106: a Navy's raid is listed by the words that order it.
#[test]
fn the_order_builder_lists_a_navy_raid_on_each_route_of_another_power_answered_so() {
    use crate::engine::{Orders, Seat, answer_alone};
    let s = at_raid();
    let raid = Action::Raid { seat: 1, route: 3 };
    assert!(game().legal_actions(&s).contains(&raid));
    let d = game().data();
    let line = format!("RAID {} ON {}", d.powers[usize::from(s.players[1].power)].name, d.routes[3]);
    let now = game().choices(&s, Seat(1)).first().map(|c| c.lines.clone()).unwrap_or_default();
    assert!(now.contains(&line), "{line} listed: {now:?}");
    let decision = game().next_decision(&s).expect("the raid");
    assert_eq!(answer_alone(game(), &s, &decision, &line).and_then(|a| a.action), Some(raid));
}
