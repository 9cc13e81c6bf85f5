//! Admin cards that reach into the deck or into other powers' affairs (FACTS §5.1): *Free
//! Enterprise*'s search, and *Espionage*'s three options — Steal Technology, Sabotage and Support
//! Rebellion (RULINGS E71, E75).

use super::R1800;
use super::board;
use super::data::{AdminEffect, DevType, HoldEffect};
use super::state::*;
use crate::engine::{Event, GameRng};

impl R1800 {
    /// RULING E71: the kinds Free Enterprise searches for of which a copy is in the development
    /// deck or its discard pile.
    pub(super) fn enterprise_kinds(&self, s: &State, search: &[u16]) -> Vec<u16> {
        search.iter().copied().filter(|c| s.dev_deck.contains(c) || s.dev_discard.contains(c)).collect()
    }

    /// Free Enterprise: one of the kinds found, drawn by lot, is played.
    pub(super) fn free_enterprise(
        &self,
        s: &mut State,
        seat: usize,
        card: u8,
        rng: &mut GameRng,
    ) -> Vec<Event> {
        let d = self.data();
        let kinds = self.enterprise_kinds(s, &d.admin[usize::from(card)].search);
        if kinds.is_empty() {
            return Vec::new();
        }
        let k = kinds[rng.below(kinds.len() as u64) as usize];
        let Some(c) = self.search_dev(s, k, rng) else { return Vec::new() };
        self.adopt(s, seat, c);
        vec![Event::public(format!(
            "{} founds {} by free enterprise.",
            self.power_name(s, seat),
            d.dev_name(c)
        ))]
    }

