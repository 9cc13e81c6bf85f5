//! Rule-by-rule tests of set-up, turns, discards and the pick-up offer, draws, hand limits,
//! Re-Shuffles, the end of the game, scoring and the deck file (one sentence each), plus the
//! table-building helpers the other test files share.

use super::data::{CardId, Deck, Kind};
use super::setup::START_LIMIT;
use super::state::{Action, Phase, Player, Route, State, TurnLog, TurnSize};
use super::*;
use crate::engine::prelude::*;
use crate::engine::{GameRng, SetupSpec};

pub(super) fn game() -> R1833 {
    R1833::standard().expect("the standard deck loads")
}

pub(super) fn rng() -> GameRng {
    GameRng::for_action(1, 1)
}

/// A play-phase table with every card in the draw deck (in id order, the last id on top),
/// `n` players with empty hands, seat 1 to move, everyone having had a turn.
pub(super) fn table(g: &R1833, n: u8) -> State {
    let all: Vec<CardId> = (0..g.deck().cards.len()).filter_map(|i| CardId::try_from(i).ok()).collect();
    let player = Player::fresh(START_LIMIT);
    State {
        custom_deck: None,
        turn_size: TurnSize::Player,
        players: vec![player; usize::from(n)],
        draw: all,
        bottom: Vec::new(),
        display: Vec::new(),
        pool: Vec::new(),
        discard: Vec::new(),
        removed: Vec::new(),
        phase: Phase::Play,
        active: 0,
        clockwise: true,
        turn: TurnLog::default(),
        turns_taken: u32::from(n),
        ending: None,
    }
}

/// Takes a card of the named kind out of the draw deck.
pub(super) fn pull(g: &R1833, s: &mut State, name: &str) -> CardId {
    let k = g.deck().lookup(name).unwrap_or_else(|| panic!("no card {name}"));
    let i = s
        .draw
        .iter()
        .position(|c| g.deck().kind(*c) == k)
        .unwrap_or_else(|| panic!("no {name} left in the deck"));
    s.draw.remove(i)
}

/// Puts named cards from the deck into a player's hand (player index).
pub(super) fn give(g: &R1833, s: &mut State, who: usize, names: &[&str]) -> Vec<CardId> {
    let ids: Vec<CardId> = names.iter().map(|n| pull(g, s, n)).collect();
    s.players[who].hand.extend(&ids);
    ids
}

/// Puts named cards on top of the draw deck (the first named ends on top).
pub(super) fn on_top(g: &R1833, s: &mut State, names: &[&str]) {
    for n in names.iter().rev() {
        let c = pull(g, s, n);
        s.draw.push(c);
    }
}

pub(super) fn to_pool(g: &R1833, s: &mut State, names: &[&str]) {
    for n in names {
        let c = pull(g, s, n);
        s.pool.push(c);
    }
}

pub(super) fn held(g: &R1833, s: &State, who: usize, name: &str) -> CardId {
    let k = g.deck().lookup(name).expect("name");
    *s.players[who]
        .hand
        .iter()
        .find(|c| g.deck().kind(**c) == k)
        .unwrap_or_else(|| panic!("seat index {who} holds no {name}"))
}

pub(super) fn names(g: &R1833, cards: &[CardId]) -> Vec<String> {
    cards.iter().map(|c| g.deck().name(*c)).collect()
}

pub(super) fn act(g: &R1833, s: &mut State, a: Action) {
    g.apply(s, &a, &mut rng()).unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
}

pub(super) fn refused(g: &R1833, s: &State, a: Action) -> String {
    let mut t = s.clone();
    let e = g.apply(&mut t, &a, &mut rng()).expect_err("must be refused");
    assert_eq!(&t, s, "a refused action changes nothing");
    e.0
}

fn setup(g: &R1833, n: u8, seed: u64) -> State {
    g.setup(&SetupSpec { seats: n, options: serde_json::Value::Null }, &mut GameRng::for_setup(seed))
        .expect("setup")
}

fn count(g: &R1833, cards: &[CardId], k: Kind) -> usize {
    cards.iter().filter(|c| g.deck().kind(**c) == k).count()
}

