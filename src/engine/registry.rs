//! The registry of engines by stable slug: the one place that knows which games exist.

use super::DynGame;
use std::sync::OnceLock;
use thiserror::Error;

/// No engine with that slug.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("there is no game engine \"{slug}\"; known engines: {known}")]
pub struct UnknownEngine {
    pub slug: String,
    pub known: String,
}

/// Every engine this build knows, in a stable order.
pub fn engines() -> &'static [&'static dyn DynGame] {
    static ENGINES: OnceLock<Vec<&'static dyn DynGame>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        Vec::new()
    })
}

/// The engine with this slug (case-insensitive).
pub fn find(slug: &str) -> Result<&'static dyn DynGame, UnknownEngine> {
    engines()
        .iter()
        .copied()
        .find(|e| e.slug().eq_ignore_ascii_case(slug.trim()))
        .ok_or_else(|| UnknownEngine {
            slug: slug.to_string(),
            known: engines().iter().map(|e| e.slug()).collect::<Vec<_>>().join(", "),
        })
}
