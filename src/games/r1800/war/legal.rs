//! What a participant may do now: where a regiment may go ([`entry`]), the check of one war
//! action ([`check`]), every legal action ([`legal_war_actions`]) and the default of a silent
//! power ([`default_war_action`]). `check` is the one place the rules of an action live: the list
//! is the candidates it accepts.

use super::board::{MilitaryEffect, Owner, PowerId, ProvinceId, WarBoard, control, pops_of, provinces};
use super::state::{CardUse, WarAction, WarDeed, WarError, WarPhase, WarState};

/// What a regiment finds in the province it enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// No regiment: it takes control of the province.
    Free,
    /// The regiment of this enemy: a battle.
    Battle(PowerId),
}

fn name<B: WarBoard + ?Sized>(board: &B, p: ProvinceId) -> String {
    board.province_name(p).to_string()
}

fn owner_name<B: WarBoard + ?Sized>(board: &B, o: Owner) -> String {
    match o {
        Owner::Power(p) => board.power_name(p).to_string(),
        Owner::Neutral => "the neutrals".to_string(),
    }
}

/// Whether `power`'s regiment may enter `to`, and what it finds (rules, "Wars": "You may not
/// move a regiment onto a province with a regiment belonging to you or to a nation that is not
/// involved in the war. You may, however, move your regiment onto a province in which there is
/// one regiment belonging to another player involved in the war."; RULINGS E40, E43, E44).
pub fn entry<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    power: PowerId,
    to: ProvinceId,
) -> Result<Entry, String> {
    // RULING E44: one battle per province; nobody joins a battle already there.
    if phase.battle_at(to).is_some() {
        return Err(format!("a battle is already being fought in {}", name(board, to)));
    }
    // RULING E43: only a regiment bars the way; a province without one may be entered whoever
    // controls it by its pops.
    let Some(r) = board.regiment(to) else { return Ok(Entry::Free) };
    match r.owner {
        Owner::Power(p) if p == power => Err(format!("your own regiment stands in {}", name(board, to))),
        // RULING E40: any other power involved in the war may be attacked, whoever declared on whom.
        Owner::Power(p) if war.involved(p) => Ok(Entry::Battle(p)),
        Owner::Power(p) => Err(format!(
            "{}'s regiment holds {} and {} is not involved in the war",
            board.power_name(p),
            name(board, to),
            board.power_name(p)
        )),
        Owner::Neutral => Err(format!(
            "a neutral regiment holds {}; the neutrals are not involved in the war (only a Conquest removes it)",
            name(board, to)
        )),
    }
}

/// The power's regiment in `p` if it may move: its own, regular (a conscript cannot move), and not
/// fighting a battle (rules, "Wars").
pub fn movable<B: WarBoard + ?Sized>(
    board: &B,
    phase: &WarPhase,
    power: PowerId,
    p: ProvinceId,
) -> Result<(), String> {
    match board.regiment(p) {
        Some(r) if r.owner == Owner::Power(power) => {
            if r.conscripted.is_some() {
                Err(format!("the regiment in {} is conscripted and cannot move", name(board, p)))
            } else if phase.battle_at(p).is_some() {
                Err(format!("the regiment in {} is fighting a battle", name(board, p)))
            } else {
                Ok(())
            }
        }
        _ => Err(format!("you have no regiment in {}", name(board, p))),
    }
}

/// Regiment pieces the power has not got on the board or in a battle.
pub fn regiments_in_supply<B: WarBoard + ?Sized>(board: &B, phase: &WarPhase, power: PowerId) -> u8 {
    let mine = Owner::Power(power);
    let on_board = provinces(board).filter(|p| board.regiment(*p).is_some_and(|r| r.owner == mine)).count();
    let fighting = phase.battles.iter().filter(|b| b.regiment.owner == mine).count();
    board.regiment_limit(power).saturating_sub(u8::try_from(on_board + fighting).unwrap_or(u8::MAX))
}

/// Whether the power may raise a conscript in `at` (rules: "Place a regiment piece on top of one
/// of your pops"; RULING E46): one of its pops is there, no regiment (one a province), and it has
/// a piece left.
pub fn conscript_site<B: WarBoard + ?Sized>(
    board: &B,
    phase: &WarPhase,
    power: PowerId,
    at: ProvinceId,
) -> Result<(), String> {
    if pops_of(board, at, Owner::Power(power)) == 0 {
        return Err(format!("you have no pop in {}", name(board, at)));
    }
    if board.regiment(at).is_some() {
        return Err(format!("a regiment already stands in {}", name(board, at)));
    }
    if regiments_in_supply(board, phase, power) == 0 {
        return Err("all your regiment pieces are in use".to_string());
    }
    Ok(())
}

