//! Property tests: random wars on the test map (random regiments, pops, hands, technologies and
//! declarations, random legal actions until the war ends) keep the war's invariants — military
//! cards are conserved, regiment pieces never run below zero, control follows the rules, only
//! conscripts' pops are lost, powers outside the war are untouched, every listed action is
//! accepted, a refusal changes nothing, the war ends within its actions, and a war replays the
//! same from the same seed.

use super::board::{MilitaryCardId, Owner, Regiment, WarBoard, control, provinces};
use super::testboard::*;
use super::*;
use crate::engine::{GameRng, Pick};
use proptest::prelude::*;

const POWERS: [PowerId; 4] = [PRUSSIA, FRANCE, AUSTRIA, BRITAIN];

/// A random position and this round's declarations.
fn position(pick: &mut Pick) -> (TestBoard, WarState) {
    let mut b = TestBoard::new();
    for p in provinces(&b).collect::<Vec<_>>() {
        if pick.next(2) == 0 {
            b.regiments[p.index()] = Some(Regiment::regular(POWERS[pick.next(4)]));
        }
        if pick.next(3) == 0 {
            *b.pops[p.index()].entry(Owner::Power(POWERS[pick.next(4)])).or_insert(0) += 1;
        }
    }
    for (i, power) in POWERS.iter().enumerate() {
        b.powers[i].mobility = 3 + pick.next(3) as u8;
        b.powers[i].bonus = pick.next(3) as u8;
        b.powers[i].navy = pick.next(4) as u8;
        for _ in 0..pick.next(4) {
            b.give(*power, MilitaryCardId(pick.next(b.cards.len()) as u8));
        }
    }
    let mut w = WarState::default();
    if pick.next(5) == 0 {
        great_war(&mut w, &POWERS);
    } else {
        for (i, a) in POWERS.iter().enumerate() {
            for t in &POWERS[i + 1..] {
                if pick.next(2) == 0 {
                    let d = Declaration { declarer: *a, target: *t, cause: WarCause::Retaliation };
                    declare_war(&b, &mut w, d, &POWERS).expect("a fresh pair may declare");
                }
            }
        }
    }
    (b, w)
}

fn pieces(b: &TestBoard, w: &WarState, power: PowerId) -> usize {
    let on_board =
        provinces(b).filter(|p| b.regiment(*p).is_some_and(|r| r.owner == Owner::Power(power))).count();
    on_board + w.phase.as_ref().map_or(0, |ph| ph.battles.iter().filter(|x| x.attacker == power).count())
}

fn total_pops(b: &TestBoard) -> u32 {
    b.pops.iter().flat_map(|m| m.values()).map(|n| u32::from(*n)).sum()
}

/// The invariants that hold after every action.
fn invariants(b: &TestBoard, w: &WarState, cards: &[MilitaryCardId]) -> Result<(), String> {
    if b.all_cards() != cards {
        return Err("military cards not conserved".into());
    }
    for p in POWERS {
        if pieces(b, w, p) > usize::from(b.regiment_limit(p)) {
            return Err(format!("power {p:?} has more regiments than pieces"));
        }
    }
    for p in provinces(b) {
        if let Some(r) = b.regiment(p)
            && control(b, p) != Some(r.owner)
        {
            return Err(format!("{} not controlled by its regiment", b.province_name(p)));
        }
    }
    if let Some(phase) = &w.phase {
        for (i, x) in phase.battles.iter().enumerate() {
            if b.regiment(x.at).map(|r| r.owner) != Some(Owner::Power(x.defender)) {
                return Err(format!("the defender of {} is gone", b.province_name(x.at)));
            }
            if phase.battles[..i].iter().any(|y| y.at == x.at) {
                return Err("two battles in one province".into());
            }
        }
    }
    Ok(())
}

/// Plays a random war to its end; the events and the final position.
fn play(seed: u64) -> Result<(Vec<WarEvent>, TestBoard, WarState), String> {
    let mut pick = Pick(seed);
    let (mut b, mut w) = position(&mut pick);
    let cards = b.all_cards();
    let outsiders: Vec<PowerId> = POWERS.iter().copied().filter(|p| !w.involved(*p)).collect();
    let before = b.clone();
    let mut events = begin_war(&b, &mut w, &POWERS).map_err(|e| e.to_string())?;
    let budget: u32 = w.phase.as_ref().map_or(0, |ph| ph.actions_left.iter().map(|n| u32::from(*n)).sum());
    let mut seq = 0u64;
    while let Some(power) = w.to_act() {
        seq += 1;
        if u32::try_from(seq).unwrap_or(u32::MAX) > budget {
            return Err("the war outlasted its actions".into());
        }
        let legal = legal_war_actions(&b, &w, power);
        for other in POWERS.iter().filter(|p| **p != power) {
            if !legal_war_actions(&b, &w, *other).is_empty() {
                return Err("a power out of turn has actions".into());
            }
        }
        // A random move anywhere: refused without a trace, or accepted as listed.
        let n = usize::from(b.province_count());
        let wild = WarAction {
            power,
            deed: WarDeed::Move {
                from: ProvinceId(pick.next(n) as u16),
                to: ProvinceId(pick.next(n) as u16),
            },
        };
        let (b0, w0) = (b.clone(), w.clone());
        let (mut b1, mut w1) = (b.clone(), w.clone());
        match apply_war_action(&mut b1, &mut w1, &wild, &mut GameRng::for_action(seed, seq)) {
            Err(_) if (b1 != b0 || w1 != w0) => return Err("a refusal changed the position".into()),
            Err(_) if legal.contains(&wild) => return Err(format!("listed but refused: {wild:?}")),
            Ok(_) if !legal.contains(&wild) => return Err(format!("accepted but not listed: {wild:?}")),
            _ => {}
        }
        let chosen = legal[pick.next(legal.len())].clone();
        let pops = total_pops(&b);
        let got = apply_war_action(&mut b, &mut w, &chosen, &mut GameRng::for_action(seed, seq))
            .map_err(|e| format!("listed action {chosen:?} refused: {e}"))?;
        events.extend(got);
        invariants(&b, &w, &cards)?;
        if total_pops(&b) > pops {
            return Err("pops appeared in a war".into());
        }
    }
    for p in provinces(&b) {
        // RULING E57: a conscript outlives the war, still on its pop or one step from it.
        if let Some(home) = b.regiment(p).and_then(|r| r.conscripted)
            && home != p
            && !b.neighbours(home).contains(&p)
        {
            return Err("a conscript stands away from its pop".into());
        }
        let outsider =
            |r: Option<Regiment>| r.and_then(|r| r.owner.power()).filter(|x| outsiders.contains(x));
        if outsider(b.regiment(p)) != outsider(before.regiment(p)) {
            return Err("a regiment of a power outside the war moved".into());
        }
    }
    if w.phase.is_some() || !w.declarations.is_empty() {
        return Err("the war did not end".into());
    }
    Ok((events, b, w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_wars_keep_cards_regiments_and_control_and_end(seed in any::<u64>()) {
        let played = play(seed);
        prop_assert!(played.is_ok(), "{:?}", played.err());
    }

    #[test]
    fn a_war_replays_the_same_from_the_same_seed(seed in any::<u64>()) {
        prop_assert_eq!(play(seed), play(seed));
    }
}
