//! How a player pays the Line Usage Fee (RT 5.6), stated in advance (issue 34; RULING F83): the
//! fee is a choice the rules give the moving player each time a loaded train enters another
//! player's line ("he declines to pay the fee … or he pays the owner of the line a fee of
//! $200"). A fee line answers only that choice ([`Kind::Fee`]), and only for the train and the
//! line it names:
//!
//! - `PAY FEES` — every train, every line (as before);
//! - `PAY FEES FOR 2`, `PAY FEES ON 12`, `PAY FEES FOR 2 ON 12` — that train, that line;
//! - `PAY FEES UP TO 400` (with or without `FOR` / `ON`) — a budget: at most $400 in fees this
//!   Player Turn, counted over the fees already paid this turn by the trains and on the lines the
//!   line names;
//! - `PAY NO FEES [FOR 2] [ON 12]` — never pay there (the default, written to stand before a
//!   wider `PAY FEES`).
//!
//! Fee lines are read in sheet order, the first that covers the choice decides, and they stand
//! for the whole Player Turn (never used up). A `PAY FEES` line whose budget a fee would exceed
//! does not cover it: the next fee line is read, else the fee is not paid.

use super::super::Confed;
use super::super::chits::train_name;
use super::super::decision::Kind;
use super::super::state::State;
use super::{Order, num, train_no};
use crate::engine::{OrderError, OrderSheet};
use std::fmt;

/// A fee line: pay or not, for which train and line, within which budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fees {
    /// `PAY FEES` (true) or `PAY NO FEES` (false).
    pub pay: bool,
    /// `FOR t`: only this train.
    pub train: Option<u8>,
    /// `ON n`: only this line.
    pub line: Option<u8>,
    /// `UP TO m`: at most this much this Player Turn (only with `pay`).
    pub up_to: Option<u32>,
}

impl Fees {
    /// Whether the line is about `train` entering `line`.
    pub fn covers(&self, train: u8, line: u8) -> bool {
        self.train.is_none_or(|t| t == train) && self.line.is_none_or(|l| l == line)
    }

    /// The fees already paid this Player Turn within the line's scope.
    fn spent(&self, s: &State) -> u32 {
        s.fees_paid.iter().filter(|f| self.covers(f.train, f.line)).map(|f| f.amount).sum()
    }

    /// Whether the line decides a fee of `amount` for `train` on `line`: it covers them and, for
    /// a budget, the fee fits in what is left of it.
    fn decides(&self, s: &State, train: u8, line: u8, amount: u32) -> bool {
        self.covers(train, line) && self.up_to.is_none_or(|m| self.spent(s) + amount <= m)
    }

    /// The fee choice in words, for the echo.
    pub fn words(&self) -> String {
        let who = self.train.map(train_name).unwrap_or_else(|| "every train".into());
        let on = self.line.map(|l| format!("RRC #{l}")).unwrap_or_else(|| "any other player's line".into());
        let what = if self.pay { "pay" } else { "do not pay" };
        let budget = self.up_to.map(|m| format!(", at most ${m} this Player Turn")).unwrap_or_default();
        format!("{what} the line usage fee for {who} on {on}{budget}")
    }
}

/// Parses the text after `PAY` of a `PAY [NO] FEES …` line.
pub(super) fn parse_fees(rest: &str) -> Result<Order, OrderError> {
    let w: Vec<String> = rest.split_whitespace().map(str::to_ascii_uppercase).collect();
    let pay = w.first().map(String::as_str) != Some("NO");
    let mut i = if pay { 1 } else { 2 };
    let mut f = Fees { pay, train: None, line: None, up_to: None };
    let form = "write PAY [NO] FEES [FOR <train>] [ON <line>] [UP TO <amount>]";
    while let Some(word) = w.get(i) {
        match word.as_str() {
            "FOR" if f.train.is_none() => f.train = Some(train_no(w.get(i + 1).map(String::as_str))?),
            "ON" if f.line.is_none() => {
                f.line = Some(num(w.get(i + 1).map(|x| x.trim_start_matches('#')), "a line number")?)
            }
            "UP" if f.up_to.is_none() && w.get(i + 1).map(String::as_str) == Some("TO") => {
                let m: u32 = num(w.get(i + 2).map(|x| x.trim_start_matches('$')), "an amount")?;
                if !pay {
                    return Err(OrderError(
                        "PAY NO FEES has no budget; write PAY FEES UP TO <amount>".into(),
                    ));
                }
                f.up_to = Some(m);
                i += 1;
            }
            _ => return Err(OrderError(form.into())),
        }
        i += 2;
    }
    Ok(Order::Fees(f))
}

impl fmt::Display for Fees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", if self.pay { "PAY FEES" } else { "PAY NO FEES" })?;
        if let Some(t) = self.train {
            write!(f, " FOR {}", super::t(t))?;
        }
        if let Some(l) = self.line {
            write!(f, " ON {l}")?;
        }
        self.up_to.map_or(Ok(()), |m| write!(f, " UP TO {m}"))
    }
}

impl Confed {
    /// RT 5.6 (RULING F83): the fee line that decides whether `train` pays `amount` to enter
    /// `line`: the first in sheet order that answers that choice and has room in its budget;
    /// with its index in the sheet and whether it pays.
    pub(super) fn fee_line(
        &self,
        s: &State,
        sheet: &OrderSheet<Order>,
        train: u8,
        line: u8,
        amount: u32,
    ) -> Option<(usize, bool)> {
        let kind = Kind::Fee { train, line, amount };
        sheet.orders.iter().enumerate().find_map(|(i, o)| match &o.order {
            Order::Fees(f) if o.order.answers(&self.data, &kind) && f.decides(s, train, line, amount) => {
                Some((i, f.pay))
            }
            _ => None,
        })
    }
}
