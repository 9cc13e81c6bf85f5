//! The order builder of 1800 (issue 36): what a seat can order now, as lines of the order
//! language (`orders`). The seat whose decision it is gets that decision's legal actions, each
//! written as the line that orders it and kept only when a sheet of that one line is answered
//! with that very action now (never a line the rules' default would stand in for): its admin
//! cards with their targets and, at war, its war actions (`orders::lines`), the candidates capped
//! per group before they are answered. A seat whose pick comes later in the draft (or before the
//! draft begins) gets the face-up cards it may take. Only the seat's own hand and the table are
//! read.

use super::R1800;
use super::board;
use super::data::Data;
use super::state::{Action, Stage, State};
use super::war::{MilitaryEffect, PowerId, WarDeed};
use crate::engine::{Choices, Rules, Seat, carries_out_alone, carries_out_as};

/// At most this many candidate lines of one decision are answered (and so listed).
const SHOWN: usize = 16;
/// At most this many answers to an attack are answered (and so listed) before the rest.
const ATTACKS: usize = 4;

impl R1800 {
    // RULING E106: what the builder lists in 1800.
    /// What `seat` can order now (see [`crate::engine::Orders::choices`]).
    pub(super) fn choices_of(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(d) = self.next_decision(s) else { return Vec::new() };
        if d.seat == seat {
            let legal = self.legal_actions(s);
            // An attack on the power to act is answered by a standing answer's words too.
            let attacks = self.attack_lines(s, &legal);
            let mut tried = attacks.len();
            let mut lines: Vec<String> =
                attacks.into_iter().filter(|t| carries_out_alone(self, s, &d, t)).collect();
            let mut groups: Vec<(Group, usize)> = Vec::new();
            for a in legal {
                // The candidates are capped before they are answered (each answer costs).
                if tried >= SHOWN {
                    break;
                }
                let Some(text) = self.line_of(s, &a).filter(|t| !lines.contains(t)) else { continue };
                if let Some((g, cap)) = group(&a) {
                    match groups.iter_mut().find(|(x, _)| *x == g) {
                        Some((_, n)) if *n >= cap => continue,
                        Some((_, n)) => *n += 1,
                        None => groups.push((g, 1)),
                    }
                }
                tried += 1;
                if carries_out_as(self, s, &d, &text, &a) {
                    lines.push(text);
                }
            }
            return Choices::group(&d.prompt, lines);
        }
        let i = seat.index();
        let mut later = match &s.stage {
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
        };
        later.extend(self.standing_answers(s, seat));
        later
    }

    /// `WAR WHEN ATTACKED AT <province> CONSCRIPT` and `… PLAY <military card>` for each battle
    /// the power to act defends, with a conscript or a card the war lets it use now; at most
    /// [`ATTACKS`].
    fn attack_lines(&self, s: &State, legal: &[Action]) -> Vec<String> {
        let (Some(power), Some(phase)) = (s.war.to_act(), s.war.phase.as_ref()) else { return Vec::new() };
        let d = self.data();
        let (mut cards, mut conscript): (Vec<u8>, bool) = (Vec::new(), false);
        for a in legal {
            match a {
                Action::War(w) if matches!(w.deed, WarDeed::Conscript { .. }) => conscript = true,
                Action::War(w) => match &w.deed {
                    WarDeed::Play { card, .. } if !cards.contains(&card.0) => cards.push(card.0),
                    _ => {}
                },
                _ => {}
            }
        }
        let mut v: Vec<String> = Vec::new();
        for b in phase.battles.iter().filter(|b| b.defender == power) {
            let at = d.province_name(b.at.0);
            let answers = conscript.then(|| "CONSCRIPT".to_string()).into_iter();
            let plays = cards.iter().filter_map(|c| answer_name(d, *c)).map(|n| format!("PLAY {n}"));
            for w in answers.chain(plays) {
                let line = format!("WAR WHEN ATTACKED AT {at} {w}");
                if !v.contains(&line) {
                    v.push(line);
                }
            }
        }
        v.truncate(ATTACKS);
        v
    }

