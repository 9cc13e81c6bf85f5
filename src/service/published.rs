//! Published orders (issue 11): what of each sealed order sheet anyone may read once its turn is
//! published, and what only its own seat (and the GM) may read.
//!
//! Everyone gets each version's receipt digest and the hash of every line; the text and salt of
//! a line only when the engine calls it public (`Orders::public_lines`, for the version that was
//! adjudicated; superseded versions were never played and stay hashes). A seat gets its own
//! sheets whole. Versions sealed under the old scheme (one salt over the whole text) are
//! published as their digest only (RULING P4).

use super::{ServiceError, engine_of, load_game, order_pages};
use crate::domain::GameId;
use crate::engine::{LineNote, Seat, Viewer};
use crate::orders::line_hash;
use crate::registry::DynGame;
use crate::store;
use crate::store::orders::OrderVersionRow;
use serde::Serialize;
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet};

/// One line of a published sheet: always its hash; its text and salt only where the reader may
/// see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PublishedLine {
    /// The line number as the player wrote it.
    pub line: usize,
    pub hash: String,
    pub text: Option<String>,
    pub salt: Option<String>,
    /// For a hidden line that was carried out: what it did, as the turn's events say it (never
    /// its alternatives; `Orders::played_parts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
}

/// One version of a seat's orders as a reader may see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PublishedSheet {
    pub turn: i32,
    pub seat: u8,
    pub version: i32,
    /// The receipt digest the player got at submission.
    pub digest: String,
    /// `"lines"` (sealed line by line) or `"whole"` (the old scheme: one salt over the text).
    pub sealed: &'static str,
    /// Every line's hash (sealed line by line only).
    pub lines: Vec<PublishedLine>,
    /// Old scheme, for the seat itself only: the salt and the canonical text.
    pub salt: Option<String>,
    pub canonical: Option<String>,
    pub is_final: bool,
    pub source: crate::domain::OrderSource,
    pub submitted_at: chrono::DateTime<chrono::Utc>,
}

/// What of a version everyone may read: whole lines, and what hidden lines carried out.
#[derive(Debug, Clone, Default)]
pub struct Disclosed {
    pub lines: BTreeSet<usize>,
    pub played: BTreeMap<usize, String>,
}

