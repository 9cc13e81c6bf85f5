//! The typed orders of the 1835 language and their normalised form (`Display`): what the parser
//! produces, what the echo shows, and what re-parses to the same order (the property test in
//! `tests_orders`).

use crate::games::r1835::actions::{DividendKind, Source};
use std::fmt;

/// One order line: a plan (optionally for a company the player directs), a stated intention
/// (HR 12), or a request for a one-round turn (HR 14).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub kind: Kind,
    /// What the adjudication has made of the line so far (never printed, never parsed).
    pub progress: Progress,
}

/// What kind of line it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Orders: without a company, stock-round and Prussian orders; with one (`BY: …`), that
    /// company's operating orders.
    Plan { company: Option<String>, plan: Plan },
    /// `INTENT BY: TOWARD E19` — the company's stated target, standing until withdrawn (HR 12);
    /// `INTENT BY: NONE` (`toward` empty) withdraws it.
    Intent { company: String, toward: Option<String> },
    /// `ONE ROUND` — the player asks for a one-round turn (HR 14).
    OneRound,
}

/// The adjudication's marks on a line between decisions of one turn.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// Purchases made so far from a `BUY n …` line (HR 20: one per stock turn).
    pub done: u8,
    /// A `SELL … ALONE` line was just carried out: the turn ends at the seat's next decision.
    pub end_turn: bool,
    /// An HR 17 B referral is pending for this line.
    pub referral: Option<Refer>,
    /// The line offered this for another player's train (train, seller, price): should the
    /// seller's director decline, its other alternatives are tried (RULING K75).
    pub offered: Option<(String, String, i64)>,
}

/// An HR 17 B referral: what the candidates offered to the GM follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refer {
    /// Stations (true) or track.
    pub station: bool,
    /// The hex the candidates head for (written on the line, or standing: HR 12).
    pub target: Option<String>,
    /// The plan evident from the order itself (issue 33): the hex of the ordered lay and the
    /// sides its new track would lead to; candidates keeping that line come first.
    pub line: Option<(String, Vec<u8>)>,
}

impl Order {
    /// A fresh line of this kind.
    pub fn new(kind: Kind) -> Order {
        Order { kind, progress: Progress::default() }
    }
    /// The company the line is for, if any.
    pub fn company(&self) -> Option<&str> {
        match &self.kind {
            Kind::Plan { company, .. } => company.as_deref(),
            Kind::Intent { company, .. } => Some(company),
            Kind::OneRound => None,
        }
    }
    /// The plan of a plan line.
    pub fn plan(&self) -> Option<&Plan> {
        match &self.kind {
            Kind::Plan { plan, .. } => Some(plan),
            _ => None,
        }
    }
}

/// Commands with contingencies: a command, alternatives tried in order (`A ELSE B`), or a
/// condition (`IF c THEN a ELSE b`, nestable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Cmd(Cmd),
    /// The first alternative that can be carried out (at least two).
    Alts(Vec<Plan>),
    If {
        cond: Cond,
        then: Box<Plan>,
        otherwise: Option<Box<Plan>>,
    },
}

/// When a SELL is carried out relative to the BUY lines around it (HR 18).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// Default: with the BUY that follows, before it, in the same turn — and only if that BUY
    /// can then be carried out (RULINGS K56).
    Paired,
    /// `ANYWAY`: before the following BUY, whether or not that BUY can be carried out.
    Anyway,
    /// `ALONE`: a sale turn of its own; the turn ends after the sale.
    Alone,
    /// `AFTER`: after the purchase of the BUY line before it, in the same turn.
    After,
}

/// Where a train is bought from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seller {
    Bank,
    Pool,
    Company(String),
}

/// One command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cmd {
    Pass,
    /// `BUY [n] X [IPO|POOL] [n%]`: `count` certificates, one per stock turn (HR 20); a start
    /// packet item by its name.
    Buy {
        count: Option<u8>,
        name: String,
        from: Option<Source>,
        percent: Option<u8>,
    },
    Sell {
        count: u8,
        company: String,
        percent: Option<u8>,
        timing: Timing,
    },
    Nationalise {
        company: String,
        from_seat: u8,
        percent: Option<u8>,
    },
    /// `LAY 201 O15 ROTATION 2`, `LAY TOWARD E19`, `LAY BEST` (all parts but the target go
    /// together: a tile and a hex, optionally a rotation).
    Lay {
        tile: Option<String>,
        hex: Option<String>,
        rotation: Option<u8>,
        toward: Option<String>,
    },
    /// `TOKEN H16 [CITY 2]`, `TOKEN TOWARD E19`, `TOKEN BEST`.
    Token {
        hex: Option<String>,
        city: Option<u8>,
        toward: Option<String>,
    },
    /// `RUN BEST`, or one route per train: `RUN E19-F20-G21, H3-H5`.
    Run {
        routes: Vec<Vec<String>>,
    },
    Dividend(DividendKind),
    /// `BUY TRAIN 4 [FROM BANK|POOL|SX] [PRICE 300]`.
    BuyTrain {
        train: String,
        from: Option<Seller>,
        price: Option<i64>,
    },
    Discard {
        train: String,
    },
    /// `SX: SELL TRAIN 3 TO BY MIN 200` / `… FOR 250`: SX's answer, given in advance, to an
    /// offer from `to` for its train (RULING K75).
    SellTrain {
        train: String,
        to: String,
        price: Asking,
    },
    /// `FORM PR` / `DECLINE PR` (M2's owner, FACTS §9).
    Form(bool),
    /// `EXCHANGE M1` / `KEEP M1` (a minor, BB or HB for its Prussian certificate).
    Exchange {
        paper: String,
        accept: bool,
    },
}

