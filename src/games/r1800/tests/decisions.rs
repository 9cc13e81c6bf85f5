//! Issue 35: every decision orderable by mail, each line answering only the decision it names
//! (RULINGS E4, E21, E22, E74, E75 amended; E95, E96).

use super::super::board;
use super::super::data::{DevType, GlobalEvent};
use super::super::orders::tests::sheet;
use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, settle, to_first_turn};
use crate::engine::{Apply, Orders, Rules};

/// Seat 0 in its turn with `choice` open.
fn open(choice: Choice) -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    s.pending.push(Pending { seat: 0, choice });
    s
}

/// The action the seat's sheet of `lines` gives at the decision open now.
fn answer(s: &State, lines: &[&str]) -> Option<Action> {
    game().answer_from(s, &mut sheet(lines)).action
}

#[test]
fn ruling_e95_a_decline_meant_for_a_trade_never_throws_away_the_seats_own_factory() {
    let s = open(Choice::Factory);
    assert_eq!(answer(&s, &["DECLINE TRADE"]), None, "the factory is not the trade");
    let s = open(Choice::Barter { with: 1 });
    assert_eq!(answer(&s, &["DECLINE TRADE"]), Some(Action::Skip));
}

#[test]
fn ruling_e95_a_bare_decline_is_not_understood_and_lists_the_decisions() {
    let e = game().parse_order("DECLINE").unwrap_err();
    assert!(e.0.contains("DECLINE FACTORY") && e.0.contains("TRADE"), "{e}");
}

#[test]
fn ruling_e74_a_player_researches_with_tech_while_refusing_a_trade_with_decline_trade() {
    let mut s = open(Choice::Tech);
    s.players[0].overseas = vec![0];
    let tech = card("Telegraph");
    s.offer.push(tech);
    assert!(board::may_take(&s, game().data(), 0, tech), "one trade route: Telegraph may be taken");
    let line = format!("TECH {}", game().data().dev_name(tech));
    let lines = [line.as_str(), "DECLINE TRADE"];
    assert_eq!(answer(&s, &lines), Some(Action::Tech(tech)));
    let s = open(Choice::Barter { with: 1 });
    assert_eq!(answer(&s, &lines), Some(Action::Skip), "TECH does not accept the trade");
    let mut s = open(Choice::Barter { with: 1 });
    s.players[0].overseas = vec![0];
    game().adopt(&mut s, 1, tech);
    s.offer.push(tech);
    let trade = |w: &str| format!("TRADE TECH Telegraph WITH {w}");
    assert_eq!(answer(&s, &[trade("Prussia").as_str()]), Some(Action::Tech(tech)));
    assert_eq!(answer(&s, &[trade("Austria").as_str()]), None, "another partner's trade");
}

/// Seat 0 with a food deficit of 2 and 2 food on its Granaries.
fn hungry() -> State {
    let mut s = new(2);
    let me = usize::from(s.players[0].power);
    s.provinces[usize::from(prov("Paris"))].pops[me] += 4;
    let g = held(&s, 0, "Granaries");
    s.players[0].cards[g].res[F] = 2;
    to_first_turn(&mut s);
    assert_eq!(s.pending[0].choice, Choice::Deficit { food: 2 });
    s
}

#[test]
fn rule_player_turns_1_the_seat_chooses_to_sacrifice_a_pop_rather_than_pay_a_deficit_from_its_cards() {
    let mut s = hungry();
    let me = usize::from(s.players[0].power);
    let champagne = usize::from(prov("Champagne"));
    s.provinces[champagne].pops[me] = 1;
    let before = s.provinces[champagne].pops[me];
    let a = answer(&s, &["DEFICIT SACRIFICE Champagne"]);
    assert_eq!(a, Some(Action::Sacrifice(prov("Champagne"))));
    game().apply(&mut s, &a.unwrap(), &mut rng()).expect("sacrifice");
    assert_eq!(s.provinces[champagne].pops[me], before - 1);
    assert_eq!(s.players[0].cards[held(&s, 0, "Granaries")].res[F], 2, "the food stays on the cards");
}