/// A version as a reader sees it: `public` says what everyone may read, `whole` says the reader
/// is the seat itself (or the GM) and sees every line with its salt.
pub fn disclose(row: &OrderVersionRow, public: &Disclosed, whole: bool) -> PublishedSheet {
    let lines = match &row.line_salts {
        Some(salts) => sealed_lines(row, salts)
            .into_iter()
            .zip(salts)
            .map(|((line, text), salt)| {
                let shown = whole || public.lines.contains(&line);
                PublishedLine {
                    line,
                    hash: line_hash(salt, &text),
                    played: if shown { None } else { public.played.get(&line).cloned() },
                    text: shown.then_some(text),
                    salt: shown.then(|| salt.clone()),
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let legacy_whole = whole && row.line_salts.is_none();
    PublishedSheet {
        turn: row.turn,
        seat: row.seat.0,
        version: row.version,
        digest: row.digest.clone(),
        sealed: if row.line_salts.is_some() { "lines" } else { "whole" },
        lines,
        salt: legacy_whole.then(|| row.salt.clone()),
        canonical: legacy_whole.then(|| row.canonical.clone()),
        is_final: row.is_final,
        source: row.source,
        submitted_at: row.submitted_at,
    }
}

/// The (line number, canonical text) pairs a version was sealed over; empty when the stored echo
/// does not match its salts (never written so; then only the digest is shown).
fn sealed_lines(row: &OrderVersionRow, salts: &[String]) -> Vec<(usize, String)> {
    let lines = row.echo.canonical_lines();
    if lines.len() == salts.len() { lines } else { Vec::new() }
}

/// Every version of a turn's orders as `viewer` may see them, oldest first per seat. `rows` are
/// the turn's versions (all of them, or at least each seat's latest), `notes` the adjudication's
/// line notes per seat.
pub fn disclose_turn(
    engine: &dyn DynGame,
    rows: &[OrderVersionRow],
    notes: &BTreeMap<Seat, Vec<LineNote>>,
    viewer: Viewer,
) -> Vec<PublishedSheet> {
    let mut played: BTreeMap<Seat, i32> = BTreeMap::new();
    for r in rows {
        let v = played.entry(r.seat).or_insert(r.version);
        *v = (*v).max(r.version);
    }
    disclose_rows(engine, rows, &played, notes, viewer)
}

/// `rows` as `viewer` may see them, `played` naming each seat's adjudicated version.
fn disclose_rows(
    engine: &dyn DynGame,
    rows: &[OrderVersionRow],
    played: &BTreeMap<Seat, i32>,
    notes: &BTreeMap<Seat, Vec<LineNote>>,
    viewer: Viewer,
) -> Vec<PublishedSheet> {
    rows.iter()
        .map(|r| {
            let seat = r.seat;
            // Only the latest version was adjudicated (no version is added after the close).
            let public = match notes.get(&seat) {
                Some(n) if played.get(&r.seat) == Some(&r.version) => Disclosed {
                    lines: engine.public_lines(&r.body, n),
                    played: engine.played_parts(&r.body, n),
                },
                _ => Disclosed::default(),
            };
            disclose(r, &public, viewer.may_see(seat))
        })
        .collect()
}

/// A page of a published turn's orders as a reader may see them.
#[derive(Debug)]
pub struct PublishedPage {
    pub turn: i32,
    pub sheets: Vec<PublishedSheet>,
    /// How many versions the turn has in all.
    pub total: i64,
    /// The query of the next page (`?after=S.V`), if there is one.
    pub next: Option<String>,
}

/// A page of a turn's order versions (by seat and version, after `after`; RULING W1) as `viewer`
/// may see them — only once the turn is published; before that, sealed orders are nobody's
/// business but their seat's.
pub async fn published_orders(
    conn: &mut PgConnection,
    game: GameId,
    turn: i32,
    viewer: Viewer,
    after: Option<(Seat, i32)>,
    limit: i64,
) -> Result<PublishedPage, ServiceError> {
    let page = order_pages::published_rows(conn, game, turn, after, limit).await?;
    let t = store::turns::get_turn(conn, game, turn).await?.ok_or(ServiceError::TurnNotFound(game, turn))?;
    let g = load_game(conn, game).await?;
    let engine = engine_of(&g)?;
    // Without the adjudication's notes nothing is known to be public: hashes only.
    let notes = t.draft.map(|d| d.0.notes).unwrap_or_default();
    let played: BTreeMap<Seat, i32> = store::orders::played_versions(conn, game, turn)
        .await?
        .into_iter()
        .map(|p| (p.seat, p.version))
        .collect();
    let sheets = disclose_rows(engine, &page.versions, &played, &notes, viewer);
    Ok(PublishedPage { turn, sheets, total: page.total, next: page.next })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::{seal_lines, sheet_digest};

    fn row(line_salts: Option<Vec<String>>, digest: String) -> OrderVersionRow {
        let echo = serde_json::json!({"lines": [
            {"line": 1, "text": "claim 7h north", "understood": "CLAIM 7H NORTH", "error": null, "advice": null},
            {"line": 3, "text": "draw", "understood": "DRAW", "error": null, "advice": null}],
            "canonical": "CLAIM 7H NORTH\nDRAW", "errors": 0});
        OrderVersionRow {
            turn: 1,
            seat: Seat(2),
            version: 1,
            body: "claim 7h north\n\ndraw".into(),
            canonical: "CLAIM 7H NORTH\nDRAW".into(),
            salt: if line_salts.is_some() { String::new() } else { "ab".into() },
            digest,
            line_salts,
            echo: sqlx::types::Json(serde_json::from_value(echo).unwrap()),
            source: crate::domain::OrderSource::Api,
            submitted_at: chrono::DateTime::UNIX_EPOCH,
            is_final: false,
        }
    }

    #[test]
    fn a_version_sealed_under_the_old_scheme_is_published_as_its_digest_only() {
        let old = row(None, crate::orders::receipt_digest("ab", "CLAIM 7H NORTH\nDRAW"));
        // RULING P4: even a line the engine calls public is not shown from an old version.
        let public =
            disclose(&old, &Disclosed { lines: BTreeSet::from([1, 3]), ..Disclosed::default() }, false);
        assert_eq!((public.sealed, public.lines.len()), ("whole", 0));
        assert_eq!((public.salt, public.canonical), (None, None));
        let own = disclose(&old, &Disclosed::default(), true);
        assert_eq!(own.salt.as_deref(), Some("ab"));
        assert_eq!(own.canonical.as_deref(), Some("CLAIM 7H NORTH\nDRAW"));
    }

    #[test]
    fn a_hidden_line_shows_only_its_hash_and_the_digest_covers_every_line() {
        let sealed = seal_lines(&["CLAIM 7H NORTH", "DRAW"]);
        let v = row(Some(sealed.salts.clone()), sealed.digest.clone());
        let public = disclose(&v, &Disclosed { lines: BTreeSet::from([3]), ..Disclosed::default() }, false);
        assert_eq!(public.lines[0].text, None);
        assert_eq!(public.lines[0].salt, None);
        assert_eq!(public.lines[1].text.as_deref(), Some("DRAW"));
        assert_eq!(public.lines[1].hash, line_hash(&sealed.salts[1], "DRAW"));
        let hashes: Vec<&str> = public.lines.iter().map(|l| l.hash.as_str()).collect();
        assert_eq!(sheet_digest(&hashes), sealed.digest);
        assert!(disclose(&v, &Disclosed::default(), true).lines.iter().all(|l| l.salt.is_some()));
    }
}
