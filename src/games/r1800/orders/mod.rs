//! The 1800 order language (docs/1800-orders.md): one order per line, parsed into typed orders
//! with the names resolved against the data; `answer` turns a sheet into actions at each
//! decision.

mod answer;
mod choices;
mod decision;
mod echo;
mod lines;
mod names;
mod play;
#[cfg(test)]
pub(super) mod tests;

pub use choices::{DeficitAnswer, TollAnswer};
pub use decision::Subject;

use super::R1800;
use super::data::{GlobalEvent, fold};
use super::state::{Action, NEUTRAL, State};
use crate::engine::{Answer, Decision, LineNote, OrderError, OrderSheet, Orders, Rules, Setup};
use std::fmt;

/// A card of your tableau: by its number in your view (`#3`) or by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardRef {
    Number(u8),
    Named(u16),
}

/// A preference in a draft list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pref {
    Card(u16),
    Pass,
}

/// A condition of `IF … THEN … ELSE …`, read on the position when the line is tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// Your unplaced food / production / commerce is at least n.
    Supply(usize, u8),
    /// Your prosperity is at least n.
    Prosperity(u8),
    /// The round (1–24) is at least n.
    Round(u8),
    /// You hold this admin card (a secret: the line is never published).
    Holds(u8),
    /// This development card is in force in your tableau (`HOLD <development card>`).
    HasCard(u16),
    /// You hold at least n military cards (`MILITARY >= n`; a secret, as for admin cards).
    Military(u8),
    /// A war involving you was declared this round (`AT WAR [WITH <power>]`).
    AtWar(Option<usize>),
    /// You control this province.
    Controls(u16),
    /// The negation.
    Not(Box<Cond>),
}

/// What an admin card play names.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayArgs {
    pub option: u8,
    pub from: Option<u16>,
    pub to: Option<u16>,
    pub route: Option<u8>,
    pub power: Option<usize>,
    pub card: Option<CardRef>,
    pub discard: Vec<u8>,
    /// A second card of yours (Free Enterprise's Stock Exchange).
    pub onto: Option<CardRef>,
    /// A card of another power's (Sabotage).
    pub their: Option<CardRef>,
    /// A resource index (Sabotage).
    pub res: Option<usize>,
    /// Military cards to discard (Conquest); empty: the first of your hand.
    pub military: Vec<u8>,
    /// The owners of the pops to remove (Cleanse).
    pub pops: Vec<u8>,
    /// What pays a prosperity cost you cannot pay (`INSTEAD …`, RULING E77).
    pub instead: Option<InsteadRef>,
    /// How many, where the card says "up to" (Urbanization, RULING E34; Sabotage, RULING E98);
    /// `None`: as many as there are, up to the card's number.
    pub count: Option<u8>,
}

/// `INSTEAD PAY C FROM <card>` (Oligarchy), `INSTEAD DISCARD MILITARY <card>` (Police State),
/// `INSTEAD DISCARD <admin card>` (Propaganda Campaign).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InsteadRef {
    Commerce(CardRef),
    Military(u8),
    Discard(u8),
}

