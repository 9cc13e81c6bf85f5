//! Doing it: declarations, the start of the war phase, carrying out one war action, and the end
//! of the war (battles resolved, territory changes reported). Every
//! function checks first and changes nothing when it refuses.

use super::battle;
use super::board::{MilitaryEffect, Owner, PowerId, ProvinceId, WarBoard, control, provinces};
use super::legal::{Entry, check, entry};
use super::state::{
    Battle, Bonus, CardUse, Declaration, PlayedBonus, WarAction, WarCause, WarDeed, WarError, WarEvent,
    WarPhase, WarState,
};
use crate::engine::GameRng;

/// The powers `power` may declare war on with the Conquest ambition: those controlling a province
/// next to one it controls (FACTS §6.1), among `powers`.
pub fn conquest_targets<B: WarBoard + ?Sized>(board: &B, power: PowerId, powers: &[PowerId]) -> Vec<PowerId> {
    let mine = Some(Owner::Power(power));
    let mut out: Vec<PowerId> = provinces(board)
        .filter(|p| control(board, *p) == mine)
        .flat_map(|p| board.neighbours(p).iter().filter_map(|n| control(board, *n).and_then(Owner::power)))
        .filter(|t| *t != power && powers.contains(t))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Records a declaration of war for this round's war phase (FACTS §10.1; RULING E41).
pub fn declare_war<B: WarBoard + ?Sized>(
    board: &B,
    war: &mut WarState,
    d: Declaration,
    powers: &[PowerId],
) -> Result<Vec<WarEvent>, WarError> {
    if war.phase.is_some() {
        return Err(WarError::WarUnderWay);
    }
    let (a, t) = (board.power_name(d.declarer), board.power_name(d.target));
    if d.declarer == d.target || !powers.contains(&d.target) {
        return Err(WarError::Declaration(format!("{a} cannot declare war on {t}")));
    }
    if war.hostile(d.declarer, d.target) {
        return Err(WarError::Declaration(format!("{a} is already at war with {t} this round")));
    }
    if d.cause == WarCause::Conquest && !conquest_targets(board, d.declarer, powers).contains(&d.target) {
        return Err(WarError::Declaration(format!("{t} controls no province next to one of {a}'s")));
    }
    war.declarations.push(d);
    Ok(vec![WarEvent::public(format!("{a} declares war on {t} ({}).", d.cause.words()))])
}

/// The Great War: every power in play at war with every other this round (RULING E60).
pub fn great_war(war: &mut WarState, powers: &[PowerId]) -> Vec<WarEvent> {
    for (i, a) in powers.iter().enumerate() {
        for b in &powers[i + 1..] {
            if !war.hostile(*a, *b) {
                war.declarations.push(Declaration { declarer: *a, target: *b, cause: WarCause::GreatWar });
            }
        }
    }
    vec![WarEvent::public("The Great War: every power is at war with every other this round.")]
}

/// Starts the war phase after the players' turns: the powers in declarations act in `turn_order`
/// (from the dealer's left), each with its mobility in actions (rules, "Wars").
/// RULINGS E40, E42. No declarations: no war and no events.
pub fn begin_war<B: WarBoard + ?Sized>(
    board: &B,
    war: &mut WarState,
    turn_order: &[PowerId],
) -> Result<Vec<WarEvent>, WarError> {
    if war.phase.is_some() {
        return Err(WarError::WarUnderWay);
    }
    let order: Vec<PowerId> = turn_order.iter().copied().filter(|p| war.involved(*p)).collect();
    if order.is_empty() {
        war.declarations.clear();
        return Ok(Vec::new());
    }
    let actions_left: Vec<u8> = order.iter().map(|p| board.mobility(*p)).collect();
    let list: Vec<String> =
        order.iter().zip(&actions_left).map(|(p, n)| format!("{} ({n})", board.power_name(*p))).collect();
    let control_before = provinces(board).map(|p| control(board, p)).collect();
    let mut phase =
        WarPhase { order, actions_left, next: 0, battles: Vec::new(), bonuses: Vec::new(), control_before };
    let events = vec![WarEvent::public(format!(
        "War: {} act in this order, with the actions shown.",
        list.join(", ")
    ))];
    if phase.actions_left.iter().all(|n| *n == 0) {
        phase.next = phase.order.len();
    } else if phase.actions_left[0] == 0 {
        advance(&mut phase);
    }
    war.phase = Some(phase);
    Ok(events)
}

/// Moves the turn to the next participant with actions left (rules: one who has run out passes
/// while the others go on in the same order); past the end when nobody has any.
fn advance(phase: &mut WarPhase) {
    let n = phase.order.len();
    phase.next = (1..=n).map(|k| (phase.next + k) % n).find(|i| phase.actions_left[*i] > 0).unwrap_or(n);
}

/// Carries out one war action of the participant whose turn it is; after the last action of the
/// phase the battles are resolved and the war ends (see [`end_war`]).
pub fn apply_war_action<B: WarBoard + ?Sized>(
    board: &mut B,
    war: &mut WarState,
    action: &WarAction,
    rng: &mut GameRng,
) -> Result<Vec<WarEvent>, WarError> {
    check(board, war, action)?;
    let Some(mut phase) = war.phase.take() else { return Err(WarError::NoWar) };
    let mut events = act(board, war, &mut phase, action);
    if let Some(left) = phase.actions_left.get_mut(phase.next) {
        *left = left.saturating_sub(1);
    }
    advance(&mut phase);
    let over = phase.next >= phase.order.len();
    war.phase = Some(phase);
    if over {
        events.extend(end_war(board, war, rng));
    }
    Ok(events)
}

/// Moves a regiment from `from` into `to` (already checked): a battle if an enemy stands there.
fn move_regiment<B: WarBoard + ?Sized>(
    board: &mut B,
    war: &WarState,
    phase: &mut WarPhase,
    power: PowerId,
    from: ProvinceId,
    to: ProvinceId,
) -> String {
    let (f, t) = (board.province_name(from).to_string(), board.province_name(to).to_string());
    let Some(regiment) = board.regiment(from) else { return String::new() };
    board.set_regiment(from, None);
    match entry(board, war, phase, power, to) {
        Ok(Entry::Battle(defender)) => {
            // RULING E45: the attacker leaves its province now and fights in the other.
            phase.battles.push(Battle { at: to, attacker: power, defender, from, regiment });
            format!("attacks {}'s regiment in {t} from {f}", board.power_name(defender))
        }
        _ => {
            let before = control(board, to);
            board.set_regiment(to, Some(regiment));
            let taken = before.is_some_and(|o| o != Owner::Power(power));
            format!("moves a regiment from {f} to {t}{}", if taken { ", occupying it" } else { "" })
        }
    }
}

/// One action's effect, already checked.
fn act<B: WarBoard + ?Sized>(
    board: &mut B,
    war: &WarState,
    phase: &mut WarPhase,
    a: &WarAction,
) -> Vec<WarEvent> {
    let who = board.power_name(a.power).to_string();
    let text = match &a.deed {
        WarDeed::Pass => "passes".to_string(),
        WarDeed::Move { from, to } => move_regiment(board, war, phase, a.power, *from, *to),
        WarDeed::Conscript { at } => {
            conscript(board, a.power, *at, None);
            format!("conscripts a regiment in {}", board.province_name(*at))
        }
        WarDeed::Play { card, with } => {
            let Some(info) = board.military_cards().get(usize::from(card.0)).cloned() else {
                return Vec::new();
            };
            if info.effect.is_tradition() {
                board.play_tradition(a.power, *card);
            } else {
                board.discard_military(a.power, *card);
            }
            format!("plays {}{}", info.name, card_effect(board, war, phase, a.power, info.effect, with))
        }
    };
    vec![WarEvent::public(format!("{who} {text}."))]
}

/// Raises a conscript on the power's pop in `at`, standing in `stand` (or `at`).
fn conscript<B: WarBoard + ?Sized>(board: &mut B, power: PowerId, at: ProvinceId, stand: Option<ProvinceId>) {
    let regiment = super::board::Regiment { owner: Owner::Power(power), conscripted: Some(at) };
    board.set_regiment(stand.unwrap_or(at), Some(regiment));
}

/// A played card's effect; the words added to "plays <card>".
fn card_effect<B: WarBoard + ?Sized>(
    board: &mut B,
    war: &WarState,
    phase: &mut WarPhase,
    power: PowerId,
    effect: MilitaryEffect,
    with: &CardUse,
) -> String {
    let name = |b: &B, p: ProvinceId| b.province_name(p).to_string();
    let mut bonus = |bonus| phase.bonuses.push(PlayedBonus { power, bonus });
    match (effect, with) {
        (MilitaryEffect::Bonus { amount, .. }, CardUse::Bonus { at: None }) => {
            bonus(Bonus::War { amount });
            format!(": +{amount} in all its battles of this war")
        }
        (MilitaryEffect::Bonus { amount, .. }, CardUse::Bonus { at: Some(at) }) => {
            bonus(Bonus::Province { at: *at, amount });
            format!(" on {}: +{amount} in a battle there", name(board, *at))
        }
        (MilitaryEffect::NavalSupport { coastal, strait }, CardUse::NavalBonus { at }) => {
            bonus(Bonus::Naval { at: *at, coastal, strait });
            format!(" on {}: naval support there if its side has the larger navy", name(board, *at))
        }
        (_, CardUse::Tradition) => " into play for the rest of the game".to_string(),
        (_, CardUse::Reinforcements { at, to }) => {
            conscript(board, power, *at, *to);
            match to {
                Some(to) => {
                    format!(": a regiment conscripted in {} moves to {}", name(board, *at), name(board, *to))
                }
                None => format!(": a regiment conscripted in {}", name(board, *at)),
            }
        }
        (_, CardUse::Repositioning { moves }) => {
            let lifted: Vec<_> = moves.iter().map(|(from, to)| (board.regiment(*from), *from, *to)).collect();
            for (_, from, _) in &lifted {
                board.set_regiment(*from, None);
            }
            let mut said = Vec::new();
            for (r, from, to) in lifted {
                board.set_regiment(to, r);
                said.push(format!("{} to {}", name(board, from), name(board, to)));
            }
            format!(": regiments from {}", said.join(", "))
        }
        (_, CardUse::SeaMove { from, to }) => {
            format!(": by sea, {}", move_regiment(board, war, phase, power, *from, *to))
        }
        _ => String::new(),
    }
}

/// Ends the war phase: battles resolved, declarations cleared, and the provinces that changed
/// hands reported (FACTS §10.4–5; RULING E57: conscripts stay conscripted).
pub fn end_war<B: WarBoard + ?Sized>(board: &mut B, war: &mut WarState, rng: &mut GameRng) -> Vec<WarEvent> {
    let Some(phase) = war.phase.clone() else { return Vec::new() };
    let outcomes = battle::outcomes(board, war, &phase);
    let mut events = battle::resolve(board, war, &outcomes, rng);
    // RULING E57: a conscript is not sent home when the war ends; it stays on the board, unable
    // to move, its pop eating and producing nothing, until it is lost (rules, "Wars").
    let mut changes = Vec::new();
    for p in provinces(board) {
        let (before, after) = (phase.control_before.get(p.index()).copied().flatten(), control(board, p));
        if before == after {
            continue;
        }
        let words = |o: Option<Owner>| match o {
            Some(Owner::Power(x)) => board.power_name(x).to_string(),
            Some(Owner::Neutral) => "the neutrals".to_string(),
            None => "nobody".to_string(),
        };
        changes.push(format!("{} ({}, was {})", board.province_name(p), words(after), words(before)));
        if let Some(x) = after.and_then(Owner::power) {
            war.record_mut(x).provinces_taken += 1;
        }
    }
    for p in &phase.order {
        war.record_mut(*p).wars += 1;
    }
    events.push(WarEvent::public(if changes.is_empty() {
        "The war is over; no province changed hands.".to_string()
    } else {
        format!("The war is over. Provinces that changed hands: {}.", changes.join("; "))
    }));
    war.phase = None;
    war.declarations.clear();
    events
}
