//! The engine's options from the "New game" form (issue 37): each field as the engine's option
//! list says, then checked by the engine's own setup one by one — the validation `game create
//! --options` gets — so that a bad value is named next to its field.

use crate::engine::SetupSpec;
use crate::registry::DynGame;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The options JSON of the fields given (RULING W43) (`name → text`), and an error per field that is wrong.
/// `seats` is the seat count the game is set up with while checking.
pub fn options_from_form(
    engine: &dyn DynGame,
    seats: u8,
    fields: &BTreeMap<String, String>,
) -> (Value, BTreeMap<String, String>) {
    let mut options = Map::new();
    let mut errors = BTreeMap::new();
    let seats = if engine.seat_counts().contains(&seats) { seats } else { *engine.seat_counts().start() };
    for (name, text) in fields {
        let Some(spec) = engine.option_specs().iter().find(|s| s.name == name) else {
            errors.insert(name.clone(), format!("{} has no option \"{name}\"", engine.title()));
            continue;
        };
        match spec.value(text) {
            Ok(None) => {}
            Ok(Some(v)) => {
                let alone = Value::Object(Map::from_iter([(name.clone(), v.clone())]));
                match engine.setup(&SetupSpec { seats, options: alone }, 0) {
                    Ok(_) => {
                        options.insert(name.clone(), v);
                    }
                    Err(e) => {
                        errors.insert(name.clone(), e.to_string());
                    }
                }
            }
            Err(e) => {
                errors.insert(name.clone(), e);
            }
        }
    }
    (Value::Object(options), errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_or_unknown_option_is_named_at_its_field_and_good_ones_become_json() {
        let engine = crate::registry::find("1835").expect("1835");
        let fields = BTreeMap::from([
            ("variant".to_string(), "snake".to_string()),
            ("ld_income".to_string(), "25".to_string()),
            ("by_float_percent".to_string(), "lots".to_string()),
            ("colour".to_string(), "red".to_string()),
            ("preset".to_string(), String::new()),
        ]);
        let (options, errors) = options_from_form(engine, 4, &fields);
        assert_eq!(options, serde_json::json!({ "variant": "snake" }));
        assert!(errors["ld_income"].contains("20 or 30"), "{errors:?}");
        assert!(errors["by_float_percent"].contains("whole number"), "{errors:?}");
        assert!(errors.contains_key("colour"), "{errors:?}");
        assert_eq!(errors.len(), 3);
    }
}
