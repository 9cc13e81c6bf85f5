//! Paying an admin card's prosperity cost otherwise, when it cannot be paid (FACTS §4.1: an
//! Oligarchy pays 1 commerce; a Police State at prosperity 0 discards a military card; FACTS §5.1:
//! a Propaganda Campaign may be discarded instead). RULING E77. Also a cost paid in military
//! cards (Police State's activation alone, RULING E83).

use super::R1800;
use super::board;
use super::data::{DevType, Instead};
use super::state::*;

impl R1800 {
    /// The ways the seat may pay the prosperity cost of admin card `card`, which it cannot pay:
    /// what its government allows, and every other substitute card in its hand.
    pub(super) fn substitutes(&self, s: &State, seat: usize, card: u8) -> Vec<Substitute> {
        let d = self.data();
        let pl = &s.players[seat];
        let mut v = Vec::new();
        match board::active_card(s, d, seat, DevType::Policy, 0).and_then(|c| c.instead) {
            Some(Instead::Commerce) => v.extend(
                (0..pl.cards.len() as u8)
                    .filter(|&i| self.pays_commerce(s, seat, i))
                    .map(Substitute::Commerce),
            ),
            Some(Instead::Military) if pl.prosperity == 0 => {
                let mut hand = pl.military.clone();
                hand.dedup();
                v.extend(hand.into_iter().map(Substitute::Military));
            }
            _ => {}
        }
        let mut rest = pl.admin.clone();
        if let Some(i) = rest.iter().position(|x| *x == card) {
            rest.remove(i);
        }
        rest.dedup();
        v.extend(rest.into_iter().filter(|k| d.admin[usize::from(*k)].substitute).map(Substitute::Discard));
        v
    }

    /// Pays a substitute (checked); the words for the event.
    pub(super) fn pay_instead(&self, s: &mut State, seat: usize, x: Substitute) -> String {
        let d = self.data();
        let pl = &mut s.players[seat];
        match x {
            Substitute::Commerce(i) => {
                pl.cards[usize::from(i)].res[C] -= 1;
                format!("1 C from {}", d.dev_name(pl.cards[usize::from(i)].card))
            }
            Substitute::Military(k) => {
                if let Some(i) = pl.military.iter().position(|c| *c == k) {
                    pl.military.remove(i);
                    s.military_discard.push(k);
                }
                format!("discarding {}", d.military[usize::from(k)].name)
            }
            Substitute::Discard(k) => {
                if let Some(i) = pl.admin.iter().position(|c| *c == k) {
                    pl.admin.remove(i);
                    s.admin_discard.push(k);
                }
                format!("discarding {}", d.admin[usize::from(k)].name)
            }
        }
    }

    /// Moves military cards from a hand to the face-up discard pile; the words for the event.
    pub(super) fn discard_military(&self, s: &mut State, seat: usize, cards: &[u8]) -> String {
        let d = self.data();
        to_discard(&mut s.players[seat].military, &mut s.military_discard, cards);
        let names: Vec<&str> = cards.iter().map(|c| d.military[usize::from(*c)].name.as_str()).collect();
        if names.is_empty() { String::new() } else { format!(", discarding {}", names.join(" and ")) }
    }
}

/// Moves `cards` from a hand to its face-up discard pile (each one the hand holds).
pub(super) fn to_discard(hand: &mut Vec<u8>, pile: &mut Vec<u8>, cards: &[u8]) {
    for c in cards {
        if let Some(i) = hand.iter().position(|x| x == c) {
            hand.remove(i);
            pile.push(*c);
        }
    }
}