/// The price a `SELL TRAIN` line takes: any offer of at least `MIN n`, or exactly the offer
/// named (`FOR n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asking {
    Min(i64),
    Exactly(i64),
}

impl Asking {
    /// Whether an offer of `price` is taken.
    pub fn takes(self, price: i64) -> bool {
        match self {
            Asking::Min(m) => price >= m,
            Asking::Exactly(x) => price == x,
        }
    }
}

/// A comparison in a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Ge,
    Le,
    Gt,
    Lt,
    Eq,
}

impl Cmp {
    /// Whether `a cmp b` holds.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Ge => a >= b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Lt => a < b,
            Cmp::Eq => a == b,
        }
    }
    /// The comparison written as in orders.
    pub fn symbol(self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
        }
    }
}

/// A condition of `IF`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cond {
    /// `AVAILABLE MS [IPO|POOL] [20%]`: a certificate of the company can be had there.
    Available {
        company: String,
        from: Option<Source>,
        percent: Option<u8>,
    },
    /// `FLOATED BA` (`FORMED PR` for the Prussian).
    Floated(String),
    /// `TRAIN 4 AVAILABLE`: the bank's next train or one in the pool is of this type.
    TrainAvailable(String),
    /// `TRAIN 2 RUSTED`.
    TrainRusted(String),
    /// `PRICE BY >= 100`.
    Price {
        company: String,
        cmp: Cmp,
        value: i64,
    },
    /// `CASH >= 300` (the player's) or `CASH BY >= 300` (a treasury).
    Cash {
        company: Option<String>,
        cmp: Cmp,
        value: i64,
    },
    /// `CAN LAY 201 O15 [ROTATION 2]` for the company the line is for.
    CanLay {
        tile: String,
        hex: String,
        rotation: Option<u8>,
    },
    /// `BOUGHT MS` / `SEAT 2 BOUGHT MS`: someone else (that seat) bought it earlier this round.
    Bought {
        seat: Option<u8>,
        name: String,
    },
    /// `PHASE >= 4`.
    Phase {
        cmp: Cmp,
        value: u8,
    },
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

fn size(p: Option<u8>) -> String {
    p.map(|p| format!(" {p}%")).unwrap_or_default()
}

