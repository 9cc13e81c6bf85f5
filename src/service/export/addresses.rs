//! The addresses an imported game would mail (RULING O21): the GM's and each seat's. Nothing in
//! a document can prove them — the old server signed nothing this server can check — so the
//! import shows them to whoever runs it and writes nothing until that person confirms this very
//! list by its code (after checking it with the game's GM). A changed address in a document
//! therefore never receives a seat link, the GM's sign-in or a report without a human having read
//! it first.

use super::{GameDocument, ImportRefused, table};
use crate::store::export::Table;
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt;

/// The addresses of a document, and the code that confirms exactly them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Addresses {
    pub gm: String,
    /// Each seat: number, player name, address.
    pub seats: Vec<(u8, String, String)>,
    /// The first 8 hex digits of the SHA-256 of the list as [`fmt::Display`] shows it.
    pub code: String,
}

/// The addresses a document's game would mail.
pub fn addresses(doc: &GameDocument) -> Addresses {
    let text = |r: &Value, k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let gm = table(doc, Table::Games).first().map(|g| text(g, "gm_email")).unwrap_or_default();
    let seats = table(doc, Table::Seats)
        .iter()
        .map(|s| {
            let n = s.get("seat").and_then(Value::as_u64).and_then(|n| u8::try_from(n).ok()).unwrap_or(0);
            (n, text(s, "player_name"), text(s, "email"))
        })
        .collect();
    let mut a = Addresses { gm, seats, code: String::new() };
    let digest = Sha256::digest(a.to_string().as_bytes());
    a.code = data_encoding::HEXLOWER.encode(&digest[..4]);
    a
}

impl fmt::Display for Addresses {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  GM: {}", self.gm)?;
        for (seat, name, email) in &self.seats {
            writeln!(f, "  seat {seat}: {name:?} <{email}>")?;
        }
        Ok(())
    }
}

/// Refuses the import unless `confirmed` is the code of the document's addresses.
pub(super) fn require_confirmed(doc: &GameDocument, confirmed: Option<&str>) -> Result<(), ImportRefused> {
    let a = addresses(doc);
    if confirmed.map(str::trim) == Some(a.code.as_str()) {
        return Ok(());
    }
    Err(ImportRefused::Unconfirmed { code: a.code.clone(), list: a.to_string() })
}
