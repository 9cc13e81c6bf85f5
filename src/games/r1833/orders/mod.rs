//! The 1833 order language (docs/1833-orders.md): parsing and printing order lines.
//!
//! ```text
//! DRAW DECK [<n> | TO LIMIT]     DRAW POOL <card>     DRAW DISCARD     DISCARD <card>
//! CREATE [L1|L2|L3]: <layout>    EXTEND ROUTE <n> [WITH L2|L3]: <layout>
//! RESHUFFLE    END    SELECT <card>, <card>, …    TAKE DISCARD: <card>, any Level 3, … | NONE
//! IF HAND HAS <card> [AND <card> …] THEN <order>
//! ```
//! A layout is paths separated by commas, each a chain of cards joined by `-`
//! (`Richmond-Washington-Baltimore, Washington-Cumberland`). Card names are checked against the
//! game's deck when the orders are carried out (and flagged at submission by `advise`), since a
//! GM may play with another deck.

use crate::engine::OrderError;

pub(super) mod answer;
mod echo;
use std::fmt;

/// How many cards `DRAW DECK` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    N(u8),
    ToLimit,
}

/// One entry of a `TAKE DISCARD` list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Want {
    Name(String),
    AnyLevel(u8),
    AnyCity,
    AnyPrivate,
    AnyCorp,
    AnyLoco,
    Any,
}

/// What an order line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    Select(Vec<String>),
    DrawDeck(Count),
    DrawPool(String),
    DrawDiscard,
    Discard(String),
    Create {
        level: Option<u8>,
        paths: Vec<Vec<String>>,
    },
    Extend {
        route: u8,
        level: Option<u8>,
        paths: Vec<Vec<String>>,
    },
    Reshuffle,
    End,
    /// Standing pick-up orders; an empty list is `NONE`.
    Take(Vec<Want>),
}

/// One order line: an optional condition on the hand, and the order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// `IF HAND HAS a AND b THEN …`: card names (or "Level 2") the hand must hold.
    pub cond: Vec<String>,
    pub cmd: Cmd,
}

fn paths_text(paths: &[Vec<String>]) -> String {
    paths.iter().map(|p| p.join("-")).collect::<Vec<_>>().join(", ")
}

fn level_text(l: &Option<u8>) -> String {
    l.map(|l| format!(" L{l}")).unwrap_or_default()
}

impl fmt::Display for Want {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Want::Name(n) => f.write_str(n),
            Want::AnyLevel(l) => write!(f, "any Level {l}"),
            Want::AnyCity => f.write_str("any city"),
            Want::AnyPrivate => f.write_str("any private"),
            Want::AnyCorp => f.write_str("any corp"),
            Want::AnyLoco => f.write_str("any locomotive"),
            Want::Any => f.write_str("any"),
        }
    }
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmd::Select(names) => write!(f, "SELECT {}", names.join(", ")),
            Cmd::DrawDeck(Count::N(1)) => f.write_str("DRAW DECK"),
            Cmd::DrawDeck(Count::N(n)) => write!(f, "DRAW DECK {n}"),
            Cmd::DrawDeck(Count::ToLimit) => f.write_str("DRAW DECK TO LIMIT"),
            Cmd::DrawPool(n) => write!(f, "DRAW POOL {n}"),
            Cmd::DrawDiscard => f.write_str("DRAW DISCARD"),
            Cmd::Discard(n) => write!(f, "DISCARD {n}"),
            Cmd::Create { level, paths } => write!(f, "CREATE{}: {}", level_text(level), paths_text(paths)),
            Cmd::Extend { route, level, paths } => {
                let with = level.map(|l| format!(" WITH L{l}")).unwrap_or_default();
                write!(f, "EXTEND ROUTE {route}{with}: {}", paths_text(paths))
            }
            Cmd::Reshuffle => f.write_str("RESHUFFLE"),
            Cmd::End => f.write_str("END"),
            Cmd::Take(w) if w.is_empty() => f.write_str("TAKE DISCARD: NONE"),
            Cmd::Take(w) => {
                write!(f, "TAKE DISCARD: {}", w.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
            }
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.cond.is_empty() {
            write!(f, "IF HAND HAS {} THEN ", self.cond.join(" AND "))?;
        }
        write!(f, "{}", self.cmd)
    }
}

