//! Pictures of the table (issue 16): a small SVG writer the engines draw with, the geometry of a
//! pointy-topped hex grid, maps placed by longitude and latitude (`geo`), a few shared colours, the PNG rendering of a drawing for mail (over its printed layer, its elements from kept rasters: `layers`, `pieces`), and
//! the name a drawing is kept under ([`DrawingKey`], the SHA-256 of its document).
//!
//! The writer ([`El`]) escapes every text and attribute value it is given, so a player's name
//! containing `<` or `&` can never break out of the document: there is no way to put raw markup
//! into a drawing. Element and attribute names are `&'static str` — they come from our code,
//! never from players.
//!
//! Everything here but [`png`] is pure. [`png`] reads the system's fonts once (the only I/O) and
//! falls back to a font bundled with the binary when the system has none.

#[cfg(test)]
pub mod collide;
pub mod colour;
pub mod geo;
pub mod hex;
mod key;
pub mod layers;
pub mod palette;
pub mod part;
pub mod pieces;
mod png;
mod svg;
pub mod text;

pub use key::DrawingKey;
pub use layers::Layers;
pub use part::Part;
pub use png::{DrawError, png, steps as png_steps};
pub use svg::{El, Fragment, document, document_over, num};
#[cfg(test)]
pub mod snapshot;
