//! Wrongs and their answers (FACTS §4.3 *Navy*, §5.1 *Diplomatic Action*, §10.1): an aggressive
//! action by another power (a raid on a trade token, a cleansing or massacre, a sabotage, a
//! supported rebellion) is recorded; at the round's end each wronged seat may declare war
//! on the wrongdoer with a Diplomatic Action (RULING E72). Also
//! Diplomatic Action's other options: Conquest of a neutral province (shared with Expansionism)
//! and Trade Technology with a willing power; and Expansionism's Cleanse, a wrong of its own.

use super::R1800;
use super::apply::holds_all;
use super::board;
use super::data::DevType;
use super::state::*;
use super::war::{self, Declaration, PowerId, WarCause};
use crate::engine::{Event, GameRng, Illegal};

impl R1800 {
    /// Records a wrong done to `victim` by `offender` this round.
    pub(super) fn grieve(&self, s: &mut State, victim: usize, offender: usize, raid: bool) {
        if victim != offender {
            s.grievances.push(Grievance { victim: victim as u8, offender: offender as u8, raid });
        }
    }

    /// Whether `seat` may still declare war on `offender` for a wrong done this round (RULING
    /// E72).
    pub(super) fn may_retaliate(&self, s: &State, seat: usize, offender: usize) -> bool {
        let power = |i: usize| PowerId(s.players[i].power);
        offender < s.players.len()
            && s.war.phase.is_none()
            && !s.war.hostile(power(seat), power(offender))
            && s.grievances
                .iter()
                .any(|g| usize::from(g.victim) == seat && usize::from(g.offender) == offender)
    }

    /// RULING E72: after the last turn, the seats wronged this round are asked in turn order;
    /// false (and the wrongs forgotten) when there are none.
    pub(super) fn open_reprisals(&self, s: &mut State) -> bool {
        let to_ask: Vec<u8> = s
            .turn_order()
            .into_iter()
            .filter(|&v| (0..s.players.len()).any(|o| self.may_retaliate(s, usize::from(v), o)))
            .collect();
        if to_ask.is_empty() {
            s.grievances.clear();
            return false;
        }
        s.stage = Stage::Reprisal { to_ask };
        true
    }

