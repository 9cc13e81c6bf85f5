//! The standard engine of each game, built once from its shipped data and shared from then on
//! ([`Shared`], the `static` behind every engine's `shared()`).

use std::sync::OnceLock;

/// An engine built once from its shipped data and shared from then on (by the registry and the
/// console): the `static` behind each engine's `shared()`.
pub struct Shared<E, Err>(OnceLock<Result<E, Err>>);

impl<E, Err: Clone> Default for Shared<E, Err> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E, Err: Clone> Shared<E, Err> {
    /// Not built yet.
    pub const fn new() -> Self {
        Shared(OnceLock::new())
    }
    /// The engine, built by `standard` on the first call; a failure is kept and given again.
    pub fn get(&'static self, standard: fn() -> Result<E, Err>) -> Result<&'static E, Err> {
        self.0.get_or_init(standard).as_ref().map_err(Clone::clone)
    }
}
