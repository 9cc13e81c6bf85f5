//! Moving one game between servers (issue 19, docs/BACKUPS.md): [`export_document`] writes a
//! game as a versioned JSON document, [`import_document`] creates it on another server — after
//! replaying its log with the engine and refusing it, with nothing written, when the replay does
//! not reproduce the stored state (RULING O16), when a row the document tells twice disagrees
//! with itself (order digests, the audit chain, NMR counts, drafts, standing orders, absences,
//! timers, rollback archives: `sealed`, `history`, `drafts`, `lifecycle`, `rollbacks`, RULING O19) or a
//! report is not what this server renders from the log (`reports`, `slots`, RULING O20), and
//! until whoever imports it confirms the addresses it would mail (`addresses`, RULING O21).
//!
//! The document is `stationmaster replay`'s input too: its top level is the setup + seed + log
//! of [`super::GameExport`]; `tables` holds the rest of the game's rows as the store reads them.

use super::audit::{self, Actor};
use super::notices::{self, Notice, SeatMail};
use super::{Ctx, GameExport, ServiceError, load_game};
use crate::domain::{GameId, GameStatus};
use crate::engine::Seat;
use crate::registry;
use crate::store::{self, export::Table};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet};
use thiserror::Error;

mod addresses;
mod drafts;
mod history;
mod lifecycle;
mod reports;
mod rollbacks;
mod sealed;
mod slots;
mod unverified;
mod verify;

pub use addresses::{Addresses, addresses};
pub use reports::ReportSource;
pub use verify::verify;

/// What the document says it is.
pub const FORMAT: &str = "stationmaster-game";
/// The document version this server writes and reads.
pub const VERSION: u32 = 1;
/// Columns of the game row carried at the document's top level instead of in `tables`.
const TOP_LEVEL: [&str; 5] = ["name", "engine", "rules_version", "seed", "setup"];

/// One game as a document: setup, seed and log at the top (what `replay` reads), the other rows
/// of the game in `tables` by table name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameDocument {
    pub format: String,
    pub version: u32,
    /// The newest database migration of the exporting server.
    pub schema: i64,
    /// The game's id on the exporting server (kept on import unless taken, RULING O15).
    pub id: GameId,
    /// Setup, seed and log, as `stationmaster replay` reads them.
    #[serde(flatten)]
    pub game: GameExport,
    /// The turn each action of the log was published with, by position.
    pub action_turns: Vec<i32>,
    pub tables: BTreeMap<String, Vec<Value>>,
}

/// Why a document is refused; nothing is written.
#[derive(Debug, Error, PartialEq)]
pub enum ImportRefused {
    #[error("this is not an exported game: {0}")]
    NotADocument(String),
    #[error("this is a version {0} export; this server reads version {VERSION}")]
    Version(u32),
    #[error("{0}")]
    Engine(String),
    #[error("the document is inconsistent: {0}")]
    Inconsistent(String),
    #[error("the log does not replay: {0}")]
    Replay(String),
    #[error("replaying the log does not reproduce the stored {0}; the document was changed or is damaged")]
    Mismatch(String),
    #[error(
        "the {table} rows have a column this server does not know ({column}): the game was exported by a newer version"
    )]
    UnknownColumn { table: String, column: String },
    #[error("game {0} is already on this server (import it with --new-id to make a copy)")]
    Exists(GameId),
    /// One row disagrees with what it can be checked against (RULINGS O19, O20).
    #[error("{table} row {row} ({what}): {why}")]
    Row { table: String, row: usize, what: String, why: String },
    /// The addresses have not been confirmed (RULING O21); nothing was written.
    #[error(
        "nothing was imported: no server can check the addresses in a document, and the game would mail \
         these:\n{list}Check them with the game's GM; then import again confirming them with the code {code} \
         (game import --confirm-addresses {code})"
    )]
    Unconfirmed { code: String, list: String },
}

/// A refusal naming the document's row (`row` counts from 1 within its table).
fn refuse_row(t: Table, row: usize, what: String, why: String) -> ImportRefused {
    ImportRefused::Row { table: t.name().into(), row, what, why }
}

impl From<ImportRefused> for ServiceError {
    fn from(e: ImportRefused) -> Self {
        ServiceError::BadInput(e.to_string())
    }
}

/// A game imported: its id and each seat's new link (RULING O13).
#[derive(Debug, Clone, Serialize)]
pub struct Imported {
    pub game_id: GameId,
    pub actions: usize,
    pub seats: Vec<ImportedSeat>,
    /// The rows kept as the document has them, which nothing here could verify, each with why
    /// (RULING O22).
    pub not_verified: Vec<String>,
}