#[test]
fn the_standard_deck_has_the_counts_the_rules_give() {
    let d = Deck::standard().expect("loads");
    assert!(d.reconstructed);
    let kinds = |f: &dyn Fn(Kind) -> bool| d.cards.iter().filter(|k| f(**k)).count();
    assert_eq!(kinds(&|k| matches!(k, Kind::Private(_))), 6);
    assert_eq!(kinds(&|k| matches!(k, Kind::Corp(_))), 12);
    for l in 1..=3 {
        assert_eq!(kinds(&|k| k == Kind::Loco(l)), 12);
    }
    assert_eq!(kinds(&|k| k == Kind::Reshuffle), 6);
    for (i, c) in d.cities.iter().enumerate() {
        assert_eq!(kinds(&|k| k == Kind::City(i as u8)), usize::from(c.colour.copies()), "{}", c.name);
    }
    let albany_ithaca = d.privates.iter().filter(|p| {
        let names: Vec<&str> = p.connects.iter().map(|c| d.cities[usize::from(*c)].name.as_str()).collect();
        names.contains(&"Albany") && names.contains(&"Ithaca")
    });
    assert_eq!(albany_ithaca.count(), 2, "two private RRs link Albany and Ithaca");
}

#[test]
fn a_deck_with_a_one_sided_connection_is_refused_naming_file_and_entry() {
    let text =
        super::data::STANDARD.replace("connects = [\"Newark\", \"Philadelphia\"]", "connects = [\"Newark\"]");
    let e = Deck::parse(&text, "rules/1833/deck.toml").expect_err("one-sided");
    assert_eq!(
        e.to_string(),
        "rules/1833/deck.toml: city \"Philadelphia\": connects to \"Trenton\" but \"Trenton\" does not list \"Philadelphia\""
    );
}

#[test]
fn a_deck_with_a_duplicate_name_or_an_unknown_city_is_refused() {
    let dup = super::data::STANDARD.replace("name = \"Norfolk\"", "name = \"Newark\"");
    assert!(
        Deck::parse(&dup, "x.toml")
            .expect_err("dup")
            .to_string()
            .contains("city \"Newark\": the name \"Newark\" is already used")
    );
    let unknown = super::data::STANDARD.replace("home = \"Buffalo\"", "home = \"Chicago\"");
    assert_eq!(
        Deck::parse(&unknown, "x.toml").expect_err("unknown").to_string(),
        "x.toml: corp \"Erie\": \"Chicago\" is not a city of this deck"
    );
}

#[test]
fn a_gm_may_supply_another_deck_inline() {
    let g = game();
    let text = super::data::STANDARD
        .replace("title = \"1833 standard deck (reconstructed)\"", "title = \"House deck\"")
        .replace("vp = 4", "vp = 5");
    let spec = SetupSpec { seats: 3, options: serde_json::json!({"deck": text}) };
    let s = g.setup(&spec, &mut GameRng::for_setup(1)).expect("setup with a GM deck");
    assert_eq!(g.deck_of(&s).title, "House deck");
    assert_eq!(g.deck_of(&s).cities[0].vp, 5);
    let bad = SetupSpec { seats: 3, options: serde_json::json!({"deck": "[deck]\ntitle = 1"}) };
    assert!(g.setup(&bad, &mut GameRng::for_setup(1)).expect_err("bad deck").0.starts_with("deck option: "));
}

#[test]
fn a_gm_deck_with_a_one_sided_connection_is_refused_by_name() {
    let g = game();
    let text = super::data::STANDARD
        .replace("vp = 4", "vp = 6")
        .replace("connects = [\"Richmond\"]", "connects = [\"Richmond\", \"Boston\"]");
    let spec = SetupSpec { seats: 2, options: serde_json::json!({"deck": text}) };
    let e = g.setup(&spec, &mut GameRng::for_setup(1)).expect_err("one-sided Norfolk-Boston");
    assert_eq!(
        e.0,
        "deck option: city \"Norfolk\": connects to \"Boston\" but \"Boston\" does not list \"Norfolk\""
    );
    let file = SetupSpec { seats: 2, options: serde_json::json!({"deck_file": "/etc/passwd"}) };
    assert!(g.setup(&file, &mut GameRng::for_setup(1)).is_err(), "the engine reads no files");
}

#[test]
fn set_up_removes_re_shuffles_by_player_count() {
    let g = game();
    for (n, out) in [(2, 3), (3, 3), (4, 2), (5, 1), (6, 0)] {
        let s = setup(&g, n, 5);
        assert_eq!(count(&g, &s.removed, Kind::Reshuffle), out, "{n} players");
    }
}

