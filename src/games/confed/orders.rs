//! The order language of Confederate Rails by mail (guide: `docs/confederate-rails-orders.md`).
//! One order per line, keywords in any case, station names as on the map, lists separated by
//! commas:
//!
//! - set-up: `RRC 12`, `PLACE 1 AT Atlanta [ON 11]`, `SELECT 23`, `DELIVER 23 TO Richmond`;
//! - the Extended Game: `BID 500 ON 12`, `BID UP TO 900 ON 12`, `REPLACE 23`;
//! - the turn: `ACTIVATE 1 2` / `ACTIVATE ALL`, `REPAIR 3`, `REPAIR BRIDGE Richmond, Petersburg`,
//!   `CLEAR Knoxville, Loudon`, `PAY 200 TO 3 [IF Atlanta IS OPEN]`, `ACCEPT 200 FROM 1`;
//! - loads: `TAKE DRAWN`, `TAKE 17`, `DELIVER 48 TO Corinth`, `TROOPS FROM Raleigh TO Norfolk`,
//!   `AGAIN 2` (undertake again after a delivery);
//! - moves: `MOVE 2 Petersburg, Weldon, Goldsboro`, `MOVE 2 SHORTEST TO Weldon`, `PAY FEES`,
//!   `ABANDON 2 AT Weldon`, `LEAVE 2 AT Goldsboro` (RT 5.1.8); pick-up and drop-off happen when
//!   the train stands at its pickup or dropoff station;
//! - specials (`play`): `PLAY LEE WHEN Atlanta FALLS` (or `WHEN A VICTORY DEPOT FALLS`, `WHEN ANY
//!   FALLS`), `PLAY OFFENSIVE ON Nashville [WITH JACKSON] [WHEN Nashville IS OCCUPIED]`,
//!   `PLAY TREASURE ON 12`, `PLAY RAID`, `PLAY FREIGHT`, `PLAY INTERVENTION`,
//!   `PLAY LEE FOR OFFENSIVE`, `PLAY LEE NEVER`, `DONATE 1`;
//! - choices asked by events and the War, each named (`choose`): `CHOOSE UNION Corinth`,
//!   `CHOOSE SABOTAGE RIP Knoxville, Loudon`, `CHOOSE RAID TRAIN 2 3`, `DECLINE DEPOT`, ….
//!
//! The engine's `Orders` role is implemented here; `answer` (in `orders/answer.rs`) turns the
//! sheet into the action at each decision.

mod ahead;
pub(super) mod answer;
mod choose;
mod drawn;
mod echo;
mod fees;
mod kinds;
mod play;

pub use choose::Pick;
pub use drawn::{Cmp, DrawnIf, Test};
pub use fees::Fees;

use super::Confed;
use super::actions::{Action, Cond};
use super::bribe::parse_cond;
use super::state::{ChoiceKind, State};
use crate::engine::{
    Answer, Decision, Lasting, LineNote, Numbered, OrderError, OrderSheet, Orders, Rules, Seat,
    executed_lines,
};
use std::collections::BTreeSet;
use std::fmt::{self, Display};

/// When a standing `PLAY … WHEN …` order fires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum When {
    /// The named station is about to fall.
    Station(String),
    /// A Victory Depot is about to fall.
    VictoryDepot,
    /// Any station is about to fall.
    Any,
}