/// Whether the power may name `p` for a card (RULING E51): a province where its army could fight —
/// its regiment stands there or next to it, or it fights a battle there.
pub fn nameable<B: WarBoard + ?Sized>(board: &B, phase: &WarPhase, power: PowerId, p: ProvinceId) -> bool {
    let mine = |q: ProvinceId| board.regiment(q).is_some_and(|r| r.owner == Owner::Power(power));
    mine(p)
        || board.neighbours(p).iter().any(|q| mine(*q))
        || phase.battle_at(p).is_some_and(|b| b.attacker == power || b.defender == power)
}

/// Checks one war action against the rules; `Ok` means [`super::apply_war_action`] carries it out.
pub fn check<B: WarBoard + ?Sized>(board: &B, war: &WarState, action: &WarAction) -> Result<(), WarError> {
    let phase = war.phase.as_ref().ok_or(WarError::NoWar)?;
    let turn = war.to_act().ok_or(WarError::NoWar)?;
    if turn != action.power {
        return Err(WarError::NotYourTurn(board.power_name(turn).to_string()));
    }
    let power = action.power;
    match &action.deed {
        WarDeed::Pass => Ok(()),
        WarDeed::Move { from, to } => {
            movable(board, phase, power, *from).map_err(WarError::Move)?;
            if !board.neighbours(*from).contains(to) {
                return Err(WarError::Move(format!(
                    "{} is not next to {}",
                    name(board, *to),
                    name(board, *from)
                )));
            }
            entry(board, war, phase, power, *to).map(|_| ()).map_err(WarError::Move)
        }
        WarDeed::Conscript { at } => conscript_site(board, phase, power, *at).map_err(WarError::Conscript),
        // RULING E56: a military card is played only here, as a war action.
        WarDeed::Play { card, with } => {
            let Some(info) = board.military_cards().get(usize::from(card.0)) else {
                return Err(WarError::Card("there is no such military card".to_string()));
            };
            if !board.military_hand(power).contains(card) {
                return Err(WarError::Card(format!("you hold no {}", info.name)));
            }
            check_use(board, war, phase, power, info.effect, with).map_err(WarError::Card)
        }
    }
}

/// Whether `with` is a use the card's effect allows, here and now (FACTS §5.2; RULINGS E51–E55).
fn check_use<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    power: PowerId,
    effect: MilitaryEffect,
    with: &CardUse,
) -> Result<(), String> {
    let named = |p: ProvinceId| {
        if nameable(board, phase, power, p) {
            Ok(())
        } else {
            Err(format!("{} is not where your army can fight", name(board, p)))
        }
    };
    match (effect, with) {
        (MilitaryEffect::Bonus { scope: super::board::BonusScope::War, .. }, CardUse::Bonus { at: None }) => {
            Ok(())
        }
        (
            MilitaryEffect::Bonus { scope: super::board::BonusScope::Province, .. },
            CardUse::Bonus { at: Some(p) },
        ) => named(*p),
        (e, CardUse::Tradition) if e.is_tradition() => Ok(()),
        (MilitaryEffect::Reinforcements, CardUse::Reinforcements { at, to }) => {
            // RULING E53: raised in a province you control by your pops, then one step at most.
            if control(board, *at) != Some(Owner::Power(power)) {
                return Err(format!("you do not control {}", name(board, *at)));
            }
            conscript_site(board, phase, power, *at)?;
            match to {
                None => Ok(()),
                Some(to) if !board.neighbours(*at).contains(to) => {
                    Err(format!("{} is not next to {}", name(board, *to), name(board, *at)))
                }
                Some(to) => match entry(board, war, phase, power, *to)? {
                    Entry::Free => Ok(()),
                    Entry::Battle(_) => Err(format!("an enemy regiment stands in {}", name(board, *to))),
                },
            }
        }
        (MilitaryEffect::Repositioning { regiments }, CardUse::Repositioning { moves }) => {
            check_repositioning(board, war, phase, power, regiments, moves)
        }
        (MilitaryEffect::NavalSupport { .. }, CardUse::SeaMove { from, to }) => {
            // RULING E54: a sea move is a move by sea, and may attack like a move by land.
            movable(board, phase, power, *from)?;
            if !board.sea_route(*from, *to) {
                return Err(format!("no sea route from {} to {}", name(board, *from), name(board, *to)));
            }
            entry(board, war, phase, power, *to).map(|_| ())
        }
        (MilitaryEffect::NavalSupport { .. }, CardUse::NavalBonus { at }) => {
            if !board.is_coastal(*at) {
                return Err(format!("{} is not coastal", name(board, *at)));
            }
            named(*at)
        }
        _ => Err("that is not what the card does".to_string()),
    }
}