#[test]
fn set_up_deals_a_level_1_locomotive_and_one_card_and_displays_three_cards_per_player() {
    let g = game();
    let s = setup(&g, 4, 9);
    assert_eq!(s.display.len(), 12);
    for p in &s.players {
        assert_eq!(p.hand.len(), 2);
        assert!(count(&g, &p.hand, Kind::Loco(1)) >= 1);
    }
    // The display and the deal come from the top deck: no Level 3 and no Re-Shuffle.
    let dealt: Vec<CardId> =
        s.display.iter().chain(s.players.iter().flat_map(|p| &p.hand)).copied().collect();
    assert_eq!(count(&g, &dealt, Kind::Loco(3)) + count(&g, &dealt, Kind::Reshuffle), 0);
    let top: Vec<CardId> = s.draw.iter().chain(&dealt).copied().collect();
    assert_eq!(count(&g, &top, Kind::Loco(2)), 6, "half the Level 2 in the top deck");
    assert_eq!(count(&g, &s.bottom, Kind::Loco(3)), 12);
}

#[test]
fn the_snake_selection_runs_from_the_dealers_left_to_the_dealer_and_back() {
    let g = game();
    let mut s = setup(&g, 3, 2);
    let mut seats = Vec::new();
    while let Phase::Select { .. } = s.phase {
        let d = g.next_decision(&s).expect("decision");
        seats.push(d.seat.0);
        let first = s.display[0];
        act(&g, &mut s, Action::Select(first));
    }
    assert_eq!(seats, [1, 2, 3, 3, 2, 1]);
    assert!(s.players.iter().all(|p| p.hand.len() == 4), "each player starts with four cards");
}

#[test]
fn after_the_selection_leftovers_go_to_the_bottom_deck_the_pool_is_dealt_and_seat_1_begins() {
    let g = game();
    let mut s = setup(&g, 4, 3);
    let top_size = s.draw.len();
    while let Phase::Select { .. } = s.phase {
        let first = s.display[0];
        act(&g, &mut s, Action::Select(first));
    }
    assert_eq!(s.pool.len(), 4, "one pool card per player");
    assert_eq!(s.active, 0);
    assert!(s.display.is_empty() && s.bottom.is_empty());
    // The top deck still lies on top: its cards (less the pool) are the last of the draw deck.
    let top = &s.draw[s.draw.len() - (top_size - 4)..];
    assert_eq!(count(&g, top, Kind::Loco(3)) + count(&g, top, Kind::Reshuffle), 0);
    assert_eq!(s.all_cards().len(), g.deck().cards.len());
}

#[test]
fn a_player_may_not_end_the_turn_without_an_action() {
    let g = game();
    let mut s = table(&g, 3);
    give(&g, &mut s, 0, &["Boston"]);
    assert!(refused(&g, &s, Action::EndTurn).contains("at least one action"));
    act(&g, &mut s, Action::DrawDeck);
    act(&g, &mut s, Action::EndTurn);
    assert_eq!(s.active, 1);
}

#[test]
fn a_discard_is_offered_to_the_other_players_in_turn_order() {
    let g = game();
    let mut s = table(&g, 3);
    let c = give(&g, &mut s, 0, &["Boston"])[0];
    act(&g, &mut s, Action::Discard(c));
    assert_eq!(g.next_decision(&s).map(|d| d.seat.0), Some(2));
    act(&g, &mut s, Action::Decline);
    assert_eq!(g.next_decision(&s).map(|d| d.seat.0), Some(3));
    act(&g, &mut s, Action::Take);
    assert_eq!(names(&g, &s.players[2].hand), ["Boston"]);
    assert!(s.discard.is_empty() && s.phase == Phase::Play);
}

#[test]
fn discard_not_taken_by_anyone_ends_further_discards() {
    let g = game();
    let mut s = table(&g, 3);
    let c = give(&g, &mut s, 0, &["Boston", "Albany"]);
    act(&g, &mut s, Action::Discard(c[0]));
    act(&g, &mut s, Action::Decline);
    act(&g, &mut s, Action::Decline);
    assert!(s.turn.discards_closed);
    assert!(refused(&g, &s, Action::Discard(c[1])).contains("no further discards"));
}

#[test]
fn a_discard_picked_up_lets_the_player_discard_again() {
    let g = game();
    let mut s = table(&g, 2);
    let c = give(&g, &mut s, 0, &["Boston", "Albany"]);
    act(&g, &mut s, Action::Discard(c[0]));
    act(&g, &mut s, Action::Take);
    act(&g, &mut s, Action::Discard(c[1]));
    assert!(matches!(s.phase, Phase::Offer { .. }));
}

#[test]
fn players_at_their_hand_limit_are_not_offered_a_discard() {
    let g = game();
    let mut s = table(&g, 3);
    let c = give(&g, &mut s, 0, &["Boston"])[0];
    give(&g, &mut s, 1, &["Albany", "Albany", "Albany", "Buffalo", "Buffalo"]);
    act(&g, &mut s, Action::Discard(c));
    assert_eq!(g.next_decision(&s).map(|d| d.seat.0), Some(3), "seat 2 is full and passed over");
}

