//! Admin cards (FACTS §5.1): which plays are legal now, and carrying them out. Most are played in
//! the player's turn; Accelerate Development at the start of the draft, Policy Initiative at the
//! player's pick (`draft_cards`), Diplomatic Action's retaliation at the round's end
//! (`diplomacy`). An option `held` in the data is not offered: the card stays in the hand and
//! serves to pay activation costs (RULING E29).

use super::R1800;
use super::board;
use super::data::{AdminEffect, AdminOption, DevType, Where};
use super::state::*;
use super::timing::Timing;
use super::war::WarCause;
use crate::engine::{Event, GameRng, Illegal};

impl R1800 {
    /// Every admin play the seat may make now.
    pub(super) fn admin_options(&self, s: &State, seat: usize) -> Vec<Action> {
        let d = self.data();
        let mut hand = s.players[seat].admin.clone();
        hand.dedup();
        let now = Timing::now(s, seat);
        let mut v = Vec::new();
        for card in hand {
            let subs = self.substitutes(s, seat, card);
            for (k, opt) in d.admin[usize::from(card)].play.iter().enumerate() {
                if now != Some(Timing::of(opt.what)) {
                    continue;
                }
                for target in self.targets(s, seat, card, opt) {
                    if self.check_admin(s, seat, card, k as u8, &target).is_ok() {
                        v.push(Action::Admin { card, option: k as u8, target });
                        continue;
                    }
                    // RULING E77: a cost that cannot be paid in prosperity, paid otherwise.
                    for x in subs.iter().filter(|_| opt.cost > 0) {
                        let t = Target { instead: Some(*x), ..target.clone() };
                        if self.check_admin(s, seat, card, k as u8, &t).is_ok() {
                            v.push(Action::Admin { card, option: k as u8, target: t });
                        }
                    }
                }
            }
        }
        v
    }

    /// Candidate targets of an option (checked afterwards).
    fn targets(&self, s: &State, seat: usize, card: u8, opt: &AdminOption) -> Vec<Target> {
        let d = self.data();
        let me = usize::from(s.players[seat].power);
        let payers: Vec<u8> =
            (0..s.players[seat].cards.len() as u8).filter(|&i| self.pays_commerce(s, seat, i)).collect();
        let pairs = || {
            self.adjacent_pairs(s, seat).into_iter().map(|(from, to)| Target {
                from: Some(from),
                to: Some(to),
                ..Target::default()
            })
        };
        match opt.what {
            AdminEffect::Factory | AdminEffect::DrawMilitary | AdminEffect::Conscription => {
                vec![Target::default()]
            }
            AdminEffect::Factory2 => (0..s.provinces.len() as u16)
                .filter(|&p| s.provinces[usize::from(p)].pops[me] > 0)
                .map(|p| Target { from: Some(p), ..Target::default() })
                .collect(),
            AdminEffect::TradeRoute => (0..d.routes.len() as u8)
                .map(|r| Target { route: Some(r), ..Target::default() })
                .chain((0..s.players.len() as u8).map(|o| Target { seat: Some(o), ..Target::default() }))
                .collect(),
            // RULING E34: Urbanization's count is the player's, 1 or 2.
            AdminEffect::Urbanize => pairs()
                .flat_map(|t| (1..=URBANIZE_MAX).map(move |n| Target { count: Some(n), ..t.clone() }))
                .collect(),
            AdminEffect::Settle => pairs().collect(),
            AdminEffect::NewAdministration => {
                let mut rest = s.players[seat].admin.clone();
                if let Some(i) = rest.iter().position(|x| *x == card) {
                    rest.remove(i);
                }
                (0..=rest.len().min(4))
                    .map(|k| Target { discard: rest[..k].to_vec(), ..Target::default() })
                    .collect()
            }
            AdminEffect::Techpick | AdminEffect::Convert => {
                payers.into_iter().map(|c| Target { card: Some(c), ..Target::default() }).collect()
            }
            AdminEffect::FreeEnterprise if opt.shift => self.shift_pairs(s, seat),
            AdminEffect::FreeEnterprise => {
                payers.into_iter().map(|c| Target { card: Some(c), ..Target::default() }).collect()
            }
            AdminEffect::Accelerate | AdminEffect::Initiative => vec![Target::default()],
            AdminEffect::Retaliate => s
                .grievances
                .iter()
                .filter(|g| usize::from(g.victim) == seat)
                .map(|g| Target { seat: Some(g.offender), ..Target::default() })
                .collect(),
            AdminEffect::TradeTechnology => (0..s.players.len() as u8)
                .filter(|&o| usize::from(o) != seat)
                .map(|o| Target { seat: Some(o), ..Target::default() })
                .collect(),
            AdminEffect::Conquest => self.conquest_targets(s, seat),
            AdminEffect::StealTechnology | AdminEffect::Sabotage | AdminEffect::SupportRebellion => {
                self.espionage_targets(s, seat, opt.what, &payers)
            }
            AdminEffect::Cleanse => self.cleanse_targets(s, seat),
            AdminEffect::Held => Vec::new(),
        }
    }