/// RULING E52: up to `most` of your regular regiments, each from a province without a battle to a
/// province without a regiment or battle that no enemy (another power involved in the war,
/// RULING E40) controls; all from the board as it stands (no chains).
fn check_repositioning<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    power: PowerId,
    most: u8,
    moves: &[(ProvinceId, ProvinceId)],
) -> Result<(), String> {
    if moves.is_empty() || moves.len() > usize::from(most) {
        return Err(format!("move one or {most} regiments"));
    }
    for (i, (from, to)) in moves.iter().enumerate() {
        movable(board, phase, power, *from)?;
        if moves[..i].iter().any(|(f, t)| f == from || t == to) {
            return Err("each regiment moves once, each to a province of its own".to_string());
        }
        if board.regiment(*to).is_some() || phase.battle_at(*to).is_some() {
            return Err(format!("{} is not empty", name(board, *to)));
        }
        let enemy = |o: &Owner| matches!(o, Owner::Power(p) if *p != power && war.involved(*p));
        if let Some(o) = control(board, *to).filter(enemy) {
            return Err(format!("{} is controlled by {}", name(board, *to), owner_name(board, o)));
        }
    }
    Ok(())
}

/// The candidate uses of a card with `effect` for `power` (what [`check_use`] then filters).
fn card_uses<B: WarBoard + ?Sized>(
    board: &B,
    war: &WarState,
    phase: &WarPhase,
    effect: MilitaryEffect,
    power: PowerId,
) -> Vec<CardUse> {
    let all: Vec<ProvinceId> = provinces(board).collect();
    let mine: Vec<ProvinceId> = all
        .iter()
        .copied()
        .filter(|p| board.regiment(*p).is_some_and(|r| r.owner == Owner::Power(power)))
        .collect();
    let named: Vec<ProvinceId> = all.iter().copied().filter(|p| nameable(board, phase, power, *p)).collect();
    match effect {
        MilitaryEffect::Bonus { scope: super::board::BonusScope::War, .. } => {
            vec![CardUse::Bonus { at: None }]
        }
        MilitaryEffect::Bonus { .. } => named.iter().map(|p| CardUse::Bonus { at: Some(*p) }).collect(),
        MilitaryEffect::MilitaryTradition { .. } | MilitaryEffect::NavalTradition { .. } => {
            vec![CardUse::Tradition]
        }
        MilitaryEffect::Reinforcements => all
            .iter()
            .filter(|at| control(board, **at) == Some(Owner::Power(power)) && board.regiment(**at).is_none())
            .flat_map(|at| {
                let steps = board.neighbours(*at).iter().map(|n| Some(*n));
                std::iter::once(None).chain(steps).map(|to| CardUse::Reinforcements { at: *at, to })
            })
            .collect(),
        MilitaryEffect::Repositioning { regiments } => {
            let singles: Vec<(ProvinceId, ProvinceId)> = mine
                .iter()
                .flat_map(|f| all.iter().map(move |t| (*f, *t)))
                .filter(|m| check_repositioning(board, war, phase, power, 1, &[*m]).is_ok())
                .collect();
            let mut uses: Vec<CardUse> =
                singles.iter().map(|m| CardUse::Repositioning { moves: vec![*m] }).collect();
            if regiments >= 2 {
                for (i, a) in singles.iter().enumerate() {
                    for b in &singles[i + 1..] {
                        if a.0 < b.0 && a.1 != b.1 {
                            uses.push(CardUse::Repositioning { moves: vec![*a, *b] });
                        }
                    }
                }
            }
            uses
        }
        MilitaryEffect::NavalSupport { .. } => {
            let sea =
                mine.iter().flat_map(|f| all.iter().map(move |t| CardUse::SeaMove { from: *f, to: *t }));
            sea.chain(named.iter().map(|p| CardUse::NavalBonus { at: *p })).collect()
        }
    }
}

/// Every action `power` may take now (empty when it is not its turn in a war phase).
pub fn legal_war_actions<B: WarBoard + ?Sized>(board: &B, war: &WarState, power: PowerId) -> Vec<WarAction> {
    let Some(phase) = war.phase.as_ref().filter(|_| war.to_act() == Some(power)) else {
        return Vec::new();
    };
    let act = |deed| WarAction { power, deed };
    let mut out = vec![act(WarDeed::Pass)];
    let mut candidates: Vec<WarDeed> = Vec::new();
    // Only the power's regiments move and only its pops are conscripted: the rest is not tried.
    let mine = Owner::Power(power);
    for p in provinces(board) {
        if board.regiment(p).is_some_and(|r| r.owner == mine) {
            candidates.extend(board.neighbours(p).iter().map(|to| WarDeed::Move { from: p, to: *to }));
        } else if pops_of(board, p, mine) > 0 {
            candidates.push(WarDeed::Conscript { at: p });
        }
    }
    let mut hand = board.military_hand(power);
    hand.sort();
    hand.dedup();
    for card in hand {
        if let Some(info) = board.military_cards().get(usize::from(card.0)) {
            candidates.extend(
                card_uses(board, war, phase, info.effect, power)
                    .into_iter()
                    .map(|with| WarDeed::Play { card, with }),
            );
        }
    }
    out.extend(candidates.into_iter().map(act).filter(|a| check(board, war, a).is_ok()));
    out
}

/// What a power that sent no war orders does: it passes every action (RULING E58).
pub fn default_war_action(power: PowerId) -> WarAction {
    WarAction { power, deed: WarDeed::Pass }
}
