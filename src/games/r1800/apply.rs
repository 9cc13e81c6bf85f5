//! Doing it: each action checked and carried out on a copy that replaces the state only on
//! success (so a refusal changes nothing), with the events players read. Draft picks, placing
//! and activating cards with their rewards and the choices rewards leave open; the end-of-turn
//! moves are in `moves`, admin cards in `admin`.

use super::R1800;
use super::board;
use super::data::{DevType, RewardKind};
use super::state::*;
use crate::engine::{Apply, Event, GameRng, Illegal};

pub(super) type Done = Result<Vec<Event>, Illegal>;

pub(super) fn no(why: impl Into<String>) -> Illegal {
    Illegal(why.into())
}

impl R1800 {
    fn perform(&self, s: &mut State, a: &Action, rng: &mut GameRng) -> Done {
        if let Some(p) = s.pending.first().copied() {
            return self.answer_pending(s, p, a, rng);
        }
        match (&s.stage.clone(), a) {
            (Stage::Draft { to_pick }, Action::Pick(_) | Action::PassPick) => {
                let seat = *to_pick.first().ok_or_else(|| no("nobody is to pick"))?;
                self.pick(s, seat, a, rng)
            }
            (Stage::Draft { to_pick }, Action::Admin { card, option, target }) => {
                let seat = *to_pick.first().ok_or_else(|| no("nobody is to pick"))?;
                self.play_admin(s, usize::from(seat), *card, *option, target, rng)
            }
            (Stage::Call { .. }, _) => self.call_step(s, a, rng),
            (Stage::Reprisal { .. }, _) => self.reprisal_step(s, a, rng),
            (Stage::Turn { seat, end_moves: false, .. }, _) => self.main_step(s, usize::from(*seat), a, rng),
            (Stage::Turn { seat, end_moves: true, .. }, _) => self.end_step(s, *seat, a, rng),
            (Stage::War, Action::War(w)) => self.war_step(s, w, rng),
            (Stage::War, _) => Err(no("now the war: move, conscript, play a military card or pass")),
            (Stage::Over, _) => Err(no("the game is over")),
            _ => Err(no("that is not a move of the development draft")),
        }
    }

    /// Rules, "Rounds" step 2: the seat takes a face-up card and plays it at once, or passes.
    fn pick(&self, s: &mut State, seat: u8, a: &Action, rng: &mut GameRng) -> Done {
        let d = self.data();
        let i = usize::from(seat);
        let name = self.power_name(s, i);
        let mut ev = Vec::new();
        match a {
            Action::Pick(k) => {
                let card =
                    *s.offer.get(usize::from(*k)).ok_or_else(|| no("there is no such card in the draft"))?;
                board::meets(s, d, i, card).map_err(no)?;
                s.offer.remove(usize::from(*k));
                self.adopt(s, i, card);
                ev.push(Event::public(format!("{name} takes {}.", d.dev_name(card))));
                if d.dev[usize::from(card)].recruit {
                    s.pending.push(Pending { seat, choice: Choice::Recruit });
                }
            }
            _ => ev.push(Event::public(format!("{name} passes in the draft."))),
        }
        ev.extend(self.picked(s, seat, rng));
        if matches!(&s.stage, Stage::Draft { to_pick } if to_pick.is_empty()) && s.pending.is_empty() {
            ev.extend(self.end_draft(s));
        }
        Ok(ev)
    }

    fn main_step(&self, s: &mut State, seat: usize, a: &Action, rng: &mut GameRng) -> Done {
        match a {
            Action::Place { card, res } => self.place(s, seat, usize::from(*card), usize::from(*res)),
            Action::Activate { card, discard } => self.activate(s, seat, usize::from(*card), discard, rng),
            Action::ActivateAlone { card, discard, military } => {
                self.activate_alone(s, seat, usize::from(*card), (discard, military), rng)
            }
            Action::Admin { card, option, target } => self.play_admin(s, seat, *card, *option, target, rng),
            Action::Shift { from, to } => self.shift(s, seat, usize::from(*from), usize::from(*to)),
            Action::Migrate { from, to } => self.migrate(s, seat, *from, *to),
            Action::EndActions => {
                if let Stage::Turn { end_moves, .. } = &mut s.stage {
                    *end_moves = true;
                }
                Ok(vec![])
            }
            _ => Err(no("now place resources, activate cards, play admin cards, or end your actions")),
        }
    }

