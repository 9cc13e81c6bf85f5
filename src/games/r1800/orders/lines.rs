//! Order lines written from actions, for the order builder (issue 36, RULING E106): an admin
//! card's play with its targets, as `play` reads it, and one war action, as the war's standing
//! orders read it (`WAR MOVE Hesse TO Rheinland`). Each is the inverse of its parser; the builder
//! still keeps a line only when a sheet of it alone is answered with the very action it was
//! written from, so a target these words cannot name is left out, never misnamed.

use super::super::R1800;
use super::super::data::AdminEffect as E;
use super::super::data::GlobalEvent;
use super::super::state::{Action, Choice, NEUTRAL, Pending, Stage, State, Substitute, Target, Toll};
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

    /// The order line for one legal action, `None` for an action the builder leaves to the guide
    /// (the end of a step, and choices outside the seat's own turn and the war).
    pub(in super::super) fn line_of(&self, s: &State, a: &Action) -> Option<String> {
        let d = self.data();
        let p = |x: u16| d.province_name(x).to_string();
        let res = ["F", "P", "C"];
        let owner_name = |o: u8| -> Option<String> {
            if usize::from(o) == NEUTRAL {
                Some("NEUTRAL".into())
            } else {
                Some(d.powers.get(usize::from(o))?.name.clone())
            }
        };
        Some(match a {
            Action::Pick(k) => format!("DRAFT {}", d.dev_name(*s.offer.get(usize::from(*k))?)),
            Action::PassPick => "DRAFT PASS".into(),
            Action::Place { card, res: r } => format!("PLACE {} ON #{}", res.get(usize::from(*r))?, card + 1),
            Action::Activate { card, discard } if discard.is_empty() => format!("ACTIVATE #{}", card + 1),
            Action::Activate { card, discard } => {
                format!("ACTIVATE #{} DISCARD {}", card + 1, names(&d.admin, discard, |x| &x.name)?)
            }
            // A card activated by admin cards alone (RULING E79).
            Action::ActivateAlone { card, discard, military } if military.is_empty() => {
                format!("ACTIVATE #{} ALONE DISCARD {}", card + 1, names(&d.admin, discard, |x| &x.name)?)
            }
            // Police State's military card instead (RULING E83); the words name no admin card
            // beside it.
            Action::ActivateAlone { card, discard, military } if discard.is_empty() => {
                let cards = names(&d.military, military, |x| &x.name)?;
                format!("ACTIVATE #{} ALONE DISCARD MILITARY {cards}", card + 1)
            }
            // FACTS §4.1 Corporations, §4.3 Hospitals (RULING E78).
            Action::Incorporate(None) => "INCORPORATE".into(),
            Action::Incorporate(Some(i)) => format!("INCORPORATE ON #{}", i + 1),
            Action::Heal { card, pop } => {
                format!("HOSPITALS {} FROM #{}", if *pop { "POP" } else { "Y" }, card + 1)
            }
            // A global event's price or Support Rebellion's (RULINGS E21, E75).
            Action::Pay(_) | Action::Skip
                if matches!(s.pending.first(), Some(Pending { choice: Choice::Toll(_), .. })) =>
            {
                self.toll_line(s, a)?
            }
            Action::Shift { from, to } => format!("MOVE C FROM #{} TO #{}", from + 1, to + 1),
            Action::Educate { from, to } => format!("EDUCATE {} TO {}", p(*from), p(*to)),
            Action::Convert { province, owner } => {
                format!("CONVERT {} OF {}", p(*province), owner_name(*owner)?)
            }
            Action::Massacre { province, owner } => {
                format!("MASSACRE {} OF {}", p(*province), owner_name(*owner)?)
            }
            Action::Raid { seat, route } => {
                let power = s.players.get(usize::from(*seat))?.power;
                format!(
                    "RAID {} ON {}",
                    d.powers.get(usize::from(power))?.name,
                    d.routes.get(usize::from(*route))?
                )
            }
            Action::Migrate { from, to } => format!("MIGRATE {} TO {}", p(*from), p(*to)),
            Action::MovePop { from, to } => format!("MOVE POP {} TO {}", p(*from), p(*to)),
            Action::MoveRegiment { from, to } => format!("MOVE REGIMENT {} TO {}", p(*from), p(*to)),
            Action::Build(x) => format!("BUILD {}", p(*x)),
            Action::Grow(x) => format!("GROW {}", p(*x)),
            Action::Recruit(x) => format!("RECRUIT {}", p(*x)),
            Action::Tech(c) => format!("TECH {}", d.dev_name(*c)),
            Action::Feed => "DEFICIT PAY".into(),
            Action::Sacrifice(x) => format!("DEFICIT SACRIFICE {}", p(*x)),
            Action::DiscardAdmin(c) => format!("UPKEEP DISCARD {}", d.admin.get(usize::from(*c))?.name),
            Action::DiscardMilitary(c) => {
                format!("DISCARD MILITARY {}", d.military.get(usize::from(*c))?.name)
            }
            Action::Skip if matches!(s.stage, Stage::Call { .. }) => "DECLINE ACCELERATE".into(),
            Action::Skip if matches!(s.stage, Stage::Reprisal { .. }) => "DECLINE RETALIATE".into(),
            Action::Admin { card, option, target } => self.play_line(s, *card, *option, target)?,
            Action::War(w) => self.war_line(&w.deed)?,
            Action::Retaliate(w) => format!("RETALIATE ON {}", d.powers.get(usize::from(*w))?.name),
            Action::Declare(w) => format!("DECLARE WAR ON {}", d.powers.get(usize::from(*w))?.name),
            _ => return None,
        })
    }

    /// `EVENT <event> PAY WITH <cards> FOR <route or province>`, `… LOSE FOR …` (`… ACCEPT` for a
    /// revolution, answered for the whole nation) or `REBELLION …`, for the toll open now: the
    /// `FOR` keeps the standing answer to this one toll (RULINGS E21, E75).
    fn toll_line(&self, s: &State, a: &Action) -> Option<String> {
        let d = self.data();
        let Some(Pending { choice: Choice::Toll(t), .. }) = s.pending.first() else { return None };
        let (head, place) = match t {
            Toll::Route(r) => {
                (self.event_words(GlobalEvent::UnrestOverseas), d.routes.get(usize::from(*r)).cloned())
            }
            Toll::Regiment(q) => {
                (self.event_words(GlobalEvent::UnrestAtHome), Some(d.province_name(*q).to_string()))
            }
            Toll::Revolution { liberal: true } => (self.event_words(GlobalEvent::LiberalRevolution), None),
            Toll::Revolution { liberal: false } => (self.event_words(GlobalEvent::RisingFascism), None),
            Toll::Rebellion { province, .. } => {
                ("REBELLION".into(), Some(d.province_name(*province).to_string()))
            }
        };
        let answer = match a {
            Action::Skip if matches!(t, Toll::Revolution { .. }) => "ACCEPT".to_string(),
            Action::Skip => "LOSE".to_string(),
            // Rising Fascism is paid in admin cards, the rest in military cards.
            Action::Pay(cards) if matches!(t, Toll::Revolution { liberal: false }) => {
                format!("PAY WITH {}", names(&d.admin, cards, |x| &x.name)?)
            }
            Action::Pay(cards) => format!("PAY WITH {}", names(&d.military, cards, |x| &x.name)?),
            _ => return None,
        };
        Some(match place {
            Some(p) => format!("{head} {answer} FOR {p}"),
            None => format!("{head} {answer}"),
        })
    }

    /// `EVENT <the event's name>`.
    fn event_words(&self, e: GlobalEvent) -> String {
        format!("EVENT {}", self.event_name(e))
    }
}

/// The names of these cards of `deck`, joined by commas; `None` where one is not in it.
fn names<T>(deck: &[T], cards: &[u8], name: impl Fn(&T) -> &String) -> Option<String> {
    let v: Option<Vec<&str>> =
        cards.iter().map(|c| deck.get(usize::from(*c)).map(|x| name(x).as_str())).collect();
    Some(v?.join(", "))
}
