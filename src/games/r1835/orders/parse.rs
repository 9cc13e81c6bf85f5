//! Order text → typed orders: a small tokenizer (words, brackets, `:`, `,`, comparisons) and a
//! recursive-descent parser. Names are checked against the game's data when parsed (companies
//! and items by the names players use, hexes by the board's coordinates or city names, tiles,
//! trains), so an order that parses names only things that exist.
//!
//! ```text
//! line  := "ONE ROUND" | "INTENT" CO ":" ["TRACK"|"STATIONS"] "TOWARD" HEX | [CO ":"] plan
//! plan  := term ("ELSE" term)*                    alternatives, the first that can be done
//! term  := "IF" cond "THEN" term ["ELSE" plan] | "(" plan ")" | command
//! cond  := conj ("OR" conj)* ; conj := neg ("AND" neg)* ; neg := "NOT" neg | "(" cond ")" | atom
//! ```

use super::types::{Cmd, Cmp, Cond, Kind, Order, Plan, Timing};
use crate::games::r1835::R1835;
use crate::games::r1835::actions::Source;
use thiserror::Error;

/// Why a line is not understood, for the player.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("an empty order: {HELP}")]
    Empty,
    #[error("unknown order '{0}': {HELP}")]
    UnknownOrder(String),
    #[error(
        "unknown company or item '{0}': companies are BY SX BA WT HE MS OL PR; items NF OBB PfB LD BB HB M1-M6"
    )]
    UnknownName(String),
    #[error("unknown hex '{0}': write the board's coordinate (E19, O15) or a city's name")]
    UnknownHex(String),
    #[error("unknown tile '{0}'")]
    UnknownTile(String),
    #[error("unknown train '{0}': trains are 2 2+2 3 3+3 4 4+4 5 5+5 6 6+6")]
    UnknownTrain(String),
    #[error("'{0}' is not a certificate size: use 5%, 10% or 20%")]
    BadSize(String),
    #[error("{what} expected, found {found}")]
    Expected { what: &'static str, found: String },
    #[error("unexpected '{0}' at the end of the order")]
    Trailing(String),
    #[error("{0}")]
    Misplaced(String),
}

const HELP: &str = "orders are BUY, SELL, NATIONALISE, PASS, IF … THEN … ELSE …, and for a company \
(BY: …) LAY, TOKEN, RUN, PAY, WITHHOLD, BUY TRAIN, DISCARD; see the order guide";

/// Other names players use for the companies (as in the house rules' "1Wte", "2MSE").
const ALIASES: [(&str, &str); 17] = [
    ("BAY", "BY"),
    ("BYE", "BY"),
    ("SAX", "SX"),
    ("SXE", "SX"),
    ("BAD", "BA"),
    ("BAE", "BA"),
    ("WTE", "WT"),
    ("WRT", "WT"),
    ("HES", "HE"),
    ("HEE", "HE"),
    ("MSE", "MS"),
    ("OLD", "OL"),
    ("OLE", "OL"),
    ("PRE", "PR"),
    ("PRUSSIAN", "PR"),
    ("PFB", "PfB"),
    ("PB", "PfB"),
];

/// Splits a line into words and the symbols `( ) : ,` and comparisons.
fn tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        let symbol = match c {
            '(' | ')' | ':' | ',' => Some(c.to_string()),
            '>' | '<' | '=' => {
                let mut s = c.to_string();
                if c != '=' && chars.peek() == Some(&'=') {
                    chars.next();
                    s.push('=');
                }
                Some(s)
            }
            _ => None,
        };
        if symbol.is_some() || c.is_whitespace() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.extend(symbol);
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The parser over one line's tokens.
pub(super) struct Parser<'a> {
    pub(super) g: &'a R1835,
    pub(super) toks: Vec<String>,
    pub(super) at: usize,
}

