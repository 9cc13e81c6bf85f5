//! The seam between the round and the war procedure (`war`): the engine's state seen as the
//! war's [`WarBoard`], and the war phase at the end of a round (rules "Rounds" step 4; FACTS §10):
//! the powers at war act in turn order from the dealer's left, each action a decision of its
//! seat, until the battles are resolved and the round ends.

use super::R1800;
use super::board;
use super::data::{Data, DevType};
use super::state::*;
use super::war::{
    self, MilitaryCard, MilitaryCardId, Owner, PowerId, ProvinceId, Regiment, WarAction, WarBoard, WarEvent,
};
use crate::engine::{Event, GameRng, Seat};

/// The state as the war sees it.
pub struct Board<'a> {
    pub d: &'a Data,
    pub s: &'a mut State,
}

fn owner_index(o: Owner) -> usize {
    match o {
        Owner::Power(p) => usize::from(p.0),
        Owner::Neutral => NEUTRAL,
    }
}

impl Board<'_> {
    fn seat(&self, p: PowerId) -> Option<usize> {
        self.s.seat_of(usize::from(p.0)).map(usize::from)
    }
}

impl WarBoard for Board<'_> {
    fn province_count(&self) -> u16 {
        self.d.provinces.len() as u16
    }
    fn province_name(&self, p: ProvinceId) -> &str {
        self.d.province_name(p.0)
    }
    fn neighbours(&self, p: ProvinceId) -> &[ProvinceId] {
        self.d.neighbour_ids.get(p.index()).map(Vec::as_slice).unwrap_or(&[])
    }
    fn is_strait(&self, a: ProvinceId, b: ProvinceId) -> bool {
        self.d.provinces.get(a.index()).is_some_and(|x| x.straits.contains(&b.0))
    }
    fn is_coastal(&self, p: ProvinceId) -> bool {
        self.d.provinces.get(p.index()).is_some_and(|x| x.coastal)
    }
    fn power_name(&self, power: PowerId) -> &str {
        self.d.powers.get(usize::from(power.0)).map(|p| p.name.as_str()).unwrap_or("?")
    }
    fn pops(&self, p: ProvinceId) -> Vec<(Owner, u8)> {
        let Some(prov) = self.s.provinces.get(p.index()) else { return Vec::new() };
        prov.pops
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(o, n)| (if o == NEUTRAL { Owner::Neutral } else { Owner::Power(PowerId(o as u8)) }, *n))
            .collect()
    }
    fn remove_pop(&mut self, p: ProvinceId, owner: Owner) -> bool {
        match self.s.provinces.get_mut(p.index()) {
            Some(prov) if prov.pops[owner_index(owner)] > 0 => {
                prov.pops[owner_index(owner)] -= 1;
                true
            }
            _ => false,
        }
    }
    fn regiment(&self, p: ProvinceId) -> Option<Regiment> {
        let r = self.s.provinces.get(p.index())?.regiment?;
        Some(Regiment {
            owner: r.owner.map(|o| Owner::Power(PowerId(o))).unwrap_or(Owner::Neutral),
            conscripted: r.conscripted.map(ProvinceId),
        })
    }
    fn set_regiment(&mut self, p: ProvinceId, regiment: Option<Regiment>) {
        if let Some(prov) = self.s.provinces.get_mut(p.index()) {
            prov.regiment = regiment.map(|r| Piece {
                owner: r.owner.power().map(|x| x.0),
                conscripted: r.conscripted.map(|c| c.0),
            });
        }
    }
    fn regiment_limit(&self, _power: PowerId) -> u8 {
        self.d.regiment_supply
    }
    fn mobility(&self, power: PowerId) -> u8 {
        self.seat(power)
            .and_then(|i| board::active_card(self.s, self.d, i, DevType::Technology, 4))
            .map(|c| c.mobility)
            .unwrap_or(0)
    }
    fn military_bonus(&self, power: PowerId) -> u8 {
        self.seat(power)
            .and_then(|i| board::active_card(self.s, self.d, i, DevType::Technology, 2))
            .map(|c| c.battle)
            .unwrap_or(0)
    }
    fn navy(&self, power: PowerId) -> u8 {
        self.seat(power).map(|i| board::navy(self.s, self.d, i).min(255) as u8).unwrap_or(0)
    }
    fn military_cards(&self) -> &[MilitaryCard] {
        &self.d.military_cards
    }
    fn military_hand(&self, power: PowerId) -> Vec<MilitaryCardId> {
        self.seat(power)
            .map(|i| self.s.players[i].military.iter().map(|c| MilitaryCardId(*c)).collect())
            .unwrap_or_default()
    }
    fn discard_military(&mut self, power: PowerId, card: MilitaryCardId) -> bool {
        let Some(i) = self.seat(power) else { return false };
        let hand = &mut self.s.players[i].military;
        match hand.iter().position(|c| *c == card.0) {
            Some(k) => {
                hand.remove(k);
                self.s.military_discard.push(card.0);
                true
            }
            None => false,
        }
    }
    fn draw_military(&mut self, power: PowerId, rng: &mut GameRng) -> Option<MilitaryCardId> {
        let i = self.seat(power)?;
        if self.s.military_deck.is_empty() {
            self.s.military_deck = std::mem::take(&mut self.s.military_discard);
            rng.shuffle(&mut self.s.military_deck);
        }
        let c = self.s.military_deck.pop()?;
        self.s.players[i].military.push(c);
        self.s.players[i].military.sort_unstable();
        Some(MilitaryCardId(c))
    }
    fn tradition(&self, power: PowerId) -> Option<MilitaryCardId> {
        self.seat(power).and_then(|i| self.s.players[i].tradition).map(MilitaryCardId)
    }
    fn play_tradition(&mut self, power: PowerId, card: MilitaryCardId) -> bool {
        let Some(i) = self.seat(power) else { return false };
        let Some(k) = self.s.players[i].military.iter().position(|c| *c == card.0) else { return false };
        self.s.players[i].military.remove(k);
        if let Some(old) = self.s.players[i].tradition.replace(card.0) {
            self.s.military_discard.push(old);
        }
        true
    }
}

