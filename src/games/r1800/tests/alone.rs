//! One test per rule of the activation by admin cards alone (FACTS §4.3 Public Schools (a) and
//! Secret Police (b); RULINGS E79–E81): when it is legal, what it costs and leaves, the moves
//! into cities, the conversion and massacre, their orders by mail and their defaults.

use super::super::orders::Kind;
use super::super::orders::tests::sheet;
use super::super::state::*;
use super::cards::admin;
use super::{card, game, held, new, prov, rng, to_first_turn};
use crate::engine::{Apply, Orders, Pick, Rules};

/// Seat 0 (France) in its turn, holding `name` and these admin cards.
fn turn_with(name: &str, hand: &[&str]) -> (State, u8) {
    let mut s = new(2);
    to_first_turn(&mut s);
    game().adopt(&mut s, 0, card(name));
    s.players[0].admin = hand.iter().map(|n| admin(n)).collect();
    s.players[0].admin.sort_unstable();
    let at = held(&s, 0, name) as u8;
    (s, at)
}

fn alone(card: u8, hand: &[&str]) -> Action {
    let mut discard: Vec<u8> = hand.iter().map(|n| admin(n)).collect();
    discard.sort_unstable();
    Action::ActivateAlone { card, discard, military: Vec::new() }
}

fn me(s: &State) -> usize {
    usize::from(s.players[0].power)
}

fn pops(s: &State, p: &str, owner: usize) -> u8 {
    s.provinces[usize::from(prov(p))].pops[owner]
}

#[test]
fn public_schools_alone_moves_two_farmers_into_an_adjacent_city() {
    let (mut s, ps) = turn_with("Public Schools", &["Urbanization"]);
    s.players[0].cards[usize::from(ps)].res[C] = 1;
    let a = alone(ps, &["Urbanization"]);
    assert!(game().legal_actions(&s).contains(&a), "legal with its squares not full");
    game().apply(&mut s, &a, &mut rng()).expect("activate alone");
    assert!(s.players[0].admin.is_empty() && s.admin_discard.contains(&admin("Urbanization")));
    assert_eq!(s.players[0].cards[usize::from(ps)].res[C], 1, "RULING E79: its squares keep what they hold");
    assert_eq!(s.pending.iter().map(|p| p.choice).collect::<Vec<_>>(), vec![Choice::Educate; 2]);
    let m = me(&s);
    for from in ["Normandie", "Champagne"] {
        let e = Action::Educate { from: prov(from), to: prov("Paris") };
        game().apply(&mut s, &e, &mut rng()).expect("educate");
    }
    assert_eq!((pops(&s, "Paris", m), pops(&s, "Normandie", m), pops(&s, "Champagne", m)), (3, 0, 0));
    assert!(s.pending.is_empty());
}

#[test]
fn ruling_e80_public_schools_move_laborers_off_factories_but_not_bourgeois() {
    let (mut s, _) = turn_with("Public Schools", &[]);
    s.pending.push(Pending { seat: 0, choice: Choice::Educate });
    let m = me(&s);
    s.provinces[usize::from(prov("Paris"))].pops[m] = 2;
    s.provinces[usize::from(prov("Paris"))].factories = 0;
    let e = Action::Educate { from: prov("Paris"), to: prov("Lyon") };
    assert!(!game().legal_actions(&s).contains(&e), "two bourgeois, no laborer");
    s.provinces[usize::from(prov("Paris"))].factories = 1;
    assert!(game().legal_actions(&s).contains(&e), "one of them works the factory");
    game().apply(&mut s, &e, &mut rng()).expect("educate");
    assert_eq!((pops(&s, "Paris", m), pops(&s, "Lyon", m)), (1, 2));
}

#[test]
fn ruling_e80_public_schools_move_only_into_an_adjacent_city_you_control() {
    let (mut s, _) = turn_with("Public Schools", &[]);
    s.pending.push(Pending { seat: 0, choice: Choice::Educate });
    let legal = game().legal_actions(&s);
    assert!(legal.contains(&Action::Educate { from: prov("Normandie"), to: prov("Paris") }));
    assert!(!legal.contains(&Action::Educate { from: prov("Normandie"), to: prov("London") }), "not yours");
    assert!(!legal.iter().any(
        |a| matches!(a, Action::Educate { to, .. } if !game().data().provinces[usize::from(*to)].is_city())
    ));
    let err = game()
        .apply(&mut s, &Action::Educate { from: prov("Normandie"), to: prov("London") }, &mut rng())
        .unwrap_err();
    assert!(err.0.contains("EDUCATE"), "{}", err.0);
}

#[test]
fn ruling_e79_a_card_activated_alone_is_not_activated_again_that_turn() {
    let (mut s, ps) = turn_with("Public Schools", &["Urbanization", "Urbanization"]);
    s.players[0].cards[usize::from(ps)].res[C] = 2;
    game().apply(&mut s, &alone(ps, &["Urbanization"]), &mut rng()).expect("alone");
    s.pending.clear();
    assert!(!game().legal_actions(&s).iter().any(
        |a| matches!(a, Action::Activate { card, .. } | Action::ActivateAlone { card, .. } if *card == ps)
    ));
    let err = game().can_activate(&s, 0, usize::from(ps), &[admin("Urbanization")]).unwrap_err();
    assert!(err.contains("activated this turn already"), "{err}");
}

