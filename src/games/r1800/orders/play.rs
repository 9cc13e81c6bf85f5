//! The PLAY order: an admin card, the option named by its keyword, and what it aims at
//! (docs/1800-orders.md), parsed against the data and resolved on the position when tried.

use super::super::R1800;
use super::super::data::fold;
use super::super::state::*;
use super::{CardRef, InsteadRef, Kind, PlayArgs, bad, list, split_word, strip};
use crate::engine::OrderError;

impl R1800 {
    pub(super) fn parse_play(&self, rest: &str) -> Result<Kind, OrderError> {
        let d = self.data();
        let (rest, instead) = match split_word(rest, "INSTEAD") {
            Some((a, b)) => (a, Some(self.instead_arg(b)?)),
            None => (rest, None),
        };
        let folded = fold(rest);
        let (card, c) = d
            .admin
            .iter()
            .enumerate()
            .filter(|(_, c)| folded.starts_with(&fold(&c.name)))
            .max_by_key(|(_, c)| c.name.len())
            .ok_or_else(|| bad(format!("no admin card is called {rest:?}")))?;
        // The words after the card's name: skip as many words as the name has.
        let words = c.name.split_whitespace().count();
        let tail: String = rest.split_whitespace().skip(words).collect::<Vec<_>>().join(" ");
        // The option is named by its keyword (FACTORY, CONQUEST, …); without one, the first.
        let first = tail.split_whitespace().next().unwrap_or("");
        let (option, tail) = match c.play.iter().position(|o| {
            let k = keyword(o);
            !k.is_empty() && k.eq_ignore_ascii_case(first)
        }) {
            Some(k) => (k, tail.split_whitespace().skip(1).collect::<Vec<_>>().join(" ")),
            None => (0, tail),
        };
        let opt = c.play[option];
        let mut a = PlayArgs { option: option as u8, ..PlayArgs::default() };
        let name = &c.name;
        let how = |what: &str| bad(format!("PLAY {name} {what}"));
        use super::super::data::AdminEffect as E;
        match opt.what {
            E::Factory | E::DrawMilitary | E::Conscription | E::Accelerate | E::Initiative
                if tail.is_empty() => {}
            E::Factory | E::DrawMilitary => {
                return Err(bad(format!("PLAY {name} FACTORY, or PLAY {name} MILITARY")));
            }
            E::Conscription | E::Accelerate | E::Initiative => {
                return Err(bad(format!("PLAY {name} takes nothing more")));
            }
            E::Factory2 => {
                a.from = Some(
                    self.province(strip(&tail, "SACRIFICE").ok_or_else(|| how("SACRIFICE <province>"))?)?,
                )
            }
            E::TradeRoute => match strip(&tail, "WITH") {
                Some(p) => a.power = Some(self.power(p)?),
                None => a.route = Some(self.route(&tail)?),
            },
            // RULING E34: `PLAY Urbanization [1|2] <countryside> TO <city>`.
            E::Urbanize => {
                let (n, rest) = count_first(&tail);
                if n.is_some_and(|n| !(1..=2).contains(&n)) {
                    return Err(how("[1|2] <countryside> TO <city>: it moves up to 2 pops"));
                }
                let (f, t) = self.two(rest)?;
                (a.from, a.to, a.count) = (Some(f), Some(t), n);
            }
            E::Settle => {
                let (f, t) = self.two(&tail)?;
                (a.from, a.to) = (Some(f), Some(t));
            }
            E::NewAdministration => {
                if let Some(x) = strip(&tail, "DISCARD") {
                    a.discard = list(x).map(|n| self.admin(n)).collect::<Result<_, _>>()?;
                } else if !tail.is_empty() {
                    return Err(how("[DISCARD <card>, …]"));
                }
            }
            E::FreeEnterprise if opt.shift => {
                let x = strip(&tail, "C")
                    .and_then(|x| strip(x, "FROM"))
                    .ok_or_else(|| how("MOVE C FROM <Financial Institution> TO <Stock Exchange>"))?;
                let (f, t) = split_word(x, "TO")
                    .ok_or_else(|| how("MOVE C FROM <Financial Institution> TO <Stock Exchange>"))?;
                (a.card, a.onto) = (Some(self.card_ref(f)?), Some(self.card_ref(t)?));
            }
            E::Techpick | E::Convert | E::FreeEnterprise => {
                let x = strip(&tail, "FROM").ok_or_else(|| how("FROM <your card paying 1 C>"))?;
                a.card = Some(self.card_ref(x)?);
            }
            E::Retaliate => a.power = Some(self.power(strip(&tail, "ON").unwrap_or(&tail))?),
            E::TradeTechnology => a.power = Some(self.power(strip(&tail, "WITH").unwrap_or(&tail))?),
            E::Cleanse => {
                let usage = || how("CLEANSE <province> OF <power or NEUTRAL>[, <power or NEUTRAL>]");
                let (p, whose) = split_word(&tail, "OF").ok_or_else(usage)?;
                a.to = Some(self.province(p)?);
                a.pops = list(whose)
                    .map(|w| {
                        if fold(w) == "neutral" { Ok(NEUTRAL as u8) } else { self.power(w).map(|i| i as u8) }
                    })
                    .collect::<Result<_, _>>()?;
                if !(1..=2).contains(&a.pops.len()) {
                    return Err(usage());
                }
            }
            E::Conquest => self
                .conquest_args(&tail, &mut a)
                .map_err(|_| how("CONQUEST <province> [FROM <province>] [DISCARD <military card>, …]"))?,
            E::StealTechnology | E::Sabotage | E::SupportRebellion => {
                self.espionage_args(opt.what, &tail, &mut a)?
            }
            _ => return Err(bad(format!("{name} cannot be played by order in this engine yet"))),
        }
        a.instead = instead;
        Ok(Kind::Play { card: card as u8, args: a })
    }

