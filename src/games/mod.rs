//! One pure rules engine per game. Component data lives in `rules/<game>/`.

pub mod r1833;
pub mod r1835;
pub mod railroaded;
