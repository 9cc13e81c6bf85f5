//! The order language for stock rounds (a first version; contingencies and the full house-rule
//! ladder come later, as more kinds of line and conditions on a line):
//!
//! ```text
//! BUY M2                      a start-packet item (private, minor, or BY for its director)
//! BUY 1 BY IPO   BUY 1 SX POOL 10%   BUY 20% MS      one share certificate (HR 20: a number
//!                                                    counts certificates, a % names the size)
//! SELL 2 SX      SELL 1 BA 20%                       one sale action
//! NATIONALISE BY FROM 3 [10%]                        FACTS §6
//! PASS                                               end the turn
//! <order> ELSE <order>                               the first alternative that is legal
//! ```
//! Lines are used in order at each of the seat's decisions. A SELL goes with the BUY that
//! follows it (HR 18): after a purchase the turn ends. A BUY that cannot be carried out is not
//! replaced by anything else (HR 19): the turn ends with a pass. When the lines run out the
//! seat passes.

use super::R1835;
use super::actions::{Action, Source};
use super::state::{Loc, Round, State};
use crate::engine::{Answer, Decision, NoFit, OrderError, OrderSheet, Seat};
use std::fmt;

/// One alternative of an order line. Names are canonical ids (checked when parsed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Alt {
    Buy { count: Option<u8>, name: String, from: Option<Source>, percent: Option<u8> },
    Sell { count: u8, company: String, percent: Option<u8> },
    Nationalise { company: String, from_seat: u8, percent: Option<u8> },
    Pass,
}

/// One order line: alternatives tried left to right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub alts: Vec<Alt>,
}

fn size(p: Option<u8>) -> String {
    p.map(|p| format!(" {p}%")).unwrap_or_default()
}

impl fmt::Display for Alt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Alt::Buy { count, name, from, percent } => {
                let count = count.map(|c| format!("{c} ")).unwrap_or_default();
                let from = from.map(|s| format!(" {}", s.to_string().to_uppercase())).unwrap_or_default();
                write!(f, "BUY {count}{name}{from}{}", size(*percent))
            }
            Alt::Sell { count, company, percent } => write!(f, "SELL {count} {company}{}", size(*percent)),
            Alt::Nationalise { company, from_seat, percent } => {
                write!(f, "NATIONALISE {company} FROM {from_seat}{}", size(*percent))
            }
            Alt::Pass => f.write_str("PASS"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.alts.iter().map(|a| a.to_string()).collect();
        f.write_str(&parts.join(" ELSE "))
    }
}

const HELP: &str = "orders are BUY, SELL, NATIONALISE and PASS (e.g. BUY M2, BUY 1 BY IPO, SELL 2 SX, PASS)";

/// Other names players use for the companies (as in the house rules' "1Wte", "2MSE").
const ALIASES: [(&str, &str); 16] = [
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
    ("PFB", "PfB"),
    ("PB", "PfB"),
];

fn percent_word(w: &str) -> Option<u8> {
    w.strip_suffix('%').and_then(|d| d.trim().parse().ok()).filter(|p| [5, 10, 20].contains(p))
}

impl R1835 {
    /// The canonical id of a company, private or minor as players write it.
    fn canonical(&self, word: &str) -> Option<String> {
        let up = word.to_ascii_uppercase();
        let up = ALIASES.iter().find(|(a, _)| *a == up).map(|(_, id)| id.to_string()).unwrap_or(up);
        let d = &self.data;
        d.major_index(&up)
            .map(|i| d.majors[i].id.clone())
            .or_else(|| d.item_index(&up).map(|i| d.packet[i].id.clone()))
    }