    /// Whether tableau card `i` is a policy or institution with commerce to pay a cost.
    pub(super) fn pays_commerce(&self, s: &State, seat: usize, i: u8) -> bool {
        let d = self.data();
        s.players[seat].cards.get(usize::from(i)).is_some_and(|h| {
            !h.covered && h.res[C] > 0 && d.dev[usize::from(h.card)].kind != DevType::Technology
        })
    }

    /// Checks an admin play; the option's data when legal.
    pub(super) fn check_admin(
        &self,
        s: &State,
        seat: usize,
        card: u8,
        option: u8,
        t: &Target,
    ) -> Result<AdminOption, String> {
        let d = self.data();
        let pl = &s.players[seat];
        if !pl.admin.contains(&card) {
            return Err("you do not hold that admin card".into());
        }
        let c = &d.admin[usize::from(card)];
        let opt = *c.play.get(usize::from(option)).ok_or("that card has no such option")?;
        let when = Timing::of(opt.what);
        if Timing::now(s, seat) != Some(when) {
            return Err(format!("{} is played {}", c.name, when.words()));
        }
        for &x in &c.not_with {
            if (0..3).any(|slot| {
                board::active(s, d, seat, DevType::Policy, slot).is_some_and(|i| pl.cards[i].card == x)
            }) {
                return Err(format!("{} cannot be played with {} in force", c.name, d.dev_name(x)));
            }
        }
        let republic = board::active_card(s, d, seat, DevType::Policy, 0).is_some_and(|x| x.republic);
        // FACTS §5.1: New Administration is free for a Republic at prosperity 5 or more.
        let cost = if opt.what == AdminEffect::NewAdministration && republic && pl.prosperity >= 5 {
            0
        } else {
            opt.cost
        };
        match t.instead {
            None if pl.prosperity < cost => {
                return Err(format!(
                    "{} costs {cost} prosperity (an Oligarchy, a Police State at 0 or a Propaganda Campaign may pay INSTEAD)",
                    c.name
                ));
            }
            Some(_) if pl.prosperity >= cost => {
                return Err(format!("{} is paid in prosperity while you have it", c.name));
            }
            Some(x)
                if !self.substitutes(s, seat, card).contains(&x)
                    || t.card.is_some_and(|i| x == Substitute::Commerce(i)) =>
            {
                return Err(format!("that cannot pay for {} instead of prosperity", c.name));
            }
            _ => {}
        }
        if opt.industry_p > 0 {
            let at = board::active(s, d, seat, DevType::Policy, 2).ok_or("you have no industry policy")?;
            if pl.cards[at].res[P] < opt.industry_p {
                return Err(format!(
                    "{} needs {} production on your industry policy",
                    c.name, opt.industry_p
                ));
            }
        }
        if opt.commerce > 0 && !t.card.is_some_and(|i| self.pays_commerce(s, seat, i)) {
            return Err(format!("{} needs 1 commerce from one of your policies or institutions", c.name));
        }
        if opt.shift && !self.shift_pairs(s, seat).iter().any(|x| x.card == t.card && x.onto == t.onto) {
            return Err(format!(
                "{} needs 1 commerce moved from one of your Financial Institutions to one of your Stock Exchanges",
                c.name
            ));
        }
        let me = usize::from(pl.power);
        let ok = match opt.what {
            AdminEffect::Held => return Err(format!("{} is not played this way in this engine", c.name)),
            AdminEffect::Factory | AdminEffect::DrawMilitary => true,
            AdminEffect::Factory2 => {
                t.from.is_some_and(|p| s.provinces.get(usize::from(p)).is_some_and(|x| x.pops[me] > 0))
            }
            AdminEffect::TradeRoute => self.trade_ok(s, seat, t)?,
            AdminEffect::Urbanize => t.from.zip(t.to).is_some_and(|(a, b)| {
                self.pop_move_ok(s, seat, a, b, Where::Countryside, Where::City, false)
                    && s.controls(seat, b)
                    && urbanized(s, me, a, t.count).is_some()
            }),
            AdminEffect::Settle => t.from.zip(t.to).is_some_and(|(a, b)| {
                s.controls(seat, a)
                    && self.pop_move_ok(s, seat, a, b, Where::Countryside, Where::Countryside, false)
            }),
            AdminEffect::NewAdministration => {
                let mut rest = pl.admin.clone();
                if let Some(i) = rest.iter().position(|x| *x == card) {
                    rest.remove(i);
                }
                t.discard.len() <= 4 && super::apply::holds_all(&rest, &t.discard)
            }
            AdminEffect::Techpick => self.tech_candidates(s, seat).next().is_some(),
            AdminEffect::Convert => {
                let p = Pending { seat: seat as u8, choice: Choice::Convert };
                self.pending_options(s, p).len() > 1
            }
            AdminEffect::Conscription => {
                let army = d.dev_named("Standing Army");
                army.is_some_and(|a| s.dev_deck.contains(&a) || s.dev_discard.contains(&a))
            }
            AdminEffect::Accelerate => true,
            // FACTS §5.1: one Policy Initiative a pick (its second pick is not another one).
            AdminEffect::Initiative => {
                s.initiative.is_none()
                    && matches!(&s.stage, Stage::Draft { to_pick } if to_pick.iter().filter(|x| usize::from(**x) == seat).count() == 1)
            }
            AdminEffect::FreeEnterprise => !self.enterprise_kinds(s, &c.search).is_empty(),
            AdminEffect::Retaliate => t.seat.is_some_and(|o| self.may_retaliate(s, seat, usize::from(o))),
            AdminEffect::Conquest => self.conquest_ok(s, seat, t),
            AdminEffect::TradeTechnology => t.seat.is_some_and(|o| self.may_trade(s, seat, usize::from(o))),
            AdminEffect::StealTechnology | AdminEffect::Sabotage | AdminEffect::SupportRebellion => {
                self.espionage_ok(s, seat, opt.what, t)
            }
            AdminEffect::Cleanse => self.cleanse_ok(s, seat, t),
        };
        if !ok {
            return Err(format!("{} cannot be played like that now", c.name));
        }
        Ok(AdminOption { cost, ..opt })
    }

