//! Re-Shuffle cards (played from hand, from the pool, in a new pool, as the last deck card, their
//! restrictions and the reversal of direction) and the end of the game, one sentence each.

use super::data::{CardId, Kind};
use super::state::{Action, Ending, Phase};
use super::tests::{act, game, give, held, on_top, pull, refused, rng, table, to_pool};
use crate::engine::prelude::*;

fn count(g: &super::R1833, cards: &[CardId], k: Kind) -> usize {
    cards.iter().filter(|c| g.deck().kind(**c) == k).count()
}

#[test]
fn playing_a_re_shuffle_shuffles_discard_and_pool_into_the_deck_and_deals_a_new_pool() {
    let g = game();
    let mut s = table(&g, 3);
    to_pool(&g, &mut s, &["Boston", "Albany", "Buffalo"]);
    let d = pull(&g, &mut s, "Toronto");
    s.discard.push(d);
    let r = give(&g, &mut s, 0, &["Re-Shuffle"])[0];
    let before = s.draw.len() + 4;
    act(&g, &mut s, Action::PlayReshuffle(r));
    assert!(s.discard.is_empty());
    assert_eq!(s.pool.len(), 3);
    assert_eq!(s.draw.len() + s.pool.len(), before);
    assert!(s.removed.contains(&r), "the played Re-Shuffle leaves the game");
}

#[test]
fn a_re_shuffle_reverses_the_direction_after_the_current_turn() {
    let g = game();
    let mut s = table(&g, 3);
    let r = give(&g, &mut s, 0, &["Re-Shuffle"])[0];
    act(&g, &mut s, Action::PlayReshuffle(r));
    assert!(s.clockwise, "not before the turn ends");
    act(&g, &mut s, Action::EndTurn);
    assert!(!s.clockwise);
    assert_eq!(s.active, 2, "seat 1 is followed by seat 3");
}

#[test]
fn a_re_shuffle_may_not_be_played_until_everyone_has_had_a_turn_since_the_last() {
    let g = game();
    let mut s = table(&g, 3);
    let r = give(&g, &mut s, 0, &["Re-Shuffle"])[0];
    give(&g, &mut s, 2, &["Re-Shuffle"]);
    act(&g, &mut s, Action::PlayReshuffle(r));
    act(&g, &mut s, Action::EndTurn);
    let r3 = held(&g, &s, 2, "Re-Shuffle");
    assert!(refused(&g, &s, Action::PlayReshuffle(r3)).contains("not every player"));
    act(&g, &mut s, Action::DrawDeck);
    act(&g, &mut s, Action::EndTurn);
    act(&g, &mut s, Action::DrawDeck);
    act(&g, &mut s, Action::EndTurn);
    act(&g, &mut s, Action::DrawDeck);
    act(&g, &mut s, Action::EndTurn);
    assert_eq!(s.active, 2);
    act(&g, &mut s, Action::PlayReshuffle(r3));
}

#[test]
fn only_one_re_shuffle_may_be_played_per_turn() {
    let g = game();
    let mut s = table(&g, 2);
    let r = give(&g, &mut s, 0, &["Re-Shuffle", "Re-Shuffle"]);
    act(&g, &mut s, Action::PlayReshuffle(r[0]));
    assert!(refused(&g, &s, Action::PlayReshuffle(r[1])).contains("one Re-Shuffle"));
}

#[test]
fn a_re_shuffle_coming_up_in_the_pool_is_played_at_once_even_too_soon() {
    let g = game();
    let mut s = table(&g, 2);
    s.players[1].had_turn = false;
    to_pool(&g, &mut s, &["Boston", "Albany"]);
    on_top(&g, &mut s, &["Re-Shuffle"]);
    let c = s.pool[0];
    act(&g, &mut s, Action::DrawPool(c));
    assert_eq!(count(&g, &s.removed, Kind::Reshuffle), 1);
    assert_eq!(s.pool.len(), 2);
    assert_eq!(s.turn.reversals, 1);
    assert!(!s.pool.iter().any(|c| g.deck().kind(*c) == Kind::Reshuffle));
}