    /// Whether `res` may go on tableau card `card` now (rules, "Player Turns" step 2; FACTS §4.1
    /// and §4.2 caps; RULING E6: the industry policy's cap holds for every card).
    pub(super) fn can_place(&self, s: &State, seat: usize, card: usize, res: usize) -> Result<(), String> {
        let d = self.data();
        let pl = &s.players[seat];
        let h = pl.cards.get(card).ok_or("you have no such card")?;
        let c = &d.dev[usize::from(h.card)];
        if res > C {
            return Err("no such resource".into());
        }
        if h.covered {
            return Err(format!("{} has been replaced", c.name));
        }
        if pl.supply[res] == 0 {
            return Err(format!("you have no {} left to place", RES[res]));
        }
        // RULING E84: Freon Refrigeration "may hold more than 3 F".
        if h.res[res] >= c.slots[res] && !(res == F && c.overfill) {
            return Err(format!("{} has no free {} square", c.name, RES[res]));
        }
        if res == P {
            let cap =
                board::active_card(s, d, seat, DevType::Policy, 2).and_then(|x| x.place_cap).unwrap_or(1);
            if h.placed[P] >= cap {
                return Err(format!(
                    "your industry policy lets you place only {cap} production on a card per turn"
                ));
            }
        }
        if res == F
            && let Some(cap) = c.self_cap
            && h.placed[F] >= cap
        {
            return Err(format!("{} takes only {cap} food per turn", c.name));
        }
        Ok(())
    }

    fn place(&self, s: &mut State, seat: usize, card: usize, res: usize) -> Done {
        self.can_place(s, seat, card, res).map_err(no)?;
        let pl = &mut s.players[seat];
        pl.supply[res] -= 1;
        pl.cards[card].res[res] += 1;
        pl.cards[card].placed[res] += 1;
        let name = self.data().dev_name(pl.cards[card].card).to_string();
        Ok(vec![Event::public(format!("{} places 1 {} on {name}.", self.power_name(s, seat), RES[res]))])
    }

    /// Whether the card can be activated now with these admin cards discarded (rules,
    /// "Player Turns" step 3; Command Economy waives admin costs).
    pub(super) fn can_activate(
        &self,
        s: &State,
        seat: usize,
        card: usize,
        discard: &[u8],
    ) -> Result<(), String> {
        self.check_activation(s, seat, card, discard, false)
    }

    /// The checks of both activations: the usual one of a full card, or (`alone`) the one by
    /// admin cards alone, its squares as they are (RULING E79); once a turn either way.
    pub(super) fn check_activation(
        &self,
        s: &State,
        seat: usize,
        card: usize,
        discard: &[u8],
        alone: bool,
    ) -> Result<(), String> {
        self.check_activation_paid(s, seat, card, discard, &[], alone)
    }

    /// [`Self::check_activation`] with the military cards an activation alone discards (Police
    /// State: "discard 1 military card to draw 2 admin cards", RULING E83).
    pub(super) fn check_activation_paid(
        &self,
        s: &State,
        seat: usize,
        card: usize,
        discard: &[u8],
        military: &[u8],
        alone: bool,
    ) -> Result<(), String> {
        let d = self.data();
        let pl = &s.players[seat];
        let h = pl.cards.get(card).ok_or("you have no such card")?;
        let c = &d.dev[usize::from(h.card)];
        let (cost, soldiers, how) = match (alone, c.alt.as_ref()) {
            (false, _) if h.covered || !c.activates() => {
                return Err(format!("{} cannot be activated", c.name));
            }
            (false, _) => (c.admin_cost, 0, ""),
            (true, Some(alt)) if !h.covered => (alt.admin_cost, alt.military_cost, " alone"),
            (true, _) => return Err(format!("{} cannot be activated by admin cards alone", c.name)),
        };
        if h.used {
            return Err(format!("{} was activated this turn already", c.name));
        }
        if !alone && !c.is_full(h.res) {
            return Err(format!("{} is not full", c.name));
        }
        if military.len() != usize::from(soldiers) {
            return Err(format!("activating {}{how} costs {soldiers} military card(s)", c.name));
        }
        if !holds_all(&pl.military, military) {
            return Err("you do not hold those military cards".to_string());
        }
        let waived = board::active_card(s, d, seat, DevType::Policy, 1).is_some_and(|x| x.command_economy);
        let cost = if waived { 0 } else { usize::from(cost) };
        if discard.len() != cost {
            return Err(format!("activating {}{how} costs {cost} admin card(s)", c.name));
        }
        holds_all(&pl.admin, discard)
            .then_some(())
            .ok_or_else(|| "you do not hold those admin cards".to_string())
    }