#[test]
fn ruling_e79_an_activation_alone_needs_its_admin_cost_exactly_and_the_cards_held() {
    let (mut s, sp) = turn_with("Secret Police", &["Urbanization"]);
    assert!(
        !game().legal_actions(&s).iter().any(|a| matches!(a, Action::ActivateAlone { .. })),
        "one card, costs two"
    );
    let before = s.clone();
    let err = game().apply(&mut s, &alone(sp, &["Urbanization", "Urbanization"]), &mut rng()).unwrap_err();
    assert_eq!(err.0, "you do not hold those admin cards");
    let err = game().apply(&mut s, &alone(sp, &["Urbanization"]), &mut rng()).unwrap_err();
    assert!(err.0.contains("alone costs 2 admin card(s)"), "{}", err.0);
    assert_eq!(s, before, "a refusal changes nothing");
    let (t, _) = turn_with("Hospitals", &["Urbanization"]);
    assert!(
        !game().legal_actions(&t).iter().any(|a| matches!(a, Action::ActivateAlone { .. })),
        "no such activation"
    );
}

#[test]
fn secret_police_alone_converts_one_pop_and_massacres_one_pop_for_two_admin_cards_and_prosperity() {
    let (mut s, sp) = turn_with("Secret Police", &["Urbanization", "Propaganda Campaign"]);
    let m = me(&s);
    let prussia = usize::from(s.players[1].power);
    let paris = usize::from(prov("Paris"));
    s.provinces[paris].pops[m] = 3;
    s.provinces[paris].pops[NEUTRAL] = 1;
    s.provinces[paris].pops[prussia] = 1;
    let y = s.players[0].prosperity;
    let a = alone(sp, &["Urbanization", "Propaganda Campaign"]);
    assert!(game().legal_actions(&s).contains(&a));
    game().apply(&mut s, &a, &mut rng()).expect("alone");
    assert_eq!(s.players[0].prosperity, y - 1);
    assert!(s.players[0].admin.is_empty(), "no admin card drawn: the other activation does that");
    assert_eq!(
        s.pending.iter().map(|p| p.choice).collect::<Vec<_>>(),
        vec![Choice::Convert, Choice::Massacre]
    );
    let c = Action::Convert { province: prov("Paris"), owner: NEUTRAL as u8 };
    game().apply(&mut s, &c, &mut rng()).expect("convert");
    let k = Action::Massacre { province: prov("Paris"), owner: prussia as u8 };
    assert!(
        !game().legal_actions(&s).contains(&Action::Massacre { province: prov("Paris"), owner: m as u8 }),
        "not your own"
    );
    game().apply(&mut s, &k, &mut rng()).expect("massacre");
    assert_eq!((pops(&s, "Paris", m), pops(&s, "Paris", NEUTRAL), pops(&s, "Paris", prussia)), (4, 0, 0));
    assert!(s.grievances.contains(&Grievance { victim: 1, offender: 0, raid: false }), "RULING E81: a wrong");
}

#[test]
fn ruling_e81_a_massacre_is_only_in_a_province_you_control() {
    let (mut s, _) = turn_with("Secret Police", &[]);
    let berlin = usize::from(prov("Berlin"));
    s.provinces[berlin].pops[NEUTRAL] = 1;
    s.pending.push(Pending { seat: 0, choice: Choice::Massacre });
    assert!(
        game()
            .legal_actions(&s)
            .iter()
            .all(|a| !matches!(a, Action::Massacre { province, .. } if usize::from(*province) == berlin))
    );
}

#[test]
fn the_moves_the_conversion_and_the_massacre_may_be_declined_and_a_silent_seat_declines() {
    for choice in [Choice::Educate, Choice::Massacre] {
        let (mut s, _) = turn_with("Secret Police", &[]);
        let m = me(&s);
        s.provinces[usize::from(prov("Paris"))].pops[m] = 2;
        s.provinces[usize::from(prov("Paris"))].pops[NEUTRAL] = 1;
        s.pending.push(Pending { seat: 0, choice });
        assert_eq!(game().default_action(&s), Some(Action::Skip));
        game().apply(&mut s, &Action::Skip, &mut rng()).expect("decline");
        assert!(s.pending.is_empty());
    }
}

