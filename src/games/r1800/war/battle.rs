//! Battles (rules, "Wars", resolution steps 1–3): each side's score (supporting regiments,
//! military technology, military cards, traditions, naval superiority), the winner with the tie
//! rules, and carrying out the results — the loser's regiment (and a conscript's pop) removed and
//! a military card drawn.

use super::board::{MilitaryEffect, Owner, PowerId, ProvinceId, WarBoard, pops_of};
use super::state::{Battle, Bonus, WarEvent, WarPhase, WarState};
use crate::engine::GameRng;

/// One side's battle score and what it is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    pub power: PowerId,
    /// Supporting regiments (RULING E47).
    pub support: u8,
    /// The military technology's bonus.
    pub technology: u8,
    /// Military cards played this war, traditions in play and naval superiority.
    pub cards: u8,
    /// The power's pops in the province (the first tie-break).
    pub pops: u8,
}

impl Score {
    /// The battle score.
    pub fn total(&self) -> u16 {
        u16::from(self.support) + u16::from(self.technology) + u16::from(self.cards)
    }
}

/// How a battle came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub battle: Battle,
    pub attacker: Score,
    pub defender: Score,
    pub attacker_wins: bool,
    /// How a tie was broken, if the scores were equal.
    pub tie: Option<TieBreak>,
}

/// What broke a tie of battle scores (rules, resolution step 2; RULING E48).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieBreak {
    Pops,
    ActedFirst,
}

/// Provinces of the other battles `power` fights in besides the one in `at`.
fn other_battles(phase: &WarPhase, power: PowerId, at: ProvinceId) -> Vec<ProvinceId> {
    let fights = |b: &&Battle| b.at != at && (b.attacker == power || b.defender == power);
    phase.battles.iter().filter(fights).map(|b| b.at).collect()
}

/// The power's regiments supporting the battle in `at` (RULING E47): its regiments next to the
/// battle, not fighting one themselves, and next to no other battle of its own.
pub fn supporters<B: WarBoard + ?Sized>(
    board: &B,
    phase: &WarPhase,
    power: PowerId,
    at: ProvinceId,
) -> Vec<ProvinceId> {
    let others = other_battles(phase, power, at);
    board
        .neighbours(at)
        .iter()
        .copied()
        .filter(|n| board.regiment(*n).is_some_and(|r| r.owner == Owner::Power(power)))
        .filter(|n| phase.battle_at(*n).is_none())
        .filter(|n| !others.iter().any(|o| board.neighbours(*n).contains(o)))
        .collect()
}

/// The total navy of `side`'s coalition against `enemy`: the side and every participant at war
/// with the enemy but not with the side (FACTS §10.1; RULING E54).
fn coalition_navy<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    side: PowerId,
    enemy: PowerId,
) -> u16 {
    phase
        .order
        .iter()
        .filter(|p| **p == side || (war.hostile(**p, enemy) && !war.hostile(**p, side)))
        .map(|p| u16::from(board.navy(*p)))
        .sum()
}

/// The card part of a side's score: bonuses played this war and traditions in play.
/// RULINGS E54, E55.
fn card_bonus<B: WarBoard + ?Sized>(
    board: &B,
    phase: &WarPhase,
    side: PowerId,
    at: ProvinceId,
    naval: bool,
    strait: bool,
) -> u8 {
    let coastal = board.is_coastal(at);
    let played = phase.bonuses.iter().filter(|b| b.power == side).map(|b| match b.bonus {
        Bonus::War { amount } => amount,
        Bonus::Province { at: p, amount } if p == at => amount,
        Bonus::Naval { at: p, coastal: c, strait: s } if p == at && naval => {
            if strait {
                s
            } else if coastal {
                c
            } else {
                0
            }
        }
        _ => 0,
    });
    let tradition = board.tradition(side).and_then(|c| board.military_cards().get(usize::from(c.0))).map(
        |card| match card.effect {
            MilitaryEffect::MilitaryTradition { amount } => amount,
            MilitaryEffect::NavalTradition { coastal: c, strait: s } if naval && coastal => {
                c.saturating_add(if strait { s } else { 0 })
            }
            _ => 0,
        },
    );
    played.chain(tradition).fold(0u8, u8::saturating_add)
}

