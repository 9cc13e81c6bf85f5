//! The 1835 board (issue 13, part A): tiles and station tokens as state, the track graph they
//! make, routes, and the exact optimal revenue of a company's trains.
//!
//! Files: `state` (tiles laid, tokens; serialised in the game state), `graph` (stops and track
//! paths joined across hex sides, in a phase), `route` (route values, HR 3's ferry; every legal
//! route of a company), `revenue` (the best disjoint set of routes, exact), `check` (declared
//! routes and claimed revenues, typed errors), `lay` (what a candidate tile lay would earn, for
//! the order layer, HR 17), `track` (tile-lay legality, every legal lay), `access` (where a
//! company may build, found once per call), `privates` (OBB's and PfB's free tiles), `stations`
//! (station legality), `spots` (cities as players number them, Hamburg's banks), `reach` (where
//! a company traces track from its stations), `rank` (legal lays and stations ranked for HR 17).
//! Facts: FACTS §3, §7.4–7.5, §10–12; rulings K19–K25, K27–K31, K42–K44.

pub mod access;
pub mod check;
pub mod graph;
pub mod lay;
pub mod privates;
pub mod rank;
pub mod reach;
pub mod revenue;
pub mod route;
pub mod spots;
pub mod state;
pub mod stations;
pub mod track;

#[cfg(test)]
mod tests_costs;
#[cfg(test)]
mod tests_families;
#[cfg(test)]
mod tests_lays;
#[cfg(test)]
mod tests_optimal;
#[cfg(test)]
mod tests_powers;
#[cfg(test)]
mod tests_routes;
#[cfg(test)]
mod tests_stations;
#[cfg(test)]
mod tests_support;
#[cfg(test)]
mod tests_track;

pub use access::Access;
pub use check::{RouteError, StopRef, check_routes, claim};
pub use graph::{Graph, StopKind, StopNode};
pub use lay::revenue_with_tile;
pub use privates::{check_private_lay, legal_private_lays};
pub use rank::{Candidate, TokenCandidate, ranked_lays, ranked_tokens};
pub use reach::{Reach, reach};
pub use revenue::{Optimum, optimal};
pub use route::Route;
pub use spots::{check_token_city, city_number, city_spot};
pub use state::{BoardError, BoardState, Laid, Token};
pub use stations::{TokenError, TokenLay, Via, check_token, legal_tokens, map_distance};
pub use track::{
    Connection, Lay, LayError, Site, check_lay, check_rotation, check_tile, lays_on, legal_lays,
};