#[test]
fn secret_police_alone_by_mail_with_its_conversion_and_massacre() {
    let (mut s, _) = turn_with("Secret Police", &["Urbanization", "Urbanization"]);
    let m = me(&s);
    let paris = usize::from(prov("Paris"));
    s.provinces[paris].pops[m] = 3;
    s.provinces[paris].pops[NEUTRAL] = 2;
    let mut sh = sheet(&[
        "ACTIVATE Secret Police ALONE DISCARD Urbanization, Urbanization",
        "CONVERT Paris",
        "MASSACRE Lyon, Paris OF neutral",
    ]);
    for _ in 0..3 {
        let a = game().answer_from(&s, &mut sh).action.expect("an action");
        game().apply(&mut s, &a, &mut rng()).expect("applies");
    }
    assert_eq!((pops(&s, "Paris", m), pops(&s, "Paris", NEUTRAL)), (4, 0));
    assert!(s.pending.is_empty());
}

#[test]
fn public_schools_alone_by_mail_one_educate_line_a_move() {
    let (mut s, _) = turn_with("Public Schools", &["Urbanization"]);
    let m = me(&s);
    let mut sh = sheet(&[
        "activate public schools alone discard urbanization",
        "EDUCATE Normandie TO London, Normandie TO Paris",
        "EDUCATE Champagne TO Paris",
    ]);
    for _ in 0..3 {
        let a = game().answer_from(&s, &mut sh).action.expect("an action");
        game().apply(&mut s, &a, &mut rng()).expect("applies");
    }
    assert_eq!(pops(&s, "Paris", m), 3);
    let p = game().parse_order("ACTIVATE Public Schools ALONE").expect("parses").kind;
    assert!(matches!(p, Kind::Activate { alone: true, ref discard, .. } if discard.is_empty()));
}

#[test]
fn bad_alone_educate_and_massacre_order_text_is_refused_with_a_reason() {
    for (line, words) in [
        ("ACTIVATE Secret Police ALONE NOW", "ACTIVATE <card> [ALONE]"),
        ("ACTIVATE ALONE", "no development card"),
        ("EDUCATE Normandie", "TO"),
        ("EDUCATE", "EDUCATE <from> TO <city>"),
        ("MASSACRE Atlantis", "no province"),
        ("MASSACRE Paris OF Narnia", "no power"),
    ] {
        let err = game().parse_order(line).unwrap_err();
        assert!(err.0.contains(words), "{line}: {}", err.0);
    }
}

#[test]
fn an_alone_activation_refused_by_mail_does_not_name_the_hand() {
    let (s, _) = turn_with("Secret Police", &["Urbanization"]);
    let mut sh = sheet(&["ACTIVATE Secret Police ALONE DISCARD Propaganda Campaign, Urbanization"]);
    let a = game().answer_from(&s, &mut sh);
    assert!(a.action.is_none());
    assert_eq!(a.notes[0].note, "you do not hold those admin cards");
}

#[test]
fn the_random_player_sometimes_activates_a_card_alone() {
    let (s, sp) = turn_with("Secret Police", &["Urbanization", "Urbanization"]);
    let legal = vec![alone(sp, &["Urbanization", "Urbanization"]), Action::EndActions];
    let picks: Vec<Action> = (0..40).map(|k| game().sim_pick(&s, &legal, &mut Pick(k))).collect();
    assert!(picks.contains(&legal[0]) && picks.contains(&Action::EndActions));
}

// RULING E106: the order builder lists the moves, the conversion and the massacre by their words.
#[test]
fn the_order_builder_lists_educate_convert_and_massacre_lines_each_answered_with_its_choice() {
    use crate::engine::{Seat, answer_alone};
    let other = usize::from(new(2).players[1].power);
    let massacre = format!("MASSACRE Paris OF {}", game().data().powers[other].name);
    let cases = [
        (
            Choice::Educate,
            "EDUCATE Normandie TO Paris",
            Action::Educate { from: prov("Normandie"), to: prov("Paris") },
        ),
        (
            Choice::Convert,
            "CONVERT Paris OF NEUTRAL",
            Action::Convert { province: prov("Paris"), owner: NEUTRAL as u8 },
        ),
        (
            Choice::Massacre,
            massacre.as_str(),
            Action::Massacre { province: prov("Paris"), owner: other as u8 },
        ),
    ];
    for (choice, line, action) in cases {
        let (mut s, _) = turn_with("Secret Police", &[]);
        let paris = usize::from(prov("Paris"));
        let m = me(&s);
        s.provinces[paris].pops[m] = 3;
        s.provinces[paris].pops[NEUTRAL] = 1;
        s.provinces[paris].pops[other] = 1;
        s.pending.push(Pending { seat: 0, choice });
        assert!(game().legal_actions(&s).contains(&action), "{line}: legal");
        let d = game().next_decision(&s).expect("the choice");
        let listed = game().choices(&s, Seat(1));
        let now = listed.first().map(|c| c.lines.clone()).unwrap_or_default();
        assert!(now.iter().any(|l| l == line), "{line} listed: {now:?}");
        let answered = answer_alone(game(), &s, &d, line).and_then(|a| a.action);
        assert_eq!(answered, Some(action), "{line}");
        assert!(
            game().choices(&s, Seat(2)).iter().flat_map(|c| &c.lines).all(|l| l != line),
            "not another seat's"
        );
    }
}
