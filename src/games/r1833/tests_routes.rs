//! Route rules (create, extend, layouts, private RRs, duplicate connections) and scoring, one
//! sentence each; the rules' worked scoring example.

use super::data::{self, CardId, Deck};
use super::score::score;
use super::state::{Action, Phase, Route, State};
use super::tests::{act, game, give, held, refused, table};
use super::*;
use crate::engine::prelude::*;

fn create(g: &R1833, s: &mut State, who: usize, loco: &str, path: &[&str]) -> Action {
    let l = give(g, s, who, &[loco])[0];
    let cards = give(g, s, who, path);
    let links = cards.windows(2).map(|w| (w[0], w[1])).collect();
    Action::Create { loco: l, cards, links }
}

/// A route laid straight along `path`, already on the table.
fn route(g: &R1833, s: &mut State, who: usize, loco: &str, path: &[&str]) -> Vec<CardId> {
    let a = create(g, s, who, loco, path);
    let Action::Create { loco, cards, links } = a else { unreachable!() };
    s.players[who].hand.retain(|c| *c != loco && !cards.contains(c));
    s.players[who].routes.push(Route { loco, cards: cards.clone(), links });
    cards
}

#[test]
fn a_route_needs_a_locomotive_and_at_least_two_connected_cities() {
    let g = game();
    let mut s = table(&g, 2);
    let a = create(&g, &mut s, 0, "Level 1", &["Boston"]);
    assert!(refused(&g, &s, a).contains("at least two city cards"));
    let c = give(&g, &mut s, 0, &["Albany", "Toronto"]);
    let boston = held(&g, &s, 0, "Boston");
    let l = held(&g, &s, 0, "Level 1");
    let a = Action::Create { loco: c[1], cards: vec![boston, c[0]], links: vec![(boston, c[0])] };
    assert!(refused(&g, &s, a).contains("not a locomotive"));
    let a = Action::Create { loco: l, cards: vec![boston, c[1]], links: vec![(boston, c[1])] };
    assert!(refused(&g, &s, a).contains("not connected on their cards"));
    act(&g, &mut s, Action::Create { loco: l, cards: vec![boston, c[0]], links: vec![(boston, c[0])] });
}

#[test]
fn the_locomotive_level_limits_the_number_of_cities() {
    let g = game();
    let mut s = table(&g, 2);
    let a = create(&g, &mut s, 0, "Level 1", &["Richmond", "Washington", "Baltimore"]);
    assert!(refused(&g, &s, a).contains("at most 2 cities"));
    let mut s = table(&g, 2);
    let a = create(&g, &mut s, 0, "Level 2", &["Richmond", "Washington", "Baltimore"]);
    act(&g, &mut s, a);
}

#[test]
fn a_branch_layout_is_legal_but_a_triangle_cannot_be_shown() {
    let g = game();
    let mut s = table(&g, 2);
    let l = give(&g, &mut s, 0, &["Level 3"])[0];
    let c = give(&g, &mut s, 0, &["Baltimore", "Washington", "Philadelphia", "Cumberland"]);
    let links = vec![(c[0], c[1]), (c[0], c[2]), (c[0], c[3])];
    act(&g, &mut s, Action::Create { loco: l, cards: c, links });
    let mut s = table(&g, 2);
    let l = give(&g, &mut s, 0, &["Level 2"])[0];
    let c = give(&g, &mut s, 0, &["Philadelphia", "Lancaster", "Reading"]);
    let tri = vec![(c[0], c[1]), (c[1], c[2]), (c[2], c[0])];
    assert!(
        refused(&g, &s, Action::Create { loco: l, cards: c.clone(), links: tri })
            .contains("cannot be laid out")
    );
    act(&g, &mut s, Action::Create { loco: l, cards: c.clone(), links: vec![(c[0], c[1]), (c[1], c[2])] });
}

#[test]
fn a_loop_of_four_cities_is_legal() {
    let g = game();
    let mut s = table(&g, 2);
    let l = give(&g, &mut s, 0, &["Level 3"])[0];
    let c = give(&g, &mut s, 0, &["Philadelphia", "Reading", "Harrisburg", "Lancaster"]);
    let links = vec![(c[0], c[1]), (c[1], c[2]), (c[2], c[3]), (c[3], c[0])];
    act(&g, &mut s, Action::Create { loco: l, cards: c, links });
}

