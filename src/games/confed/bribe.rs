//! Bribes and deals (RT 1.0 "paying bribes to other players … fully allowed at any time";
//! issue 17): the condition of `PAY n TO seat IF …`, parsed into a [`Cond`] (an action's type
//! that an offer keeps in the state), written back as order text, and evaluated on the position
//! at the moment the money would move, after the other seat accepted (RULING F42).

use super::actions::Cond;
use super::data::Data;
use super::state::{E_TRAIN, State};
use crate::engine::{OrderError, Seat};
use std::fmt::{self, Display};

const FORMS: &str = "write IF <station> IS OPEN, IF <station> IS OCCUPIED, IF TRAIN <seat> <train> IS AT \
                     <station>, IF LINE <n> HAS BAD RAILS, or NOT before any of them";

/// Parses the text after `IF`.
pub fn parse_cond(text: &str) -> Result<Cond, OrderError> {
    let t = text.trim();
    let up = t.to_ascii_uppercase();
    if up.starts_with("NOT ") {
        return Ok(Cond::Not(Box::new(parse_cond(t.get(4..).unwrap_or(""))?)));
    }
    let err = || OrderError(FORMS.into());
    if let Some(rest) = up.strip_prefix("TRAIN ") {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let seat: u8 = w.first().and_then(|x| x.parse().ok()).ok_or_else(err)?;
        let train = match w.get(1) {
            Some(&"E") => E_TRAIN,
            Some(x) => x.parse().map_err(|_| err())?,
            None => return Err(err()),
        };
        let at_kw = up.find(" IS AT ").ok_or_else(err)?;
        let at = t.get(at_kw + 7..).unwrap_or("").trim().to_string();
        if at.is_empty() {
            return Err(err());
        }
        return Ok(Cond::TrainAt { seat: Seat(seat), train, at });
    }
    if let Some(rest) = up.strip_prefix("LINE ") {
        let n = rest.strip_suffix(" HAS BAD RAILS").ok_or_else(err)?;
        return n.trim().trim_start_matches('#').parse().map(Cond::BadRails).map_err(|_| err());
    }
    let name = |suffix: &str| t.get(..t.len() - suffix.len()).map(|x| x.trim().to_string());
    if up.ends_with(" IS OPEN") {
        return name(" IS OPEN").filter(|x| !x.is_empty()).map(Cond::Open).ok_or_else(err);
    }
    if up.ends_with(" IS OCCUPIED") {
        return name(" IS OCCUPIED").filter(|x| !x.is_empty()).map(Cond::Occupied).ok_or_else(err);
    }
    Err(err())
}

/// Whether the condition holds on this position (a station the map does not know never holds).
pub fn holds(d: &Data, s: &State, c: &Cond) -> bool {
    match c {
        Cond::Open(n) => d.map.find_station(n).is_some_and(|x| !s.occupied.contains(&x)),
        Cond::Occupied(n) => d.map.find_station(n).is_some_and(|x| s.occupied.contains(&x)),
        Cond::TrainAt { seat, train, at } => d
            .map
            .find_station(at)
            .is_some_and(|x| s.train(*seat, *train).and_then(|t| t.station()) == Some(x)),
        Cond::BadRails(l) => s.bad_rails.contains(l),
        Cond::Not(inner) => !holds(d, s, inner),
    }
}

impl Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Open(n) => write!(f, "{n} IS OPEN"),
            Cond::Occupied(n) => write!(f, "{n} IS OCCUPIED"),
            Cond::TrainAt { seat, train, at } => {
                let t = if *train == E_TRAIN { "E".to_string() } else { train.to_string() };
                write!(f, "TRAIN {} {t} IS AT {at}", seat.0)
            }
            Cond::BadRails(l) => write!(f, "LINE {l} HAS BAD RAILS"),
            Cond::Not(inner) => write!(f, "NOT {inner}"),
        }
    }
}