const HELP: &str = "orders are DRAW DECK, DRAW POOL <card>, DRAW DISCARD, DISCARD <card>, \
CREATE [L1|L2|L3]: <layout>, EXTEND ROUTE <n> [WITH L2|L3]: <layout>, RESHUFFLE, END, \
SELECT <cards>, TAKE DISCARD: <cards>, each optionally after IF HAND HAS <card> THEN";

/// A card name as written: whitespace folded; must not be empty.
fn name(text: &str, what: &str) -> Result<String, String> {
    let n = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if n.is_empty() {
        return Err(format!("{what} needs a card name"));
    }
    if n.contains(['-', ',', ':']) && !n.eq_ignore_ascii_case("re-shuffle") {
        return Err(format!("'{n}' is not a card name ({what} names one card)"));
    }
    Ok(n)
}

/// Strips a case-insensitive keyword prefix followed by a word boundary.
fn strip<'a>(text: &'a str, kw: &str) -> Option<&'a str> {
    let head = text.get(..kw.len())?;
    let rest = text.get(kw.len()..)?;
    (head.eq_ignore_ascii_case(kw) && (rest.is_empty() || rest.starts_with([' ', ':'])))
        .then(|| rest.trim_start())
}

/// `L2`, `LEVEL 2`.
fn level(text: &str) -> Result<Option<u8>, String> {
    let t = text.trim().to_ascii_uppercase();
    if t.is_empty() {
        return Ok(None);
    }
    let digits = t.strip_prefix("LEVEL").or_else(|| t.strip_prefix('L')).map(str::trim);
    match digits {
        Some("1") => Ok(Some(1)),
        Some("2") => Ok(Some(2)),
        Some("3") => Ok(Some(3)),
        _ => Err(format!("'{}' is not a locomotive level: write L1, L2 or L3", text.trim())),
    }
}

fn layout(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut paths = Vec::new();
    for part in text.split(',') {
        let cards = part.split('-').map(|c| name(c, "a layout")).collect::<Result<Vec<_>, _>>()?;
        if cards.len() < 2 {
            return Err(format!(
                "'{}' is not a path: join cards with '-' (e.g. Richmond-Washington)",
                part.trim()
            ));
        }
        paths.push(cards);
    }
    Ok(paths)
}

fn after_colon<'a>(text: &'a str, example: &str) -> Result<(&'a str, &'a str), String> {
    text.split_once(':').ok_or_else(|| format!("a ':' must come before the layout (e.g. {example})"))
}

fn want(text: &str) -> Result<Want, String> {
    let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let low = t.to_ascii_lowercase();
    Ok(match low.as_str() {
        "any" | "any card" => Want::Any,
        "any city" => Want::AnyCity,
        "any private" | "any private rr" => Want::AnyPrivate,
        "any corp" | "any corp rr" => Want::AnyCorp,
        "any locomotive" | "any loco" => Want::AnyLoco,
        _ => match low.strip_prefix("any ") {
            Some(l) => match level(l)? {
                Some(n) => Want::AnyLevel(n),
                None => return Err("write 'any Level 2'".into()),
            },
            None => Want::Name(name(&t, "TAKE DISCARD")?),
        },
    })
}