#[test]
fn a_connection_already_in_play_cannot_be_played_again_by_anyone() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 1, "Level 1", &["Boston", "Albany"]);
    let a = create(&g, &mut s, 0, "Level 1", &["Albany", "Boston"]);
    assert!(refused(&g, &s, a).contains("Albany-Boston is already in play"));
}

#[test]
fn a_private_rr_links_two_unconnected_cities_and_does_not_count_against_the_limit() {
    let g = game();
    let mut s = table(&g, 2);
    let a = create(&g, &mut s, 0, "Level 1", &["Albany", "Catskill & Ithaca", "Ithaca"]);
    act(&g, &mut s, a);
    assert_eq!(routes::value(g.deck(), &s.players[0].routes[0]), 2);
}

#[test]
fn private_rr_connections_are_exempt_from_the_duplicate_rule() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 1, "Level 1", &["Albany", "Catskill & Ithaca", "Ithaca"]);
    let a = create(&g, &mut s, 0, "Level 1", &["Albany", "Albany & Susquehanna", "Ithaca"]);
    act(&g, &mut s, a);
}

#[test]
fn a_private_rr_must_link_at_least_two_cities() {
    let g = game();
    let mut s = table(&g, 2);
    let l = give(&g, &mut s, 0, &["Level 2"])[0];
    let c = give(&g, &mut s, 0, &["Albany", "Boston", "Catskill & Ithaca"]);
    let a = Action::Create { loco: l, cards: c.clone(), links: vec![(c[0], c[1]), (c[0], c[2])] };
    assert!(refused(&g, &s, a).contains("must link at least two cities"));
}

#[test]
fn a_route_may_be_extended_by_adding_cities_below_its_limit() {
    let g = game();
    let mut s = table(&g, 2);
    let r = route(&g, &mut s, 0, "Level 2", &["Boston", "Albany"]);
    let n = give(&g, &mut s, 0, &["Syracuse"])[0];
    act(&g, &mut s, Action::Extend { route: 0, loco: None, cards: vec![n], links: vec![(r[1], n)] });
    assert_eq!(s.players[0].routes[0].cards.len(), 3);
}

#[test]
fn extending_a_full_route_replaces_the_locomotive_and_the_old_one_leaves_the_game() {
    let g = game();
    let mut s = table(&g, 2);
    let r = route(&g, &mut s, 0, "Level 1", &["Boston", "Albany"]);
    let old = s.players[0].routes[0].loco;
    let n = give(&g, &mut s, 0, &["Syracuse"])[0];
    let a = Action::Extend { route: 0, loco: None, cards: vec![n], links: vec![(r[1], n)] };
    assert!(refused(&g, &s, a).contains("at most 2 cities"));
    let l3 = give(&g, &mut s, 0, &["Level 3"])[0];
    act(&g, &mut s, Action::Extend { route: 0, loco: Some(l3), cards: vec![n], links: vec![(r[1], n)] });
    assert_eq!(s.players[0].routes[0].loco, l3);
    assert!(s.removed.contains(&old));
}

#[test]
fn a_locomotive_cannot_be_replaced_without_adding_a_city_it_needs() {
    let g = game();
    let mut s = table(&g, 2);
    let r = route(&g, &mut s, 0, "Level 2", &["Boston", "Albany"]);
    let l3 = give(&g, &mut s, 0, &["Level 3"])[0];
    let a = Action::Extend { route: 0, loco: Some(l3), cards: vec![], links: vec![] };
    assert!(refused(&g, &s, a).contains("at least one city card"));
    let n = give(&g, &mut s, 0, &["Syracuse"])[0];
    let a = Action::Extend { route: 0, loco: Some(l3), cards: vec![n], links: vec![(r[1], n)] };
    assert!(refused(&g, &s, a).contains("keep it"));
}

