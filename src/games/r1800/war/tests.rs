//! One test per rule of the war, on the test map (`testboard`): how wars start, actions by
//! mobility, moves and where regiments may go, conscription, battles (support, ties, losses),
//! military cards, the end of the war and territory.

use super::board::{Owner, Regiment, WarBoard, control};
use super::testboard::*;
use super::*;
use crate::engine::GameRng;

const ORDER: [PowerId; 4] = [PRUSSIA, FRANCE, AUSTRIA, BRITAIN];

fn rng() -> GameRng {
    GameRng::for_action(1800, 1)
}

/// Prussia and France at war (France retaliating), the phase begun in the standard order.
fn at_war(b: &TestBoard) -> WarState {
    let mut w = WarState::default();
    let d = Declaration { declarer: FRANCE, target: PRUSSIA, cause: WarCause::Retaliation };
    declare_war(b, &mut w, d, &ORDER).expect("declared");
    begin_war(b, &mut w, &ORDER).expect("begun");
    w
}

pub(super) fn act(
    b: &mut TestBoard,
    w: &mut WarState,
    power: PowerId,
    deed: WarDeed,
) -> Result<Vec<WarEvent>, WarError> {
    apply_war_action(b, w, &WarAction { power, deed }, &mut rng())
}

pub(super) fn mv(from: &str, to: &str) -> WarDeed {
    WarDeed::Move { from: at(from), to: at(to) }
}

/// Both sides pass until the war ends; the events of the end.
fn pass_out(b: &mut TestBoard, w: &mut WarState) -> Vec<WarEvent> {
    let mut events = Vec::new();
    while let Some(p) = w.to_act() {
        events = act(b, w, p, WarDeed::Pass).expect("passing is always legal");
    }
    events
}

fn text(events: &[WarEvent]) -> String {
    events.iter().map(|e| e.public.as_str()).collect::<Vec<_>>().join("\n")
}

#[test]
fn only_powers_in_a_declaration_fight_and_in_turn_order() {
    let b = TestBoard::new();
    let w = at_war(&b);
    assert_eq!(w.phase.as_ref().map(|p| p.order.clone()), Some(vec![PRUSSIA, FRANCE]));
    assert_eq!(w.to_act(), Some(PRUSSIA), "the player left of the dealer acts first");
    assert!(legal_war_actions(&b, &w, AUSTRIA).is_empty());
}

#[test]
fn no_declaration_means_no_war() {
    let b = TestBoard::new();
    let mut w = WarState::default();
    assert_eq!(begin_war(&b, &mut w, &ORDER), Ok(Vec::new()));
    assert_eq!(w.to_act(), None);
}

#[test]
fn conquest_is_declared_only_on_a_power_controlling_a_neighbouring_province() {
    let b = TestBoard::new();
    let mut w = WarState::default();
    let conquest = |declarer, target| Declaration { declarer, target, cause: WarCause::Conquest };
    assert!(declare_war(&b, &mut w, conquest(PRUSSIA, FRANCE), &ORDER).is_ok());
    let refused = declare_war(&b, &mut w, conquest(BRITAIN, AUSTRIA), &ORDER);
    assert!(matches!(refused, Err(WarError::Declaration(m)) if m.contains("Austria controls no province")));
    assert_eq!(conquest_targets(&b, PRUSSIA, &ORDER), vec![FRANCE, AUSTRIA]);
}

#[test]
fn the_great_war_sets_every_power_against_every_other() {
    let b = TestBoard::new();
    let mut w = WarState::default();
    great_war(&mut w, &ORDER);
    assert!(w.hostile(BRITAIN, AUSTRIA) && w.hostile(PRUSSIA, FRANCE));
    begin_war(&b, &mut w, &ORDER).unwrap();
    assert_eq!(w.phase.map(|p| p.order.len()), Some(4));
}

#[test]
fn each_participant_has_its_mobility_in_actions_and_one_out_of_actions_is_skipped() {
    let mut b = TestBoard::new();
    b.powers[1].mobility = 5;
    let mut w = at_war(&b);
    let mut seen = Vec::new();
    while let Some(p) = w.to_act() {
        seen.push(p);
        act(&mut b, &mut w, p, WarDeed::Pass).unwrap();
    }
    assert_eq!(seen, [PRUSSIA, FRANCE, PRUSSIA, FRANCE, PRUSSIA, FRANCE, FRANCE, FRANCE]);
}