/// One order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Draft(Vec<Pref>),
    Place {
        n: u8,
        res: usize,
        card: CardRef,
    },
    Activate {
        card: CardRef,
        discard: Vec<u8>,
        /// `ACTIVATE <card> ALONE …`: the card's activation by admin cards alone (RULING E79).
        alone: bool,
        /// `… ALONE DISCARD MILITARY <card>`: Police State's military card (RULING E83).
        military: Vec<u8>,
    },
    Play {
        card: u8,
        args: PlayArgs,
    },
    Build(Vec<u16>),
    Grow(Vec<u16>),
    Recruit(Vec<u16>),
    /// Your own technology pick (Research Institution, Research Grants).
    Tech(Vec<u16>),
    /// A technology taken in a trade (Diplomatic Action): agreeing to a trade offered to you,
    /// or your pick once the partner agreed; with `with`, only a trade with that power.
    TradeTech {
        cards: Vec<u16>,
        with: Option<usize>,
    },
    /// Conversions, tried in order: a province and, if named, whose pop.
    Convert(Vec<(u16, Option<u8>)>),
    DiscardMilitary(Vec<u8>),
    Raid {
        power: usize,
        route: u8,
    },
    /// Declines the decision it names, and no other.
    Decline(Subject),
    MovePop {
        from: u16,
        to: u16,
    },
    MoveRegiment {
        from: u16,
        to: u16,
    },
    Migrate {
        from: u16,
        to: u16,
    },
    If {
        cond: Cond,
        then: Box<Kind>,
        otherwise: Option<Box<Kind>>,
    },
    /// A standing war order (`WAR …`, the war procedure's language: `war::orders`).
    War(super::war::WarStandingOrder),
    /// A Financial Institution's commerce moved to another card (RULING E66).
    Shift {
        from: CardRef,
        to: CardRef,
    },
    /// The Conquest ambition's declaration at the end of the turn (a power's index).
    Declare(usize),
    /// A wronged power's declaration at the round's end on the wrongdoer, by playing a
    /// Diplomatic Action (RULING E72; a power's index).
    Retaliate(usize),
    /// Corporations: prosperity (and commerce on this Stock Exchange) instead of a factory.
    Incorporate(Option<CardRef>),
    /// Hospitals at pop growth: one more pop (`pop`) or 1 prosperity, paid by the named card.
    Hospital {
        pop: bool,
        card: Option<CardRef>,
    },
    /// Public Schools' moves, tried in order (`EDUCATE <from> TO <city>[, …]`, RULING E80).
    Educate(Vec<(u16, u16)>),
    /// Secret Police's massacre, tried in order: a province and, if named, whose pop
    /// (`MASSACRE <province> [OF <power or NEUTRAL>][, …]`, RULING E81).
    Massacre(Vec<(u16, Option<u8>)>),
    /// How a food deficit is paid (`DEFICIT PAY`, `DEFICIT SACRIFICE <province>, …`); `None`
    /// withdraws a standing answer (`DEFICIT NONE`).
    Deficit(Option<DeficitAnswer>),
    /// The admin cards an upkeep discards, in order of preference (`UPKEEP DISCARD …`).
    Upkeep(Vec<u8>),
    /// A standing answer to a global event's price (`EVENT <event> PAY|LOSE|ACCEPT …`);
    /// `None` withdraws it (`EVENT <event> NONE`).
    Event {
        event: GlobalEvent,
        answer: Option<TollAnswer>,
    },
    /// A standing answer to Support Rebellion against your regiment (`REBELLION PAY|LOSE …`);
    /// `None` withdraws it.
    Rebellion(Option<TollAnswer>),
}

/// One parsed order line (its text kept for reports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub text: String,
    pub kind: Kind,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn bad(why: impl Into<String>) -> OrderError {
    OrderError(why.into())
}

/// Splits `text` at the first ` WORD ` (any case), e.g. " TO ".
fn split_word<'a>(text: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    let up = text.to_ascii_uppercase();
    let pat = format!(" {word} ");
    let i = up.find(&pat)?;
    Some((text[..i].trim(), text[i + pat.len()..].trim()))
}

/// Strips a leading keyword (any case).
fn strip<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let t = text.trim_start();
    let n = word.len();
    // `get`, not indexing: the keyword's length may fall inside a player's multi-byte character
    // (a fuzz finding, `the_parser_refuses_a_line_with_a_multibyte_character_where_a_keyword_ends`).
    let (head, rest) = (t.get(..n)?, t.get(n..)?);
    (head.eq_ignore_ascii_case(word) && (rest.is_empty() || rest.starts_with(' '))).then(|| rest.trim())
}

impl Orders for R1800 {
    type Order = Order;

    /// Parses one line.
    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        let text = line.trim().to_string();
        let kind = self.parse_kind(&text)?;
        Ok(Order { text, kind })
    }

    fn answer(&self, s: &State, _decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, sheet).or_default_if_ordered(sheet, || self.default_action(s))
    }

    /// Issue 36: the order builder's lines (`crate::games::r1800::choices`).
    fn choices(&self, s: &State, seat: crate::engine::Seat) -> Vec<crate::engine::Choices> {
        self.choices_of(s, seat)
    }

    /// Standing answers last until withdrawn (HR 12 in the shared layer): `EVENT <event> …` (the
    /// global events' prices are asked at the round's start), `REBELLION …` and `DEFICIT …`.
    fn lasting(&self, o: &Order) -> Option<crate::engine::Lasting> {
        self.standing(&o.kind)
    }

    /// The echo: each line's decision, and what the position says of it now (`echo`).
    fn advise_sheet(
        &self,
        s: &State,
        seat: crate::engine::Seat,
        orders: &[crate::engine::Numbered<Order>],
    ) -> Vec<Option<String>> {
        self.advise_lines(s, seat.index(), orders)
    }

    /// RULING E32: the lines published are those carried out, except DRAFT lists and IF lines
    /// (their unplayed preferences, conditions and alternatives stay hashes).
    fn public_lines(
        &self,
        sheet: &OrderSheet<Order>,
        notes: &[LineNote],
    ) -> std::collections::BTreeSet<usize> {
        let private: std::collections::BTreeSet<usize> = sheet
            .orders
            .iter()
            .filter(|o| matches!(o.order.kind, Kind::Draft(_) | Kind::If { .. }))
            .map(|o| o.line)
            .collect();
        crate::engine::executed_lines(notes).into_iter().filter(|l| !private.contains(l)).collect()
    }
}