    /// RULING E106: a seat whose power this round's war draws in (a declaration names it), its
    /// decision not open now (the first group of the seat deciding is its decision's), gets the
    /// standing answers to an attack (war orders, `WHEN ATTACKED`): a conscript, and each
    /// military card of its own hand that answers a battle. They are checked against an attack
    /// when one comes.
    fn standing_answers(&self, s: &State, seat: Seat) -> Vec<Choices> {
        let Some(pl) = s.players.get(seat.index()).filter(|p| s.war.involved(PowerId(p.power))) else {
            return Vec::new();
        };
        let mut lines = vec!["WAR WHEN ATTACKED CONSCRIPT".to_string()];
        for name in pl.military.iter().filter_map(|c| answer_name(self.data(), *c)) {
            let line = format!("WAR WHEN ATTACKED PLAY {name}");
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
        Choices::group(
            "If a regiment of yours is attacked in this round's war (standing answers; add AT <province> to answer one battle only)",
            lines,
        )
    }
}

/// A military card's name where it may answer an attack (every card but Strategic
/// Repositioning, which `WHEN ATTACKED` does not read).
fn answer_name(d: &Data, card: u8) -> Option<&str> {
    let c = d.military_cards.get(usize::from(card))?;
    (!matches!(c.effect, MilitaryEffect::Repositioning { .. })).then_some(c.name.as_str())
}

/// A group of candidates capped together: its kind and subject.
type Group = (u8, u16);

/// The group of an action whose candidates are many (an admin card's targets, a regiment's
/// moves, a military card's uses, pop moves) and how many of it are answered; `None` for the
/// rest.
fn group(a: &Action) -> Option<(Group, usize)> {
    Some(match a {
        Action::Place { .. } => ((0, 0), 6),
        Action::Admin { card, .. } => ((1, u16::from(*card)), 3),
        Action::War(w) => match &w.deed {
            WarDeed::Move { from, .. } => ((2, from.0), 3),
            WarDeed::Conscript { .. } => ((3, 0), 3),
            WarDeed::Play { card, .. } => ((4, u16::from(card.0)), 3),
            WarDeed::Pass => return None,
        },
        Action::Migrate { .. } => ((5, 0), 4),
        Action::MovePop { .. } => ((6, 0), 4),
        Action::MoveRegiment { .. } => ((7, 0), 4),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::shared;
    use super::super::state::{Action, Piece, Stage, State};
    use super::super::war::WarDeed;
    use crate::engine::conformance::check_choices;
    use crate::engine::prelude::*;
    use crate::engine::{GameRng, Seat, SetupSpec, answer_alone};

    /// A 2-seat game at its start, changed by `change`.
    fn new(change: impl Fn(&mut State)) -> State {
        let g = shared().expect("the data loads");
        let spec = SetupSpec { seats: 2, options: serde_json::Value::Null };
        let mut s = g.setup(&spec, &mut GameRng::for_setup(7)).expect("set-up");
        change(&mut s);
        s
    }

    /// `s` played on, every seat silent (the engine's default), until `stop` holds.
    fn silent_until(mut s: State, stop: impl Fn(&State) -> bool) -> State {
        let g = shared().expect("the data loads");
        for n in 0..500 {
            if stop(&s) {
                return s;
            }
            let a = g.default_action(&s).expect("a default");
            g.apply(&mut s, &a, &mut GameRng::for_action(7, n)).expect("the default applies");
        }
        panic!("never reached: {:?}", s.stage)
    }

    /// Each listed line of the decision now, with the action a sheet of it alone is answered with.
    fn answered(s: &State) -> Vec<(String, Option<Action>)> {
        let g = shared().expect("the data loads");
        let d = g.next_decision(s).expect("a decision");
        let now = g.choices(s, d.seat);
        let lines = now.first().map(|c| c.lines.clone()).unwrap_or_default();
        lines.into_iter().map(|l| (l.clone(), answer_alone(g, s, &d, &l).and_then(|a| a.action))).collect()
    }

    #[test]
    fn an_admin_card_in_hand_is_listed_with_its_targets_and_each_line_plays_it_so() {
        let g = shared().expect("the data loads");
        let d = g.data();
        let hand: Vec<u8> = ["Establish Trade Route", "Urbanization"]
            .iter()
            .map(|n| d.admin_named(n).expect("an admin card"))
            .collect();
        let s = silent_until(new(|s| s.players[0].admin = hand.clone()), |s| {
            matches!(s.stage, Stage::Turn { end_moves: false, .. }) && s.pending.is_empty()
        });
        let seat = g.next_decision(&s).expect("a turn").seat;
        assert_eq!(seat, Seat(1));
        let got = answered(&s);
        let legal = g.legal_actions(&s);
        for card in &hand {
            let name = &d.admin[usize::from(*card)].name;
            assert!(
                legal.iter().any(|a| matches!(a, Action::Admin { card: c, .. } if c == card)),
                "{name} playable"
            );
            let plays: Vec<_> = got.iter().filter(|(l, _)| l.starts_with(&format!("PLAY {name} "))).collect();
            assert!(!plays.is_empty(), "{name} with a target: {got:?}");
            for (line, action) in plays {
                assert!(
                    matches!(action, Some(Action::Admin { card: c, .. }) if c == card)
                        && legal.contains(action.as_ref().expect("an action")),
                    "{line}: {action:?}"
                );
            }
        }
        let other = g.choices(&s, Seat(2));
        assert!(
            other.iter().flat_map(|c| &c.lines).all(|l| !l.starts_with("PLAY ")),
            "another seat's hand is not listed: {other:?}"
        );
        check_choices(g, &s, 2, 7, 0).expect("every line read, carried out now, and known to its seat");
    }

    #[test]
    fn a_power_at_war_is_listed_its_moves_conscripts_and_pass_and_each_line_is_that_war_action() {
        let g = shared().expect("the data loads");
        let d = g.data();
        let conquest = d.ambitions.iter().position(|a| a.name == "Conquest").expect("Conquest") as u8;
        let s = new(|s| s.players[0].ambition = conquest);
        let declares = |s: &State| g.legal_actions(s).iter().any(|a| matches!(a, Action::Declare(_)));
        let mut s = silent_until(s, declares);
        let war = g.legal_actions(&s).into_iter().find(|a| matches!(a, Action::Declare(_))).expect("war");
        g.apply(&mut s, &war, &mut GameRng::for_action(7, 999)).expect("declared");
        let mut s = silent_until(s, |s| s.stage == Stage::War && s.war.to_act().is_some());
        // A regiment of the power to act where it may conscript: it may move.
        let power = s.war.to_act().expect("a power at war").0;
        let at = g.legal_actions(&s).into_iter().find_map(|a| match a {
            Action::War(w) => match w.deed {
                WarDeed::Conscript { at } => Some(at.0),
                _ => None,
            },
            _ => None,
        });
        s.provinces[usize::from(at.expect("a province to conscript in"))].regiment =
            Some(Piece { owner: Some(power), conscripted: None });
        let got = answered(&s);
        let legal = g.legal_actions(&s);
        for (word, deed) in [("WAR MOVE ", 0), ("WAR CONSCRIPT ", 1), ("WAR PASS", 2)] {
            let is = |a: &Action| match a {
                Action::War(w) => matches!(
                    (&w.deed, deed),
                    (WarDeed::Move { .. }, 0) | (WarDeed::Conscript { .. }, 1) | (WarDeed::Pass, 2)
                ),
                _ => false,
            };
            if !legal.iter().any(is) {
                continue;
            }
            let lines: Vec<_> = got.iter().filter(|(l, _)| l.starts_with(word)).collect();
            assert!(!lines.is_empty(), "{word}: {got:?}");
            assert!(
                lines.iter().all(|(_, a)| a.as_ref().is_some_and(|a| is(a) && legal.contains(a))),
                "{lines:?}"
            );
        }
        assert!(got.iter().any(|(l, _)| l.starts_with("WAR MOVE ")), "a regiment to move: {got:?}");
        check_choices(g, &s, 2, 7, 0).expect("every line read, carried out now, and known to its seat");
    }

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