#[test]
fn acting_out_of_turn_is_refused_and_changes_nothing() {
    let mut b = TestBoard::new();
    b.put(FRANCE, "Champagne");
    let mut w = at_war(&b);
    let (b0, w0) = (b.clone(), w.clone());
    let r = act(&mut b, &mut w, FRANCE, mv("Champagne", "Rheinland"));
    assert_eq!(r, Err(WarError::NotYourTurn("Prussia".into())));
    assert_eq!((b, w), (b0, w0));
}

#[test]
fn a_regiment_moves_only_to_an_adjacent_province() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Hesse");
    let mut w = at_war(&b);
    let far = mv("Hesse", "Paris");
    assert!(matches!(act(&mut b, &mut w, PRUSSIA, far), Err(WarError::Move(m)) if m.contains("not next to")));
    act(&mut b, &mut w, PRUSSIA, mv("Hesse", "Rheinland")).unwrap();
    assert_eq!(b.regiment(at("Rheinland")), Some(Regiment::regular(PRUSSIA)));
    assert_eq!(b.regiment(at("Hesse")), None);
}

#[test]
fn a_regiment_may_not_enter_a_province_holding_a_regiment_of_a_power_not_in_the_war_nor_a_neutral_one() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Saxony");
    b.put(PRUSSIA, "Hesse");
    b.put(AUSTRIA, "Bohemia");
    b.regiments[at("Bavaria").index()] = Some(Regiment { owner: Owner::Neutral, conscripted: None });
    let mut w = at_war(&b);
    let austria = act(&mut b, &mut w, PRUSSIA, mv("Saxony", "Bohemia"));
    assert!(matches!(austria, Err(WarError::Move(m)) if m.contains("not involved in the war")));
    let neutral = act(&mut b, &mut w, PRUSSIA, mv("Hesse", "Bavaria"));
    assert!(matches!(neutral, Err(WarError::Move(m)) if m.contains("neutral regiment")));
}

#[test]
fn an_empty_enemy_province_is_occupied_and_its_control_changes() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    let mut w = at_war(&b);
    let events = act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    assert!(text(&events).contains("occupying it"), "{events:?}");
    assert_eq!(control(&b, at("Champagne")), Some(Owner::Power(PRUSSIA)));
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("Champagne (Prussia, was France)"), "{end:?}");
    assert_eq!(control(&b, at("Champagne")), Some(Owner::Power(PRUSSIA)), "the occupation outlasts the war");
    assert_eq!(w.record(PRUSSIA).provinces_taken, 1);
}

#[test]
fn moving_onto_an_enemy_regiment_starts_a_battle_resolved_only_after_all_actions() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    let mut w = at_war(&b);
    let events = act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    assert!(text(&events).contains("attacks France's regiment in Champagne"));
    assert_eq!(b.regiment(at("Rheinland")), None, "the attacker left its province");
    assert_eq!(b.regiment(at("Champagne")), Some(Regiment::regular(FRANCE)), "not resolved yet");
    let moving_away = act(&mut b, &mut w, FRANCE, mv("Champagne", "Paris"));
    assert!(matches!(moving_away, Err(WarError::Move(m)) if m.contains("fighting a battle")));
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("Battle of Champagne"), "{end:?}");
}

#[test]
fn a_conscript_needs_your_pop_a_free_province_and_a_piece_and_cannot_move() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Berlin");
    let mut w = at_war(&b);
    let no_pop = act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Paris") });
    assert!(matches!(no_pop, Err(WarError::Conscript(m)) if m.contains("no pop")));
    let taken = act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Berlin") });
    assert!(matches!(taken, Err(WarError::Conscript(m)) if m.contains("already stands")));
    act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Hesse") }).unwrap();
    assert_eq!(b.regiment(at("Hesse")).and_then(|r| r.conscripted), Some(at("Hesse")));
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    let stuck = act(&mut b, &mut w, PRUSSIA, mv("Hesse", "Rheinland"));
    assert!(matches!(stuck, Err(WarError::Move(m)) if m.contains("conscripted")));
}

#[test]
fn conscription_is_limited_by_the_regiment_pieces() {
    let mut b = TestBoard::new();
    for name in ["Berlin", "Saxony", "Rheinland", "Pommerania", "Bavaria", "Vienna", "Bohemia", "London"] {
        b.regiments[at(name).index()] = Some(Regiment::regular(PRUSSIA));
    }
    let mut w = at_war(&b);
    let phase = w.phase.clone().unwrap();
    assert_eq!(regiments_in_supply(&b, &phase, PRUSSIA), 0);
    let r = act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Hesse") });
    assert!(matches!(r, Err(WarError::Conscript(m)) if m.contains("pieces")));
}