/// A seat of an imported game with its re-issued token.
#[derive(Debug, Clone, Serialize)]
pub struct ImportedSeat {
    pub seat: Seat,
    pub name: String,
    pub email: String,
    pub token: String,
    pub link: String,
}

/// Writes one game as a [`GameDocument`] (RULING O14 says what it holds).
pub async fn export_document(conn: &mut PgConnection, game: GameId) -> Result<GameDocument, ServiceError> {
    let export = super::export_game(conn, game).await?;
    let mut tables = BTreeMap::new();
    for table in Table::ALL {
        let mut rows = store::export::rows(conn, table, game).await?;
        if table == Table::Games {
            for row in rows.iter_mut().filter_map(Value::as_object_mut) {
                row.retain(|c, _| !TOP_LEVEL.contains(&c.as_str()));
            }
        }
        if table != Table::Actions {
            tables.insert(table.name().to_string(), rows);
        }
    }
    let action_turns = store::games::actions(conn, game).await?.iter().map(|a| a.turn).collect();
    Ok(GameDocument {
        format: FORMAT.into(),
        version: VERSION,
        schema: store::export::schema_version(conn).await?,
        id: game,
        game: export,
        action_turns,
        tables,
    })
}

/// Reads a document's text (the edge: JSON into a [`GameDocument`]).
pub fn parse_document(text: &str) -> Result<GameDocument, ImportRefused> {
    let doc: GameDocument =
        serde_json::from_str(text).map_err(|e| ImportRefused::NotADocument(e.to_string()))?;
    if doc.format != FORMAT {
        return Err(ImportRefused::NotADocument(format!("its format is {:?}, not {FORMAT:?}", doc.format)));
    }
    if doc.version != VERSION {
        return Err(ImportRefused::Version(doc.version));
    }
    Ok(doc)
}

#[derive(Deserialize)]
struct SeatCore {
    seat: Seat,
    player_name: String,
    email: String,
    token_generation: i32,
}

fn typed<T: serde::de::DeserializeOwned>(what: &str, row: &Value) -> Result<T, ImportRefused> {
    serde_json::from_value(row.clone()).map_err(|e| ImportRefused::Inconsistent(format!("a {what} row: {e}")))
}

fn table(doc: &GameDocument, t: Table) -> &[Value] {
    doc.tables.get(t.name()).map(Vec::as_slice).unwrap_or_default()
}

/// How to import a document.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Import under a new id (a copy, RULING O15).
    pub new_id: bool,
    /// The code of the document's addresses, as [`addresses()`] gives it and the refusal shows
    /// (RULING O21); without it nothing is written.
    pub confirmed: Option<String>,
    /// Whose reports to store (RULING O20).
    pub reports: ReportSource,
}