#[test]
fn existing_connections_cannot_be_altered_when_extending() {
    let g = game();
    let mut s = table(&g, 2);
    let r = route(&g, &mut s, 0, "Level 3", &["Philadelphia", "Reading", "Harrisburg"]);
    let n = give(&g, &mut s, 0, &["Lancaster"])[0];
    let a = Action::Extend { route: 0, loco: None, cards: vec![n], links: vec![(r[0], n), (r[2], r[0])] };
    assert!(refused(&g, &s, a).contains("cannot be altered"));
    act(
        &g,
        &mut s,
        Action::Extend { route: 0, loco: None, cards: vec![n], links: vec![(r[0], n), (r[2], n)] },
    );
}

#[test]
fn only_one_route_may_be_created_or_extended_per_turn() {
    let g = game();
    let mut s = table(&g, 2);
    let a = create(&g, &mut s, 0, "Level 1", &["Boston", "Albany"]);
    act(&g, &mut s, a);
    let b = create(&g, &mut s, 0, "Level 1", &["Buffalo", "Toronto"]);
    assert!(refused(&g, &s, b).contains("already created or extended"));
}

#[test]
fn legal_actions_offer_a_route_for_cards_that_connect() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Level 2", "Richmond", "Washington", "Baltimore"]);
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    let legal = g.legal_actions(&s);
    let three =
        legal.iter().filter(|a| matches!(a, Action::Create { cards, .. } if cards.len() == 3)).count();
    assert_eq!(three, 1);
    for a in legal {
        let mut t = s.clone();
        assert!(g.apply(&mut t, &a, &mut super::tests::rng()).is_ok(), "{a:?}");
    }
}

#[test]
fn the_rules_worked_scoring_example_scores_40() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 0, "Level 2", &["Richmond", "Washington", "Baltimore"]);
    route(&g, &mut s, 0, "Level 2", &["Baltimore", "Lancaster", "Altoona"]);
    give(&g, &mut s, 0, &["PRR", "PRR", "B&O"]);
    let sc = score(g.deck(), &s.players[0]);
    assert_eq!((sc.routes, sc.bonus, sc.total), (10, 30, 40));
}

#[test]
fn routes_connected_through_another_route_share_corp_bonuses() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 0, "Level 2", &["New York", "Newark", "Allentown"]);
    route(&g, &mut s, 0, "Level 2", &["Allentown", "Reading", "Lancaster"]);
    route(&g, &mut s, 0, "Level 2", &["Reading", "Philadelphia", "Baltimore"]);
    give(&g, &mut s, 0, &["NYC"]);
    let sc = score(g.deck(), &s.players[0]);
    assert_eq!(sc.bonus, sc.routes, "all three routes are connected to New York");
    let mut t = table(&g, 2);
    route(&g, &mut t, 0, "Level 1", &["Boston", "Albany"]);
    give(&g, &mut t, 0, &["NYC"]);
    assert_eq!(score(g.deck(), &t.players[0]).bonus, 0, "a route apart from New York earns nothing");
}

#[test]
fn each_re_shuffle_in_hand_costs_25_points() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 0, "Level 1", &["Boston", "Albany"]);
    give(&g, &mut s, 0, &["Re-Shuffle", "Re-Shuffle"]);
    assert_eq!(score(g.deck(), &s.players[0]).total, 6 - 50);
}

#[test]
fn ties_are_broken_by_corp_bonus_total_then_by_the_best_single_corp() {
    let g = game();
    let mut s = table(&g, 3);
    // Seat 1: 6 + NYC bonus 6 = 12. Seat 2: 6 + 6 = 12, no bonus. Seat 3: 3 + 3 + C&O 3 + PRR 3
    // = 12, bonus 6 like seat 1 but its best single Corp RR brings only 3.
    route(&g, &mut s, 0, "Level 1", &["Albany", "New York"]);
    give(&g, &mut s, 0, &["NYC"]);
    route(&g, &mut s, 1, "Level 1", &["Boston", "Providence"]);
    route(&g, &mut s, 1, "Level 1", &["Toronto", "Montreal"]);
    route(&g, &mut s, 2, "Level 1", &["Richmond", "Norfolk"]);
    route(&g, &mut s, 2, "Level 1", &["Altoona", "Harrisburg"]);
    give(&g, &mut s, 2, &["C&O", "PRR"]);
    let scores: Vec<(i32, i32, i32)> =
        s.players.iter().map(|p| score(g.deck(), p)).map(|x| (x.total, x.bonus, x.best_corp)).collect();
    assert_eq!(scores, [(12, 6, 6), (12, 0, 0), (12, 6, 3)]);
    s.phase = Phase::Over;
    let st = g.standings(&s).expect("over");
    let order: Vec<(u8, u8)> = st.iter().map(|x| (x.seat.0, x.place)).collect();
    assert_eq!(order, [(1, 1), (3, 2), (2, 3)]);
}