    fn activate(&self, s: &mut State, seat: usize, card: usize, discard: &[u8], rng: &mut GameRng) -> Done {
        self.can_activate(s, seat, card, discard).map_err(no)?;
        let d = self.data();
        let name = self.power_name(s, seat);
        let mut ev = Vec::new();
        let cost = self.discard_admin(s, seat, discard);
        let h = &mut s.players[seat].cards[card];
        h.res = d.dev[usize::from(h.card)].left_after_activation(h.res);
        h.used = true;
        let kind = h.card;
        ev.push(Event::public(format!("{name} activates {}{cost}.", d.dev_name(kind))));
        for r in d.dev[usize::from(kind)].reward.clone() {
            ev.extend(self.reward(s, seat, r.what, r.n, rng));
        }
        Ok(ev)
    }

    /// Moves admin cards from a hand to the face-up discard pile; the words for the event.
    pub(super) fn discard_admin(&self, s: &mut State, seat: usize, cards: &[u8]) -> String {
        let d = self.data();
        super::costs::to_discard(&mut s.players[seat].admin, &mut s.admin_discard, cards);
        if cards.is_empty() {
            return String::new();
        }
        let names: Vec<&str> = cards.iter().map(|c| d.admin[usize::from(*c)].name.as_str()).collect();
        format!(", discarding {}", names.join(" and "))
    }

    /// One part of an activation's reward.
    pub(super) fn reward(
        &self,
        s: &mut State,
        seat: usize,
        what: RewardKind,
        n: i8,
        rng: &mut GameRng,
    ) -> Vec<Event> {
        let count = n.unsigned_abs();
        let me = seat as u8;
        let queue = |s: &mut State, choice: Choice| {
            for _ in 0..count {
                s.pending.push(Pending { seat: me, choice });
            }
        };
        match what {
            RewardKind::DrawAdmin => return self.draw_admin(s, seat, count, rng),
            RewardKind::DrawMilitary => return self.draw_military(s, seat, count, rng),
            RewardKind::DiscardMilitary => queue(s, Choice::DiscardMilitary),
            RewardKind::Prosperity if n >= 0 => {
                self.gain_prosperity(s, seat, count);
                return vec![Event::public(format!(
                    "{} gains {count} prosperity.",
                    self.power_name(s, seat)
                ))];
            }
            RewardKind::Prosperity => {
                self.lose_prosperity(s, seat, count);
                return vec![Event::public(format!(
                    "{} loses {count} prosperity.",
                    self.power_name(s, seat)
                ))];
            }
            RewardKind::Factory => queue(s, Choice::Factory),
            RewardKind::Pop => {
                queue(s, Choice::Pop);
                if !self.hospital_options(s, seat).is_empty() {
                    s.pending.push(Pending { seat: me, choice: Choice::Hospital });
                }
            }
            RewardKind::Techpick => queue(s, Choice::Tech),
            RewardKind::NavyRaid => queue(s, Choice::NavyRaid),
            RewardKind::Convert => queue(s, Choice::Convert),
            RewardKind::Educate => queue(s, Choice::Educate),
            RewardKind::Massacre => queue(s, Choice::Massacre),
        }
        Vec::new()
    }

