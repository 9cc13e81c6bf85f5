//! Moving one game between servers (issue 19, docs/BACKUPS.md): [`export_document`] writes a
//! game as a versioned JSON document, [`import_document`] creates it on another server — after
//! replaying its log with the engine and refusing it, with nothing written, when the replay does
//! not reproduce the stored state (RULING O16).
//!
//! The document is `stationmaster replay`'s input too: its top level is the setup + seed + log
//! of [`super::GameExport`]; `tables` holds the rest of the game's rows as the store reads them.

use super::audit::{self, Actor};
use super::notices::{self, Notice, SeatMail};
use super::{Ctx, GameExport, ServiceError, load_game};
use crate::domain::{GameId, GameStatus};
use crate::engine::Seat;
use crate::registry::{self, DynGame};
use crate::store::{self, export::Table};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sqlx::PgConnection;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use thiserror::Error;

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
struct GameCore {
    state: Value,
    next_seq: i64,
}

#[derive(Deserialize)]
struct TurnCore {
    number: i32,
    first_seq: i64,
    start_state: Value,
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

/// Checks a document against its engine without touching a database: the seats agree, the log
/// is numbered from 0 without gaps and replays, and the replay reproduces the game's state and
/// every turn's start state (RULING O16). Pure, so it runs before any write.
pub fn verify(engine: &dyn DynGame, doc: &GameDocument) -> Result<(), ImportRefused> {
    let inconsistent = |s: String| Err(ImportRefused::Inconsistent(s));
    if let Some(unknown) = doc.tables.keys().find(|k| !Table::ALL.iter().any(|t| t.name() == k.as_str())) {
        return inconsistent(format!("it has a table {unknown:?} no game has"));
    }
    let [game] = table(doc, Table::Games) else {
        return inconsistent("it must hold exactly one game row".into());
    };
    let game: GameCore = typed("game", game)?;
    let seats = table(doc, Table::Seats)
        .iter()
        .map(|r| typed::<SeatCore>("seat", r))
        .collect::<Result<Vec<_>, _>>()?;
    let numbers: Vec<u8> = seats.iter().map(|s| s.seat.0).collect();
    if numbers != (1..=doc.game.setup.seats).collect::<Vec<_>>() {
        return inconsistent(format!(
            "the setup has {} seats, the seat rows are {numbers:?}",
            doc.game.setup.seats
        ));
    }
    if doc
        .game
        .seats
        .iter()
        .map(|s| (s.seat, s.name.as_str()))
        .ne(seats.iter().map(|s| (s.seat, s.player_name.as_str())))
    {
        return inconsistent("the seat list and the seat rows name different players".into());
    }
    if let Some((i, a)) = doc.game.actions.iter().enumerate().find(|(i, a)| a.seq != *i as u64) {
        return inconsistent(format!("action {i} of the log has sequence number {}", a.seq));
    }
    let log = &doc.game.actions;
    if doc.action_turns.len() != log.len() {
        return inconsistent(format!("{} turns are given for {} actions", doc.action_turns.len(), log.len()));
    }
    if game.next_seq != doc.game.actions.len() as i64 {
        return inconsistent(format!(
            "the game expects {} actions, the log has {}",
            game.next_seq,
            doc.game.actions.len()
        ));
    }
    let mut replayed: HashMap<usize, Value> = HashMap::new();
    let mut state_after = |n: usize| -> Result<Value, ImportRefused> {
        if let Some(s) = replayed.get(&n) {
            return Ok(s.clone());
        }
        let s = engine
            .replay(&doc.game.setup, doc.game.seed, &log[..n])
            .map_err(|e| ImportRefused::Replay(e.to_string()))?;
        replayed.insert(n, s.clone());
        Ok(s)
    };
    if state_after(log.len())? != game.state {
        return Err(ImportRefused::Mismatch("game state".into()));
    }
    for row in table(doc, Table::Turns) {
        let turn: TurnCore = typed("turn", row)?;
        let n = usize::try_from(turn.first_seq).ok().filter(|n| *n <= log.len());
        let Some(n) = n else {
            return inconsistent(format!(
                "turn {} starts at action {}, past the log",
                turn.number, turn.first_seq
            ));
        };
        if state_after(n)? != turn.start_state {
            return Err(ImportRefused::Mismatch(format!("start of turn {}", turn.number)));
        }
    }
    Ok(())
}

/// Creates the game of a document on this server, in one transaction: checked first
/// ([`verify`]), then its rows written under its own id (or a new one with `new_id`, RULING
/// O15), every seat's token re-issued and, for a game still running, each player mailed the new
/// link (RULING O13), and an audit entry appended to the game's chain.
pub async fn import_document(ctx: &Ctx, doc: &GameDocument, new_id: bool) -> Result<Imported, ServiceError> {
    let engine = registry::for_stored(&doc.game.engine, doc.game.rules_version)
        .map_err(|e| ImportRefused::Engine(e.to_string()))?;
    verify(engine, doc)?;
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
    Ok(Imported { game_id: id, actions: doc.game.actions.len(), seats })
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
