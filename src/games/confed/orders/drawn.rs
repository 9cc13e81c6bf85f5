//! `TAKE` conditional on the drawn load chit (RT 5.1.2: "the player can choose it for his
//! Train—or choose one of the Load Chits from the Available Loads Display"; issue 34, RULING
//! F84). The player names what the drawn chit must be:
//!
//! - `TAKE DRAWN IF <test>` — keep the drawn load only if it passes; otherwise the line does not
//!   answer and the next line is read (and without one the drawn load is kept: RULING F35);
//! - `TAKE 17 IF DRAWN <test>` — decline the drawn load for displayed load 17 only if the drawn
//!   one passes;
//! - either with `FOR <train>` before `IF` (`TAKE DRAWN FOR 3 IF WAR`): the line answers only
//!   the choice made for that train, and is left for a later draw otherwise.
//!
//! A test is one or more of these joined by `AND`, each may start with `NOT`: `GOODS Cotton` (the
//! goods on the Loads Table), `WAR` (war-matériel, RT 2.3.1), `PAYOUT >= 800` (also `>`, `<=`,
//! `<`: the payout it would pay now, Railroad Conventions and a Cotton Embargo counted),
//! `TO Richmond` (the station is one of its dropoffs now), `FROM Atlanta` (its pickup).

use super::super::Confed;
use super::super::chits;
use super::super::state::State;
use super::{Order, num, split_kw, t as train_word, train_no};
use crate::engine::OrderError;
use std::fmt;

/// Parses what follows `TAKE`: `DRAWN`, `<load>`, `DRAWN [FOR t] IF <test>` or `<load> [FOR t]
/// IF DRAWN <test>`.
pub(super) fn parse_take(rest: &str) -> Result<Order, OrderError> {
    let form = "write TAKE DRAWN, TAKE <load>, TAKE DRAWN [FOR <train>] IF <test> or TAKE <load> [FOR <train>] IF DRAWN <test>";
    let w: Vec<&str> = rest.split_whitespace().collect();
    let up = |i: usize| w.get(i).map(|x| x.to_ascii_uppercase()).unwrap_or_default();
    let (train, at) = if up(1) == "FOR" { (Some(train_no(w.get(2).copied())?), 3) } else { (None, 1) };
    let drawn = up(0) == "DRAWN";
    match (drawn, up(at).as_str(), w.len()) {
        (true, "", 1) => Ok(Order::TakeDrawn),
        (false, "", 1) => Ok(Order::Take(num(w.first().copied(), "a load number or DRAWN")?)),
        (true, "IF", _) => {
            let (_, test) = split_kw(&format!(" {rest} "), "IF").ok_or_else(|| OrderError(form.into()))?;
            Ok(Order::TakeDrawnIf { test: parse_drawn_if(&test)?, train })
        }
        (false, "IF", _) if up(at + 1) == "DRAWN" => {
            let load = num(w.first().copied(), "a load number")?;
            let (_, test) = split_kw(&format!(" {rest} "), "DRAWN").ok_or_else(|| OrderError(form.into()))?;
            Ok(Order::TakeInstead { load, when: parse_drawn_if(&test)?, train })
        }
        _ => Err(OrderError(form.into())),
    }
}

/// ` FOR <train>` when a `TAKE … IF` line names its train, else nothing.
pub(super) fn for_words(train: Option<u8>) -> String {
    train.map(|x| format!(" FOR {}", train_word(x))).unwrap_or_default()
}

/// How a payout is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `>=`.
    AtLeast,
    /// `>`.
    Above,
    /// `<=`.
    AtMost,
    /// `<`.
    Below,
}

impl Cmp {
    fn symbol(self) -> &'static str {
        match self {
            Cmp::AtLeast => ">=",
            Cmp::Above => ">",
            Cmp::AtMost => "<=",
            Cmp::Below => "<",
        }
    }

    fn holds(self, a: u32, b: u32) -> bool {
        match self {
            Cmp::AtLeast => a >= b,
            Cmp::Above => a > b,
            Cmp::AtMost => a <= b,
            Cmp::Below => a < b,
        }
    }
}

/// One thing the drawn chit must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Test {
    /// `GOODS <name>`: its goods.
    Goods(String),
    /// `WAR`: war-matériel (RT 2.3.1).
    War,
    /// `PAYOUT <cmp> n`: its payout now.
    Payout(Cmp, u32),
    /// `TO <station>`: one of its dropoffs now.
    To(String),
    /// `FROM <station>`: its pickup.
    From(String),
}