    /// What the wronged seat may do: play a Diplomatic Action against a wrongdoer, or let it be.
    /// RULING E72: a raid's victim has no free declaration; the rules start a war in three ways
    /// only, and answering "an aggressive action by another player" takes a Diplomatic Action.
    pub(super) fn reprisal_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let mut v = self.admin_options(s, seat);
        v.push(Action::Skip);
        v
    }

    /// One answer of the wronged seat asked; the war phase when the last has let it be.
    pub(super) fn reprisal_step(
        &self,
        s: &mut State,
        a: &Action,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal> {
        let Stage::Reprisal { to_ask } = &s.stage else { return Err(Illegal("no reprisals now".into())) };
        let seat = usize::from(*to_ask.first().ok_or_else(|| Illegal("nobody is asked".into()))?);
        match a {
            // RULING E72: no free declaration for a raid's victim.
            Action::Retaliate(_) => Err(Illegal(
                "a war is declared in answer to a wrong only by playing Diplomatic Action (PLAY Diplomatic Action RETALIATE ON <power>)".into(),
            )),
            Action::Admin { card, option, target } => self.play_admin(s, seat, *card, *option, target, rng),
            Action::Skip => {
                if let Stage::Reprisal { to_ask } = &mut s.stage {
                    to_ask.remove(0);
                    if to_ask.is_empty() {
                        return Ok(self.to_war(s, rng));
                    }
                }
                Ok(Vec::new())
            }
            _ => Err(Illegal(
                "now declare war on a power that wronged you this round with a Diplomatic Action (PLAY Diplomatic Action RETALIATE ON <power>, or RETALIATE ON <power>), or DECLINE RETALIATE".into(),
            )),
        }
    }

    /// The declaration of war on the wrongdoer `t.seat` (FACTS §10.1; checked by the caller).
    pub(super) fn retaliate(
        &self,
        s: &mut State,
        seat: usize,
        t: &Target,
        cause: WarCause,
    ) -> Result<Vec<Event>, Illegal> {
        let o = usize::from(t.seat.ok_or_else(|| Illegal("on whom?".into()))?);
        let dec = Declaration {
            declarer: PowerId(s.players[seat].power),
            target: PowerId(s.players[o].power),
            cause,
        };
        let powers = self.powers(s);
        let mut w = std::mem::take(&mut s.war);
        let res = war::declare_war(&super::warlink::Board { d: self.data(), s }, &mut w, dec, &powers);
        s.war = w;
        let ev = res.map_err(|e| Illegal(e.to_string()))?;
        Ok(self.war_events(s, ev))
    }

    /// RULING E73: the Conquests the seat may make, each with the first military cards of its
    /// hand (an order may name others): a neutral province holding a neutral regiment, or one
    /// next to a regiment of the seat's that moves in.
    pub(super) fn conquest_targets(&self, s: &State, seat: usize) -> Vec<Target> {
        let d = self.data();
        let hand = &s.players[seat].military;
        let mut v = Vec::new();
        for p in 0..s.provinces.len() as u16 {
            let Some(n) = conquest_cost(s, p).filter(|n| *n <= hand.len()) else { continue };
            let military = hand[..n].to_vec();
            if s.provinces[usize::from(p)].regiment.is_some() {
                v.push(Target { to: Some(p), military: military.clone(), ..Target::default() });
            }
            for &f in d.neighbours(p).iter().filter(|&&f| self.regular_regiment(s, seat, f)) {
                v.push(Target {
                    from: Some(f),
                    to: Some(p),
                    military: military.clone(),
                    ..Target::default()
                });
            }
        }
        v
    }

    /// Whether the seat has a regiment, not a conscript, in `p`.
    fn regular_regiment(&self, s: &State, seat: usize, p: u16) -> bool {
        let me = s.players[seat].power;
        s.provinces
            .get(usize::from(p))
            .is_some_and(|x| x.regiment.is_some_and(|r| r.owner == Some(me) && r.conscripted.is_none()))
    }

    /// Whether a Conquest aimed so is possible (FACTS §5.1; RULING E73).
    pub(super) fn conquest_ok(&self, s: &State, seat: usize, t: &Target) -> bool {
        let Some(p) = t.to else { return false };
        let Some(n) = conquest_cost(s, p) else { return false };
        let moves_in = match t.from {
            None => s.provinces[usize::from(p)].regiment.is_some(),
            Some(f) => self.data().adjacent(f, p) && self.regular_regiment(s, seat, f),
        };
        moves_in && t.military.len() == n && holds_all(&s.players[seat].military, &t.military)
    }

    /// Conquest: the military cards go to the face-up discard pile, the neutral regiments are
    /// removed, and the seat's regiment moves in if one was named.
    pub(super) fn conquer(&self, s: &mut State, seat: usize, t: &Target) -> Vec<Event> {
        let d = self.data();
        let name = self.power_name(s, seat);
        let Some(p) = t.to else { return Vec::new() };
        for c in &t.military {
            if let Some(i) = s.players[seat].military.iter().position(|x| x == c) {
                s.players[seat].military.remove(i);
                s.military_discard.push(*c);
            }
        }
        let cards: Vec<&str> = t.military.iter().map(|c| d.military[usize::from(*c)].name.as_str()).collect();
        let mut ev = vec![Event::public(format!(
            "{name} moves on {}, discarding {}.",
            d.province_name(p),
            cards.join(", ")
        ))];
        if s.provinces[usize::from(p)].regiment.take().is_some() {
            ev.push(Event::public(format!("The neutral regiment in {} is removed.", d.province_name(p))));
        }
        if let Some(f) = t.from {
            s.provinces[usize::from(p)].regiment = s.provinces[usize::from(f)].regiment.take();
            ev.push(Event::public(format!(
                "{name}'s regiment marches from {} into {}.",
                d.province_name(f),
                d.province_name(p)
            )));
        }
        ev
    }

    /// RULING E74: the technologies in force of seat `from` that seat `to` may adopt (a higher
    /// level than its own, the requirement met) and of which a copy is in the face-up pool, the
    /// development deck or its discard pile.
    pub(super) fn tradeable(&self, s: &State, from: usize, to: usize) -> Vec<u16> {
        let d = self.data();
        (0..5)
            .filter_map(|slot| board::active(s, d, from, DevType::Technology, slot))
            .map(|i| s.players[from].cards[i].card)
            .filter(|c| board::may_take(s, d, to, *c))
            .filter(|c| s.offer.contains(c) || s.dev_deck.contains(c) || s.dev_discard.contains(c))
            .collect()
    }

    /// Whether a trade of technologies between the seats could be made (each has one the
    /// other may take).
    pub(super) fn may_trade(&self, s: &State, seat: usize, other: usize) -> bool {
        other != seat
            && other < s.players.len()
            && !self.tradeable(s, seat, other).is_empty()
            && !self.tradeable(s, other, seat).is_empty()
    }

    /// Trade Technology: the other seat is asked first; it agrees by taking one of the player's
    /// technologies (RULING E74).
    pub(super) fn offer_trade(&self, s: &mut State, seat: usize, t: &Target) -> Vec<Event> {
        let Some(o) = t.seat else { return Vec::new() };
        s.pending.push(Pending { seat: o, choice: Choice::Barter { with: seat as u8 } });
        vec![Event::public(format!(
            "{} offers {} a trade of technologies.",
            self.power_name(s, seat),
            self.power_name(s, usize::from(o))
        ))]
    }
}

