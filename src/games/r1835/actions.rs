//! The actions of the log (documented with examples in `docs/1835-actions.md`), and why an
//! action is refused ([`Refusal`]: illegal under the rules, with a reason a player can read).

use crate::engine::Illegal;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a bought certificate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Ipo,
    Pool,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Ipo => "IPO",
            Source::Pool => "pool",
        })
    }
}

/// How a share company uses its revenue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DividendKind {
    Payout,
    Withhold,
    /// Minors only (always 50/50).
    Split,
}

/// One action of an 1835 log. `type` names the kind; ids are those printed on the components.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Buy an item of the start packet at face value: a private ("NF"), a minor ("M2"), or a
    /// director's certificate by its company ("BY").
    BuyItem { item: String },
    /// Buy one share certificate of `percent` from the IPO (at par) or the pool (at the price).
    BuyShare { company: String, from: Source, percent: u8 },
    /// Sell `count` certificates of `percent` of a company to the pool, in one sale action.
    Sell { company: String, count: u8, percent: u8 },
    /// Nationalisation: force the player at seat `from_seat` (1-based) to sell one certificate
    /// of `percent` at 150 % of the price (FACTS §6).
    Nationalise { company: String, from_seat: u8, percent: u8 },
    /// End the turn (in a stock round: a pass unless something was bought this turn); in an
    /// operating round: end the current step of the company's turn and go on to the next (the
    /// trains step: end the turn).
    Pass,
    // ---- operating rounds (a company's turn: FACTS §7.3; `docs/1835-actions.md`) ----
    /// Lay or upgrade a tile: `rotation` 0-5 clockwise as in `rules/1835/README.md`.
    LayTile { company: String, tile: String, hex: String, rotation: u8 },
    /// Place a station token in city `city` (from 1) of a hex.
    PlaceToken { company: String, hex: String, city: u8 },
    /// Run the trains: one route (the stops visited, in order: `E19` or `E19.2`) per train, and
    /// the revenue. Without routes the engine runs its optimal routes; without a revenue the
    /// routes' (or the optimum's) value is taken (RULING K21).
    Run {
        company: String,
        #[serde(default)]
        routes: Vec<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        revenue: Option<i64>,
    },
    /// Pay out, withhold or (minors) split the revenue.
    Dividend { company: String, kind: DividendKind },
    /// Buy a train from the bank ("bank"), the pool ("pool") or a company (its id) at `price`.
    BuyTrain { company: String, train: String, from: String, price: i64 },
    /// Offer to buy a train of a company another player directs, at `price` from the operating
    /// company's treasury; that company's director answers (RULINGS K36, K75).
    OfferTrain { company: String, train: String, from: String, price: i64 },
    /// The selling company's director answers the offer waiting for it: sell (`accept`) at the
    /// offered price, or keep the train (RULING K75).
    AnswerTrainOffer { company: String, accept: bool },
    /// Discard a train to the pool (over the train limit).
    DiscardTrain { company: String, train: String },
    /// M2's owner forms the Prussian (`form` true) or declines for now.
    FormPrussian { form: bool },
    /// Exchange a minor or BB/HB (`paper`) for its reserved Prussian certificate, or decline.
    ExchangeForPrussian { paper: String, accept: bool },
}

/// Why an action was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The rules do not allow it; the reason is for the player.
    Illegal(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Illegal(why) => f.write_str(why),
        }
    }
}

impl From<Refusal> for Illegal {
    fn from(r: Refusal) -> Illegal {
        Illegal(r.to_string())
    }
}

/// Shorthand for an illegal action.
pub fn illegal<T>(why: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::Illegal(why.into()))
}

/// "a 10 %" / "a 20 %" / "a 5 %".
pub fn pct(p: u8) -> String {
    format!("{p} %")
}
