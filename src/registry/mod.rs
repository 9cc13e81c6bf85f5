//! The registry of engines by stable slug: the one place that knows which games exist, and
//! [`DynGame`], the JSON face every engine gets (`dyn_game`). It sits above `engine` (the
//! contract), `games` (the engines), `adjudication` and `orders`; the shell (service, web, mail,
//! CLI) reaches engines only through here.
//!
//! Engines whose rules data fails to load are left out of [`engines`] rather than panicking;
//! [`load_failures`] lists them and [`find`] names the failure when such a slug is asked for.
//! [`for_stored`] also checks the rules version a stored game was created under (RULINGS S15).

mod dyn_game;

pub use dyn_game::{
    Adjudication, Candidate, DynGame, EngineError, GmQuestion, GmTurn, Ledger, Prepared, TurnOutcome,
};

use crate::games::railroaded::{Railroaded, RulesError};
use crate::games::{r1833, r1835};
use std::sync::OnceLock;
use thiserror::Error;

/// No engine with that slug (or its rules data did not load).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("there is no game engine \"{slug}\"; known engines: {known}{not_loaded}")]
pub struct UnknownEngine {
    pub slug: String,
    pub known: String,
    /// Empty, or "; not loaded: <slug> (<why>)" for engines whose rules data failed to load.
    pub not_loaded: String,
}

/// The engines that loaded, and (slug, reason) for those that did not.
struct Registry {
    engines: Vec<&'static dyn DynGame>,
    failures: Vec<(&'static str, String)>,
}

fn registry() -> &'static Registry {
    static RAILROADED: OnceLock<Result<Railroaded, RulesError>> = OnceLock::new();
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = Registry { engines: Vec::new(), failures: Vec::new() };
        match RAILROADED.get_or_init(Railroaded::standard) {
            Ok(game) => r.engines.push(game),
            Err(e) => r.failures.push(("railroaded", e.to_string())),
        }
        match r1835::shared() {
            Ok(game) => r.engines.push(game),
            Err(e) => r.failures.push(("1835", e.to_string())),
        }
        match r1833::shared() {
            Ok(game) => r.engines.push(game),
            Err(e) => r.failures.push(("1833", e.to_string())),
        }
        match crate::games::confed::shared() {
            Ok(game) => r.engines.push(game),
            Err(e) => r.failures.push(("confederate-rails", e.to_string())),
        }
        match crate::games::r1800::shared() {
            Ok(game) => r.engines.push(game),
            Err(e) => r.failures.push(("1800", e.to_string())),
        }
        r
    })
}

/// Every engine this build knows and could load, in a stable order.
pub fn engines() -> &'static [&'static dyn DynGame] {
    &registry().engines
}

/// Engines whose rules data failed to load: (slug, reason). Empty in a healthy build.
pub fn load_failures() -> &'static [(&'static str, String)] {
    &registry().failures
}

/// The engine with this slug (case-insensitive).
pub fn find(slug: &str) -> Result<&'static dyn DynGame, UnknownEngine> {
    let wanted = slug.trim();
    engines().iter().copied().find(|e| e.slug().eq_ignore_ascii_case(wanted)).ok_or_else(|| {
        let failed: Vec<String> = load_failures()
            .iter()
            .filter(|(s, _)| s.eq_ignore_ascii_case(wanted))
            .map(|(s, why)| format!("{s} ({why})"))
            .collect();
        UnknownEngine {
            slug: slug.to_string(),
            known: engines().iter().map(|e| e.slug()).collect::<Vec<_>>().join(", "),
            not_loaded: if failed.is_empty() {
                String::new()
            } else {
                format!("; not loaded: {}", failed.join(", "))
            },
        }
    })
}

/// A stored game's engine cannot play the rules version it was created under.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StoredGameError {
    #[error(transparent)]
    Unknown(#[from] UnknownEngine),
    #[error(
        "this {slug} game was stored under rules version {stored}, which this server's {slug} engine \
         (rules version {current}) cannot play or replay; see RULINGS S15"
    )]
    RulesVersion { slug: &'static str, stored: u32, current: u32 },
}