    /// The Espionage plays to list: for each card paying the commerce, every other power (and
    /// its card and resource, or the province) the option may aim at.
    pub(super) fn espionage_targets(
        &self,
        s: &State,
        seat: usize,
        what: AdminEffect,
        payers: &[u8],
    ) -> Vec<Target> {
        let mut aims = Vec::new();
        for o in (0..s.players.len() as u8).filter(|o| usize::from(*o) != seat) {
            match what {
                AdminEffect::StealTechnology => aims.push(Target { seat: Some(o), ..Target::default() }),
                AdminEffect::Sabotage => {
                    for (k, h) in s.players[usize::from(o)].cards.iter().enumerate() {
                        for r in [P, F].into_iter().filter(|r| h.res[*r] > 0) {
                            // RULING E98: how many the player removes, up to 3.
                            for n in 1..=h.res[r].min(SABOTAGE_MAX) {
                                aims.push(Target {
                                    seat: Some(o),
                                    their: Some(k as u8),
                                    res: Some(r as u8),
                                    count: Some(n),
                                    ..Target::default()
                                });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        if what == AdminEffect::SupportRebellion {
            aims = (0..s.provinces.len() as u16)
                .filter(|&p| rebellion(s, seat, p).is_some())
                .map(|p| Target { to: Some(p), ..Target::default() })
                .collect();
        }
        payers.iter().flat_map(|c| aims.iter().map(move |a| Target { card: Some(*c), ..a.clone() })).collect()
    }

    /// Whether an Espionage option aimed so does something.
    pub(super) fn espionage_ok(&self, s: &State, seat: usize, what: AdminEffect, t: &Target) -> bool {
        let other = t.seat.map(usize::from).filter(|o| *o != seat && *o < s.players.len());
        match what {
            AdminEffect::StealTechnology => other.is_some_and(|o| !self.stealable(s, seat, o).is_empty()),
            AdminEffect::Sabotage => other.zip(t.their).zip(t.res).is_some_and(|((o, k), r)| {
                let r = usize::from(r);
                (r == P || r == F)
                    && s.players[o]
                        .cards
                        .get(usize::from(k))
                        .is_some_and(|h| !h.covered && sabotaged(h.res[r], t.count).is_some())
            }),
            AdminEffect::SupportRebellion => t.to.is_some_and(|p| rebellion(s, seat, p).is_some()),
            _ => false,
        }
    }

    /// RULING E75: the face-up technologies that power `o` has adopted (in force or covered) and
    /// the seat may adopt, lowest level first.
    fn stealable(&self, s: &State, seat: usize, o: usize) -> Vec<u16> {
        let d = self.data();
        let mut v: Vec<u16> = s
            .offer
            .iter()
            .copied()
            .filter(|c| d.dev[usize::from(*c)].kind == DevType::Technology)
            .filter(|c| s.players[o].cards.iter().any(|h| h.card == *c))
            .collect();
        v.sort_by_key(|c| (d.dev[usize::from(*c)].level, *c));
        v.dedup();
        v.retain(|c| board::may_take(s, d, seat, *c));
        v
    }

    /// Carries out an Espionage option (checked).
    pub(super) fn espionage(
        &self,
        s: &mut State,
        seat: usize,
        what: AdminEffect,
        t: &Target,
        rng: &mut GameRng,
    ) -> Vec<Event> {
        let d = self.data();
        let name = self.power_name(s, seat);
        match what {
            AdminEffect::StealTechnology => {
                let Some(o) = t.seat.map(usize::from) else { return Vec::new() };
                let mut ev = Vec::new();
                for c in self.stealable(s, seat, o) {
                    if board::may_take(s, d, seat, c)
                        && let Some(i) = s.offer.iter().position(|x| *x == c)
                    {
                        s.offer.remove(i);
                        self.adopt(s, seat, c);
                        ev.push(Event::public(format!(
                            "{name}'s spies steal {} from {}.",
                            d.dev_name(c),
                            self.power_name(s, o)
                        )));
                    }
                }
                ev
            }
            AdminEffect::Sabotage => {
                let (Some(o), Some(k), Some(r)) = (t.seat, t.their, t.res) else { return Vec::new() };
                let h = &mut s.players[usize::from(o)].cards[usize::from(k)];
                // RULING E98: the number ordered; without one, as many as are there, up to 3.
                let n = sabotaged(h.res[usize::from(r)], t.count).unwrap_or(0);
                h.res[usize::from(r)] -= n;
                let card = d.dev_name(h.card).to_string();
                // RULING E72: removing another power's resources is an aggressive action, a wrong.
                self.grieve(s, usize::from(o), seat, false);
                vec![Event::public(format!(
                    "{name}'s agents sabotage {}'s {card}: {n} {} removed.",
                    self.power_name(s, usize::from(o)),
                    RES[usize::from(r)]
                ))]
            }
            AdminEffect::SupportRebellion => {
                let Some((p, occupier, n)) = t.to.and_then(|p| rebellion(s, seat, p).map(|(o, n)| (p, o, n)))
                else {
                    return Vec::new();
                };
                let mut ev = vec![Event::public(format!(
                    "{name} supports a rebellion in {} against {}.",
                    d.province_name(p),
                    self.power_name(s, occupier)
                ))];
                // RULING E72: forcing the occupier to discard or lose its regiment is a wrong.
                self.grieve(s, occupier, seat, false);
                // RULING E75: the occupier chooses to discard, when it can, or to lose the regiment.
                let n = u8::try_from(n).unwrap_or(u8::MAX);
                ev.extend(self.toll(s, occupier, Toll::Rebellion { province: p, n }, rng));
                ev
            }
            _ => Vec::new(),
        }
    }
}

/// Sabotage removes "up to 3 P or F" (FACTS §5.1).
const SABOTAGE_MAX: u8 = 3;

/// RULING E98: how many of the `there` resources on the card Sabotage removes.
pub(super) fn sabotaged(there: u8, count: Option<u8>) -> Option<u8> {
    super::admin::up_to(there, SABOTAGE_MAX, count)
}

/// Support Rebellion in `p` (FACTS §5.1): another power's regiment stands there and most pops
/// are occupied pops; the occupier's seat and the military cards it owes (occupied − its own).
fn rebellion(s: &State, seat: usize, p: u16) -> Option<(usize, usize)> {
    let prov = s.provinces.get(usize::from(p))?;
    let o = usize::from(prov.regiment?.owner?);
    if o == usize::from(s.players[seat].power) {
        return None;
    }
    let occupier = usize::from(s.seat_of(o)?);
    let own = usize::from(prov.pops[o]);
    let occupied: usize =
        prov.pops.iter().enumerate().filter(|(k, _)| *k != o).map(|(_, n)| usize::from(*n)).sum();
    (occupied > own).then(|| (occupier, occupied - own))
}

impl R1800 {
    /// Free Enterprise's second way to pay: (Financial Institution with commerce, Stock Exchange
    /// with a free C square) of the seat's cards in force.
    pub(super) fn shift_pairs(&self, s: &State, seat: usize) -> Vec<Target> {
        let d = self.data();
        let cards = &s.players[seat].cards;
        let is = |h: &Held, e: HoldEffect| !h.covered && d.dev[usize::from(h.card)].hold_effect == Some(e);
        let mut v = Vec::new();
        for (a, _) in cards.iter().enumerate().filter(|(_, h)| is(h, HoldEffect::Financial) && h.res[C] > 0) {
            for (b, _) in cards.iter().enumerate().filter(|(_, h)| {
                is(h, HoldEffect::StockExchange) && h.res[C] < d.dev[usize::from(h.card)].slots[C]
            }) {
                v.push(Target { card: Some(a as u8), onto: Some(b as u8), ..Target::default() });
            }
        }
        v
    }
}
