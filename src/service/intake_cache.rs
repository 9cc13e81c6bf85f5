//! What the short path of the intake (RULING W19) keeps between requests: each game's open turn
//! as last read (its engine and start state — decoded once by the engine, to check orders
//! against) and which seat a token
//! hash belongs to. Nothing here is trusted: the append re-checks in SQL that the turn is still
//! open and the same (`first_seq`, `reopened`, `opened_at`), the deadline, the seat's place among the acting
//! seats, the cap and the token (`store::intake::append_if_open`); when it refuses, the game's
//! entry is dropped and the locked path answers. Bounded: past [`MAX_SEATS`] seats or
//! [`MAX_STATE_BYTES`] of start states, the cache starts again empty.

use crate::domain::GameId;
use crate::engine::Seat;
use crate::registry::Prepared;
use crate::store::intake::{IntakeRow, SeatKey};
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// At most this many token hashes are remembered.
pub const MAX_SEATS: usize = 50_000;
/// At most this many bytes of start states (as JSON text) are remembered.
pub const MAX_STATE_BYTES: usize = 64 << 20;

/// A game's open turn as it was read.
#[derive(Debug)]
pub struct OpenTurn {
    pub engine: String,
    pub rules_version: i32,
    pub number: i32,
    pub first_seq: i64,
    pub reopened: i32,
    pub opened_at: DateTime<Utc>,
    pub acting_seats: Vec<Seat>,
    /// The start state as the engine decoded it ([`crate::registry::DynGame::prepare`]).
    pub start_state: Prepared,
    /// The start state's size as JSON text (what the byte budget counts).
    bytes: usize,
}

/// The intake's memory of open turns and token hashes (one per process, in `Ctx`).
#[derive(Debug, Default)]
pub struct IntakeCache {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    turns: HashMap<GameId, Arc<OpenTurn>>,
    seats: HashMap<String, (GameId, Seat)>,
    bytes: usize,
}

impl IntakeCache {
    /// The seat and open turn remembered for `key` in `game`, if both are.
    pub fn lookup(&self, game: GameId, key: SeatKey<'_>) -> Option<(Seat, Arc<OpenTurn>)> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let seat = match key {
            SeatKey::Seat(seat) => seat,
            SeatKey::TokenHash(hash) => match inner.seats.get(hash) {
                Some((g, seat)) if *g == game => *seat,
                _ => return None,
            },
        };
        Some((seat, inner.turns.get(&game)?.clone()))
    }

    /// Remembers the open turn and seat `row` shows for `key` in `game`, with its start state
    /// as `prepared` from the row's.
    pub fn remember(
        &self,
        game: GameId,
        key: SeatKey<'_>,
        row: IntakeRow,
        prepared: Prepared,
    ) -> (Seat, Arc<OpenTurn>) {
        let bytes = row.start_state.to_string().len();
        let seat = row.seat;
        let turn = Arc::new(OpenTurn {
            engine: row.engine,
            rules_version: row.rules_version,
            number: row.number,
            first_seq: row.first_seq,
            reopened: row.reopened,
            opened_at: row.opened_at,
            acting_seats: row.acting_seats,
            start_state: prepared,
            bytes,
        });
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if inner.bytes + bytes > MAX_STATE_BYTES || inner.seats.len() >= MAX_SEATS {
            *inner = Inner::default();
        }
        if let Some(old) = inner.turns.insert(game, turn.clone()) {
            inner.bytes -= old.bytes;
        }
        inner.bytes += bytes;
        if let SeatKey::TokenHash(hash) = key {
            inner.seats.insert(hash.to_string(), (game, seat));
        }
        (seat, turn)
    }

    /// Forgets the game's open turn (the append found it changed) and every token of the game.
    pub fn forget(&self, game: GameId) {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = inner.turns.remove(&game) {
            inner.bytes -= old.bytes;
        }
        inner.seats.retain(|_, (g, _)| *g != game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn row(seat: u8, state: Value) -> IntakeRow {
        IntakeRow {
            seat: Seat(seat),
            time_zone: None,
            engine: "railroaded".into(),
            rules_version: 1,
            turn_length_secs: 3600,
            rhythm: None,
            number: 3,
            open: true,
            deadline: Utc::now(),
            deadline_version: 0,
            acting_seats: vec![Seat(1), Seat(2)],
            start_state: state,
            first_seq: 10,
            reopened: 0,
            opened_at: Utc::now(),
            sent: 0,
        }
    }

    #[test]
    fn a_token_remembered_for_one_game_opens_nothing_in_another() {
        let cache = IntakeCache::default();
        let (a, b) = (GameId::new(), GameId::new());
        cache.remember(a, SeatKey::TokenHash("h1"), row(2, Value::Null), Prepared::for_tests());
        cache.remember(b, SeatKey::Seat(Seat(1)), row(1, Value::Null), Prepared::for_tests());
        assert_eq!(cache.lookup(a, SeatKey::TokenHash("h1")).map(|(s, _)| s), Some(Seat(2)));
        assert!(cache.lookup(b, SeatKey::TokenHash("h1")).is_none(), "h1 is a token of game a");
        assert!(cache.lookup(a, SeatKey::TokenHash("h2")).is_none());
    }

    #[test]
    fn forgetting_a_game_forgets_its_turn_and_its_tokens_only() {
        let cache = IntakeCache::default();
        let (a, b) = (GameId::new(), GameId::new());
        cache.remember(a, SeatKey::TokenHash("ha"), row(1, Value::Null), Prepared::for_tests());
        cache.remember(b, SeatKey::TokenHash("hb"), row(1, Value::Null), Prepared::for_tests());
        cache.forget(a);
        assert!(cache.lookup(a, SeatKey::TokenHash("ha")).is_none());
        assert!(cache.lookup(a, SeatKey::Seat(Seat(1))).is_none());
        assert!(cache.lookup(b, SeatKey::TokenHash("hb")).is_some());
    }

    #[test]
    fn the_cache_starts_again_empty_past_its_byte_budget() {
        let cache = IntakeCache::default();
        let big = Value::String("x".repeat(MAX_STATE_BYTES / 2 + 1));
        let (a, b) = (GameId::new(), GameId::new());
        cache.remember(a, SeatKey::Seat(Seat(1)), row(1, big.clone()), Prepared::for_tests());
        cache.remember(b, SeatKey::Seat(Seat(1)), row(1, big), Prepared::for_tests());
        assert!(cache.lookup(a, SeatKey::Seat(Seat(1))).is_none(), "a was dropped to make room");
        assert!(cache.lookup(b, SeatKey::Seat(Seat(1))).is_some());
        assert!(cache.inner.lock().expect("lock").bytes <= MAX_STATE_BYTES);
    }
}