    /// FACTS §7.1 and RULING E31: a route needs a free trade token under the communications
    /// cap; an overseas route a controlled coastal province and no token of yours there yet; a
    /// European agreement another player with a token free, and no agreement between you yet.
    fn trade_ok(&self, s: &State, seat: usize, t: &Target) -> Result<bool, String> {
        let d = self.data();
        let cap = |i: usize| {
            let c = board::active_card(s, d, i, DevType::Technology, 4).map(|x| x.routes).unwrap_or(0);
            u32::from(c.min(d.trade_tokens))
        };
        if board::trade_routes(s, seat) >= cap(seat) {
            return Err("your communications technology allows no more trade routes".into());
        }
        Ok(match (t.route, t.seat) {
            (Some(r), None) => {
                usize::from(r) < d.routes.len()
                    && !s.players[seat].overseas.contains(&r)
                    && (0..s.provinces.len()).any(|p| d.provinces[p].coastal && s.controls(seat, p as u16))
            }
            (None, Some(o)) => {
                let o = usize::from(o);
                o < s.players.len()
                    && o != seat
                    && !s.players[seat].european.contains(&(o as u8))
                    && board::trade_routes(s, o) < cap(o)
            }
            _ => false,
        })
    }

    /// Plays an admin card.
    pub(super) fn play_admin(
        &self,
        s: &mut State,
        seat: usize,
        card: u8,
        option: u8,
        t: &Target,
        rng: &mut GameRng,
    ) -> Result<Vec<Event>, Illegal> {
        let opt = self.check_admin(s, seat, card, option, t).map_err(Illegal)?;
        let d = self.data();
        let name = self.power_name(s, seat);
        let me = usize::from(s.players[seat].power);
        let i = s.players[seat]
            .admin
            .iter()
            .position(|x| *x == card)
            .ok_or_else(|| Illegal("not held".into()))?;
        s.players[seat].admin.remove(i);
        s.admin_discard.push(card);
        let instead = t.instead.map(|x| self.pay_instead(s, seat, x));
        if instead.is_none() {
            self.lose_prosperity(s, seat, opt.cost);
        }
        if opt.industry_p > 0
            && let Some(at) = board::active(s, d, seat, DevType::Policy, 2)
        {
            s.players[seat].cards[at].res[P] -= opt.industry_p;
        }
        if let Some(c) = t.card.filter(|_| opt.commerce > 0 || opt.shift) {
            s.players[seat].cards[usize::from(c)].res[C] -= 1;
        }
        if let Some(c) = t.onto.filter(|_| opt.shift) {
            s.players[seat].cards[usize::from(c)].res[C] += 1;
        }
        let paid = instead.map(|w| format!(", {w} instead of prosperity")).unwrap_or_default();
        let mut ev = vec![Event::public(format!("{name} plays {}{paid}.", d.admin[usize::from(card)].name))];
        let me8 = seat as u8;
        match opt.what {
            AdminEffect::Factory => s.pending.push(Pending { seat: me8, choice: Choice::Factory }),
            AdminEffect::Factory2 => {
                if let Some(p) = t.from {
                    s.provinces[usize::from(p)].pops[me] -= 1;
                    ev.push(Event::public(format!("{name} sacrifices a pop in {}.", d.province_name(p))));
                }
                s.pending.push(Pending { seat: me8, choice: Choice::Factory });
                s.pending.push(Pending { seat: me8, choice: Choice::Factory });
            }
            AdminEffect::DrawMilitary => ev.extend(self.draw_military(s, seat, 1, rng)),
            AdminEffect::TradeRoute => match (t.route, t.seat) {
                (Some(r), _) => {
                    s.players[seat].overseas.push(r);
                    ev.push(Event::public(format!("{name} trades with {}.", d.routes[usize::from(r)])));
                }
                (_, Some(o)) => {
                    s.players[seat].european.push(o);
                    s.players[usize::from(o)].european.push(me8);
                    ev.push(Event::public(format!(
                        "{name} and {} agree to trade.",
                        self.power_name(s, usize::from(o))
                    )));
                }
                _ => {}
            },
            AdminEffect::Urbanize => {
                if let (Some(a), Some(b)) = (t.from, t.to) {
                    // RULING E34: the number ordered; without one, as many as are there, up to 2.
                    let n = urbanized(s, me, a, t.count).unwrap_or(0);
                    s.provinces[usize::from(a)].pops[me] -= n;
                    s.provinces[usize::from(b)].pops[me] += n;
                    ev.push(Event::public(format!(
                        "{name} moves {n} pop(s) from {} to {}.",
                        d.province_name(a),
                        d.province_name(b)
                    )));
                }
            }
            AdminEffect::Settle => {
                if let (Some(a), Some(b)) = (t.from, t.to) {
                    self.move_pop(s, seat, a, b);
                    ev.push(Event::public(format!(
                        "{name} settles a pop from {} in {}.",
                        d.province_name(a),
                        d.province_name(b)
                    )));
                }
            }
            AdminEffect::NewAdministration => {
                let words = self.discard_admin(s, seat, &t.discard);
                ev.push(Event::public(format!("{name} reorganises{words}.")));
                ev.extend(self.draw_admin(s, seat, t.discard.len() as u8 + 1, rng));
            }
            AdminEffect::Techpick => s.pending.push(Pending { seat: me8, choice: Choice::Tech }),
            AdminEffect::Convert => s.pending.push(Pending { seat: me8, choice: Choice::Convert }),
            AdminEffect::Conscription => {
                if let Some(a) = d.dev_named("Standing Army").and_then(|a| self.search_dev(s, a, rng)) {
                    self.adopt(s, seat, a);
                    s.pending.push(Pending { seat: me8, choice: Choice::Recruit });
                    ev.push(Event::public(format!("{name} raises a Standing Army.")));
                }
            }
            AdminEffect::Accelerate => ev.extend(self.accelerate(s, seat)),
            AdminEffect::Initiative => ev.extend(self.initiative(s, seat)),
            AdminEffect::FreeEnterprise => ev.extend(self.free_enterprise(s, seat, card, rng)),
            AdminEffect::Retaliate => ev.extend(self.retaliate(s, seat, t, WarCause::Retaliation)?),
            AdminEffect::Conquest => ev.extend(self.conquer(s, seat, t)),
            AdminEffect::TradeTechnology => ev.extend(self.offer_trade(s, seat, t)),
            AdminEffect::StealTechnology | AdminEffect::Sabotage | AdminEffect::SupportRebellion => {
                ev.extend(self.espionage(s, seat, opt.what, t, rng))
            }
            AdminEffect::Cleanse => ev.extend(self.cleanse(s, seat, t)),
            AdminEffect::Held => {}
        }
        Ok(ev)
    }
}