#[test]
fn seats_still_tied_after_both_tie_breakers_share_a_place() {
    let g = game();
    let mut s = table(&g, 2);
    route(&g, &mut s, 0, "Level 1", &["Boston", "Providence"]);
    route(&g, &mut s, 1, "Level 1", &["Toronto", "Montreal"]);
    s.phase = Phase::Over;
    let st = g.standings(&s).expect("over");
    assert_eq!(st.iter().map(|x| x.place).collect::<Vec<_>>(), [1, 1]);
}

/// The standard deck with the Catskill & Ithaca listing Albany, Ithaca and Syracuse (Albany and
/// Syracuse are directly connected), in play at a fresh table.
fn table_with_a_wider_private(g: &R1833) -> State {
    let text = data::STANDARD.replacen(
        "name = \"Catskill & Ithaca\"\nconnects = [\"Albany\", \"Ithaca\"]",
        "name = \"Catskill & Ithaca\"\nconnects = [\"Albany\", \"Ithaca\", \"Syracuse\"]",
        1,
    );
    assert_ne!(text, data::STANDARD);
    let mut s = table(g, 2);
    s.custom_deck = Some(std::sync::Arc::new(Deck::parse(&text, "wider.toml").expect("a legal deck")));
    s
}

#[test]
fn rule_a_private_rr_links_two_otherwise_unconnected_cities() {
    // RULING C21: Albany-Syracuse are connected on their cards, so the private RR may not be
    // the link between them; with Ithaca (otherwise unconnected to Albany) it may.
    let g = game();
    let mut s = table_with_a_wider_private(&g);
    let a = create(&g, &mut s, 0, "Level 1", &["Albany", "Catskill & Ithaca", "Syracuse"]);
    assert!(refused(&g, &s, a).contains("otherwise unconnected"));
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    let private = held(&g, &s, 0, "Catskill & Ithaca");
    assert!(
        !g.legal_actions(&s)
            .iter()
            .any(|a| matches!(a, Action::Create { cards, .. } if cards.contains(&private))),
        "legal_actions lists no route with the private RR either"
    );
    let mut s = table_with_a_wider_private(&g);
    let l = give(&g, &mut s, 0, &["Level 2"])[0];
    let c = give(&g, &mut s, 0, &["Albany", "Catskill & Ithaca", "Syracuse", "Ithaca"]);
    let links = vec![(c[0], c[1]), (c[1], c[2]), (c[1], c[3])];
    act(&g, &mut s, Action::Create { loco: l, cards: c, links });
}

#[test]
fn rule_no_private_rr_of_the_standard_deck_lists_two_directly_connected_cities() {
    let d = Deck::standard().expect("loads");
    for p in &d.privates {
        for (i, a) in p.connects.iter().enumerate() {
            for b in &p.connects[i + 1..] {
                assert!(!d.cities_connect(*a, *b), "{} links directly connected cities", p.name);
            }
        }
    }
}

#[test]
fn rule_a_deck_whose_private_rr_could_never_link_otherwise_unconnected_cities_is_refused() {
    let text = data::STANDARD.replacen(
        "name = \"Catskill & Ithaca\"\nconnects = [\"Albany\", \"Ithaca\"]",
        "name = \"Catskill & Ithaca\"\nconnects = [\"Albany\", \"Syracuse\"]",
        1,
    );
    let e = Deck::parse(&text, "x.toml").expect_err("a useless private RR").to_string();
    assert!(e.contains("Catskill & Ithaca") && e.contains("otherwise unconnected"), "{e}");
}
