//! The lines that answer one named decision each (DESIGN "Orders and decisions"): `DECLINE
//! <decision>`, `TRADE TECH` (a trade of technologies, apart from your own `TECH` pick),
//! `CONVERT <province> [OF <owner>]`, and the choices the rules leave to a player outside a card's
//! reward — `DEFICIT`, `UPKEEP`, `EVENT <event>` and `REBELLION` (RULINGS E4, E21, E22, E75) —
//! parsed here and fitted to the decision open.

use super::super::R1800;
use super::super::data::{GlobalEvent, fold};
use super::super::state::*;
use super::{Kind, Subject, bad, list, split_word, strip};
use crate::engine::{Lasting, OrderError};

/// How a food deficit is paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeficitAnswer {
    /// With the food on your cards (when they hold enough).
    Pay,
    /// With a pop of yours: the first of these provinces where you have one.
    Sacrifice(Vec<u16>),
}

/// An answer to a price in cards: pay it (with these cards, when named) or take the loss; with
/// `only`, for these routes (Unrest Overseas) or provinces (Unrest at Home, Support Rebellion)
/// alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TollAnswer {
    pub pay: bool,
    pub cards: Vec<u8>,
    pub only: Vec<u16>,
}

/// The words of `DECLINE <decision>`.
const DECLINABLE: &str = "DECLINE FACTORY, POP, REGIMENT, TECH, TRADE, CONVERT, RAID, HOSPITALS, EDUCATE, MASSACRE, MOVE, ACCELERATE or RETALIATE";

impl R1800 {
    /// One of this module's lines, if `t` is one.
    pub(super) fn parse_choice(&self, t: &str) -> Result<Option<Kind>, OrderError> {
        if let Some(rest) = strip(t, "DECLINE") {
            let subject = match fold(rest).as_str() {
                "factory" => Subject::Factory,
                "pop" => Subject::Pop,
                "regiment" | "recruit" => Subject::Regiment,
                "tech" | "technology" => Subject::Tech,
                "trade" => Subject::Trade,
                "convert" | "conversion" => Subject::Convert,
                "raid" => Subject::Raid,
                "hospitals" | "hospital" => Subject::Hospitals,
                "educate" => Subject::Educate,
                "massacre" => Subject::Massacre,
                "move" | "pop move" | "start move" => Subject::StartMove,
                "accelerate" | "accelerate development" => Subject::Accelerate,
                "retaliate" | "retaliation" => Subject::Reprisal,
                "" => return Err(bad(format!("DECLINE what? Name the decision: {DECLINABLE}"))),
                _ => return Err(bad(format!("{rest:?} is not a decision to decline: {DECLINABLE}"))),
            };
            return Ok(Some(Kind::Decline(subject)));
        }
        if let Some(rest) = strip(t, "TRADE") {
            let rest = strip(rest, "TECH").ok_or_else(|| bad("TRADE TECH <card>[, …] [WITH <power>]"))?;
            let padded = format!(" {rest}");
            let (cards, with) = match split_word(&padded, "WITH") {
                Some((c, w)) => (c.to_string(), Some(self.power(w)?)),
                None => (rest.to_string(), None),
            };
            let cards = list(&cards).map(|x| self.dev(x)).collect::<Result<Vec<_>, _>>()?;
            if cards.is_empty() {
                return Err(bad("TRADE TECH <card>[, …] [WITH <power>]"));
            }
            return Ok(Some(Kind::TradeTech { cards, with }));
        }
        if let Some(rest) = strip(t, "CONVERT") {
            let one = |x: &str| -> Result<(u16, Option<u8>), OrderError> {
                match split_word(x, "OF") {
                    Some((p, w)) => Ok((self.province(p)?, Some(self.owner(w)?))),
                    None => Ok((self.province(x)?, None)),
                }
            };
            let v = list(rest).map(one).collect::<Result<Vec<_>, _>>()?;
            if v.is_empty() {
                return Err(bad("CONVERT <province> [OF <power or NEUTRAL>][, …]"));
            }
            return Ok(Some(Kind::Convert(v)));
        }
        if let Some(rest) = strip(t, "DEFICIT") {
            let usage =
                "DEFICIT PAY (food from your cards), DEFICIT SACRIFICE <province>[, …], or DEFICIT NONE";
            return Ok(Some(Kind::Deficit(match fold(rest).as_str() {
                "pay" => Some(DeficitAnswer::Pay),
                "none" => None,
                _ => {
                    let ps = strip(rest, "SACRIFICE").ok_or_else(|| bad(usage))?;
                    let ps = list(ps).map(|x| self.province(x)).collect::<Result<Vec<_>, _>>()?;
                    if ps.is_empty() {
                        return Err(bad(usage));
                    }
                    Some(DeficitAnswer::Sacrifice(ps))
                }
            })));
        }
        if let Some(rest) = strip(t, "UPKEEP") {
            let cards = strip(rest, "DISCARD").ok_or_else(|| bad("UPKEEP DISCARD <admin card>[, …]"))?;
            let cards = list(cards).map(|x| self.admin(x)).collect::<Result<Vec<_>, _>>()?;
            if cards.is_empty() {
                return Err(bad("UPKEEP DISCARD <admin card>[, …]"));
            }
            return Ok(Some(Kind::Upkeep(cards)));
        }
        if let Some(rest) = strip(t, "EVENT") {
            let (event, tail) = self.event_named(rest)?;
            return Ok(Some(Kind::Event { event, answer: self.toll_answer(Some(event), &tail)? }));
        }
        if let Some(rest) = strip(t, "REBELLION") {
            return Ok(Some(Kind::Rebellion(self.toll_answer(None, rest)?)));
        }
        Ok(None)
    }

