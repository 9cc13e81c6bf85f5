//! Railroaded (placeholder while the engine is written).
pub struct Railroaded;
impl Railroaded { pub fn standard() -> Self { Railroaded } }
