//! The engine contract in one import (`use crate::engine::prelude::*`), for code that calls a
//! role's methods on a concrete engine (tests, benchmarks, the console): [`Game`] by name, and
//! every role it is made of without its name (`as _`), so that their methods are in scope while
//! an engine's own names (Railroaded's `Rules` data, 1800's `Score`) stay free. Code that
//! implements a role names it from `crate::engine`.

pub use super::contract::Game;
pub use super::contract::{
    Apply as _, Draw as _, Orders as _, Rules as _, Scoring as _, Setup as _, View as _,
};