    fn parse_alt(&self, words: &[&str]) -> Result<Alt, String> {
        let Some(keyword) = words.first() else {
            return Err("an empty alternative: write an order on each side of ELSE".into());
        };
        let mut count: Option<u8> = None;
        let mut percent: Option<u8> = None;
        let mut from: Option<Source> = None;
        let mut name: Option<String> = None;
        let mut seat: Option<u8> = None;
        let kw = keyword.to_ascii_uppercase();
        if kw == "PASS" || kw == "DONE" {
            return if words.len() == 1 { Ok(Alt::Pass) } else { Err("PASS takes nothing after it".into()) };
        }
        for w in &words[1..] {
            let up = w.to_ascii_uppercase();
            if let Some(p) = percent_word(w) {
                percent = Some(p);
            } else if w.ends_with('%') {
                return Err(format!("'{w}' is not a certificate size: use 5%, 10% or 20%"));
            } else if let Ok(n) = w.parse::<u8>() {
                match (kw.as_str(), name.is_some()) {
                    ("NATIONALISE" | "NATIONALIZE", true) => seat = Some(n),
                    (_, false) if count.is_none() => count = Some(n),
                    _ => return Err(format!("unexpected number '{w}'")),
                }
            } else if up == "IPO" {
                from = Some(Source::Ipo);
            } else if up == "POOL" {
                from = Some(Source::Pool);
            } else if ["FROM", "SEAT", "OF"].contains(&up.as_str()) {
            } else if name.is_none() {
                name = Some(self.canonical(w).ok_or_else(|| {
                    format!("unknown company or item '{w}': companies are BY SX BA WT HE MS OL PR; items NF OBB PfB LD BB HB M1-M6")
                })?);
            } else {
                return Err(format!("unexpected '{w}'"));
            }
        }
        let need_name = |what: &str| name.clone().ok_or_else(|| format!("{kw} needs {what}"));
        match kw.as_str() {
            "BUY" => Ok(Alt::Buy {
                count,
                name: need_name("a company or item, e.g. BUY 1 BY IPO or BUY M2")?,
                from,
                percent,
            }),
            "SELL" => {
                let company = need_name("a company, e.g. SELL 2 SX")?;
                if self.data.major_index(&company).is_none() {
                    return Err(format!("only share certificates can be sold, not {company}"));
                }
                if from.is_some() {
                    return Err("sales always go to the pool: leave out IPO/POOL".into());
                }
                Ok(Alt::Sell { count: count.unwrap_or(1), company, percent })
            }
            "NATIONALISE" | "NATIONALIZE" => {
                let company = need_name("a company and a seat, e.g. NATIONALISE BY FROM 3")?;
                let from_seat = seat
                    .or(count)
                    .ok_or("NATIONALISE needs the seat to buy from, e.g. NATIONALISE BY FROM 3")?;
                Ok(Alt::Nationalise { company, from_seat, percent })
            }
            other => Err(format!("unknown order '{other}': {HELP}")),
        }
    }