/// One order line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// `RRC n`: choose this RRC at set-up.
    Rrc(u8),
    /// `PLACE t AT station [ON line]`.
    Place { train: u8, at: String, line: Option<u8> },
    /// `SELECT n`: a starting load.
    Select(u32),
    /// `ACTIVATE t t …`.
    Activate(Vec<u8>),
    /// `ACTIVATE ALL`.
    ActivateAll,
    /// `REPAIR t`: repair a disabled train at Raleigh.
    Repair(u8),
    /// `REPAIR BRIDGE a, b`.
    RepairBridge(String, String),
    /// `CLEAR a, b`: remove a Ripped Up! marker.
    Clear(String, String),
    /// `PAY amount TO seat [IF …]`: transfers only if that seat accepts the same turn, and the
    /// condition holds when the money would move (RULING F42).
    Pay { amount: u32, to: Seat, cond: Option<Cond> },
    /// `ACCEPT amount FROM seat`.
    Accept { amount: u32, from: Seat },
    /// `TAKE DRAWN`.
    TakeDrawn,
    /// `TAKE n`: a displayed or abandoned load.
    Take(u32),
    /// `TAKE DRAWN [FOR t] IF <test>`: keep the drawn load only if it passes and, with `FOR`,
    /// only when the load is drawn for that train (`drawn`; RULING F84).
    TakeDrawnIf { test: DrawnIf, train: Option<u8> },
    /// `TAKE n [FOR t] IF DRAWN <test>`: decline the drawn load for displayed load n only if the
    /// drawn one passes and, with `FOR`, only for that train (RULING F84).
    TakeInstead { load: u32, when: DrawnIf, train: Option<u8> },
    /// `DELIVER n TO station`: the dropoff of load n.
    Deliver { load: u32, to: String },
    /// `TROOPS FROM depot TO station`.
    Troops { from: String, to: String },
    /// `AGAIN t`: after a delivery, undertake a new load with the same train.
    Again(u8),
    /// `MOVE t a, b, c`.
    Move { train: u8, path: Vec<String> },
    /// `MOVE t SHORTEST TO x`.
    Shortest { train: u8, to: String },
    /// `PAY [NO] FEES [FOR t] [ON n] [UP TO m]`: how the line usage fee is paid (`fees`;
    /// RT 5.6, RULING F83).
    Fees(Fees),
    /// `ABANDON t AT station`.
    Abandon { train: u8, at: String },
    /// `LEAVE t AT depot` (RT 5.1.8).
    Leave { train: u8, at: String },
    /// `PLAY special WHEN …`: a General cancelling a War Progress result.
    PlayWhen { special: u8, when: When },
    /// `PLAY special [ON target] [WITH general] [WHEN condition]` (`play`): with a condition, a
    /// standing order played at the first window where it holds (RT 6.0).
    Play { special: u8, target: Option<String>, with: Option<u8>, when: Option<Cond> },
    /// `PLAY general FOR OFFENSIVE [ON station]`: +1 to another player's Offensive (RT 6.2).
    Support { general: u8, on: Option<String> },
    /// `PLAY special [FOR OFFENSIVE] NEVER`: withdraws that standing order (HR 12).
    Never { special: u8, support: bool },
    /// `DONATE k`.
    Donate(u32),
    /// `CHOOSE <choice> …`: the answer to one kind of choice only (`choose`; issue 34).
    Choose { kind: ChoiceKind, pick: Pick },
    /// `DECLINE DEPOT|IRON|SEIZE`: decline that voluntary event (RT 7.0).
    Decline(ChoiceKind),
    /// `BID amount ON rrc` (Extended Game, RT 4.1.1): open the bidding for the RRC, or raise
    /// to this amount when it is your turn to bid.
    Bid { rrc: u8, amount: u32 },
    /// `BID UP TO max ON rrc`: raise by $100 whenever outbid, up to `max` (opens at $100).
    BidUpTo { rrc: u8, max: u32 },
    /// `REPLACE n` (RT 4.1.2): the drawn contract replaces displayed load n.
    Replace(u32),
}

/// The special counters by order word.
const SPECIALS: [(&str, u8); 8] = [
    ("LEE", 1),
    ("OFFENSIVE", 2),
    ("JACKSON", 3),
    ("INTERVENTION", 4),
    ("MCCLELLAN", 5),
    ("TREASURE", 6),
    ("RAID", 7),
    ("FREIGHT", 8),
];

fn special_word(n: u8) -> &'static str {
    SPECIALS.iter().find(|(_, k)| *k == n).map(|(w, _)| *w).unwrap_or("?")
}

fn special(word: &str) -> Result<u8, OrderError> {
    SPECIALS
        .iter()
        .find(|(w, _)| w.eq_ignore_ascii_case(word))
        .map(|(_, n)| *n)
        .ok_or_else(|| OrderError(format!("\"{word}\" is not a Special Event (LEE, OFFENSIVE, JACKSON, INTERVENTION, MCCLELLAN, TREASURE, RAID, FREIGHT)")))
}

fn num<T: std::str::FromStr>(w: Option<&str>, what: &str) -> Result<T, OrderError> {
    w.and_then(|x| x.trim().parse().ok()).ok_or_else(|| OrderError(format!("expected {what}")))
}

fn train_no(w: Option<&str>) -> Result<u8, OrderError> {
    match w.map(str::trim) {
        Some(x) if x.eq_ignore_ascii_case("E") => Ok(super::state::E_TRAIN),
        other => num(other, "a train number (1-7 or E)"),
    }
}