impl R1800 {
    /// The powers in play, in seat order.
    pub(super) fn powers(&self, s: &State) -> Vec<PowerId> {
        s.players.iter().map(|p| PowerId(p.power)).collect()
    }

    /// War events as the engine's events (a secret goes to its power's seat).
    pub(super) fn war_events(&self, s: &State, ev: Vec<WarEvent>) -> Vec<Event> {
        ev.into_iter()
            .map(|e| {
                e.into_event(|p| Seat::from_index(s.seat_of(usize::from(p.0)).map(usize::from).unwrap_or(0)))
            })
            .collect()
    }

    /// Rounds step 4: the wars declared this round begin; true when a war phase is under way.
    pub(super) fn war_phase(&self, s: &mut State) -> (Vec<Event>, bool) {
        let order: Vec<PowerId> =
            s.turn_order().iter().map(|i| PowerId(s.players[usize::from(*i)].power)).collect();
        let mut war = std::mem::take(&mut s.war);
        let res = war::begin_war(&Board { d: self.data(), s }, &mut war, &order);
        s.war = war;
        let ev = match res {
            Ok(ev) => self.war_events(s, ev),
            Err(e) => vec![Event::public(e.to_string())],
        };
        let on = s.war.to_act().is_some();
        (ev, on)
    }

    /// The war action the seat whose turn it is may take.
    pub(super) fn war_options(&self, s: &State) -> Vec<Action> {
        let Some(power) = s.war.to_act() else { return Vec::new() };
        let mut t = s.clone();
        let war = std::mem::take(&mut t.war);
        let b = Board { d: self.data(), s: &mut t };
        war::legal_war_actions(&b, &war, power).into_iter().map(Action::War).collect()
    }

    /// One war action; the round ends when the war does.
    pub(super) fn war_step(
        &self,
        s: &mut State,
        a: &WarAction,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, crate::engine::Illegal> {
        let mut war = std::mem::take(&mut s.war);
        let res = war::apply_war_action(&mut Board { d: self.data(), s }, &mut war, a, rng);
        s.war = war;
        let mut ev = self.war_events(s, res.map_err(|e| crate::engine::Illegal(e.to_string()))?);
        if s.war.to_act().is_none() {
            ev.extend(self.finish_round(s, rng));
        }
        Ok(ev)
    }
}

impl R1800 {
    /// The powers the seat may declare war on at the end of its turn: with the Conquest
    /// ambition, those controlling a province next to one of its own (FACTS §6.1).
    pub(super) fn declarations(&self, s: &State, seat: usize) -> Vec<u8> {
        let d = self.data();
        if d.ambitions[usize::from(s.players[seat].ambition)].score != super::data::Ambition::Conquest {
            return Vec::new();
        }
        let me = PowerId(s.players[seat].power);
        let powers = self.powers(s);
        let mut t = s.clone();
        let b = Board { d, s: &mut t };
        war::conquest_targets(&b, me, &powers)
            .into_iter()
            .filter(|p| !s.war.hostile(me, *p))
            .map(|p| p.0)
            .collect()
    }

    /// A Conquest declaration: the ambition is revealed (FACTS §6.1).
    pub(super) fn declare(
        &self,
        s: &mut State,
        seat: usize,
        target: u8,
    ) -> Result<Vec<Event>, crate::engine::Illegal> {
        if !self.declarations(s, seat).contains(&target) {
            return Err(crate::engine::Illegal("you may not declare war on that power".into()));
        }
        let dec = war::Declaration {
            declarer: PowerId(s.players[seat].power),
            target: PowerId(target),
            cause: war::WarCause::Conquest,
        };
        let powers = self.powers(s);
        let mut w = std::mem::take(&mut s.war);
        let res = war::declare_war(&Board { d: self.data(), s }, &mut w, dec, &powers);
        s.war = w;
        let ev = res.map_err(|e| crate::engine::Illegal(e.to_string()))?;
        s.players[seat].revealed = true;
        Ok(self.war_events(s, ev))
    }
}