    /// The global event a line names, and the words after its name.
    fn event_named(&self, rest: &str) -> Result<(GlobalEvent, String), OrderError> {
        let folded = fold(rest);
        let events = &self.data().events;
        let Some(c) =
            events.iter().filter(|c| folded.starts_with(&fold(&c.name))).max_by_key(|c| c.name.len())
        else {
            // The words a misspelt name takes up: as many as the nearest name has.
            let near = events
                .iter()
                .map(|c| {
                    let k = c.name.split_whitespace().count();
                    let head: Vec<&str> = rest.split_whitespace().take(k).collect();
                    super::names::nearest(&head.join(" "), [c.name.as_str()])
                })
                .find(|n| !n.is_empty())
                .unwrap_or_default();
            return Err(bad(format!(
                "no global event is called {rest:?}{near}: EVENT <event> PAY|LOSE|ACCEPT|NONE"
            )));
        };
        let words = c.name.split_whitespace().count();
        Ok((c.effect, rest.split_whitespace().skip(words).collect::<Vec<_>>().join(" ")))
    }

    /// `PAY [WITH <card>, …] [FOR <route or province>, …]`, `LOSE [FOR …]`, `ACCEPT`, or `NONE`
    /// (withdrawing a standing answer: `None`). `event` is `None` for Support Rebellion.
    fn toll_answer(&self, event: Option<GlobalEvent>, tail: &str) -> Result<Option<TollAnswer>, OrderError> {
        use GlobalEvent as G;
        let revolution = matches!(event, Some(G::LiberalRevolution | G::RisingFascism));
        let (no, usage) = if revolution {
            ("ACCEPT", "PAY [WITH <card>, …], ACCEPT or NONE")
        } else {
            ("LOSE", "PAY [WITH <card>, …] [FOR <route or province>, …], LOSE [FOR …] or NONE")
        };
        if !matches!(
            event,
            None | Some(G::UnrestOverseas | G::UnrestAtHome | G::LiberalRevolution | G::RisingFascism)
        ) {
            return Err(bad(
                "that global event asks no choice of you: EVENT answers Unrest Overseas, Unrest at Home, Liberal Revolution and Rising Fascism",
            ));
        }
        let padded = format!(" {tail} ");
        let (head, only) = match split_word(&padded, "FOR") {
            Some((h, f)) if !revolution => {
                let only = list(f)
                    .map(|x| match event {
                        Some(G::UnrestOverseas) => self.route(x).map(u16::from),
                        _ => self.province(x),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                (h.to_string(), only)
            }
            Some(_) => return Err(bad(format!("a revolution is answered for your whole nation: {usage}"))),
            None => (tail.trim().to_string(), Vec::new()),
        };
        if fold(&head) == "none" && only.is_empty() {
            return Ok(None);
        }
        if fold(&head) == fold(no) {
            return Ok(Some(TollAnswer { pay: false, cards: Vec::new(), only }));
        }
        let pay = strip(&head, "PAY").ok_or_else(|| bad(usage))?;
        let cards = match strip(pay, "WITH") {
            Some(c) if event == Some(G::RisingFascism) => {
                list(c).map(|x| self.admin(x)).collect::<Result<_, _>>()?
            }
            Some(c) => list(c).map(|x| self.military(x)).collect::<Result<_, _>>()?,
            None if pay.is_empty() => Vec::new(),
            None => return Err(bad(usage)),
        };
        Ok(Some(TollAnswer { pay: true, cards, only }))
    }

    /// A standing answer's key (HR 12): a later line with the same key replaces it.
    pub(super) fn standing(&self, k: &Kind) -> Option<Lasting> {
        match k {
            Kind::Event { event, answer } => Some(Lasting {
                key: format!("EVENT {}", self.event_name(*event).to_ascii_uppercase()),
                withdraws: answer.is_none(),
            }),
            Kind::Rebellion(a) => Some(Lasting { key: "REBELLION".into(), withdraws: a.is_none() }),
            Kind::Deficit(a) => Some(Lasting { key: "DEFICIT".into(), withdraws: a.is_none() }),
            _ => None,
        }
    }

    /// The action a line of this module takes at the open choice, with its note: `Ok(None)` when
    /// the line does not speak to this particular choice (a toll for another route), `Err` with
    /// the reason when it cannot be carried out.
    pub(super) fn fit_owed(
        &self,
        p: Pending,
        k: &Kind,
        legal: &[Action],
    ) -> Result<Option<(Action, String)>, String> {
        let d = self.data();
        match (k, p.choice) {
            (Kind::Deficit(Some(DeficitAnswer::Pay)), Choice::Deficit { food }) => legal
                .contains(&Action::Feed)
                .then(|| Some((Action::Feed, format!("paid the food deficit of {food} from your cards"))))
                .ok_or_else(|| format!("your cards hold less food than the deficit of {food}")),
            (Kind::Deficit(Some(DeficitAnswer::Sacrifice(ps))), Choice::Deficit { .. }) => ps
                .iter()
                .find(|&&q| legal.contains(&Action::Sacrifice(q)))
                .map(|&q| Some((Action::Sacrifice(q), format!("sacrificed a pop in {}", d.province_name(q)))))
                .ok_or_else(|| "you have no pop in the provinces named".to_string()),
            (Kind::Upkeep(cards), Choice::Upkeep { .. }) => cards
                .iter()
                .find(|&&c| legal.contains(&Action::DiscardAdmin(c)))
                .map(|&c| {
                    Some((Action::DiscardAdmin(c), format!("discarded {}", d.admin[usize::from(c)].name)))
                })
                .ok_or_else(|| "you hold none of the admin cards named".to_string()),
            (Kind::Event { answer: Some(a), .. } | Kind::Rebellion(Some(a)), Choice::Toll(t)) => {
                let at = match t {
                    Toll::Route(r) => Some(u16::from(r)),
                    Toll::Regiment(q) | Toll::Rebellion { province: q, .. } => Some(q),
                    Toll::Revolution { .. } => None,
                };
                if !a.only.is_empty() && !at.is_some_and(|x| a.only.contains(&x)) {
                    return Ok(None);
                }
                if !a.pay {
                    return Ok(Some((Action::Skip, "took the loss rather than pay".into())));
                }
                let mut cards = a.cards.clone();
                cards.sort_unstable();
                let pay = legal.iter().find(|x| match x {
                    Action::Pay(c) => cards.is_empty() || *c == cards,
                    _ => false,
                });
                pay.map(|x| Some((x.clone(), "paid in cards".to_string())))
                    .ok_or_else(|| "you do not hold the cards to pay with".to_string())
            }
            _ => Ok(None),
        }
    }
}