fn names(text: &str) -> Vec<String> {
    text.split(',').map(|x| x.trim().to_string()).filter(|x| !x.is_empty()).collect()
}

fn pair(text: &str) -> Result<(String, String), OrderError> {
    match names(text).as_slice() {
        [a, b] => Ok((a.clone(), b.clone())),
        _ => Err(OrderError("name a segment by its two stations, separated by a comma".into())),
    }
}

/// Splits `text` at the first ` KEYWORD ` (case-insensitive): (before, after).
fn split_kw(text: &str, kw: &str) -> Option<(String, String)> {
    let upper = text.to_ascii_uppercase();
    let pat = format!(" {kw} ");
    let i = upper.find(&pat)?;
    Some((text.get(..i)?.to_string(), text.get(i + pat.len()..)?.to_string()))
}

fn seat(w: Option<&str>) -> Result<Seat, OrderError> {
    let n: u8 =
        num(w.map(|x| x.trim_start_matches(['s', 'S', 'e', 'E', 'a', 'A', 't', 'T'])), "a seat number")?;
    Ok(Seat(n))
}

impl Orders for Confed {
    type Order = Order;

    fn answer(&self, s: &State, _decision: &Decision, sheet: &mut OrderSheet<Order>) -> Answer<Action> {
        self.answer_from(s, sheet).or_default_if_ordered(sheet, || self.default_action(s))
    }

    /// Issue 36: the order builder's lines (`crate::games::confed::choices`).
    fn choices(&self, s: &State, seat: Seat) -> Vec<crate::engine::Choices> {
        self.choices_of(s, seat)
    }

    /// Issue 34: each line's decision, names and phase checked at submission (`echo`), each judged
    /// after the lines before it on the sheet (`ahead`).
    fn advise_sheet(&self, s: &State, seat: Seat, orders: &[Numbered<Order>]) -> Vec<Option<String>> {
        self.echo_sheet(s, seat, orders)
    }

    /// HR 12 (RULING F22 amended): a standing `PLAY` line lasts from turn to turn until played
    /// or withdrawn (`PLAY LEE NEVER`); one per counter and use.
    fn lasting(&self, o: &Order) -> Option<Lasting> {
        let (special, support, withdraws) = match o {
            Order::PlayWhen { special, .. } | Order::Play { special, when: Some(_), .. } => {
                (*special, false, false)
            }
            Order::Support { general, .. } => (*general, true, false),
            Order::Never { special, support } => (*special, *support, true),
            _ => return None,
        };
        Some(Lasting { key: play::standing_key(special_word(special), support), withdraws })
    }

    // RULING F31: lines carried out are public (their effect is on the table); a standing
    // `PLAY … WHEN` never fired, or an offer's condition, stays a hash.
    fn public_lines(&self, _sheet: &OrderSheet<Order>, notes: &[LineNote]) -> BTreeSet<usize> {
        executed_lines(notes)
    }

