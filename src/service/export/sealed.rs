//! Sealed orders in an import document (RULING O19): each order version's text, read again by
//! the engine against its turn's start state, must give the stored echo and canonical text, and
//! the lines it seals with the stored salts must give the stored digest — the receipt its player
//! holds. A changed text with its digest kept, a changed salt or a changed digest is refused.

use super::{ImportRefused, refuse_row, table};
use crate::engine::Seat;
use crate::orders::{Echo, line_hash, receipt_digest, sheet_digest};
use crate::registry::DynGame;
use crate::store::export::Table;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Sealed {
    turn: i32,
    seat: Seat,
    version: i32,
    body: String,
    canonical: String,
    salt: String,
    digest: String,
    line_salts: Option<Vec<String>>,
    echo: Echo,
}

/// The digest a version's stored lines and salts give: line by line (RULING P3), or under the
/// old scheme one salt over the canonical text (P4). `None`: the salts do not fit the lines.
fn digest_of(v: &Sealed) -> Option<String> {
    let Some(salts) = &v.line_salts else {
        return Some(receipt_digest(&v.salt, &v.canonical));
    };
    let lines = v.echo.canonical_lines();
    let hashes: Vec<String> = salts.iter().zip(&lines).map(|(s, (_, l))| line_hash(s, l)).collect();
    (lines.len() == salts.len()).then(|| sheet_digest(&hashes))
}

/// Checks every order version of the document; `starts` are the turns' start states, already
/// checked against the log.
pub(super) fn check(
    engine: &dyn DynGame,
    doc: &super::GameDocument,
    starts: &BTreeMap<i32, Value>,
) -> Result<(), ImportRefused> {
    let t = Table::OrderVersions;
    for (i, row) in table(doc, t).iter().enumerate() {
        let v: Sealed = serde_json::from_value(row.clone())
            .map_err(|e| refuse_row(t, i + 1, "a version".into(), format!("it cannot be read: {e}")))?;
        let what = format!("turn {}, seat {}, version {}", v.turn, v.seat.0, v.version);
        let refuse = |why: &str| refuse_row(t, i + 1, what.clone(), why.into());
        let Some(start) = starts.get(&v.turn) else {
            return Err(refuse("its turn is not in the document"));
        };
        if digest_of(&v).as_deref() != Some(v.digest.as_str()) {
            return Err(refuse("its digest is not the one its lines and salts give"));
        }
        // What the player sent must read as the lines the digest seals.
        let read = engine.check_orders(start, v.seat, &v.body).map_err(|e| refuse(&e.to_string()))?;
        // A suggestion for a line not understood (HR 16) is drawn from the order guide of the
        // day, which may have changed since; it is no part of what was sealed.
        if without_suggestions(read.clone()) != without_suggestions(v.echo.clone())
            || read.canonical != v.canonical
        {
            return Err(refuse("its text does not match its digest"));
        }
    }
    Ok(())
}

/// An echo with its suggestions left out.
fn without_suggestions(mut echo: crate::orders::Echo) -> crate::orders::Echo {
    echo.lines.iter_mut().for_each(|l| l.suggestion = None);
    echo
}