#[test]
fn re_shuffle_cards_may_never_be_discarded() {
    let g = game();
    let mut s = table(&g, 2);
    let c = give(&g, &mut s, 0, &["Re-Shuffle"])[0];
    assert!(refused(&g, &s, Action::Discard(c)).contains("never be discarded"));
}

#[test]
fn a_pool_card_taken_is_replaced_at_once_from_the_deck() {
    let g = game();
    let mut s = table(&g, 2);
    to_pool(&g, &mut s, &["Boston", "Albany"]);
    on_top(&g, &mut s, &["Toronto"]);
    let c = s.pool[0];
    act(&g, &mut s, Action::DrawPool(c));
    assert_eq!(names(&g, &s.pool), ["Albany", "Toronto"]);
    assert_eq!(names(&g, &s.players[0].hand), ["Boston"]);
}

#[test]
fn only_one_card_may_be_taken_from_the_discard_pile_per_turn() {
    let g = game();
    let mut s = table(&g, 2);
    for n in ["Boston", "Albany"] {
        let c = pull(&g, &mut s, n);
        s.discard.push(c);
    }
    act(&g, &mut s, Action::DrawDiscard);
    assert!(refused(&g, &s, Action::DrawDiscard).contains("only one card"));
}

#[test]
fn a_player_may_not_take_back_a_card_discarded_this_turn() {
    let g = game();
    let mut s = table(&g, 2);
    let c = give(&g, &mut s, 0, &["Boston"])[0];
    give(&g, &mut s, 1, &["Albany", "Albany", "Albany", "Buffalo", "Buffalo"]);
    act(&g, &mut s, Action::Discard(c));
    assert!(refused(&g, &s, Action::DrawDiscard).contains("take back"));
}

#[test]
fn draws_stop_at_the_hand_limit() {
    let g = game();
    let mut s = table(&g, 2);
    for _ in 0..5 {
        act(&g, &mut s, Action::DrawDeck);
    }
    assert!(refused(&g, &s, Action::DrawDeck).contains("limit of 5"));
}

#[test]
fn the_default_draws_to_the_hand_limit_from_the_deck_and_ends_the_turn() {
    let g = game();
    let mut s = table(&g, 2);
    give(&g, &mut s, 0, &["Boston", "Albany"]);
    assert!(g.next_decision(&s).is_some(), "a decision is pending");
    let a = g.default_action(&s).expect("default");
    act(&g, &mut s, a);
    assert_eq!(s.players[0].hand.len(), 5);
    assert_eq!(s.active, 1);
}

#[test]
fn the_hand_limit_rises_for_the_first_route_of_each_level_created_up_to_eight() {
    let g = game();
    let mut s = table(&g, 2);
    s.players[0].limit = 7;
    s.players[0].created = [true, false, false];
    let c = give(&g, &mut s, 0, &["Level 1", "Boston", "Albany"]);
    act(&g, &mut s, Action::Create { loco: c[0], cards: vec![c[1], c[2]], links: vec![(c[1], c[2])] });
    assert_eq!(s.players[0].limit, 7, "not the first Level 1 route");
    let mut s = table(&g, 2);
    s.players[0].limit = 7;
    let c = give(&g, &mut s, 0, &["Level 2", "Boston", "Albany"]);
    act(&g, &mut s, Action::Create { loco: c[0], cards: vec![c[1], c[2]], links: vec![(c[1], c[2])] });
    assert_eq!(s.players[0].limit, 8);
    s.players[0].created = [true, true, false];
    s.turn = TurnLog::default();
    let e = give(&g, &mut s, 0, &["Level 3", "Buffalo", "Toronto"]);
    act(&g, &mut s, Action::Create { loco: e[0], cards: vec![e[1], e[2]], links: vec![(e[1], e[2])] });
    assert_eq!(s.players[0].limit, 8, "never above eight");
}

#[test]
fn the_hand_limit_does_not_rise_for_an_extension() {
    let g = game();
    let mut s = table(&g, 2);
    let c = give(&g, &mut s, 0, &["Level 2", "Boston", "Albany"]);
    s.players[0].hand.clear();
    s.players[0].routes.push(Route { loco: c[0], cards: vec![c[1], c[2]], links: vec![(c[1], c[2])] });
    let n = give(&g, &mut s, 0, &["Syracuse"])[0];
    act(&g, &mut s, Action::Extend { route: 0, loco: None, cards: vec![n], links: vec![(c[2], n)] });
    assert_eq!(s.players[0].limit, 5);
}