/// The engine for a stored game: found by slug, and able to play the rules version the game
/// was created under (RULINGS S15: a newer version than the engine's, or an older one it does
/// not declare supported, is refused rather than replayed wrongly).
pub fn for_stored(slug: &str, rules_version: u32) -> Result<&'static dyn DynGame, StoredGameError> {
    let engine = find(slug)?;
    if engine.supports_rules_version(rules_version) {
        Ok(engine)
    } else {
        Err(StoredGameError::RulesVersion {
            slug: engine.slug(),
            stored: rules_version,
            current: engine.rules_version(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn railroaded_is_registered_and_found_case_insensitively() {
        assert!(load_failures().is_empty(), "{:?}", load_failures());
        assert_eq!(find(" Railroaded ").map(|e| e.slug()).ok(), Some("railroaded"));
        let err = find("chess").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("known engines: railroaded"), "{err}");
    }

    #[test]
    fn a_stored_game_of_the_current_rules_version_loads_and_others_are_refused_naming_both() {
        assert!(for_stored("railroaded", 1).is_ok());
        let err = for_stored("railroaded", 2).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("rules version 2") && err.contains("(rules version 1)"), "{err}");
    }

    #[test]
    fn an_1833_game_stored_under_rules_version_1_is_refused() {
        // RULINGS S15: version 2 changed the default (C20) and the standard deck (C21).
        let err = for_stored("1833", 1).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("1833 game was stored under rules version 1"), "{err}");
        assert!(err.contains("(rules version 2)"), "{err}");
        assert!(for_stored("1833", 2).is_ok());
    }

    #[test]
    fn an_1835_game_stored_under_rules_version_2_is_refused_since_k94_moves_other_certificates() {
        // RULINGS S15 amended, K94: the rails preset's sale that passes a presidency.
        let err = for_stored("1835", 2).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("1835 game was stored under rules version 2"), "{err}");
        assert!(err.contains("(rules version 3)"), "{err}");
        assert!(for_stored("1835", 3).is_ok());
    }

    #[test]
    fn an_1800_game_stored_under_rules_version_3_is_refused_since_sabotage_became_a_wrong() {
        // RULINGS S15 amended, E72 amended: a Sabotage or a supported rebellion is a wrong.
        let err = for_stored("1800", 3).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("1800 game was stored under rules version 3"), "{err}");
        assert!(err.contains("(rules version 4)"), "{err}");
        assert!(for_stored("1800", 4).is_ok());
    }

    #[test]
    fn the_1833_engine_is_registered_for_2_to_6_players() {
        let e = find("1833").expect("1833 is registered");
        assert_eq!((e.title(), e.seat_counts()), ("1833", 2..=6));
        let state = e
            .setup(&crate::engine::SetupSpec { seats: 3, options: serde_json::Value::Null }, 7)
            .expect("setup");
        assert_eq!(
            e.legal_actions(&state).expect("legal actions").len(),
            9,
            "three selections each from nine"
        );
    }

    #[test]
    fn the_1835_engine_is_registered_for_3_to_7_players() {
        let e = find("1835").expect("1835 is registered");
        assert_eq!((e.title(), e.seat_counts()), ("1835", 3..=7));
        let state = e
            .setup(&crate::engine::SetupSpec { seats: 5, options: serde_json::Value::Null }, 7)
            .expect("setup");
        assert!(!e.legal_actions(&state).expect("legal actions").is_empty());
    }

    #[test]
    fn every_engine_echoes_a_sheet_alike_from_its_prepared_state_and_from_the_json() {
        let sheet = "# one of each\nBUY 1 BY IPO\nCLAIM 7H NORTH\nDRAW\nPASS\nnot an order at all\n";
        for e in engines() {
            let seats = *e.seat_counts().start();
            let state = e
                .setup(&crate::engine::SetupSpec { seats, options: serde_json::Value::Null }, 11)
                .expect("setup");
            let prepared = e.prepare(&state).expect("prepared");
            for seat in crate::engine::Seat::all(usize::from(seats)) {
                assert_eq!(
                    e.check_prepared(&prepared, seat, sheet).expect("checked"),
                    e.check_orders(&state, seat, sheet).expect("checked"),
                    "{} {seat}",
                    e.slug()
                );
            }
        }
    }

    #[test]
    fn a_state_prepared_by_one_engine_is_refused_by_another_with_a_reason() {
        let (a, b) = (find("railroaded").expect("railroaded"), find("1833").expect("1833"));
        let state = a
            .setup(&crate::engine::SetupSpec { seats: 4, options: serde_json::Value::Null }, 3)
            .expect("setup");
        let err = b.check_prepared(&a.prepare(&state).expect("prepared"), crate::engine::Seat(1), "DRAW");
        let err = err.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("prepared by the railroaded engine"), "{err}");
    }
}