    /// Parses one order line.
    fn parse_order(&self, line: &str) -> Result<Order, OrderError> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let head = words.next().unwrap_or("").to_ascii_uppercase();
        let rest = line.get(head.len()..).unwrap_or("").trim();
        let w: Vec<&str> = rest.split_whitespace().collect();
        let up = |i: usize| w.get(i).map(|x| x.to_ascii_uppercase()).unwrap_or_default();
        Ok(match head.as_str() {
            "RRC" => Order::Rrc(num(w.first().map(|x| x.trim_start_matches('#')), "an RRC number")?),
            "PLACE" => {
                let train = train_no(w.first().copied())?;
                let after = rest.get(w.first().map(|x| x.len()).unwrap_or(0)..).unwrap_or("").trim();
                let after = after.strip_prefix("AT ").or_else(|| after.strip_prefix("at ")).unwrap_or(after);
                let (at, line) = match split_kw(&format!(" {after} "), "ON") {
                    Some((a, l)) => (
                        a.trim().to_string(),
                        Some(num(Some(l.trim().trim_start_matches('#')), "a line number")?),
                    ),
                    None => (after.trim().to_string(), None),
                };
                Order::Place { train, at, line }
            }
            "SELECT" => Order::Select(num(w.first().copied(), "a load number")?),
            "ACTIVATE" if up(0) == "ALL" => Order::ActivateAll,
            "ACTIVATE" => {
                let v = w.iter().map(|x| train_no(Some(x))).collect::<Result<Vec<u8>, _>>()?;
                if v.is_empty() {
                    return Err(OrderError("ACTIVATE names trains, or ALL".into()));
                }
                Order::Activate(v)
            }
            "REPAIR" if up(0) == "BRIDGE" => {
                let (a, b) = pair(rest.get(6..).unwrap_or(""))?;
                Order::RepairBridge(a, b)
            }
            "REPAIR" => Order::Repair(train_no(w.first().copied())?),
            "CLEAR" => {
                let (a, b) = pair(rest)?;
                Order::Clear(a, b)
            }
            "PAY" if up(0) == "FEES" || (up(0) == "NO" && up(1) == "FEES") => fees::parse_fees(rest)?,
            "PAY" => {
                let amount = num(w.first().copied(), "an amount")?;
                if up(1) != "TO" {
                    return Err(OrderError("write PAY <amount> TO <seat> [IF …]".into()));
                }
                let cond = split_kw(&format!("{line} "), "IF").map(|(_, c)| parse_cond(&c)).transpose()?;
                Order::Pay { amount, to: seat(w.get(2).copied())?, cond }
            }
            "ACCEPT" => {
                if up(1) != "FROM" {
                    return Err(OrderError("write ACCEPT <amount> FROM <seat>".into()));
                }
                Order::Accept {
                    amount: num(w.first().copied(), "an amount")?,
                    from: seat(w.get(2).copied())?,
                }
            }
            "TAKE" => drawn::parse_take(rest)?,
            "DELIVER" => {
                let load = num(w.first().copied(), "a load number")?;
                let (_, to) = split_kw(&format!(" {rest} "), "TO")
                    .ok_or_else(|| OrderError("write DELIVER <load> TO <station>".into()))?;
                Order::Deliver { load, to: to.trim().to_string() }
            }
            "TROOPS" => {
                let (_, after) = split_kw(&format!(" {rest} "), "FROM")
                    .ok_or_else(|| OrderError("write TROOPS FROM <depot> TO <station>".into()))?;
                let (from, to) = split_kw(&format!(" {after} "), "TO")
                    .ok_or_else(|| OrderError("write TROOPS FROM <depot> TO <station>".into()))?;
                Order::Troops { from: from.trim().to_string(), to: to.trim().to_string() }
            }
            "AGAIN" => Order::Again(train_no(w.first().copied())?),
            "MOVE" => {
                let train = train_no(w.first().copied())?;
                let after = rest.get(w.first().map(|x| x.len()).unwrap_or(0)..).unwrap_or("").trim();
                if up(1) == "SHORTEST" {
                    let (_, to) = split_kw(&format!(" {after} "), "TO")
                        .ok_or_else(|| OrderError("write MOVE <train> SHORTEST TO <station>".into()))?;
                    Order::Shortest { train, to: to.trim().to_string() }
                } else {
                    let path = names(after);
                    if path.is_empty() {
                        return Err(OrderError(
                            "MOVE names the stations to enter, separated by commas".into(),
                        ));
                    }
                    Order::Move { train, path }
                }
            }
            "ABANDON" | "LEAVE" => {
                let train = train_no(w.first().copied())?;
                let (_, at) = split_kw(&format!(" {rest} "), "AT")
                    .ok_or_else(|| OrderError(format!("write {head} <train> AT <station>")))?;
                let at = at.trim().to_string();
                if head == "ABANDON" { Order::Abandon { train, at } } else { Order::Leave { train, at } }
            }
            "PLAY" => play::parse_play(rest)?,
            "DONATE" => Order::Donate(num(w.first().copied(), "how many $3000s")?),
            "CHOOSE" => choose::parse_choose(rest)?,
            "DECLINE" => choose::parse_decline(rest)?,
            "BID" => {
                let proxy = up(0) == "UP" && up(1) == "TO";
                let k = if proxy { 2 } else { 0 };
                let amount: u32 = num(w.get(k).map(|x| x.trim_start_matches('$')), "an amount in dollars")?;
                if up(k + 1) != "ON" {
                    return Err(OrderError(
                        "write BID <amount> ON <rrc> or BID UP TO <amount> ON <rrc>".into(),
                    ));
                }
                let rrc = num(w.get(k + 2).map(|x| x.trim_start_matches('#')), "an RRC number")?;
                if amount == 0 || !amount.is_multiple_of(100) {
                    return Err(OrderError("bids are in steps of $100 (RT 4.1.1)".into()));
                }
                if proxy { Order::BidUpTo { rrc, max: amount } } else { Order::Bid { rrc, amount } }
            }
            "REPLACE" => Order::Replace(num(w.first().copied(), "the number of a displayed load")?),
            _ => return Err(OrderError(format!("unknown order \"{head}\"; see the order guide"))),
        })
    }
}