#[test]
fn supporting_regiments_count_only_when_next_to_no_other_battle_of_their_own() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(PRUSSIA, "Hesse");
    b.put(FRANCE, "Champagne");
    b.put(FRANCE, "Paris");
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let phase = w.phase.clone().unwrap();
    let (a, d) = battle::score_battle(&b, &w, &phase, &phase.battles[0]);
    assert_eq!((a.support, d.support), (0, 1), "Paris supports Champagne; Hesse is not next to it");
    // A second French battle next to Paris takes Paris's support away from Champagne.
    b.put(PRUSSIA, "Normandie");
    b.put(PRUSSIA, "Flanders");
    let mut phase = w.phase.clone().unwrap();
    phase.battles.push(Battle {
        at: at("Normandie"),
        attacker: FRANCE,
        defender: PRUSSIA,
        from: at("Paris"),
        regiment: Regiment::regular(FRANCE),
    });
    let (a, d) = battle::score_battle(&b, &w, &phase, &phase.battles[0]);
    assert_eq!(
        (a.support, d.support),
        (0, 0),
        "Paris touches both French battles; Flanders touches both Prussian ones"
    );
}

#[test]
fn the_higher_battle_score_wins_and_the_loser_loses_its_regiment_and_draws_a_card() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(PRUSSIA, "Flanders");
    b.put(FRANCE, "Champagne");
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("Prussia 1 (1 supporting"), "{end:?}");
    assert!(text(&end).contains("Prussia wins. France's regiment is removed; France draws a military card"));
    assert_eq!(
        b.regiment(at("Champagne")),
        Some(Regiment::regular(PRUSSIA)),
        "the winner holds the province"
    );
    assert_eq!(b.powers[1].hand.len(), 1);
    let drawn = &b.cards[usize::from(b.powers[1].hand[0].0)].name;
    let secret = end.iter().find_map(|e| e.secret.clone()).expect("the draw is told to France alone");
    assert_eq!(secret, (FRANCE, format!("you drew {drawn}")));
    assert!(!text(&end).contains(drawn.as_str()), "the public text never names the card");
    assert_eq!((w.record(PRUSSIA).battles_won, w.record(FRANCE).battles_lost), (1, 1));
}

#[test]
fn battle_tie_goes_to_the_side_with_more_pops_in_the_province() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.set_pops(Owner::Power(PRUSSIA), "Champagne", 2);
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("Prussia wins on a tie, having more pops there"), "{end:?}");
}

#[test]
fn battle_tie_with_equal_pops_goes_to_the_power_that_acted_first() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.set_pops(Owner::Power(PRUSSIA), "Champagne", 1);
    let mut w = WarState::default();
    let d = Declaration { declarer: PRUSSIA, target: FRANCE, cause: WarCause::Retaliation };
    declare_war(&b, &mut w, d, &ORDER).unwrap();
    begin_war(&b, &mut w, &[FRANCE, PRUSSIA]).unwrap();
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("France wins on a tie, having acted first in the war"), "{end:?}");
    assert_eq!(b.regiment(at("Champagne")), Some(Regiment::regular(FRANCE)), "the defender keeps it");
    assert_eq!(b.regiment(at("Rheinland")), None, "the beaten attacker is gone");
}

#[test]
fn a_lost_conscript_takes_its_pop_with_it() {
    let mut b = TestBoard::new();
    b.put(FRANCE, "Champagne");
    b.put(FRANCE, "Flanders");
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Rheinland") }).unwrap();
    act(&mut b, &mut w, FRANCE, mv("Champagne", "Rheinland")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("with the pop conscripted in Rheinland"), "{end:?}");
    assert_eq!(board::pops_of(&b, at("Rheinland"), Owner::Power(PRUSSIA)), 0);
    assert_eq!(control(&b, at("Rheinland")), Some(Owner::Power(FRANCE)));
}

#[test]
fn military_technology_adds_to_the_battle_score() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.put(FRANCE, "Paris");
    b.powers[0].bonus = 2;
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("Prussia 2 (0 supporting, 2 from military technology"), "{end:?}");
    assert!(text(&end).contains("Prussia wins."));
}

#[test]
fn superior_tactics_counts_in_every_battle_and_a_maneuver_only_where_named() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.give(PRUSSIA, TACTICS);
    b.give(PRUSSIA, MAGNIFICENT);
    let mut w = at_war(&b);
    let bonus = |card, at| WarDeed::Play { card, with: CardUse::Bonus { at } };
    act(&mut b, &mut w, PRUSSIA, bonus(TACTICS, None)).unwrap();
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(&mut b, &mut w, PRUSSIA, bonus(MAGNIFICENT, Some(at("Hesse")))).unwrap();
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(
        text(&end).contains("Prussia 1 (0 supporting, 0 from military technology, 1 from cards)"),
        "{end:?}"
    );
    assert_eq!(b.discard, vec![TACTICS, MAGNIFICENT], "played cards are discarded");
}