    /// What follows `INSTEAD`.
    fn instead_arg(&self, t: &str) -> Result<InsteadRef, OrderError> {
        let usage =
            "INSTEAD PAY C FROM <card>, INSTEAD DISCARD MILITARY <card> or INSTEAD DISCARD <admin card>";
        if let Some(x) = strip(t, "PAY").and_then(|x| strip(x, "C")).and_then(|x| strip(x, "FROM")) {
            return Ok(InsteadRef::Commerce(self.card_ref(x)?));
        }
        let x = strip(t, "DISCARD").ok_or_else(|| bad(usage))?;
        match strip(x, "MILITARY") {
            Some(m) => Ok(InsteadRef::Military(self.military(m)?)),
            None => Ok(InsteadRef::Discard(self.admin(x)?)),
        }
    }

    /// `<province> [FROM <province>] [DISCARD <military card>, …]`.
    fn conquest_args(&self, tail: &str, a: &mut PlayArgs) -> Result<(), OrderError> {
        let padded = format!("{tail} ");
        let (head, cards) = split_word(&padded, "DISCARD").unwrap_or((tail, ""));
        a.military = list(cards).map(|x| self.military(x)).collect::<Result<_, _>>()?;
        match split_word(head, "FROM") {
            Some((to, from)) => (a.to, a.from) = (Some(self.province(to)?), Some(self.province(from)?)),
            None if !head.is_empty() => a.to = Some(self.province(head)?),
            None => return Err(bad("")),
        }
        Ok(())
    }

    /// Espionage: `STEAL <power> FROM <card>`, `SABOTAGE P|F ON <card> OF <power> FROM <card>`,
    /// `REBELLION [IN] <province> FROM <card>`.
    fn espionage_args(
        &self,
        what: super::super::data::AdminEffect,
        tail: &str,
        a: &mut PlayArgs,
    ) -> Result<(), OrderError> {
        use super::super::data::AdminEffect as E;
        let usage = match what {
            E::StealTechnology => "PLAY Espionage STEAL <power> FROM <your card paying 1 C>",
            E::Sabotage => {
                "PLAY Espionage SABOTAGE [1|2|3] P|F ON <card> OF <power> FROM <your card paying 1 C>"
            }
            _ => "PLAY Espionage REBELLION IN <province> FROM <your card paying 1 C>",
        };
        let (aim, payer) = split_word(tail, "FROM").ok_or_else(|| bad(usage))?;
        a.card = Some(self.card_ref(payer)?);
        match what {
            E::StealTechnology => a.power = Some(self.power(aim)?),
            E::Sabotage => {
                // RULING E98: how many, 1 to 3, before the resource.
                let (n, aim) = count_first(aim);
                if n.is_some_and(|n| !(1..=3).contains(&n)) {
                    return Err(bad(usage));
                }
                a.count = n;
                let (res, rest) = aim.split_once(' ').ok_or_else(|| bad(usage))?;
                a.res = Some(match fold(res).as_str() {
                    "p" | "production" => 1,
                    "f" | "food" => 0,
                    _ => return Err(bad(usage)),
                });
                let rest = strip(rest, "ON").ok_or_else(|| bad(usage))?;
                let (card, power) = split_word(rest, "OF").ok_or_else(|| bad(usage))?;
                (a.their, a.power) = (Some(self.card_ref(card)?), Some(self.power(power)?));
            }
            _ => a.to = Some(self.province(strip(aim, "IN").unwrap_or(aim))?),
        }
        Ok(())
    }