#[test]
fn rule_player_turns_1_the_seat_pays_a_deficit_from_its_cards_when_it_says_so() {
    let mut s = hungry();
    let me = usize::from(s.players[0].power);
    let pops = s.pops_of(me);
    let a = answer(&s, &["DEFICIT PAY"]).expect("an answer");
    game().apply(&mut s, &a, &mut rng()).expect("pay");
    assert_eq!((s.pops_of(me), s.players[0].cards[held(&s, 0, "Granaries")].res[F]), (pops, 0));
}

#[test]
fn ruling_e22_command_economy_discards_the_admin_card_the_upkeep_line_names() {
    let mut s = super::turn_ends::command_economy();
    let a = answer(&s, &["UPKEEP DISCARD Conscription"]).expect("an answer");
    game().apply(&mut s, &a, &mut rng()).expect("discard");
    assert_eq!(s.players[0].admin, vec![admin("Urbanization")]);
}

#[test]
fn ruling_e22_a_republic_whose_prosperity_fell_discards_the_named_card_before_the_next_turn() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card("Republic"));
    s.players[0].admin = vec![admin("Urbanization"), admin("Conscription")];
    s.players[0].admin.sort_unstable();
    s.players[0].prosperity = 1;
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    game().apply(&mut s, &Action::EndTurn, &mut rng()).unwrap();
    assert_eq!(s.pending[0].choice, Choice::Upkeep { republic: true });
    assert!(matches!(s.stage, Stage::Turn { seat: 0, .. }), "the next turn waits for the discard");
    let a = answer(&s, &["UPKEEP DISCARD Urbanization"]).expect("an answer");
    game().apply(&mut s, &a, &mut rng()).expect("discard");
    assert_eq!(s.players[0].admin, vec![admin("Conscription")]);
    assert!(matches!(s.stage, Stage::Turn { seat: 1, .. }));
}

#[test]
fn ruling_e21_unrest_overseas_lets_a_seat_that_can_pay_keep_its_card_and_lose_the_route() {
    let mut s = new(2);
    s.players[0].overseas = vec![0, 1];
    s.players[0].military = vec![s.military_deck.pop().unwrap()];
    game().global_event(&mut s, GlobalEvent::UnrestOverseas, &mut rng());
    let d = game().data();
    let lines =
        [format!("EVENT Unrest Overseas LOSE FOR {}", d.routes[0]), "EVENT Unrest Overseas PAY".into()];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let a = answer(&s, &lines).expect("the first route");
    assert_eq!(a, Action::Skip);
    game().apply(&mut s, &a, &mut rng()).unwrap();
    let a = answer(&s, &lines).expect("the second route");
    assert!(matches!(a, Action::Pay(_)), "{a:?}");
    game().apply(&mut s, &a, &mut rng()).unwrap();
    assert_eq!((s.players[0].overseas.clone(), s.players[0].military.len()), (vec![1], 0));
}

#[test]
fn ruling_e21_a_standing_accept_lets_liberal_revolution_happen_though_the_seat_could_pay() {
    let mut s = new(2);
    s.players[0].military = s.military_deck.drain(..2).collect();
    s.players[0].military.sort_unstable();
    game().adopt(&mut s, 1, card("Republic"));
    s.dev_discard.push(card("Republic"));
    game().global_event(&mut s, GlobalEvent::LiberalRevolution, &mut rng());
    let a = answer(&s, &["EVENT Liberal Revolution ACCEPT"]).expect("an answer");
    assert_eq!(a, Action::Skip);
    game().apply(&mut s, &a, &mut rng()).unwrap();
    settle(&mut s);
    assert_eq!(s.players[0].military.len(), 2, "the cards are kept");
    let gov = board::active_card(&s, game().data(), 0, DevType::Policy, 0);
    assert_eq!(gov.map(|c| c.name.as_str()), Some("Republic"));
}

