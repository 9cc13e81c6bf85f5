//! Confederate Rails (Richard H. Berg, ATO 2016): railroading in the Confederacy while the Union
//! advances. This is the foundation of the engine (issue 17): the components as checked data
//! (`data`) and train movement with the cheapest path (`movement`). The rounds, loads, war
//! progress, events and orders by mail follow; the game is not registered yet.

pub mod data;
pub mod movement;
#[cfg(test)]
mod movement_tests;
