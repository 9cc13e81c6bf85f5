//! The echo at submission (DESIGN "Orders and decisions"): each line says which decision it will
//! answer, and what the position already tells of it — a line for another phase (`MIGRATE`
//! outside a Migration round), an admin card the seat does not hold (judged after the lines
//! before it on the sheet), an upkeep without the policy, a deficit not in sight, a standing
//! answer for an event other than this round's. Names are checked when the line is read
//! (`names`: "did you mean …").

use super::super::R1800;
use super::super::board;
use super::super::data::{DevType, GlobalEvent};
use super::super::setup::event_is;
use super::super::state::*;
use super::{Kind, Order};
use crate::engine::Numbered;

impl R1800 {
    /// The advice on each line of a seat's sheet (RULING E97).
    pub(super) fn advise_lines(
        &self,
        s: &State,
        seat: usize,
        orders: &[Numbered<Order>],
    ) -> Vec<Option<String>> {
        if seat >= s.players.len() {
            return vec![None; orders.len()];
        }
        let mut hand = s.players[seat].admin.clone();
        orders
            .iter()
            .map(|o| {
                let subjects = self.subjects(&o.order.kind);
                let words: Vec<String> = subjects.iter().map(|x| x.words(self)).collect();
                let mut advice = format!("answers {}", words.join(" or "));
                if let Some(w) = self.line_warning(s, seat, &o.order.kind, &mut hand) {
                    advice.push_str(&format!("; {w}"));
                }
                Some(advice)
            })
            .collect()
    }

    /// What the position says against a line now, if anything (`hand`: the admin cards left
    /// after the lines before it).
    fn line_warning(&self, s: &State, seat: usize, k: &Kind, hand: &mut Vec<u8>) -> Option<String> {
        let d = self.data();
        match k {
            Kind::Migrate { .. } if !event_is(s, d, GlobalEvent::Migration) => Some(format!(
                "this round's event is not {}: the line will not be carried out",
                self.event_name(GlobalEvent::Migration)
            )),
            Kind::Play { card, .. } => match hand.iter().position(|c| c == card) {
                Some(i) => {
                    hand.remove(i);
                    None
                }
                None => Some(format!(
                    "you do not hold {} (or not as many as the lines before use)",
                    d.admin[usize::from(*card)].name
                )),
            },
            Kind::Upkeep(_) => {
                let policy = |slot| board::active_card(s, d, seat, DevType::Policy, slot);
                let upkeep =
                    policy(1).is_some_and(|c| c.command_economy) || policy(0).is_some_and(|c| c.republic);
                (!upkeep).then(|| "you have no Command Economy or Republic in force".to_string())
            }
            Kind::Deficit(Some(_)) => {
                let y = board::collection(s, d, seat);
                (y.food_use <= y.food_out).then(|| {
                    "no food deficit is in sight at your collection (it stands until withdrawn)".to_string()
                })
            }
            Kind::Event { event, answer: Some(_) } => {
                let this = s.event.and_then(|e| d.events.get(usize::from(e))).map(|e| e.effect);
                (this != Some(*event)).then(|| {
                    format!(
                        "a standing answer: it waits for {} (it stands until withdrawn)",
                        self.event_name(*event)
                    )
                })
            }
            Kind::If { then, otherwise, .. } => {
                // Neither branch is sure to be played: only a line for another phase is flagged.
                let other =
                    |k: &Kind| matches!(k, Kind::Migrate { .. }) && !event_is(s, d, GlobalEvent::Migration);
                (other(then) && otherwise.as_deref().is_none_or(other)).then(|| {
                    "this round's event is not Migration: the line will not be carried out".to_string()
                })
            }
            _ => None,
        }
    }
}