fn t(id: u8) -> String {
    if id == super::state::E_TRAIN { "E".into() } else { id.to_string() }
}

impl Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Order::Rrc(n) => write!(f, "RRC {n}"),
            Order::Place { train, at, line } => {
                write!(f, "PLACE {} AT {at}", t(*train))?;
                line.map_or(Ok(()), |l| write!(f, " ON {l}"))
            }
            Order::Select(n) => write!(f, "SELECT {n}"),
            Order::Activate(v) => {
                write!(f, "ACTIVATE {}", v.iter().map(|x| t(*x)).collect::<Vec<_>>().join(" "))
            }
            Order::ActivateAll => write!(f, "ACTIVATE ALL"),
            Order::Repair(x) => write!(f, "REPAIR {}", t(*x)),
            Order::RepairBridge(a, b) => write!(f, "REPAIR BRIDGE {a}, {b}"),
            Order::Clear(a, b) => write!(f, "CLEAR {a}, {b}"),
            Order::Pay { amount, to, cond } => {
                write!(f, "PAY {amount} TO {}", to.0)?;
                cond.as_ref().map_or(Ok(()), |c| write!(f, " IF {c}"))
            }
            Order::Accept { amount, from } => write!(f, "ACCEPT {amount} FROM {}", from.0),
            Order::TakeDrawn => write!(f, "TAKE DRAWN"),
            Order::Take(n) => write!(f, "TAKE {n}"),
            Order::TakeDrawnIf { test, train } => {
                write!(f, "TAKE DRAWN{} IF {test}", drawn::for_words(*train))
            }
            Order::TakeInstead { load, when, train } => {
                write!(f, "TAKE {load}{} IF DRAWN {when}", drawn::for_words(*train))
            }
            Order::Deliver { load, to } => write!(f, "DELIVER {load} TO {to}"),
            Order::Troops { from, to } => write!(f, "TROOPS FROM {from} TO {to}"),
            Order::Again(x) => write!(f, "AGAIN {}", t(*x)),
            Order::Move { train, path } => write!(f, "MOVE {} {}", t(*train), path.join(", ")),
            Order::Shortest { train, to } => write!(f, "MOVE {} SHORTEST TO {to}", t(*train)),
            Order::Fees(x) => write!(f, "{x}"),
            Order::Abandon { train, at } => write!(f, "ABANDON {} AT {at}", t(*train)),
            Order::Leave { train, at } => write!(f, "LEAVE {} AT {at}", t(*train)),
            Order::PlayWhen { special, when } => {
                let w = match when {
                    When::Station(x) => x.clone(),
                    When::VictoryDepot => "A VICTORY DEPOT".into(),
                    When::Any => "ANY".into(),
                };
                write!(f, "PLAY {} WHEN {w} FALLS", special_word(*special))
            }
            Order::Play { special, target, with, when } => {
                write!(f, "PLAY {}", special_word(*special))?;
                if let Some(x) = target {
                    write!(f, " ON {x}")?;
                }
                if let Some(g) = with {
                    write!(f, " WITH {}", special_word(*g))?;
                }
                when.as_ref().map_or(Ok(()), |c| write!(f, " WHEN {c}"))
            }
            Order::Support { general, on } => {
                write!(f, "PLAY {} FOR OFFENSIVE", special_word(*general))?;
                on.as_ref().map_or(Ok(()), |x| write!(f, " ON {x}"))
            }
            Order::Never { special, support } => {
                write!(f, "{} NEVER", play::standing_key(special_word(*special), *support))
            }
            Order::Donate(k) => write!(f, "DONATE {k}"),
            Order::Choose { kind, pick } => write!(f, "CHOOSE {} {pick}", choose::qualifier(kind)),
            Order::Decline(kind) => write!(f, "DECLINE {}", choose::decline_word(kind)),
            Order::Bid { rrc, amount } => write!(f, "BID {amount} ON {rrc}"),
            Order::BidUpTo { rrc, max } => write!(f, "BID UP TO {max} ON {rrc}"),
            Order::Replace(n) => write!(f, "REPLACE {n}"),
        }
    }
}