/// What the drawn chit must be: every test (each perhaps negated) must pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnIf(pub Vec<(bool, Test)>);

/// Parses a test: `GOODS Cotton AND NOT TO Richmond`.
pub(super) fn parse_drawn_if(text: &str) -> Result<DrawnIf, OrderError> {
    let form = "name what the drawn load must be: GOODS <goods>, WAR, PAYOUT >= <amount> (or >, <=, <), \
                TO <station>, FROM <station>, each with NOT if you like, joined by AND";
    let upper = text.to_ascii_uppercase();
    let mut parts = Vec::new();
    let mut rest = text.trim();
    let mut rest_up = upper.trim();
    while let Some(i) = rest_up.find(" AND ") {
        parts.push(rest.get(..i).unwrap_or("").trim());
        rest = rest.get(i + 5..).unwrap_or("").trim();
        rest_up = rest_up.get(i + 5..).unwrap_or("").trim();
    }
    parts.push(rest);
    let mut tests = Vec::new();
    for part in parts {
        let (neg, body) = match part.get(..4) {
            Some(w) if w.eq_ignore_ascii_case("NOT ") => (true, part.get(4..).unwrap_or("").trim()),
            _ => (false, part),
        };
        let (head, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let arg = arg.trim();
        let test = match head.to_ascii_uppercase().as_str() {
            "WAR" if arg.is_empty() => Test::War,
            "GOODS" if !arg.is_empty() => Test::Goods(arg.to_string()),
            "TO" if !arg.is_empty() => Test::To(arg.to_string()),
            "FROM" if !arg.is_empty() => Test::From(arg.to_string()),
            "PAYOUT" => {
                let (cmp, n) =
                    [(">=", Cmp::AtLeast), ("<=", Cmp::AtMost), (">", Cmp::Above), ("<", Cmp::Below)]
                        .into_iter()
                        .find_map(|(sym, c)| arg.strip_prefix(sym).map(|n| (c, n)))
                        .ok_or_else(|| OrderError("write PAYOUT >= <amount> (or >, <=, <)".into()))?;
                let n = n.trim().trim_start_matches('$').parse().map_err(|_| OrderError(form.into()))?;
                Test::Payout(cmp, n)
            }
            _ => return Err(OrderError(form.into())),
        };
        tests.push((neg, test));
    }
    Ok(DrawnIf(tests))
}

impl DrawnIf {
    /// The station names the test writes (for the echo's checks).
    pub(super) fn stations(&self) -> Vec<&str> {
        self.0
            .iter()
            .filter_map(|(_, t)| match t {
                Test::To(n) | Test::From(n) => Some(n.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The goods the test names (for the echo's checks).
    pub(super) fn goods(&self) -> Vec<&str> {
        self.0
            .iter()
            .filter_map(|(_, t)| match t {
                Test::Goods(g) => Some(g.as_str()),
                _ => None,
            })
            .collect()
    }
}

impl Confed {
    /// RULING F84: whether the drawn chit `n` passes the test on the position `s`.
    pub(super) fn drawn_passes(&self, s: &State, n: u32, test: &DrawnIf) -> bool {
        let d = &self.data;
        let pickup = chits::load(d, n).map(|l| l.pickup);
        test.0.iter().all(|(neg, t)| {
            let yes = match t {
                Test::Goods(g) => chits::goods(d, n).eq_ignore_ascii_case(g.trim()),
                Test::War => chits::is_war(d, n),
                Test::Payout(c, x) => c.holds(chits::payout(d, s, n), *x),
                Test::To(st) => match (d.map.find_station(st), pickup) {
                    (Some(st), Some(p)) => self.dropoff_options(s, n, p).contains(&st),
                    _ => false,
                },
                Test::From(st) => d.map.find_station(st).is_some_and(|x| pickup == Some(x)),
            };
            yes != *neg
        })
    }
}

impl fmt::Display for DrawnIf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(neg, t)| {
                let body = match t {
                    Test::Goods(g) => format!("GOODS {g}"),
                    Test::War => "WAR".into(),
                    Test::Payout(c, n) => format!("PAYOUT {} {n}", c.symbol()),
                    Test::To(n) => format!("TO {n}"),
                    Test::From(n) => format!("FROM {n}"),
                };
                if *neg { format!("NOT {body}") } else { body }
            })
            .collect();
        write!(f, "{}", parts.join(" AND "))
    }
}