#[test]
fn a_re_shuffle_coming_up_in_a_new_pool_goes_back_into_the_deck() {
    let g = game();
    let mut s = table(&g, 2);
    let rs = pull(&g, &mut s, "Re-Shuffle");
    s.draw.push(rs);
    g.form_pool(&mut s, &mut rng());
    assert_eq!(s.pool.len(), 2);
    assert!(s.draw.contains(&rs), "the Re-Shuffle went back into the deck, not into the pool");
}

#[test]
fn a_re_shuffle_in_a_new_pool_with_only_re_shuffles_left_leaves_the_game() {
    let g = game();
    let mut s = table(&g, 2);
    let all: Vec<CardId> = s.draw.drain(..).collect();
    let (rs, other): (Vec<CardId>, Vec<CardId>) =
        all.into_iter().partition(|c| g.deck().kind(*c) == Kind::Reshuffle);
    s.removed.extend(other);
    s.draw.extend(rs);
    g.form_pool(&mut s, &mut rng());
    assert!(s.pool.is_empty() && s.draw.is_empty(), "RULING C6");
}

#[test]
fn a_re_shuffle_as_the_last_deck_card_is_played_and_the_deck_reshuffled() {
    let g = game();
    let mut s = table(&g, 2);
    let rs = pull(&g, &mut s, "Re-Shuffle");
    let keep: Vec<CardId> = s.draw.drain(..).collect();
    s.draw.push(rs);
    s.discard.extend(keep[..6].iter().copied());
    s.removed.extend(keep[6..].iter().copied());
    act(&g, &mut s, Action::DrawDeck);
    assert!(s.removed.contains(&rs) && s.players[0].hand.is_empty());
    assert_eq!((s.pool.len(), s.draw.len()), (2, 4));
    assert!(s.ending.is_none(), "the game goes on");
}

#[test]
fn no_re_shuffle_may_be_played_after_the_deck_ran_out() {
    let g = game();
    let mut s = table(&g, 2);
    let r = give(&g, &mut s, 0, &["Re-Shuffle"])[0];
    s.ending = Some(Ending { trigger: 1, turns_left: Some(1) });
    assert!(refused(&g, &s, Action::PlayReshuffle(r)).contains("after the last deck card"));
}

#[test]
fn taking_the_last_deck_card_gives_every_other_player_one_more_turn() {
    let g = game();
    let mut s = table(&g, 3);
    let keep: Vec<CardId> = s.draw.drain(..).filter(|c| g.deck().kind(*c) != Kind::Reshuffle).collect();
    s.draw.push(keep[0]);
    s.removed.extend(keep[1..].iter().copied());
    s.removed.extend((0..g.deck().cards.len() as CardId).filter(|c| g.deck().kind(*c) == Kind::Reshuffle));
    act(&g, &mut s, Action::DrawDeck);
    assert_eq!(s.ending, Some(Ending { trigger: 0, turns_left: None }));
    act(&g, &mut s, Action::EndTurn);
    for seat in [1, 2] {
        assert_eq!(s.active, seat);
        assert!(g.next_decision(&s).is_some());
        let c = s.players[usize::from(seat)].hand.first().copied();
        assert!(c.is_none());
        assert_eq!(g.legal_actions(&s), [Action::EndTurn], "nothing left to do");
        act(&g, &mut s, Action::EndTurn);
    }
    assert_eq!(s.phase, Phase::Over);
    assert!(g.standings(&s).is_some());
}

#[test]
fn after_the_deck_ran_out_only_one_pool_card_may_be_taken_per_turn() {
    let g = game();
    let mut s = table(&g, 2);
    to_pool(&g, &mut s, &["Boston", "Albany"]);
    let rest: Vec<CardId> = s.draw.drain(..).collect();
    s.removed.extend(rest);
    s.ending = Some(Ending { trigger: 1, turns_left: Some(1) });
    let (a, b) = (s.pool[0], s.pool[1]);
    act(&g, &mut s, Action::DrawPool(a));
    assert_eq!(s.pool, [b], "not replaced");
    assert!(refused(&g, &s, Action::DrawPool(b)).contains("only one card"));
}