#[test]
fn a_maneuver_may_name_only_a_province_where_your_army_can_fight() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Berlin");
    b.give(PRUSSIA, EXPERT);
    let mut w = at_war(&b);
    let far = WarDeed::Play { card: EXPERT, with: CardUse::Bonus { at: Some(at("Paris")) } };
    assert!(
        matches!(act(&mut b, &mut w, PRUSSIA, far), Err(WarError::Card(m)) if m.contains("not where your army"))
    );
    let missing = WarDeed::Play { card: TACTICS, with: CardUse::Bonus { at: None } };
    assert!(
        matches!(act(&mut b, &mut w, PRUSSIA, missing), Err(WarError::Card(m)) if m.contains("you hold no"))
    );
}

#[test]
fn a_military_tradition_stays_in_play_and_replaces_the_other_tradition() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    b.give(PRUSSIA, MIL_TRADITION);
    b.give(PRUSSIA, NAVAL_TRADITION);
    b.powers[0].hand.pop();
    b.powers[0].tradition = Some(NAVAL_TRADITION);
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, WarDeed::Play { card: MIL_TRADITION, with: CardUse::Tradition }).unwrap();
    assert_eq!(b.powers[0].tradition, Some(MIL_TRADITION));
    assert_eq!(b.discard, vec![NAVAL_TRADITION]);
    act(&mut b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("1 from cards) against"), "{end:?}");
    assert_eq!(b.powers[0].tradition, Some(MIL_TRADITION), "it stays after the war");
}

/// Prussia plays Naval Support on Normandie and attacks it from Flanders; the war's last events.
fn naval_attack_on_normandie(b: &mut TestBoard) -> Vec<WarEvent> {
    let mut w = at_war(b);
    let naval = WarDeed::Play { card: NAVAL_SUPPORT, with: CardUse::NavalBonus { at: at("Normandie") } };
    act(b, &mut w, PRUSSIA, naval).unwrap();
    act(b, &mut w, FRANCE, WarDeed::Pass).unwrap();
    act(b, &mut w, PRUSSIA, mv("Flanders", "Normandie")).unwrap();
    pass_out(b, &mut w)
}

#[test]
fn naval_support_needs_the_larger_navy_and_counts_two_where_support_crosses_a_strait() {
    let mut b = TestBoard::new();
    b.put(FRANCE, "Paris");
    b.put(PRUSSIA, "Flanders");
    b.put(FRANCE, "Normandie");
    b.put(PRUSSIA, "London");
    b.give(PRUSSIA, NAVAL_SUPPORT);
    b.powers[0].navy = 2;
    let end = naval_attack_on_normandie(&mut b);
    // London supports across the strait: 1 support + 2 naval against Paris's 1.
    assert!(
        text(&end).contains("Prussia 3 (1 supporting, 0 from military technology, 2 from cards)"),
        "{end:?}"
    );
}

#[test]
fn naval_support_without_the_larger_navy_adds_nothing() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Flanders");
    b.put(FRANCE, "Normandie");
    b.give(PRUSSIA, NAVAL_SUPPORT);
    let end = naval_attack_on_normandie(&mut b);
    assert!(
        text(&end).contains("Prussia 0 (0 supporting, 0 from military technology, 0 from cards)"),
        "{end:?}"
    );
}

#[test]
fn naval_support_carries_a_regiment_by_sea_into_an_attack() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Pommerania");
    b.put(FRANCE, "Normandie");
    b.give(PRUSSIA, NAVAL_SUPPORT);
    let mut w = at_war(&b);
    let sea = CardUse::SeaMove { from: at("Pommerania"), to: at("Normandie") };
    let events = act(&mut b, &mut w, PRUSSIA, WarDeed::Play { card: NAVAL_SUPPORT, with: sea }).unwrap();
    assert!(text(&events).contains("by sea, attacks France's regiment in Normandie"), "{events:?}");
    b.put(FRANCE, "Paris");
    b.give(FRANCE, NAVAL_SUPPORT);
    let inland = CardUse::SeaMove { from: at("Paris"), to: at("Flanders") };
    let refused = check(
        &b,
        &w,
        &WarAction { power: FRANCE, deed: WarDeed::Play { card: NAVAL_SUPPORT, with: inland } },
    );
    assert!(matches!(refused, Err(WarError::Card(m)) if m.contains("no sea route")));
}