/// Creates the game of a document on this server, in one transaction: checked first
/// ([`verify`]), then its rows written under its own id (or a new one, RULING O15), its reports
/// checked against this server's renderings (RULING O20), and — once its addresses are confirmed
/// (RULING O21) — every seat's token re-issued and, for a game still running, each player mailed
/// the new link (RULING O13), and an audit entry appended to the game's chain.
pub async fn import_document(
    ctx: &Ctx,
    doc: &GameDocument,
    options: &ImportOptions,
) -> Result<Imported, ServiceError> {
    let engine = registry::for_stored(&doc.game.engine, doc.game.rules_version)
        .map_err(|e| ImportRefused::Engine(e.to_string()))?;
    // RULING O20: a document whose reports are re-rendered has its drafts re-rendered too.
    let words = match options.reports {
        ReportSource::Document => drafts::Words::Checked,
        ReportSource::Rendered => drafts::Words::Ours,
    };
    let (history, replayed) = verify::check(engine, doc, words)?;
    // RULING O22: what cannot be verified is named, not accepted in silence.
    let not_verified = unverified::list(doc, &history, &replayed);
    let new_id = options.new_id;
    let mut tx = ctx.pool.begin().await?;
    // RULING O15: the game keeps its id unless a copy is asked for.
    let id = if new_id { GameId::new() } else { doc.id };
    if store::export::game_exists(&mut tx, id).await? {
        return Err(ImportRefused::Exists(id).into());
    }
    let mut seats = Vec::new();
    // RULING O18: turns, deadlines and timers are written as they were.
    for t in Table::ALL {
        let mut rows = if t == Table::Actions { action_rows(doc) } else { table(doc, t).to_vec() };
        let writable = store::export::writable_columns(&mut tx, t).await?;
        let mut columns = BTreeSet::new();
        for row in &mut rows {
            let Some(r) = row.as_object_mut() else {
                return Err(
                    ImportRefused::Inconsistent(format!("a {} row is not an object", t.name())).into()
                );
            };
            fill(t, r, id, doc, ctx, &mut seats)?;
            columns.extend(r.keys().cloned());
        }
        // RULING O17: a column unknown here refuses the document; one it lacks takes its default.
        if let Some(c) = columns.iter().find(|c| !writable.contains(c)) {
            return Err(ImportRefused::UnknownColumn { table: t.name().into(), column: c.clone() }.into());
        }
        let columns: Vec<String> = columns.into_iter().collect();
        store::export::insert_rows(&mut tx, t, &columns, &rows).await.map_err(|e| {
            ServiceError::BadInput(format!("the {} rows do not fit this server: {e}", t.name()))
        })?;
    }
    if words == drafts::Words::Ours {
        for (number, draft) in &replayed {
            store::export::replace_draft(&mut tx, id, *number, draft).await?;
        }
    }
    // RULING O20: the reports kept are this server's renderings, the document's checked first.
    reports::settle(&mut tx, id, doc, &history, options.reports).await?;
    // RULING O21: every check has passed; nothing is kept or mailed until the addresses are.
    addresses::require_confirmed(doc, options.confirmed.as_deref())?;
    let now = ctx.now();
    let detail = json!({ "actions": doc.game.actions.len(), "schema": doc.schema, "new_id": new_id });
    audit::record(&mut tx, now, id, Actor::Server, "game imported", detail).await?;
    let game = load_game(&mut tx, id).await?;
    if game.status != GameStatus::Finished {
        for seat in store::games::seats(&mut tx, id).await? {
            if !seats.iter().any(|s: &ImportedSeat| s.seat == seat.seat) {
                continue;
            }
            let n = Notice {
                game: &game.name,
                greeting: &seat.player_name,
                paragraphs: vec![
                    "Your game has moved to another server. Your old order link and the old reply addresses \
                     no longer work; your orders and reports have moved with the game."
                        .into(),
                    "Your new order link is below; to send orders by mail, reply to this mail.".into(),
                ],
                block: None,
                // RULING P8: the new link is filled in when the mail is sent.
                link: Some(notices::SEAT_LINK.into()),
            };
            let m = SeatMail {
                key: format!("imported:{id}:{}:{}", seat.seat.0, seat.token_generation),
                kind: "notice",
                subject: format!("[{}] Your game has moved: your new order link", game.name),
                calendar: None,
            };
            notices::queue_to_seat(ctx, &mut tx, id, &seat, m, &n).await?;
        }
    }
    tx.commit().await?;
    ctx.mail_wake.notify_one();
    tracing::info!(game = %id, actions = doc.game.actions.len(), "game imported");
    Ok(Imported { game_id: id, actions: doc.game.actions.len(), seats, not_verified })
}

/// The `actions` rows of a document, from its top-level log.
fn action_rows(doc: &GameDocument) -> Vec<Value> {
    let rows = doc.game.actions.iter().zip(&doc.action_turns);
    rows.map(|(a, turn)| json!({"seq": a.seq, "turn": turn, "seat": a.seat, "action": a.action, "by_default": a.by_default}))
        .collect()
}

/// Completes one row for this server: the game's key, the game row's top-level columns, and a
/// seat's re-issued token (RULING O13: the next token generation, so no old link works).
fn fill(
    t: Table,
    r: &mut Map<String, Value>,
    id: GameId,
    doc: &GameDocument,
    ctx: &Ctx,
    seats: &mut Vec<ImportedSeat>,
) -> Result<(), ImportRefused> {
    if let Some(c) = t.server_only().iter().find(|c| r.contains_key(**c)) {
        return Err(ImportRefused::Inconsistent(format!("{} rows must not carry {c}", t.name())));
    }
    r.insert(t.game_column().into(), json!(id));
    match t {
        Table::Games => {
            let setup = serde_json::to_value(&doc.game.setup)
                .map_err(|e| ImportRefused::NotADocument(e.to_string()))?;
            r.extend([
                ("name".into(), json!(doc.game.name)),
                ("engine".into(), json!(doc.game.engine)),
                ("rules_version".into(), json!(doc.game.rules_version)),
                ("seed".into(), json!(doc.game.seed as i64)),
                ("setup".into(), setup),
            ]);
        }
        Table::Seats => {
            let seat: SeatCore = typed("seat", &Value::Object(r.clone()))?;
            let generation = seat.token_generation.saturating_add(1);
            let token = ctx.seat_token(id, seat.seat, generation);
            r.insert("token_generation".into(), json!(generation));
            r.insert("token_hash".into(), json!(token.hash()));
            seats.push(ImportedSeat {
                seat: seat.seat,
                name: seat.player_name,
                email: seat.email,
                link: ctx.seat_link(&token),
                token: token.reveal().to_string(),
            });
        }
        _ => {}
    }
    Ok(())
}
