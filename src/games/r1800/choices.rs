//! The order builder of 1800 (issue 36): what a seat can order now, as lines of the order
//! language (`orders`). The seat whose decision it is gets that decision's legal actions, each
//! written as the line that orders it and kept only when a sheet of that one line is answered
//! with that very action now (never a line the rules' default would stand in for); admin cards'
//! many targets and the war's moves are left to the order guide. A seat whose pick comes later
//! in the draft (or before the draft begins) gets the face-up cards it may take. Only the seat's own hand and the table are
//! read.

use super::R1800;
use super::board;
use super::state::{Action, Stage, State};
use crate::engine::{Choices, Rules, Seat, carries_out_as};

/// At most this many lines of one decision are listed.
const SHOWN: usize = 16;

impl R1800 {
    // RULING E106: what the builder lists in 1800.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]).
    pub(super) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(d) = self.next_decision(s) else { return Vec::new() };
        if d.seat == seat {
            let mut lines: Vec<String> = Vec::new();
            for a in self.legal_actions(s) {
                if lines.len() >= SHOWN {
                    break;
                }
                if let Some(text) = self.line_of(s, &a)
                    && !lines.contains(&text)
                    && carries_out_as(self, s, &d, &text, &a)
                {
                    lines.push(text);
                }
            }
            return Choices::group(&d.prompt, lines);
        }
        let i = seat.index();
        match &s.stage {
            Stage::Draft { to_pick } if !to_pick.iter().any(|p| usize::from(*p) == i) => Vec::new(),
            Stage::Draft { .. } | Stage::Call { .. } => {
                let data = self.data();
                let mut lines: Vec<String> = s
                    .offer
                    .iter()
                    .filter(|c| board::may_take(s, data, i, **c))
                    .map(|c| format!("DRAFT {}", data.dev_name(*c)))
                    .collect();
                lines.dedup();
                lines.push("DRAFT PASS".into());
                Choices::group(
                    "The draft: your pick when it comes (the first card of a DRAFT list still offered)",
                    lines,
                )
            }
            _ => Vec::new(),
        }
    }

    /// The order line for one legal action, `None` for an action the builder leaves to the guide
    /// (admin cards' targets, the war, the end of a step).
    fn line_of(&self, s: &State, a: &Action) -> Option<String> {
        let d = self.data();
        let p = |x: u16| d.province_name(x).to_string();
        let res = ["F", "P", "C"];
        Some(match a {
            Action::Pick(k) => format!("DRAFT {}", d.dev_name(*s.offer.get(usize::from(*k))?)),
            Action::PassPick => "DRAFT PASS".into(),
            Action::Place { card, res: r } => format!("PLACE {} ON #{}", res.get(usize::from(*r))?, card + 1),
            Action::Activate { card, discard } if discard.is_empty() => format!("ACTIVATE #{}", card + 1),
            Action::Activate { card, discard } => {
                let names: Vec<&str> = discard
                    .iter()
                    .filter_map(|c| d.admin.get(usize::from(*c)).map(|x| x.name.as_str()))
                    .collect();
                format!("ACTIVATE #{} DISCARD {}", card + 1, names.join(", "))
            }
            Action::Migrate { from, to } => format!("MIGRATE {} TO {}", p(*from), p(*to)),
            Action::MovePop { from, to } => format!("MOVE POP {} TO {}", p(*from), p(*to)),
            Action::MoveRegiment { from, to } => format!("MOVE REGIMENT {} TO {}", p(*from), p(*to)),
            Action::Build(x) => format!("BUILD {}", p(*x)),
            Action::Grow(x) => format!("GROW {}", p(*x)),
            Action::Recruit(x) => format!("RECRUIT {}", p(*x)),
            Action::Tech(c) => format!("TECH {}", d.dev_name(*c)),
            Action::Feed => "DEFICIT PAY".into(),
            Action::Sacrifice(x) => format!("DEFICIT SACRIFICE {}", p(*x)),
            Action::DiscardAdmin(c) => format!("UPKEEP DISCARD {}", d.admin.get(usize::from(*c))?.name),
            Action::DiscardMilitary(c) => {
                format!("DISCARD MILITARY {}", d.military.get(usize::from(*c))?.name)
            }
            Action::Skip if matches!(s.stage, Stage::Call { .. }) => "DECLINE ACCELERATE".into(),
            Action::Skip if matches!(s.stage, Stage::Reprisal { .. }) => "DECLINE RETALIATE".into(),
            Action::Admin { card, .. } if matches!(s.stage, Stage::Call { .. }) => {
                format!("PLAY {}", d.admin.get(usize::from(*card))?.name)
            }
            Action::Retaliate(w) => format!("RETALIATE ON {}", d.powers.get(usize::from(*w))?.name),
            Action::Declare(w) => format!("DECLARE WAR ON {}", d.powers.get(usize::from(*w))?.name),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::shared;
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;
    use crate::engine::{Seat, SetupSpec};

    #[test]
    fn before_and_in_the_draft_each_seat_is_offered_the_cards_it_may_take() {
        let g = shared().expect("the data loads");
        let s = crate::engine::log::setup(g, &SetupSpec { seats: 4, options: serde_json::Value::Null }, 7)
            .expect("set-up");
        let all: Vec<_> = Seat::all(4).into_iter().map(|seat| g.choices(&s, seat)).collect();
        assert!(
            all.iter().flatten().flat_map(|c| &c.lines).any(|l| l.starts_with("DRAFT ") && l != "DRAFT PASS"),
            "a card to draft: {all:?}"
        );
        check_choices(g, &s, 4, 7, 0).expect("every line read, carried out now, and known to its seat");
    }
}
