//! Order lines written from actions, for the order builder (issue 36, RULING E106): an admin
//! card's play with its targets, as `play` reads it, and one war action, as the war's standing
//! orders read it (`WAR MOVE Hesse TO Rheinland`). Each is the inverse of its parser; the builder
//! still keeps a line only when a sheet of it alone is answered with the very action it was
//! written from, so a target these words cannot name is left out, never misnamed.

use super::super::R1800;
use super::super::data::AdminEffect as E;
use super::super::state::{NEUTRAL, State, Substitute, Target};
use super::super::war::{CardUse, WarDeed};
use super::play::keyword;

impl R1800 {
    /// `PLAY <card> [KEYWORD] <targets> [INSTEAD …]` for option `option` of admin card `card`
    /// aimed at `t`; `None` where the words cannot name it.
    pub(in super::super) fn play_line(&self, s: &State, card: u8, option: u8, t: &Target) -> Option<String> {
        let d = self.data();
        let c = d.admin.get(usize::from(card))?;
        let opt = c.play.get(usize::from(option))?;
        let kw = keyword(opt);
        // An option without a keyword is read only as the card's first.
        if kw.is_empty() && option != 0 {
            return None;
        }
        let province = |p: Option<u16>| p.map(|p| d.province_name(p).to_string());
        let power = |seat: Option<u8>| {
            let pl = s.players.get(usize::from(seat?))?;
            Some(d.powers.get(usize::from(pl.power))?.name.clone())
        };
        let mine = |i: Option<u8>| i.map(|i| format!("#{}", u16::from(i) + 1));
        let admin = |k: &u8| d.admin.get(usize::from(*k)).map(|a| a.name.clone());
        let military = |k: &u8| d.military.get(usize::from(*k)).map(|m| m.name.clone());
        let mut w = vec![format!("PLAY {}", c.name)];
        if !kw.is_empty() {
            w.push(kw.to_string());
        }
        match opt.what {
            E::Factory | E::DrawMilitary | E::Conscription | E::Accelerate | E::Initiative => {}
            E::Factory2 => w.push(format!("SACRIFICE {}", province(t.from)?)),
            E::TradeRoute => match t.seat {
                Some(_) => w.push(format!("WITH {}", power(t.seat)?)),
                None => w.push(d.routes.get(usize::from(t.route?))?.clone()),
            },
            E::Urbanize | E::Settle => {
                if let Some(n) = t.count.filter(|_| opt.what == E::Urbanize) {
                    w.push(n.to_string());
                }
                w.push(format!("{} TO {}", province(t.from)?, province(t.to)?));
            }
            E::NewAdministration if t.discard.is_empty() => {}
            E::NewAdministration => {
                let names: Option<Vec<String>> = t.discard.iter().map(admin).collect();
                w.push(format!("DISCARD {}", names?.join(", ")));
            }
            E::FreeEnterprise if opt.shift => {
                w.push(format!("C FROM {} TO {}", mine(t.card)?, mine(t.onto)?))
            }
            E::Techpick | E::Convert | E::FreeEnterprise => w.push(format!("FROM {}", mine(t.card)?)),
            E::Retaliate => w.push(format!("ON {}", power(t.seat)?)),
            E::TradeTechnology => w.push(format!("WITH {}", power(t.seat)?)),
            E::Cleanse => {
                let owner = |o: &u8| {
                    if usize::from(*o) == NEUTRAL {
                        Some("NEUTRAL".to_string())
                    } else {
                        d.powers.get(usize::from(*o)).map(|p| p.name.clone())
                    }
                };
                let whose: Option<Vec<String>> = t.pops.iter().map(owner).collect();
                w.push(format!("{} OF {}", province(t.to)?, whose?.join(", ")));
            }
            E::Conquest => {
                w.push(province(t.to)?);
                if let Some(from) = province(t.from) {
                    w.push(format!("FROM {from}"));
                }
                if !t.military.is_empty() {
                    let names: Option<Vec<String>> = t.military.iter().map(military).collect();
                    w.push(format!("DISCARD {}", names?.join(", ")));
                }
            }
            E::StealTechnology => w.push(format!("{} FROM {}", power(t.seat)?, mine(t.card)?)),
            E::Sabotage => {
                if let Some(n) = t.count {
                    w.push(n.to_string());
                }
                let res = match t.res? {
                    0 => "F",
                    1 => "P",
                    _ => return None,
                };
                w.push(format!("{res} ON {} OF {} FROM {}", mine(t.their)?, power(t.seat)?, mine(t.card)?));
            }
            E::SupportRebellion => w.push(format!("IN {} FROM {}", province(t.to)?, mine(t.card)?)),
            E::Held => return None,
        }
        match t.instead {
            None => {}
            Some(Substitute::Commerce(i)) => w.push(format!("INSTEAD PAY C FROM {}", mine(Some(i))?)),
            Some(Substitute::Military(k)) => w.push(format!("INSTEAD DISCARD MILITARY {}", military(&k)?)),
            Some(Substitute::Discard(k)) => w.push(format!("INSTEAD DISCARD {}", admin(&k)?)),
        }
        Some(w.join(" "))
    }

    /// `WAR MOVE …`, `WAR CONSCRIPT …`, `WAR PLAY <card> …` or `WAR PASS` for one war deed.
    pub(in super::super) fn war_line(&self, deed: &WarDeed) -> Option<String> {
        let d = self.data();
        let p = |x: super::super::war::ProvinceId| d.province_name(x.0).to_string();
        Some(match deed {
            WarDeed::Move { from, to } => format!("WAR MOVE {} TO {}", p(*from), p(*to)),
            WarDeed::Conscript { at } => format!("WAR CONSCRIPT {}", p(*at)),
            WarDeed::Pass => "WAR PASS".into(),
            WarDeed::Play { card, with } => {
                let name = &d.military_cards.get(usize::from(card.0))?.name;
                match with {
                    CardUse::Bonus { at: None } | CardUse::Tradition => format!("WAR PLAY {name}"),
                    CardUse::Bonus { at: Some(at) } | CardUse::NavalBonus { at } => {
                        format!("WAR PLAY {name} ON {}", p(*at))
                    }
                    CardUse::Reinforcements { at, to: None } => format!("WAR PLAY {name} AT {}", p(*at)),
                    CardUse::Reinforcements { at, to: Some(to) } => {
                        format!("WAR PLAY {name} AT {} TO {}", p(*at), p(*to))
                    }
                    CardUse::Repositioning { moves } => {
                        let v: Vec<String> =
                            moves.iter().map(|(a, b)| format!("{} TO {}", p(*a), p(*b))).collect();
                        format!("WAR PLAY {name} {}", v.join(", "))
                    }
                    CardUse::SeaMove { from, to } => format!("WAR PLAY {name} {} TO {}", p(*from), p(*to)),
                }
            }
        })
    }
}
