//! Typed ids.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

/// A game's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord, sqlx::Type)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct GameId(pub Uuid);

/// Text that is not a game id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not a game id (expected a UUID such as 0192f0c4-5d1e-7c7a-9b6a-2f1e0d9c8b7a)")]
pub struct GameIdError(pub String);

impl GameId {
    /// A new, time-ordered id.
    pub fn new() -> Self {
        GameId(Uuid::now_v7())
    }
}

impl Default for GameId {
    fn default() -> Self {
        Self::new()
    }
}

impl FromStr for GameId {
    type Err = GameIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s.trim()).map(GameId).map_err(|_| GameIdError(s.chars().take(60).collect()))
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