    fn answer_pending(&self, s: &mut State, p: Pending, a: &Action, rng: &mut GameRng) -> Done {
        let options = self.pending_options(s, p);
        if !options.contains(a) {
            return Err(no(format!("now {}", super::legal::pending_prompt(p.choice))));
        }
        s.pending.remove(0);
        if matches!(
            p.choice,
            Choice::Deficit { .. } | Choice::Upkeep { .. } | Choice::Toll(_) | Choice::StartMove
        ) {
            return Ok(self.settle(s, p, a, rng));
        }
        let d = self.data();
        let i = usize::from(p.seat);
        let name = self.power_name(s, i);
        let me = usize::from(s.players[i].power);
        let ev = match *a {
            Action::Build(q) => {
                s.provinces[usize::from(q)].factories += 1;
                format!("{name} builds a factory in {}.", d.province_name(q))
            }
            Action::Grow(q) => {
                s.provinces[usize::from(q)].pops[me] += 1;
                format!("{name}'s population grows in {}.", d.province_name(q))
            }
            Action::Recruit(q) => {
                s.provinces[usize::from(q)].regiment =
                    Some(Piece { owner: Some(me as u8), conscripted: None });
                format!("{name} recruits a regiment in {}.", d.province_name(q))
            }
            Action::Tech(c) => {
                take_tech(s, c);
                self.adopt(s, i, c);
                if let Choice::Barter { with } = p.choice {
                    s.pending.insert(0, Pending { seat: with, choice: Choice::TechOf { of: p.seat } });
                }
                format!("{name} adopts {}.", d.dev_name(c))
            }
            Action::Convert { province, owner } => {
                let prov = &mut s.provinces[usize::from(province)];
                prov.pops[usize::from(owner)] -= 1;
                prov.pops[me] += 1;
                format!("{name} converts a pop in {}.", d.province_name(province))
            }
            Action::DiscardMilitary(c) => {
                if let Some(k) = s.players[i].military.iter().position(|x| *x == c) {
                    s.players[i].military.remove(k);
                    s.military_discard.push(c);
                }
                format!("{name} discards {}.", d.military[usize::from(c)].name)
            }
            Action::Raid { seat, route } => {
                s.players[usize::from(seat)].overseas.retain(|r| *r != route);
                // FACTS §4.3: the raided player may answer at the end of the round (RULING E72).
                self.grieve(s, usize::from(seat), i, true);
                format!(
                    "{name}'s navy drives {} off the {} route.",
                    self.power_name(s, usize::from(seat)),
                    d.routes[usize::from(route)]
                )
            }
            Action::Incorporate(x) => self.incorporate(s, i, x),
            Action::Heal { card, pop } => self.heal(s, i, card, pop),
            Action::Educate { .. } | Action::Massacre { .. } => self.educate_or_massacre(s, i, a),
            _ => format!("{name} declines."),
        };
        let mut out = vec![Event::public(ev)];
        if s.pending.is_empty()
            && let Stage::Draft { to_pick } = &s.stage
            && to_pick.is_empty()
        {
            out.extend(self.end_draft(s));
        }
        let _ = rng;
        Ok(out)
    }
}

impl Apply for R1800 {
    /// Applies one action atomically.
    fn apply(&self, s: &mut State, a: &Action, rng: &mut GameRng) -> Done {
        let mut t = s.clone();
        let ev = self.perform(&mut t, a, rng)?;
        *s = t;
        Ok(ev)
    }
}

/// Whether `hand` holds every card of `cards` (with repeats).
pub fn holds_all(hand: &[u8], cards: &[u8]) -> bool {
    let mut left = hand.to_vec();
    cards.iter().all(|c| match left.iter().position(|x| x == c) {
        Some(i) => {
            left.remove(i);
            true
        }
        None => false,
    })
}

/// Takes a technology out of the face-up pool, or else out of the deck (techpick), or else out of
/// the discard pile (a trade of technologies, RULING E74).
fn take_tech(s: &mut State, c: u16) {
    if let Some(i) = s.offer.iter().position(|x| *x == c) {
        s.offer.remove(i);
    } else if let Some(i) = s.dev_deck.iter().position(|x| *x == c) {
        s.dev_deck.remove(i);
    } else if let Some(i) = s.dev_discard.iter().position(|x| *x == c) {
        s.dev_discard.remove(i);
    }
}