impl Parser<'_> {
    pub(super) fn peek(&self) -> Option<String> {
        self.toks.get(self.at).map(|t| t.to_ascii_uppercase())
    }
    pub(super) fn peek_is(&self, w: &str) -> bool {
        self.peek().as_deref() == Some(w)
    }
    pub(super) fn next(&mut self) -> Option<String> {
        let t = self.toks.get(self.at).cloned();
        self.at += usize::from(t.is_some());
        t
    }
    pub(super) fn eat(&mut self, w: &str) -> bool {
        let yes = self.peek_is(w);
        self.at += usize::from(yes);
        yes
    }
    pub(super) fn found(&self) -> String {
        self.toks.get(self.at).map(|t| format!("'{t}'")).unwrap_or_else(|| "the end of the line".into())
    }
    pub(super) fn expect(&mut self, w: &'static str) -> Result<(), ParseError> {
        if self.eat(w) { Ok(()) } else { Err(ParseError::Expected { what: w, found: self.found() }) }
    }
    pub(super) fn word(&mut self, what: &'static str) -> Result<String, ParseError> {
        match self.peek() {
            Some(t) if !["(", ")", ":", ",", "ELSE", "THEN", "AND", "OR"].contains(&t.as_str()) => {
                self.next().ok_or(ParseError::Expected { what, found: self.found() })
            }
            _ => Err(ParseError::Expected { what, found: self.found() }),
        }
    }
    pub(super) fn number<T: std::str::FromStr>(&mut self, what: &'static str) -> Result<T, ParseError> {
        let found = self.found();
        self.word(what)?.parse().map_err(|_| ParseError::Expected { what, found })
    }

    // ---- names ----

    pub(super) fn name(&self, word: &str) -> Result<String, ParseError> {
        let up = word.to_ascii_uppercase();
        let up = ALIASES.iter().find(|(a, _)| *a == up).map(|(_, id)| id.to_string()).unwrap_or(up);
        let d = &self.g.data;
        d.major_index(&up)
            .map(|i| d.majors[i].id.clone())
            .or_else(|| d.item_index(&up).map(|i| d.packet[i].id.clone()))
            .ok_or_else(|| ParseError::UnknownName(word.to_string()))
    }
    pub(super) fn company(&mut self) -> Result<String, ParseError> {
        let w = self.word("a company")?;
        let id = self.name(&w)?;
        if self.g.data.major_index(&id).is_none() && !id.starts_with('M') {
            return Err(ParseError::Misplaced(format!("{id} is not a company")));
        }
        Ok(id)
    }
    pub(super) fn hex(&mut self) -> Result<String, ParseError> {
        let w = self.word("a hex")?;
        self.g.hex_named(&w).ok_or(ParseError::UnknownHex(w))
    }
    pub(super) fn tile(&mut self) -> Result<String, ParseError> {
        let w = self.word("a tile number")?;
        let d = &self.g.data;
        d.tiles
            .iter()
            .find(|t| t.id.eq_ignore_ascii_case(&w))
            .map(|t| t.id.clone())
            .ok_or(ParseError::UnknownTile(w))
    }
    pub(super) fn train(&mut self) -> Result<String, ParseError> {
        let w = self.word("a train")?;
        let d = &self.g.data;
        d.trains
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(&w))
            .map(|t| t.name.clone())
            .ok_or(ParseError::UnknownTrain(w))
    }
    pub(super) fn percent(&mut self) -> Result<Option<u8>, ParseError> {
        let Some(w) = self.peek().filter(|w| w.ends_with('%')) else { return Ok(None) };
        self.at += 1;
        let p = w.trim_end_matches('%').parse::<u8>().ok().filter(|p| [5, 10, 20].contains(p));
        p.map(Some).ok_or(ParseError::BadSize(w))
    }
    pub(super) fn source(&mut self) -> Option<Source> {
        if self.eat("IPO") {
            Some(Source::Ipo)
        } else if self.eat("POOL") {
            Some(Source::Pool)
        } else {
            None
        }
    }
    fn cmp(&mut self) -> Result<Cmp, ParseError> {
        let c = match self.peek().as_deref() {
            Some(">=") => Cmp::Ge,
            Some("<=") => Cmp::Le,
            Some(">") => Cmp::Gt,
            Some("<") => Cmp::Lt,
            Some("=") => Cmp::Eq,
            _ => {
                return Err(ParseError::Expected {
                    what: "a comparison (>=, <=, >, <, =)",
                    found: self.found(),
                });
            }
        };
        self.at += 1;
        Ok(c)
    }

    // ---- lines ----

    fn line(&mut self) -> Result<Order, ParseError> {
        if self.toks.is_empty() {
            return Err(ParseError::Empty);
        }
        let kind = if self.eat("ONE") {
            self.expect("ROUND")?;
            Kind::OneRound
        } else if self.eat("INTENT") {
            let company = self.company()?;
            self.expect(":")?;
            if self.eat("NONE") {
                // HR 12: a stated intention lasts until withdrawn.
                Kind::Intent { company, toward: None }
            } else {
                let _ = self.eat("TRACK") || self.eat("STATIONS") || self.eat("BUILD");
                self.expect("TOWARD")?;
                Kind::Intent { company, toward: Some(self.hex()?) }
            }
        } else {
            let company = if self.toks.get(1).is_some_and(|t| t == ":") {
                let c = self.company()?;
                self.expect(":")?;
                Some(c)
            } else {
                None
            };
            let plan = self.plan()?;
            check_scope(&plan, company.as_deref())?;
            Kind::Plan { company, plan }
        };
        match self.next() {
            Some(t) => Err(ParseError::Trailing(t)),
            None => Ok(Order::new(kind)),
        }
    }

    fn plan(&mut self) -> Result<Plan, ParseError> {
        let mut alts = vec![self.term()?];
        while self.eat("ELSE") {
            alts.push(self.term()?);
        }
        Ok(if alts.len() == 1 { alts.remove(0) } else { Plan::Alts(alts) })
    }

    fn term(&mut self) -> Result<Plan, ParseError> {
        if self.eat("IF") {
            let cond = self.cond()?;
            self.expect("THEN")?;
            let then = Box::new(self.term()?);
            let otherwise = if self.eat("ELSE") { Some(Box::new(self.plan()?)) } else { None };
            return Ok(Plan::If { cond, then, otherwise });
        }
        if self.eat("(") {
            let p = self.plan()?;
            self.expect(")")?;
            return Ok(p);
        }
        self.cmd().map(Plan::Cmd)
    }

    fn cond(&mut self) -> Result<Cond, ParseError> {
        let mut c = self.conj()?;
        while self.eat("OR") {
            c = Cond::Or(Box::new(c), Box::new(self.conj()?));
        }
        Ok(c)
    }
    fn conj(&mut self) -> Result<Cond, ParseError> {
        let mut c = self.neg()?;
        while self.eat("AND") {
            c = Cond::And(Box::new(c), Box::new(self.neg()?));
        }
        Ok(c)
    }
    fn neg(&mut self) -> Result<Cond, ParseError> {
        if self.eat("NOT") {
            return Ok(Cond::Not(Box::new(self.neg()?)));
        }
        if self.eat("(") {
            let c = self.cond()?;
            self.expect(")")?;
            return Ok(c);
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Cond, ParseError> {
        let w = self.word("a condition (AVAILABLE, FLOATED, TRAIN, PRICE, CASH, CAN LAY, BOUGHT, PHASE)")?;
        match w.to_ascii_uppercase().as_str() {
            "AVAILABLE" => {
                let company = self.company()?;
                let from = self.source();
                Ok(Cond::Available { company, from, percent: self.percent()? })
            }
            "FLOATED" | "FORMED" => Ok(Cond::Floated(self.company()?)),
            "TRAIN" => {
                let t = self.train()?;
                if self.eat("AVAILABLE") {
                    Ok(Cond::TrainAvailable(t))
                } else if self.eat("RUSTED") {
                    Ok(Cond::TrainRusted(t))
                } else {
                    Err(ParseError::Expected { what: "AVAILABLE or RUSTED", found: self.found() })
                }
            }
            "PRICE" => {
                let company = self.company()?;
                let cmp = self.cmp()?;
                Ok(Cond::Price { company, cmp, value: self.number("a price")? })
            }
            "CASH" => {
                let company = if self.peek().is_some_and(|t| t.starts_with(['>', '<', '='])) {
                    None
                } else {
                    Some(self.company()?)
                };
                let cmp = self.cmp()?;
                Ok(Cond::Cash { company, cmp, value: self.number("an amount")? })
            }
            "CAN" => {
                self.expect("LAY")?;
                let tile = self.tile()?;
                let hex = self.hex()?;
                let rotation = if self.eat("ROTATION") { Some(self.rotation()?) } else { None };
                Ok(Cond::CanLay { tile, hex, rotation })
            }
            "BOUGHT" => Ok(Cond::Bought { seat: None, name: self.bought_name()? }),
            "SEAT" => {
                let seat = self.number("a seat number")?;
                self.expect("BOUGHT")?;
                Ok(Cond::Bought { seat: Some(seat), name: self.bought_name()? })
            }
            "PHASE" => {
                let cmp = if self.peek().is_some_and(|t| t.starts_with(['>', '<', '='])) {
                    self.cmp()?
                } else {
                    Cmp::Eq
                };
                Ok(Cond::Phase { cmp, value: self.number("a phase (2 to 6)")? })
            }
            other => Err(ParseError::Expected { what: "a condition", found: format!("'{other}'") }),
        }
    }
    fn bought_name(&mut self) -> Result<String, ParseError> {
        let w = self.word("a company or item")?;
        self.name(&w)
    }
    pub(super) fn rotation(&mut self) -> Result<u8, ParseError> {
        let r: u8 = self.number("a rotation 0-5")?;
        if r > 5 {
            return Err(ParseError::Expected { what: "a rotation 0-5", found: format!("'{r}'") });
        }
        Ok(r)
    }
    pub(super) fn toward(&mut self) -> Result<Option<String>, ParseError> {
        if self.eat("TOWARD") || self.eat("TOWARDS") { self.hex().map(Some) } else { Ok(None) }
    }
}

/// Stock and Prussian orders stand alone; operating orders name their company.
fn check_scope(plan: &Plan, company: Option<&str>) -> Result<(), ParseError> {
    let mut cmds = Vec::new();
    super::plan::commands(plan, &mut cmds);
    for c in cmds {
        let operating = super::plan::is_operating(c)
            || matches!(c, Cmd::Sell { timing: Timing::Paired, .. } if company.is_some());
        match (operating, company) {
            (true, None) if !matches!(c, Cmd::Sell { .. }) => {
                return Err(ParseError::Misplaced(format!(
                    "'{c}' is an operating order: name the company first, e.g. BY: {c}"
                )));
            }
            (false, Some(co)) if !matches!(c, Cmd::Pass | Cmd::Sell { .. }) => {
                return Err(ParseError::Misplaced(format!(
                    "'{c}' is not an order for {co}: write it on a line of its own, without '{co}:'"
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

impl R1835 {
    /// Parses a whole order line.
    pub(crate) fn parse_line(&self, line: &str) -> Result<Order, ParseError> {
        // A sentence's full stop ("… the 20% MSE certificate.") ends the line, it is no word.
        let line = line.trim_end();
        let line = line.strip_suffix('.').unwrap_or(line);
        Parser { g: self, toks: tokens(line), at: 0 }.line()
    }
}