#[test]
fn ruling_e21_event_lines_are_standing_answers_until_withdrawn() {
    let o = game().parse_order("EVENT unrest at home PAY").unwrap();
    let l = game().lasting(&o).expect("a standing answer");
    assert_eq!((l.key.as_str(), l.withdraws), ("EVENT UNREST AT HOME", false));
    let o = game().parse_order("EVENT Unrest at Home NONE").unwrap();
    assert!(game().lasting(&o).unwrap().withdraws);
    let e = game().parse_order("EVENT Flooding PAY").unwrap_err();
    assert!(e.0.contains("asks no choice"), "{e}");
}

/// Seat 1 (Prussia), its regiment in Champagne and military card 0 in hand, asked to pay for a
/// rebellion supported there or lose the regiment.
pub(super) fn rebellion_in_champagne() -> State {
    let mut s = new(2);
    to_first_turn(&mut s);
    let champagne = prov("Champagne");
    s.provinces[usize::from(champagne)].regiment =
        Some(Piece { owner: Some(s.players[1].power), conscripted: None });
    s.players[1].military = vec![0];
    s.pending.push(Pending { seat: 1, choice: Choice::Toll(Toll::Rebellion { province: champagne, n: 1 }) });
    s
}

#[test]
fn ruling_e75_the_occupier_chooses_to_lose_its_regiment_under_support_rebellion() {
    let mut s = rebellion_in_champagne();
    let champagne = prov("Champagne");
    let a = answer(&s, &["REBELLION LOSE FOR Champagne"]).expect("an answer");
    game().apply(&mut s, &a, &mut rng()).unwrap();
    assert_eq!((s.provinces[usize::from(champagne)].regiment, s.players[1].military.len()), (None, 1));
}

#[test]
fn convert_of_names_whose_pop_is_converted() {
    let mut s = open(Choice::Convert);
    let paris = prov("Paris");
    s.provinces[usize::from(paris)].pops[usize::from(s.players[0].power)] = 3;
    s.provinces[usize::from(paris)].pops[NEUTRAL] = 1;
    let pr = s.players[1].power;
    s.provinces[usize::from(paris)].pops[usize::from(pr)] = 1;
    assert_eq!(
        answer(&s, &["CONVERT Paris OF NEUTRAL"]),
        Some(Action::Convert { province: paris, owner: NEUTRAL as u8 })
    );
    assert_eq!(
        answer(&s, &["CONVERT Paris OF Prussia"]),
        Some(Action::Convert { province: paris, owner: pr })
    );
}

#[test]
fn hospitals_from_names_the_card_that_pays() {
    let mut s = open(Choice::Hospital);
    game().adopt(&mut s, 0, card("Hospitals"));
    game().adopt(&mut s, 0, card("Hospitals"));
    let (a, b) = (held(&s, 0, "Hospitals") - 1, held(&s, 0, "Hospitals"));
    s.players[0].cards[a].res[C] = 3;
    s.players[0].cards[b].res[C] = 3;
    let line = format!("HOSPITALS Y FROM #{}", b + 1);
    assert_eq!(answer(&s, &[line.as_str()]), Some(Action::Heal { card: b as u8, pop: false }));
}

#[test]
fn ruling_e96_a_recruit_line_with_no_regiment_to_place_is_reported_not_carried_out_at_the_turn_end() {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().apply(&mut s, &Action::EndActions, &mut rng()).unwrap();
    let mut sh = sheet(&["RECRUIT Champagne", "EVENT Unrest Overseas PAY"]);
    let a = game().answer_from(&s, &mut sh);
    assert_eq!(a.action, None, "the turn ends by default");
    assert_eq!(a.notes.len(), 1, "{:?}", a.notes);
    assert!(!a.notes[0].executed, "{:?}", a.notes);
    assert_eq!(a.notes[0].note, "a regiment to recruit never came up in your turn");
    assert_eq!(sh.used, vec![true, false], "the standing answer waits");
}

