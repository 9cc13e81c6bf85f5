//! Checking a document against its engine, without a database (RULINGS O16, O19): the seats
//! agree, the log is numbered and replays to the game's state, every turn's start state and
//! every published turn's draft; then the order digests (`sealed`), the audit chain with what
//! it says about the rows (`history`), the drafts' events and notes played again (`drafts`), the
//! standing orders, absences and timers (`lifecycle`) and the rollback archives (`rollbacks`).

use super::{
    GameDocument, ImportRefused, SeatCore, drafts, history, lifecycle, refuse_row, rollbacks, sealed, table,
    typed,
};
use crate::registry::{self, DynGame};
use crate::store::export::Table;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

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
    status: String,
    draft: Option<registry::TurnOutcome>,
}

/// Checks a document against its engine without touching a database: the seats agree, the log
/// is numbered from 0 without gaps and replays, and the replay reproduces the game's state,
/// every turn's start state and every published turn's draft (RULING O16); every order version
/// matches its digest, the audit chain holds and agrees with the rows, every NMR count is
/// recounted, every draft's events and notes are what its turn plays again, and the standing
/// orders, absences, timers and rollback archives are what the game and its log say (RULING
/// O19). Pure, so it runs before any write.
pub fn verify(engine: &dyn DynGame, doc: &GameDocument) -> Result<(), ImportRefused> {
    check(engine, doc, drafts::Words::Checked).map(|_| ())
}

/// [`verify`], with what the audit chain says for the reports' check and the drafts played
/// again (whose words an import that re-renders reports stores, `words`).
pub(super) fn check(
    engine: &dyn DynGame,
    doc: &GameDocument,
    words: drafts::Words,
) -> Result<(history::History, drafts::Replayed), ImportRefused> {
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
    let mut starts = BTreeMap::new();
    for (i, row) in table(doc, Table::Turns).iter().enumerate() {
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
        // RULING O19: a published turn's draft (what its reports are made from) is the log's.
        if let (true, Some(d)) = (turn.status == "published", &turn.draft) {
            let end = n + d.actions.len();
            let what = format!("turn {}", turn.number);
            if log.get(n..end) != Some(d.actions.as_slice()) || state_after(end)? != d.state {
                let why = "its draft is not what the log played in it".to_string();
                return Err(refuse_row(Table::Turns, i + 1, what, why));
            }
        }
        starts.insert(turn.number, turn.start_state);
    }
    sealed::check(engine, doc, &starts)?;
    let history = history::check(doc)?;
    lifecycle::check(engine, doc, &game.state, &history)?;
    let replayed = drafts::check(engine, doc, &history, words)?;
    rollbacks::check(engine, doc, &history)?;
    Ok((history, replayed))
}