impl fmt::Display for Seller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seller::Bank => f.write_str("BANK"),
            Seller::Pool => f.write_str("POOL"),
            Seller::Company(c) => f.write_str(c),
        }
    }
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmd::Pass => f.write_str("PASS"),
            Cmd::Buy { count, name, from, percent } => {
                let count = count.map(|c| format!("{c} ")).unwrap_or_default();
                let from = from.map(|s| format!(" {}", s.to_string().to_uppercase())).unwrap_or_default();
                write!(f, "BUY {count}{name}{from}{}", size(*percent))
            }
            Cmd::Sell { count, company, percent, timing } => {
                let when = match timing {
                    Timing::Paired => "",
                    Timing::Anyway => " ANYWAY",
                    Timing::Alone => " ALONE",
                    Timing::After => " AFTER",
                };
                write!(f, "SELL {count} {company}{}{when}", size(*percent))
            }
            Cmd::Nationalise { company, from_seat, percent } => {
                write!(f, "NATIONALISE {company} FROM {from_seat}{}", size(*percent))
            }
            Cmd::Lay { tile, hex, rotation, toward } => {
                f.write_str("LAY")?;
                if let (Some(t), Some(h)) = (tile, hex) {
                    write!(f, " {t} {h}")?;
                }
                if let Some(r) = rotation {
                    write!(f, " ROTATION {r}")?;
                }
                match (toward, tile) {
                    (Some(x), _) => write!(f, " TOWARD {x}"),
                    (None, None) => f.write_str(" BEST"),
                    (None, Some(_)) => Ok(()),
                }
            }
            Cmd::Token { hex, city, toward } => {
                f.write_str("TOKEN")?;
                if let Some(h) = hex {
                    write!(f, " {h}")?;
                }
                if let Some(c) = city {
                    write!(f, " CITY {c}")?;
                }
                match (toward, hex) {
                    (Some(x), _) => write!(f, " TOWARD {x}"),
                    (None, None) => f.write_str(" BEST"),
                    (None, Some(_)) => Ok(()),
                }
            }
            Cmd::Run { routes } if routes.is_empty() => f.write_str("RUN BEST"),
            Cmd::Run { routes } => {
                let r: Vec<String> = routes.iter().map(|r| r.join("-")).collect();
                write!(f, "RUN {}", r.join(", "))
            }
            Cmd::Dividend(DividendKind::Payout) => f.write_str("PAY"),
            Cmd::Dividend(DividendKind::Withhold) => f.write_str("WITHHOLD"),
            Cmd::Dividend(DividendKind::Split) => f.write_str("SPLIT"),
            Cmd::BuyTrain { train, from, price } => {
                write!(f, "BUY TRAIN {train}")?;
                if let Some(s) = from {
                    write!(f, " FROM {s}")?;
                }
                if let Some(p) = price {
                    write!(f, " PRICE {p}")?;
                }
                Ok(())
            }
            Cmd::Discard { train } => write!(f, "DISCARD {train}"),
            Cmd::SellTrain { train, to, price: Asking::Min(m) } => {
                write!(f, "SELL TRAIN {train} TO {to} MIN {m}")
            }
            Cmd::SellTrain { train, to, price: Asking::Exactly(x) } => {
                write!(f, "SELL TRAIN {train} TO {to} FOR {x}")
            }
            Cmd::Form(true) => f.write_str("FORM PR"),
            Cmd::Form(false) => f.write_str("DECLINE PR"),
            Cmd::Exchange { paper, accept: true } => write!(f, "EXCHANGE {paper}"),
            Cmd::Exchange { paper, accept: false } => write!(f, "KEEP {paper}"),
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Available { company, from, percent } => {
                let from = from.map(|s| format!(" {}", s.to_string().to_uppercase())).unwrap_or_default();
                write!(f, "AVAILABLE {company}{from}{}", size(*percent))
            }
            Cond::Floated(c) => write!(f, "FLOATED {c}"),
            Cond::TrainAvailable(t) => write!(f, "TRAIN {t} AVAILABLE"),
            Cond::TrainRusted(t) => write!(f, "TRAIN {t} RUSTED"),
            Cond::Price { company, cmp, value } => write!(f, "PRICE {company} {} {value}", cmp.symbol()),
            Cond::Cash { company: None, cmp, value } => write!(f, "CASH {} {value}", cmp.symbol()),
            Cond::Cash { company: Some(c), cmp, value } => write!(f, "CASH {c} {} {value}", cmp.symbol()),
            Cond::CanLay { tile, hex, rotation } => {
                write!(f, "CAN LAY {tile} {hex}")?;
                rotation.map_or(Ok(()), |r| write!(f, " ROTATION {r}"))
            }
            Cond::Bought { seat: None, name } => write!(f, "BOUGHT {name}"),
            Cond::Bought { seat: Some(s), name } => write!(f, "SEAT {s} BOUGHT {name}"),
            Cond::Phase { cmp, value } => write!(f, "PHASE {} {value}", cmp.symbol()),
            Cond::Not(c) => write!(f, "NOT {}", Bracketed(c, false)),
            Cond::And(a, b) => write!(f, "{} AND {}", Bracketed(a, true), Bracketed(b, true)),
            Cond::Or(a, b) => write!(f, "{} OR {}", Bracketed(a, true), Bracketed(b, true)),
        }
    }
}

/// A condition in brackets where it combines others (so the printed form re-parses the same).
struct Bracketed<'a>(&'a Cond, bool);

impl fmt::Display for Bracketed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Cond::And(..) | Cond::Or(..) => write!(f, "({})", self.0),
            Cond::Not(_) if self.1 => write!(f, "({})", self.0),
            c => write!(f, "{c}"),
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Plan::Cmd(c) => write!(f, "{c}"),
            Plan::Alts(alts) => {
                let parts: Vec<String> = alts
                    .iter()
                    .map(|p| match p {
                        Plan::Cmd(c) => c.to_string(),
                        other => format!("({other})"),
                    })
                    .collect();
                f.write_str(&parts.join(" ELSE "))
            }
            Plan::If { cond, then, otherwise } => {
                write!(f, "IF {cond} THEN ")?;
                match then.as_ref() {
                    Plan::Cmd(c) => write!(f, "{c}")?,
                    other => write!(f, "({other})")?,
                }
                match otherwise {
                    Some(o) => write!(f, " ELSE {o}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Plan { company: None, plan } => write!(f, "{plan}"),
            Kind::Plan { company: Some(c), plan } => write!(f, "{c}: {plan}"),
            Kind::Intent { company, toward: Some(toward) } => write!(f, "INTENT {company}: TOWARD {toward}"),
            Kind::Intent { company, toward: None } => write!(f, "INTENT {company}: NONE"),
            Kind::OneRound => f.write_str("ONE ROUND"),
        }
    }
}