impl R1800 {
    fn parse_kind(&self, t: &str) -> Result<Kind, OrderError> {
        if let Some(rest) = strip(t, "IF") {
            let (cond, rest) = split_word(rest, "THEN")
                .ok_or_else(|| bad("IF needs THEN: IF <condition> THEN <order> [ELSE <order>]"))?;
            let (then, otherwise) = match split_word(rest, "ELSE") {
                Some((a, b)) => (a, Some(Box::new(self.parse_kind(b)?))),
                None => (rest, None),
            };
            let then = self.parse_kind(then)?;
            if matches!(then, Kind::Draft(_) | Kind::If { .. }) {
                return Err(bad("IF … THEN takes a turn order (not DRAFT or another IF)"));
            }
            return Ok(Kind::If { cond: self.parse_cond(cond)?, then: Box::new(then), otherwise });
        }
        if strip(t, "WAR").is_some() {
            let mut blank = self
                .setup(
                    &crate::engine::SetupSpec { seats: 8, options: serde_json::Value::Null },
                    &mut crate::engine::GameRng::for_setup(0),
                )
                .map_err(|e| bad(e.to_string()))?;
            let b = super::warlink::Board { d: self.data(), s: &mut blank };
            return match super::war::parse_war_line(&b, t)? {
                Some(o) => Ok(Kind::War(o)),
                None => Err(bad("WAR what? e.g. WAR MOVE Hesse TO Rheinland")),
            };
        }
        if let Some(k) = self.parse_choice(t)? {
            return Ok(k);
        }
        if let Some(rest) = strip(t, "DRAFT") {
            let prefs = list(rest)
                .map(|x| if fold(x) == "pass" { Ok(Pref::Pass) } else { self.dev(x).map(Pref::Card) })
                .collect::<Result<Vec<_>, _>>()?;
            if prefs.is_empty() {
                return Err(bad(
                    "DRAFT needs cards in order of preference, e.g. DRAFT Canning, Oligarchy, PASS",
                ));
            }
            return Ok(Kind::Draft(prefs));
        }
        if let Some(rest) = strip(t, "PLACE") {
            let (what, card) = split_word(&format!(" {rest}"), "ON")
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| bad("PLACE [n] F|P|C ON <card>"))?;
            let mut words = what.split_whitespace();
            let first = words.next().unwrap_or("");
            let (n, res) = match first.parse::<u8>() {
                Ok(n) => (n, words.next().unwrap_or("")),
                Err(_) => (1, first),
            };
            let res = match fold(res).as_str() {
                "f" | "food" => 0,
                "p" | "production" => 1,
                "c" | "commerce" => 2,
                _ => return Err(bad(format!("{res:?} is not a resource: F, P or C"))),
            };
            if n == 0 || words.next().is_some() {
                return Err(bad("PLACE [n] F|P|C ON <card>, with n from 1"));
            }
            return Ok(Kind::Place { n, res, card: self.card_ref(&card)? });
        }
        if let Some(rest) = strip(t, "ACTIVATE") {
            let (card, discard, military) = match split_word(&format!("{rest} "), "DISCARD") {
                // RULING E83: `ACTIVATE Police State ALONE DISCARD MILITARY <card>`.
                Some((a, b)) if strip(b, "MILITARY").is_some() => {
                    let cards = list(strip(b, "MILITARY").unwrap_or(b)).map(|x| self.military(x));
                    (a.to_string(), Vec::new(), cards.collect::<Result<Vec<_>, _>>()?)
                }
                Some((a, b)) => (
                    a.to_string(),
                    list(b).map(|x| self.admin(x)).collect::<Result<Vec<_>, _>>()?,
                    Vec::new(),
                ),
                None => (rest.to_string(), Vec::new(), Vec::new()),
            };
            // RULING E79: `ACTIVATE <card> ALONE [DISCARD …]`.
            let (card, alone) = match split_word(&format!("{card} "), "ALONE") {
                Some((c, "")) => (c.to_string(), true),
                Some(_) => return Err(bad("ACTIVATE <card> [ALONE] [DISCARD <admin card>, …]")),
                None => (card, false),
            };
            if card.trim().is_empty() {
                return Err(bad("ACTIVATE which card? ACTIVATE <card> [ALONE] [DISCARD <admin card>, …]"));
            }
            return Ok(Kind::Activate { card: self.card_ref(&card)?, discard, alone, military });
        }
        if let Some(rest) = strip(t, "EDUCATE") {
            let pairs = list(rest).map(|x| self.two(x)).collect::<Result<Vec<_>, _>>()?;
            if pairs.is_empty() {
                return Err(bad("EDUCATE <from> TO <city>[, <from> TO <city>…]"));
            }
            return Ok(Kind::Educate(pairs));
        }
        if let Some(rest) = strip(t, "MASSACRE") {
            let one = |x: &str| -> Result<(u16, Option<u8>), OrderError> {
                match split_word(x, "OF") {
                    Some((p, w)) if fold(w) == "neutral" => Ok((self.province(p)?, Some(NEUTRAL as u8))),
                    Some((p, w)) => Ok((self.province(p)?, Some(self.power(w)? as u8))),
                    None => Ok((self.province(x)?, None)),
                }
            };
            let targets = list(rest).map(one).collect::<Result<Vec<_>, _>>()?;
            if targets.is_empty() {
                return Err(bad("MASSACRE <province> [OF <power or NEUTRAL>][, …]"));
            }
            return Ok(Kind::Massacre(targets));
        }
        if let Some(rest) = strip(t, "PLAY") {
            return self.parse_play(rest);
        }
        if let Some(rest) = strip(t, "MOVE") {
            if let Some(cards) = strip(rest, "C").or_else(|| strip(rest, "COMMERCE")) {
                let cards = strip(cards, "FROM").ok_or_else(|| bad("MOVE C FROM <card> TO <card>"))?;
                let (a, b) = split_word(cards, "TO").ok_or_else(|| bad("MOVE C FROM <card> TO <card>"))?;
                return Ok(Kind::Shift { from: self.card_ref(a)?, to: self.card_ref(b)? });
            }
            let (is_pop, rest) = match (strip(rest, "POP"), strip(rest, "REGIMENT")) {
                (Some(r), _) => (true, r),
                (_, Some(r)) => (false, r),
                _ => return Err(bad("MOVE POP|REGIMENT <from> TO <to>, or MOVE C FROM <card> TO <card>")),
            };
            let (from, to) = self.two(rest)?;
            return Ok(if is_pop { Kind::MovePop { from, to } } else { Kind::MoveRegiment { from, to } });
        }
        if let Some(rest) = strip(t, "MIGRATE") {
            let (from, to) = self.two(rest)?;
            return Ok(Kind::Migrate { from, to });
        }
        if let Some(rest) = strip(t, "DISCARD") {
            let rest = strip(rest, "MILITARY").ok_or_else(|| bad("DISCARD MILITARY <card>[, <card>…]"))?;
            return Ok(Kind::DiscardMilitary(
                list(rest).map(|x| self.military(x)).collect::<Result<_, _>>()?,
            ));
        }
        if let Some(rest) = strip(t, "RAID") {
            let padded = format!(" {rest}");
            let (power, route) = split_word(&padded, "ON").ok_or_else(|| bad("RAID <power> ON <route>"))?;
            return Ok(Kind::Raid { power: self.power(power)?, route: self.route(route)? });
        }
        for (word, make) in
            [("BUILD", Kind::Build as fn(Vec<u16>) -> Kind), ("GROW", Kind::Grow), ("RECRUIT", Kind::Recruit)]
        {
            if let Some(rest) = strip(t, word) {
                return Ok(make(list(rest).map(|x| self.province(x)).collect::<Result<_, _>>()?));
            }
        }
        if let Some(rest) = strip(t, "TECH") {
            return Ok(Kind::Tech(list(rest).map(|x| self.dev(x)).collect::<Result<_, _>>()?));
        }
        if let Some(rest) = strip(t, "INCORPORATE") {
            return Ok(Kind::Incorporate(match strip(rest, "ON") {
                Some(c) => Some(self.card_ref(c)?),
                None if rest.is_empty() => None,
                None => return Err(bad("INCORPORATE [ON <Stock Exchange>]")),
            }));
        }
        if let Some(rest) = strip(t, "HOSPITALS").or_else(|| strip(t, "HOSPITAL")) {
            let padded = format!("{rest} ");
            let (what, card) = match split_word(&padded, "FROM") {
                Some((w, c)) => (w, Some(self.card_ref(c)?)),
                None => (rest, None),
            };
            return match fold(what).as_str() {
                "pop" => Ok(Kind::Hospital { pop: true, card }),
                "y" | "prosperity" => Ok(Kind::Hospital { pop: false, card }),
                _ => Err(bad(
                    "HOSPITALS Y (1 prosperity for 3 C) or HOSPITALS POP (one more pop for 2 C) [FROM <Hospitals>]",
                )),
            };
        }
        if let Some(rest) = strip(t, "RETALIATE") {
            return Ok(Kind::Retaliate(self.power(strip(rest, "ON").unwrap_or(rest))?));
        }
        if let Some(rest) = strip(t, "DECLARE") {
            let rest = strip(rest, "WAR").map(|r| strip(r, "ON").unwrap_or(r)).unwrap_or(rest);
            return Ok(Kind::Declare(self.power(rest)?));
        }
        Err(bad(format!(
            "unknown order {:?}: DRAFT, PLACE, ACTIVATE, PLAY, BUILD, GROW, RECRUIT, TECH, TRADE TECH, CONVERT, DISCARD MILITARY, RAID, INCORPORATE, HOSPITALS, EDUCATE, MASSACRE, DEFICIT, UPKEEP, EVENT, REBELLION, DECLINE, DECLARE, RETALIATE, MOVE, MIGRATE or IF",
            t.split_whitespace().next().unwrap_or("")
        )))
    }

    fn parse_cond(&self, t: &str) -> Result<Cond, OrderError> {
        if let Some(rest) = strip(t, "NOT") {
            return Ok(Cond::Not(Box::new(self.parse_cond(rest)?)));
        }
        if let Some(rest) = strip(t, "HOLD").or_else(|| strip(t, "HOLDS")) {
            return match self.admin(rest) {
                Ok(a) => Ok(Cond::Holds(a)),
                Err(e) => self.dev(rest).map(Cond::HasCard).map_err(|_| e),
            };
        }
        if let Some(rest) = strip(t, "AT").and_then(|r| strip(r, "WAR")) {
            return Ok(Cond::AtWar(match strip(rest, "WITH") {
                Some(p) => Some(self.power(p)?),
                None if rest.is_empty() => None,
                None => return Err(bad("AT WAR [WITH <power>]")),
            }));
        }
        if let Some(rest) = strip(t, "CONTROL").or_else(|| strip(t, "CONTROLS")) {
            return Ok(Cond::Controls(self.province(rest)?));
        }
        let (what, n) = t.split_once(">=").ok_or_else(|| {
            bad("a condition is F|P|C|PROSPERITY|ROUND|MILITARY >= n, HOLD <admin or development card>, CONTROL <province>, AT WAR [WITH <power>], or NOT <condition>")
        })?;
        let n: u8 = n.trim().parse().map_err(|_| bad(format!("{:?} is not a number", n.trim())))?;
        let w = what.trim().to_ascii_uppercase();
        Ok(match w.as_str() {
            "F" | "FOOD" => Cond::Supply(0, n),
            "P" | "PRODUCTION" => Cond::Supply(1, n),
            "C" | "COMMERCE" => Cond::Supply(2, n),
            "PROSPERITY" => Cond::Prosperity(n),
            "ROUND" => Cond::Round(n),
            "MILITARY" => Cond::Military(n),
            _ => return Err(bad(format!("{what:?} is not F, P, C, PROSPERITY, ROUND or MILITARY"))),
        })
    }
}

/// The comma-separated items of a list.
fn list(t: &str) -> impl Iterator<Item = &str> {
    t.split(',').map(str::trim).filter(|x| !x.is_empty())
}