#[test]
fn reinforcements_conscript_in_a_province_you_control_and_may_step_to_an_empty_neighbour() {
    let mut b = TestBoard::new();
    b.give(PRUSSIA, REINFORCEMENTS);
    let mut w = at_war(&b);
    let with = CardUse::Reinforcements { at: at("Rheinland"), to: Some(at("Champagne")) };
    act(&mut b, &mut w, PRUSSIA, WarDeed::Play { card: REINFORCEMENTS, with }).unwrap();
    let r = b.regiment(at("Champagne")).expect("it stepped into Champagne");
    assert_eq!(r.conscripted, Some(at("Rheinland")), "its pop stays at home");
    pass_out(&mut b, &mut w);
    let r = b.regiment(at("Champagne")).expect("RULING E57: a conscript outlasts the war");
    assert_eq!(r.conscripted, Some(at("Rheinland")));
    assert_eq!(board::pops_of(&b, at("Rheinland"), Owner::Power(PRUSSIA)), 1, "its pop stays at home");
}

#[test]
fn strategic_repositioning_moves_two_regiments_to_provinces_no_enemy_controls() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(PRUSSIA, "Saxony");
    b.give(PRUSSIA, REPOSITIONING);
    let mut w = at_war(&b);
    let enemy = CardUse::Repositioning { moves: vec![(at("Rheinland"), at("Paris"))] };
    let refused = act(&mut b, &mut w, PRUSSIA, WarDeed::Play { card: REPOSITIONING, with: enemy });
    assert!(matches!(refused, Err(WarError::Card(m)) if m.contains("controlled by France")));
    let moves = vec![(at("Rheinland"), at("Pommerania")), (at("Saxony"), at("Berlin"))];
    act(
        &mut b,
        &mut w,
        PRUSSIA,
        WarDeed::Play { card: REPOSITIONING, with: CardUse::Repositioning { moves } },
    )
    .unwrap();
    assert!(b.regiment(at("Pommerania")).is_some() && b.regiment(at("Berlin")).is_some());
    assert!(b.regiment(at("Rheinland")).is_none() && b.regiment(at("Saxony")).is_none());
}

#[test]
fn the_war_ends_after_the_last_action_clearing_declarations_and_keeping_every_regiment() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Hesse");
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, WarDeed::Conscript { at: at("Berlin") }).unwrap();
    let end = pass_out(&mut b, &mut w);
    assert!(text(&end).contains("The war is over"), "{end:?}");
    assert!(w.phase.is_none() && w.declarations.is_empty());
    let conscript = Regiment { owner: Owner::Power(PRUSSIA), conscripted: Some(at("Berlin")) };
    assert_eq!(b.regiment(at("Berlin")), Some(conscript), "RULING E57: the conscript stays");
    assert_eq!(b.regiment(at("Hesse")), Some(Regiment::regular(PRUSSIA)));
    assert_eq!((w.record(PRUSSIA).wars, w.record(FRANCE).wars, w.record(AUSTRIA).wars), (1, 1, 0));
}

#[test]
fn a_silent_power_passes() {
    let b = TestBoard::new();
    let w = at_war(&b);
    let d = default_war_action(PRUSSIA);
    assert_eq!(d, WarAction { power: PRUSSIA, deed: WarDeed::Pass });
    assert!(legal_war_actions(&b, &w, PRUSSIA).contains(&d));
}

#[test]
fn the_war_state_survives_a_round_trip_through_json() {
    let mut b = TestBoard::new();
    b.put(PRUSSIA, "Rheinland");
    b.put(FRANCE, "Champagne");
    let mut w = at_war(&b);
    act(&mut b, &mut w, PRUSSIA, mv("Rheinland", "Champagne")).unwrap();
    let json = serde_json::to_string(&w).unwrap();
    assert_eq!(serde_json::from_str::<WarState>(&json).unwrap(), w);
}

#[test]
fn provinces_are_named_in_any_case_and_spacing() {
    let b = TestBoard::new();
    assert_eq!(b.province_named("pommer-ania"), Some(at("Pommerania")));
    assert_eq!(b.province_named("Atlantis"), None);
}

#[test]
fn without_a_regiment_the_most_pops_control_and_a_tie_leaves_nobody() {
    let mut b = TestBoard::new();
    assert_eq!(control(&b, at("Hesse")), Some(Owner::Power(PRUSSIA)));
    b.set_pops(Owner::Power(FRANCE), "Hesse", 1);
    assert_eq!(control(&b, at("Hesse")), None);
    b.put(FRANCE, "Hesse");
    assert_eq!(control(&b, at("Hesse")), Some(Owner::Power(FRANCE)), "a regiment controls whatever the pops");
    assert_eq!(control(&b, at("Flanders")), Some(Owner::Neutral));
}
