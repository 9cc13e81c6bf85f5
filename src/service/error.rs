//! Errors of the service layer: expected outcomes with a reason a player or GM can read, and
//! internal failures whose details are logged but never shown.

use crate::domain::GameId;
use crate::engine::Seat;
use thiserror::Error;

/// What went wrong, from the caller's point of view.
#[derive(Debug, Error)]
pub enum ServiceError {
    #[error("there is no game {0}")]
    GameNotFound(GameId),
    #[error("game {0} has no turn {1}")]
    TurnNotFound(GameId, i32),
    #[error("that order link or token is not valid for this game")]
    BadToken,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    BadInput(String),
    #[error("{0}")]
    Conflict(String),
    #[error("the orders were not accepted: none of their lines could be understood ({} line(s) not understood; nothing was stored; your previous orders stand)", .0.errors)]
    Rejected(crate::orders::Echo),
    /// A rate limit holds the request back (answered 429).
    #[error("{0}")]
    TooMany(String),
    #[error("{seat} has no orders on file for this turn")]
    NoOrders { seat: Seat },
    #[error("internal error: {0}")]
    Internal(String),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
}

impl ServiceError {
    /// Whether the error is the server's fault (log it; show only a generic message).
    pub fn is_internal(&self) -> bool {
        matches!(self, ServiceError::Internal(_) | ServiceError::Db(_))
    }
}

impl From<crate::registry::EngineError> for ServiceError {
    fn from(e: crate::registry::EngineError) -> Self {
        ServiceError::Internal(e.to_string())
    }
}