impl R1800 {
    /// A target without a number made explicit: as many as the card finds, up to its number
    /// (RULINGS E34, E98), so that it reads as the play the seat makes.
    pub(super) fn with_count(&self, s: &State, seat: usize, what: AdminEffect, mut t: Target) -> Target {
        if t.count.is_some() {
            return t;
        }
        let me = usize::from(s.players[seat].power);
        t.count = match what {
            AdminEffect::Urbanize => t.from.and_then(|a| urbanized(s, me, a, None)),
            AdminEffect::Sabotage => t
                .seat
                .zip(t.their)
                .zip(t.res)
                .and_then(|((o, k), r)| {
                    s.players.get(usize::from(o))?.cards.get(usize::from(k))?.res.get(usize::from(r)).copied()
                })
                .and_then(|there| super::schemes::sabotaged(there, None)),
            _ => None,
        };
        t
    }
}

/// Urbanization moves "up to 2 pops" (FACTS §5.1).
const URBANIZE_MAX: u8 = 2;

/// RULING E34: how many of power `me`'s pops Urbanization moves out of countryside `from`.
fn urbanized(s: &State, me: usize, from: u16, count: Option<u8>) -> Option<u8> {
    up_to(s.provinces.get(usize::from(from))?.pops[me], URBANIZE_MAX, count)
}

/// How many a card that moves or removes "up to `max`" takes of the `there` it finds (RULINGS
/// E34, E98): the number ordered (from 1, at most `max` and no more than are there), or without
/// one as many as are there, up to `max`; `None` when that is not possible.
pub(super) fn up_to(there: u8, max: u8, count: Option<u8>) -> Option<u8> {
    let n = count.unwrap_or(there.min(max));
    (1..=max.min(there)).contains(&n).then_some(n)
}
