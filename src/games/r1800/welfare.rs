//! Two cards that offer something else at a building or a birth (FACTS §4.1, §4.3):
//! *Corporations* lets a factory be taken as 1 prosperity and 1 commerce on a Stock Exchange;
//! *Hospitals* turns commerce held on it into prosperity or one more pop when the food
//! technology makes a pop grow (RULING E78).

use super::R1800;
use super::board;
use super::data::{DevType, HoldEffect};
use super::state::*;

impl R1800 {
    /// With Corporations in force, a factory to build may be taken instead as 1 prosperity and
    /// 1 commerce on one of the seat's Stock Exchanges with a free square (or the prosperity
    /// alone when none has one).
    pub(super) fn corporate_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let d = self.data();
        if !board::active_card(s, d, seat, DevType::Policy, 2).is_some_and(|c| c.corporate) {
            return Vec::new();
        }
        let v: Vec<Action> = (0..s.players[seat].cards.len())
            .filter(|&i| {
                let h = &s.players[seat].cards[i];
                let c = &d.dev[usize::from(h.card)];
                c.hold_effect == Some(HoldEffect::StockExchange) && h.res[C] < c.slots[C]
            })
            .map(|i| Action::Incorporate(Some(i as u8)))
            .collect();
        if v.is_empty() { vec![Action::Incorporate(None)] } else { v }
    }

    /// Corporations chosen instead of a factory (checked by the caller); the event's words.
    pub(super) fn incorporate(&self, s: &mut State, seat: usize, se: Option<u8>) -> String {
        self.gain_prosperity(s, seat, 1);
        let name = self.power_name(s, seat);
        match se {
            Some(i) => {
                s.players[seat].cards[usize::from(i)].res[C] += 1;
                format!(
                    "{name}'s corporations take 1 prosperity and 1 C on a Stock Exchange instead of a factory."
                )
            }
            None => format!("{name}'s corporations take 1 prosperity instead of a factory."),
        }
    }

    /// Hospitals at pop growth: each card holding 3 C may give 1 prosperity, each holding 2 C
    /// one more pop (RULING E78: one use at each growth).
    pub(super) fn hospital_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let d = self.data();
        let mut v = Vec::new();
        for (i, h) in s.players[seat].cards.iter().enumerate() {
            if d.dev[usize::from(h.card)].hold_effect != Some(HoldEffect::Hospitals) {
                continue;
            }
            if h.res[C] >= 3 {
                v.push(Action::Heal { card: i as u8, pop: false });
            }
            if h.res[C] >= 2 {
                v.push(Action::Heal { card: i as u8, pop: true });
            }
        }
        v
    }

    /// A Hospitals used (checked by the caller); the event's words.
    pub(super) fn heal(&self, s: &mut State, seat: usize, card: u8, pop: bool) -> String {
        let name = self.power_name(s, seat);
        let h = &mut s.players[seat].cards[usize::from(card)];
        if pop {
            h.res[C] -= 2;
            s.pending.insert(0, Pending { seat: seat as u8, choice: Choice::Pop });
            format!("{name}'s hospitals let one more pop grow.")
        } else {
            h.res[C] -= 3;
            self.gain_prosperity(s, seat, 1);
            format!("{name}'s hospitals give 1 prosperity.")
        }
    }
}