#[test]
fn ruling_e97_the_echo_says_which_decision_each_line_answers_and_flags_a_migration_outside_its_round() {
    use crate::engine::Seat;
    let mut s = new(2);
    (s.event, s.players[0].admin) = (None, Vec::new());
    let orders =
        sheet(&["MIGRATE Paris TO Champagne", "DECLINE TRADE", "PLAY Urbanization Champagne TO Paris"])
            .orders;
    let advice = game().advise_sheet(&s, Seat::from_index(0), &orders);
    let a: Vec<String> = advice.into_iter().map(Option::unwrap_or_default).collect();
    assert!(a[0].contains("not Migration"), "{}", a[0]);
    assert!(a[1].contains("a trade of technologies"), "{}", a[1]);
    assert!(a[2].contains("you do not hold Urbanization"), "{}", a[2]);
}

#[test]
fn ruling_e97_a_misspelt_name_is_answered_with_the_nearest_one() {
    let e = game().parse_order("BUILD Pariss").unwrap_err();
    assert!(e.0.contains("did you mean Paris?"), "{e}");
    let e = game().parse_order("EVENT Unrest Oversees PAY").unwrap_err();
    assert!(e.0.contains("did you mean Unrest Overseas?"), "{e}");
}

#[test]
fn if_conditions_read_a_development_card_in_force_the_military_hand_and_a_war_declared() {
    use super::super::war::state::Declaration;
    use super::super::war::{PowerId, WarCause};
    let mut s = new(2);
    to_first_turn(&mut s);
    let place = |s: &State, cond: &str| answer(s, &[format!("IF {cond} THEN PLACE C ON Autocracy").as_str()]);
    let c = Action::Place { card: held(&s, 0, "Autocracy") as u8, res: C as u8 };
    assert_eq!(place(&s, "HOLD Granaries"), Some(c.clone()), "a development card in force");
    assert_eq!(place(&s, "HOLD Canning"), None);
    assert_eq!(place(&s, "MILITARY >= 1"), None, "no military card in hand");
    s.players[0].military = vec![0];
    assert_eq!(place(&s, "MILITARY >= 1"), Some(c.clone()));
    assert_eq!(place(&s, "AT WAR"), None);
    let (a, b) = (PowerId(s.players[0].power), PowerId(s.players[1].power));
    s.war.declarations.push(Declaration { declarer: b, target: a, cause: WarCause::Conquest });
    assert_eq!(place(&s, "AT WAR WITH Prussia"), Some(c));
}

#[test]
fn an_if_line_may_wrap_a_war_line_whose_condition_is_read_when_the_seat_acts_in_the_war() {
    use super::super::war::state::Declaration;
    use super::super::war::{PowerId, WarCause, WarDeed};
    let d = game().data();
    let mut s = new(2);
    to_first_turn(&mut s);
    for seat in 0..2 {
        let me = usize::from(s.players[seat].power);
        let home = (0..s.provinces.len()).find(|&p| s.provinces[p].pops[me] > 0).expect("a home province");
        s.provinces[home].regiment = Some(Piece { owner: Some(me as u8), conscripted: None });
    }
    let (a, b) = (PowerId(s.players[0].power), PowerId(s.players[1].power));
    s.war.declarations.push(Declaration { declarer: a, target: b, cause: WarCause::Conquest });
    game().to_war(&mut s, &mut rng());
    assert_eq!(s.stage, Stage::War);
    let acting = s.war.to_act().expect("a power acts");
    let seat = usize::from(s.seat_of(usize::from(acting.0)).expect("its seat"));
    let (from, to) = game()
        .legal_actions(&s)
        .iter()
        .find_map(|x| match x {
            Action::War(w) => match w.deed {
                WarDeed::Move { from, to } => Some((from, to)),
                _ => None,
            },
            _ => None,
        })
        .expect("a move");
    let line =
        format!("IF MILITARY >= 1 THEN WAR MOVE {} TO {}", d.province_name(from.0), d.province_name(to.0));
    let moved = |s: &State| match answer(s, &[line.as_str()]) {
        Some(Action::War(w)) => w.deed == WarDeed::Move { from, to },
        _ => false,
    };
    assert!(!moved(&s), "no military card: the wrapped WAR line is not played");
    s.players[seat].military = vec![0];
    assert!(moved(&s), "with one: the WAR line is the seat's war action");
}