fn cmd(text: &str) -> Result<Cmd, String> {
    let t = text.trim();
    if let Some(rest) = strip(t, "DRAW") {
        if let Some(n) = strip(rest, "DECK") {
            return match n.to_ascii_uppercase().as_str() {
                "" => Ok(Cmd::DrawDeck(Count::N(1))),
                "TO LIMIT" => Ok(Cmd::DrawDeck(Count::ToLimit)),
                other => match other.parse::<u8>() {
                    Ok(k) if (1..=8).contains(&k) => Ok(Cmd::DrawDeck(Count::N(k))),
                    _ => Err(format!("DRAW DECK takes a number of cards 1 to 8 or TO LIMIT, not '{n}'")),
                },
            };
        }
        if let Some(n) = strip(rest, "POOL") {
            return Ok(Cmd::DrawPool(name(n, "DRAW POOL")?));
        }
        if let Some(n) = strip(rest, "DISCARD") {
            return if n.is_empty() {
                Ok(Cmd::DrawDiscard)
            } else {
                Err("DRAW DISCARD takes the top card: write no name".into())
            };
        }
        return Err("write DRAW DECK, DRAW POOL <card> or DRAW DISCARD".into());
    }
    if let Some(rest) = strip(t, "DISCARD") {
        return Ok(Cmd::Discard(name(rest, "DISCARD")?));
    }
    if let Some(rest) = strip(t, "CREATE") {
        let (lv, lay) = after_colon(rest, "CREATE L2: Richmond-Washington-Baltimore")?;
        return Ok(Cmd::Create { level: level(lv)?, paths: layout(lay)? });
    }
    if let Some(rest) = strip(t, "EXTEND") {
        let example = "EXTEND ROUTE 1 WITH L3: Baltimore-Harrisburg";
        let rest =
            strip(rest, "ROUTE").ok_or_else(|| format!("write EXTEND ROUTE <number> (e.g. {example})"))?;
        let (head, lay) = after_colon(rest, example)?;
        let mut words = head.split_whitespace();
        let route = words.next().and_then(|w| w.parse::<u8>().ok()).filter(|r| *r >= 1);
        let Some(route) = route else {
            return Err(format!("EXTEND ROUTE needs a route number from 1 (e.g. {example})"));
        };
        let lv = match words.next() {
            None => None,
            Some(w) if w.eq_ignore_ascii_case("WITH") => level(&words.collect::<Vec<_>>().join(" "))?,
            Some(w) => return Err(format!("unexpected '{w}': write WITH L3 before the ':'")),
        };
        return Ok(Cmd::Extend { route, level: lv, paths: layout(lay)? });
    }
    if let Some(rest) = strip(t, "SELECT") {
        let names = rest.split(',').map(|n| name(n, "SELECT")).collect::<Result<Vec<_>, _>>()?;
        return Ok(Cmd::Select(names));
    }
    if let Some(rest) = strip(t, "TAKE") {
        let rest = strip(rest, "DISCARD").ok_or("write TAKE DISCARD: <card>, any Level 3, …")?;
        let list = rest.strip_prefix(':').unwrap_or(rest).trim();
        if list.eq_ignore_ascii_case("NONE") {
            return Ok(Cmd::Take(Vec::new()));
        }
        return Ok(Cmd::Take(list.split(',').map(want).collect::<Result<Vec<_>, _>>()?));
    }
    let upper = t.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_uppercase();
    match upper.as_str() {
        "RESHUFFLE" | "RE-SHUFFLE" | "PLAY RESHUFFLE" | "PLAY RE-SHUFFLE" => Ok(Cmd::Reshuffle),
        "END" | "END TURN" => Ok(Cmd::End),
        _ => Err(format!("unknown order '{t}': {HELP}")),
    }
}

/// Parses one order line.
pub fn parse(line: &str) -> Result<Order, OrderError> {
    let t = line.trim();
    let Some(rest) = strip(t, "IF") else {
        return cmd(t).map(|c| Order { cond: Vec::new(), cmd: c }).map_err(OrderError);
    };
    let rest = strip(rest, "HAND")
        .and_then(|r| strip(r, "HAS"))
        .ok_or_else(|| OrderError("write IF HAND HAS <card> THEN <order>".into()))?;
    let upper = rest.to_ascii_uppercase();
    let at = upper.find(" THEN ").ok_or_else(|| OrderError("IF HAND HAS … needs THEN <order>".into()))?;
    let (names, order) = (rest.get(..at).unwrap_or(""), rest.get(at + 6..).unwrap_or(""));
    let mut cond = Vec::new();
    let mut part = String::new();
    for w in names.split_whitespace() {
        if w.eq_ignore_ascii_case("AND") {
            cond.push(name(&part, "IF HAND HAS").map_err(OrderError)?);
            part.clear();
        } else {
            part.push(' ');
            part.push_str(w);
        }
    }
    cond.push(name(&part, "IF HAND HAS").map_err(OrderError)?);
    let c = cmd(order).map_err(OrderError)?;
    if matches!(c, Cmd::Take(_) | Cmd::Select(_)) {
        return Err(OrderError("TAKE DISCARD and SELECT cannot be made conditional".into()));
    }
    Ok(Order { cond, cmd: c })
}
