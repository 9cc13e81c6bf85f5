//! The end of the game (FACTS §7.4): each seat's score is its prosperity plus its national
//! ambition's victory points; ties are broken by prosperity, then pops, then provinces
//! controlled, and are otherwise shared (RULING E24).

use super::R1800;
use super::board;
use super::data::{Ambition, DevType, HoldEffect};
use super::state::*;
use crate::engine::{Event, Scoring, Seat, Standing};

/// One seat's final reckoning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub ambition: u32,
    pub total: u32,
    /// The tie-break key, best highest: prosperity, pops, provinces.
    pub key: (u32, u32, u32, u32),
}

impl R1800 {
    /// The victory points of the seat's ambition (FACTS §6.1).
    pub fn ambition_points(&self, s: &State, seat: usize) -> u32 {
        let d = self.data();
        let pl = &s.players[seat];
        let me = usize::from(pl.power);
        let named = |n: &str| board::owned(s, d, seat, |c| c.name == n);
        let held = |h: HoldEffect| -> u32 {
            pl.cards
                .iter()
                .filter(|x| d.dev[usize::from(x.card)].hold_effect == Some(h))
                .map(|x| u32::from(x.res[C]))
                .sum()
        };
        match d.ambitions[usize::from(pl.ambition)].score {
            // RULING E18: "all technologies of a type" = holding its Era III technology.
            Ambition::Science => {
                let top = (0..5)
                    .filter(|&slot| {
                        board::active_card(s, d, seat, DevType::Technology, slot)
                            .is_some_and(|c| c.level == 3)
                    })
                    .count() as u32;
                2 * named("Research Institution") + top
            }
            Ambition::Culture => 2 * (named("Artists' Society") + named("Great Works")),
            Ambition::Conquest => board::provinces_controlled(s, seat).saturating_sub(6),
            Ambition::Wealth => held(HoldEffect::Financial) + held(HoldEffect::StockExchange),
            Ambition::Growth => s.pops_of(me).saturating_sub(12) / 3,
            Ambition::Welfare => {
                let rich = u32::from(pl.prosperity) > s.pops_of(me);
                named("Public Schools") + named("Hospitals") + if rich { 2 } else { 0 }
            }
            Ambition::Industry => board::factories_controlled(s, seat).saturating_sub(4),
            Ambition::Commerce => 2 * board::monopolies(s, seat) + pl.european.len() as u32,
        }
    }

    /// The seat's score and tie-break key.
    pub fn score(&self, s: &State, seat: usize) -> Score {
        let ambition = self.ambition_points(s, seat);
        let prosperity = u32::from(s.players[seat].prosperity);
        let me = usize::from(s.players[seat].power);
        let total = prosperity + ambition;
        Score {
            ambition,
            total,
            key: (total, prosperity, s.pops_of(me), board::provinces_controlled(s, seat)),
        }
    }

    /// The events revealing ambitions and scores at the end.
    pub(super) fn final_scores(&self, s: &State) -> Vec<Event> {
        let d = self.data();
        (0..s.players.len())
            .map(|i| {
                let sc = self.score(s, i);
                Event::public(format!(
                    "{} reveals {} ({} points): prosperity {} + {} = {}.",
                    self.power_name(s, i),
                    d.ambitions[usize::from(s.players[i].ambition)].name,
                    sc.ambition,
                    s.players[i].prosperity,
                    sc.ambition,
                    sc.total
                ))
            })
            .collect()
    }
}

impl Scoring for R1800 {
    /// Final standings once the game is over, best first; equal keys share a place.
    fn standings(&self, s: &State) -> Option<Vec<Standing>> {
        if !s.over() {
            return None;
        }
        let mut rows: Vec<(usize, Score)> = (0..s.players.len()).map(|i| (i, self.score(s, i))).collect();
        rows.sort_by(|a, b| b.1.key.cmp(&a.1.key).then(a.0.cmp(&b.0)));
        let mut out = Vec::new();
        for (k, (seat, sc)) in rows.iter().enumerate() {
            let place = match out.last() {
                Some(Standing { place, .. }) if rows[k - 1].1.key == sc.key => *place,
                _ => (k + 1) as u8,
            };
            out.push(Standing {
                seat: Seat::from_index(*seat),
                place,
                score: format!(
                    "{} points (prosperity {}, ambition {})",
                    sc.total, s.players[*seat].prosperity, sc.ambition
                ),
            });
        }
        Some(out)
    }
}