impl R1800 {
    /// RULING E76: Cleanses the seat may make: in a province holding its regiment, one or two
    /// pops of other owners (neutral pops included).
    pub(super) fn cleanse_targets(&self, s: &State, seat: usize) -> Vec<Target> {
        let me = usize::from(s.players[seat].power);
        let mut v = Vec::new();
        for p in (0..s.provinces.len() as u16).filter(|&p| self.has_regiment(s, seat, p)) {
            let pops = &s.provinces[usize::from(p)].pops;
            let owners: Vec<u8> =
                (0..9u8).filter(|&o| usize::from(o) != me && pops[usize::from(o)] > 0).collect();
            for (i, &a) in owners.iter().enumerate() {
                v.push(Target { to: Some(p), pops: vec![a], ..Target::default() });
                for &b in &owners[i..] {
                    if a != b || pops[usize::from(a)] >= 2 {
                        v.push(Target { to: Some(p), pops: vec![a, b], ..Target::default() });
                    }
                }
            }
        }
        v
    }

    /// Whether a regiment of the seat's stands in `p`.
    fn has_regiment(&self, s: &State, seat: usize, p: u16) -> bool {
        let me = s.players[seat].power;
        s.provinces.get(usize::from(p)).is_some_and(|x| x.regiment.is_some_and(|r| r.owner == Some(me)))
    }

    /// Whether a Cleanse aimed so is possible: one or two pops of others, there to remove.
    pub(super) fn cleanse_ok(&self, s: &State, seat: usize, t: &Target) -> bool {
        let me = usize::from(s.players[seat].power);
        let Some(p) = t.to.filter(|&p| self.has_regiment(s, seat, p)) else { return false };
        let pops = &s.provinces[usize::from(p)].pops;
        (1..=2).contains(&t.pops.len())
            && t.pops.iter().all(|&o| {
                let o = usize::from(o);
                o < 9
                    && o != me
                    && usize::from(pops[o]) >= t.pops.iter().filter(|x| usize::from(**x) == o).count()
            })
    }

    /// Cleanse: the pops are removed; each power that lost one may retaliate (RULING E72).
    pub(super) fn cleanse(&self, s: &mut State, seat: usize, t: &Target) -> Vec<Event> {
        let d = self.data();
        let Some(p) = t.to else { return Vec::new() };
        for &o in &t.pops {
            s.provinces[usize::from(p)].pops[usize::from(o)] -= 1;
            if let Some(v) = s.seat_of(usize::from(o)) {
                self.grieve(s, usize::from(v), seat, false);
            }
        }
        let whose: Vec<String> = t
            .pops
            .iter()
            .map(|&o| {
                d.powers.get(usize::from(o)).map(|x| x.name.clone()).unwrap_or_else(|| "neutral".into())
            })
            .collect();
        vec![Event::public(format!(
            "{} cleanses {}: {} pop(s) removed.",
            self.power_name(s, seat),
            d.province_name(p),
            whose.join(" and ")
        ))]
    }
}

/// The military cards a Conquest of `p` costs (1 + its neutral regiments) when the neutrals
/// control it; `None` otherwise.
fn conquest_cost(s: &State, p: u16) -> Option<usize> {
    let prov = s.provinces.get(usize::from(p))?;
    (s.controller(p) == Some(NEUTRAL))
        .then(|| 1 + usize::from(prov.regiment.is_some_and(|r| r.owner.is_none())))
}