    /// The target an admin card play names, resolved on the position (cards by reference, a
    /// power's seat, the military cards a Conquest costs when none are named).
    pub(super) fn play_target(&self, s: &State, seat: usize, args: &PlayArgs) -> Result<Target, String> {
        let mut t = Target {
            from: args.from,
            to: args.to,
            route: args.route,
            discard: args.discard.clone(),
            military: args.military.clone(),
            pops: args.pops.clone(),
            res: args.res.map(|r| r as u8),
            count: args.count,
            ..Target::default()
        };
        t.seat = args.power.and_then(|p| s.seat_of(p));
        if args.power.is_some() && t.seat.is_none() {
            return Err("that power is not in the game".into());
        }
        let mine = |r: &CardRef, pred: &dyn Fn(&Held) -> bool| {
            self.cards_named(s, seat, r)
                .into_iter()
                .find(|&i| pred(&s.players[seat].cards[i]))
                .map(|i| i as u8)
        };
        if let Some(c) = &args.card {
            t.card = mine(c, &|h| h.res[C] > 0);
        }
        if let Some(c) = &args.onto {
            let d = self.data();
            t.onto = mine(c, &|h| h.res[C] < d.dev[usize::from(h.card)].slots[C]);
        }
        if let (Some(c), Some(o), Some(r)) = (&args.their, t.seat, args.res) {
            let o = usize::from(o);
            t.their = self
                .cards_named(s, o, c)
                .into_iter()
                .find(|&i| s.players[o].cards[i].res[r] > 0)
                .map(|i| i as u8);
        }
        t.instead = match &args.instead {
            None => None,
            Some(InsteadRef::Commerce(r)) => Some(Substitute::Commerce(
                mine(r, &|h| h.res[C] > 0).ok_or("you have no such card with commerce to pay instead")?,
            )),
            Some(InsteadRef::Military(k)) => Some(Substitute::Military(*k)),
            Some(InsteadRef::Discard(k)) => Some(Substitute::Discard(*k)),
        };
        if t.military.is_empty() && t.to.is_some() {
            t.military = self
                .conquest_targets(s, seat)
                .into_iter()
                .find(|x| x.to == t.to && x.from == t.from)
                .map(|x| x.military)
                .unwrap_or_default();
        }
        Ok(t)
    }
}

/// A leading number (`2 Champagne TO Paris`): the number, and the words after it.
fn count_first(t: &str) -> (Option<u8>, &str) {
    let t = t.trim_start();
    match t.split_once(' ') {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (Some(n.parse().unwrap_or(u8::MAX)), rest.trim_start())
        }
        _ => (None, t),
    }
}

/// The word naming an option of a card with several (`PLAY Seize Production MILITARY`).
pub(super) fn keyword(o: &super::super::data::AdminOption) -> &'static str {
    use super::super::data::AdminEffect as E;
    match o.what {
        E::Factory => "FACTORY",
        E::DrawMilitary => "MILITARY",
        E::Settle => "SETTLE",
        E::Cleanse => "CLEANSE",
        E::Conquest => "CONQUEST",
        E::Retaliate => "RETALIATE",
        E::TradeTechnology => "TRADE",
        E::StealTechnology => "STEAL",
        E::Sabotage => "SABOTAGE",
        E::SupportRebellion => "REBELLION",
        E::FreeEnterprise if o.shift => "MOVE",
        _ => "",
    }
}