/// Scores the battle `b` as the board stands now.
pub fn score_battle<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    b: &Battle,
) -> (Score, Score) {
    let support_a = supporters(board, phase, b.attacker, b.at);
    let support_d = supporters(board, phase, b.defender, b.at);
    let strait = support_a.iter().chain(&support_d).any(|n| board.is_strait(*n, b.at));
    let navy_a = coalition_navy(board, war, phase, b.attacker, b.defender);
    let navy_d = coalition_navy(board, war, phase, b.defender, b.attacker);
    let side = |power: PowerId, support: usize, naval: bool| Score {
        power,
        support: u8::try_from(support).unwrap_or(u8::MAX),
        technology: board.military_bonus(power),
        cards: card_bonus(board, phase, power, b.at, naval, strait),
        pops: pops_of(board, b.at, Owner::Power(power)),
    };
    (side(b.attacker, support_a.len(), navy_a > navy_d), side(b.defender, support_d.len(), navy_d > navy_a))
}

/// Decides every battle of the phase on the board as it stands (all scores before any loss:
/// RULING E47).
pub fn outcomes<B: WarBoard + ?Sized>(board: &B, war: &WarState, phase: &WarPhase) -> Vec<Outcome> {
    phase
        .battles
        .iter()
        .map(|b| {
            let (a, d) = score_battle(board, war, phase, b);
            let first = |p: PowerId| phase.position(p).unwrap_or(usize::MAX);
            // Rules, step 2; RULING E48 (FACTS Q20a): score, then pops there, then acting first.
            let (attacker_wins, tie) = if a.total() != d.total() {
                (a.total() > d.total(), None)
            } else if a.pops != d.pops {
                (a.pops > d.pops, Some(TieBreak::Pops))
            } else {
                (first(b.attacker) < first(b.defender), Some(TieBreak::ActedFirst))
            };
            Outcome { battle: *b, attacker: a, defender: d, attacker_wins, tie }
        })
        .collect()
}

fn describe<B: WarBoard + ?Sized>(board: &B, s: &Score) -> String {
    format!(
        "{} {} ({} supporting, {} from military technology, {} from cards)",
        board.power_name(s.power),
        s.total(),
        s.support,
        s.technology,
        s.cards
    )
}

/// Carries out the outcomes: the winner holds the province, the loser's regiment goes (with its
/// pop if it was conscripted) and the loser draws a military card (rules, step 3).
/// RULINGS E49, E50.
pub fn resolve<B: WarBoard + ?Sized>(
    board: &mut B,
    war: &mut WarState,
    outcomes: &[Outcome],
    rng: &mut GameRng,
) -> Vec<WarEvent> {
    let mut events = Vec::new();
    for o in outcomes {
        let b = &o.battle;
        let (winner, loser) =
            if o.attacker_wins { (&o.attacker, &o.defender) } else { (&o.defender, &o.attacker) };
        let place = board.province_name(b.at).to_string();
        let tie = match o.tie {
            None => String::new(),
            Some(TieBreak::Pops) => " on a tie, having more pops there".to_string(),
            Some(TieBreak::ActedFirst) => " on a tie, having acted first in the war".to_string(),
        };
        let lost = if o.attacker_wins {
            let defender = board.regiment(b.at).filter(|r| r.owner == Owner::Power(b.defender));
            board.set_regiment(b.at, Some(b.regiment));
            defender
        } else {
            Some(b.regiment)
        };
        let mut text = format!(
            "Battle of {place}: {} against {}; {} wins{tie}.",
            describe(board, &o.attacker),
            describe(board, &o.defender),
            board.power_name(winner.power)
        );
        let loser_name = board.power_name(loser.power).to_string();
        text.push_str(&format!(" {loser_name}'s regiment is removed"));
        // RULING E49: a conscript's pop goes with it, from where it was raised.
        if let Some(home) = lost.and_then(|r| r.conscripted)
            && board.remove_pop(home, Owner::Power(loser.power))
        {
            text.push_str(&format!(" with the pop conscripted in {}", board.province_name(home)));
        }
        let drawn = board.draw_military(loser.power, rng);
        let mut event = WarEvent::public(match drawn {
            Some(_) => format!("{text}; {loser_name} draws a military card."),
            None => format!("{text}; no military card is left for {loser_name} to draw."),
        });
        if let Some(card) = drawn.and_then(|c| board.military_cards().get(usize::from(c.0))) {
            event.secret = Some((loser.power, format!("you drew {}", card.name)));
        }
        events.push(event);
        war.record_mut(winner.power).battles_won += 1;
        war.record_mut(loser.power).battles_lost += 1;
    }
    events
}