    /// Parses a whole order line.
    pub(crate) fn parse_line(&self, line: &str) -> Result<Order, OrderError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return Err(OrderError(format!("an empty order: {HELP}")));
        }
        let alts = words
            .split(|w| w.eq_ignore_ascii_case("ELSE"))
            .map(|a| self.parse_alt(a))
            .collect::<Result<Vec<_>, _>>();
        Ok(Order { alts: alts.map_err(OrderError)? })
    }

    /// The one candidate that is legal, or why none (or several) is.
    fn pick(&self, s: &State, candidates: Vec<Action>, ambiguous: &str) -> Result<Action, String> {
        let mut legal = Vec::new();
        let mut first_err = None;
        for a in candidates {
            let mut trial = s.clone();
            match self.apply_action(&mut trial, &a) {
                Ok(_) => legal.push(a),
                Err(e) => {
                    first_err.get_or_insert(e.0);
                }
            }
        }
        match legal.len() {
            1 => Ok(legal.remove(0)),
            0 => Err(first_err.unwrap_or_else(|| "nothing of that is on sale".into())),
            _ => Err(ambiguous.to_string()),
        }
    }

    /// The action an alternative names in this position, if legal.
    fn resolve(&self, s: &State, alt: &Alt) -> Result<Action, String> {
        let sizes = |given: Option<u8>| given.map(|x| vec![x]).unwrap_or_else(|| vec![10, 20, 5]);
        let candidates = match alt {
            Alt::Pass => vec![Action::Pass],
            Alt::Buy { count, name, from, percent } if s.packet_open() => {
                if count.is_some_and(|c| c != 1) || from.is_some() || percent.is_some() {
                    return Err(
                        "while the start packet is on sale, buy an item by its name, e.g. BUY M2".into()
                    );
                }
                vec![Action::BuyItem { item: name.clone() }]
            }
            Alt::Buy { count, name, from, percent } => {
                if count.is_some_and(|c| c != 1) {
                    return Err("only one certificate may be bought per turn".into());
                }
                let sources = from.map(|f| vec![f]).unwrap_or_else(|| vec![Source::Ipo, Source::Pool]);
                let mut v = Vec::new();
                for f in sources {
                    for percent in sizes(*percent) {
                        v.push(Action::BuyShare { company: name.clone(), from: f, percent });
                    }
                }
                let why = format!(
                    "{name} can be bought more than one way: say IPO or POOL and the size, e.g. BUY 1 {name} POOL 10%"
                );
                return self.pick(s, v, &why);
            }
            Alt::Sell { count, company, percent } => {
                let v = sizes(*percent).into_iter().map(|percent| Action::Sell {
                    company: company.clone(),
                    count: *count,
                    percent,
                });
                let why = format!(
                    "you hold {company} certificates of several sizes: say which, e.g. SELL {count} {company} 20%"
                );
                return self.pick(s, v.collect(), &why);
            }
            Alt::Nationalise { company, from_seat, percent } => {
                let v = sizes(*percent).into_iter().map(|percent| Action::Nationalise {
                    company: company.clone(),
                    from_seat: *from_seat,
                    percent,
                });
                return self.pick(
                    s,
                    v.collect(),
                    &format!(
                        "seat {from_seat} holds {company} certificates of several sizes: say which, e.g. 10%"
                    ),
                );
            }
        };
        self.pick(s, candidates, "ambiguous order")
    }

    /// Answers a decision from the seat's sheet (see the module comment).
    pub(crate) fn answer_from(
        &self,
        s: &State,
        d: &Decision,
        sheet: &mut OrderSheet<Order>,
    ) -> Answer<Action> {
        let mut notes = Vec::new();
        let Some(p) = self.acting(s).filter(|p| Seat::from_index(usize::from(*p)) == d.seat) else {
            return Answer { action: None, notes };
        };
        if !matches!(s.round, Round::Stock { .. }) {
            return Answer { action: self.default_for(s), notes };
        }
        // HR 18: a SELL goes with the BUY after it, so a turn ends after its purchase.
        if s.sr.turn.bought && self.check_stock_pass(s, p).is_ok() {
            return Answer { action: Some(Action::Pass), notes };
        }
        let tried = sheet.try_lines(
            |o| o.alts.as_slice(),
            |alt| self.resolve(s, alt).map(|action| (action, alt.to_string())),
            |o| {
                if o.alts.iter().all(|a| matches!(a, Alt::Sell { .. })) {
                    NoFit::UseUp
                } else {
                    NoFit::Stop(" — no substitution (HR 19): the turn ends".into())
                }
            },
        );
        notes.extend(tried.notes);
        let action = match tried.action {
            Some(a) => Some(a),
            None if sheet.is_empty() => None,
            None => self.default_for(s),
        };
        Answer { action, notes }
    }

    /// Warnings at submission that do not reject the line.
    pub(crate) fn advise_on(&self, s: &State, seat: Seat, order: &Order) -> Option<String> {
        let p = u8::try_from(seat.index()).ok()?;
        let mut warnings = Vec::new();
        for alt in &order.alts {
            match alt {
                Alt::Sell { company, .. } => {
                    let co = self.data.major_index(company)?;
                    if !s.majors[co].certs.iter().any(|c| c.at == Loc::Player(p)) {
                        warnings.push(format!("you hold no {company} at the moment"));
                    }
                }
                Alt::Buy { name, .. } => {
                    if let Some(i) = self.data.item_index(name).filter(|i| s.packet_sold[*i])
                        && self.data.major_index(name).is_none()
                    {
                        warnings.push(format!("{} has already been sold", self.data.packet[i].id));
                    }
                }
                _ => {}
            }
        }
        (!warnings.is_empty()).then(|| warnings.join("; "))
    }
}

/// Parses one line with the standard engine's names (for tests and tools).
pub fn parse(line: &str) -> Result<Order, OrderError> {
    match super::shared() {
        Ok(engine) => engine.parse_line(line),
        Err(e) => Err(OrderError(e.to_string())),
    }
}
