//! How the console prints results and errors: text for people, JSON with `--json`.

use crate::service::ServiceError;
use serde::Serialize;

/// Prints a value as JSON (pretty) or runs the text printer.
pub fn print<T: Serialize>(value: &T, json: bool, text: impl FnOnce(&T) -> String) {
    if json {
        match serde_json::to_string_pretty(value) {
            Ok(s) => println!("{s}"),
            Err(e) => eprintln!("error: cannot print JSON: {e}"),
        }
    } else {
        println!("{}", text(value));
    }
}

/// Prints an error and returns the exit code: 2 for a problem with the input, 1 otherwise.
pub fn report_error(e: &anyhow::Error, json: bool) -> i32 {
    let input_problem = e.downcast_ref::<ServiceError>().is_some_and(|s| !s.is_internal())
        || e.downcast_ref::<InputError>().is_some();
    let message = match e.downcast_ref::<ServiceError>() {
        Some(s) if s.is_internal() => format!("{e:#}"),
        Some(s) => s.to_string(),
        None => format!("{e:#}"),
    };
    let echo = match e.downcast_ref::<ServiceError>() {
        Some(ServiceError::Rejected(echo)) => Some(echo),
        _ => None,
    };
    if json {
        eprintln!("{}", serde_json::json!({ "error": message, "echo": echo }));
    } else {
        eprintln!("error: {message}");
        for l in echo.iter().flat_map(|e| &e.lines) {
            if let Some(err) = &l.error {
                eprintln!("  line {}: {}: {err}", l.line, l.text);
            }
        }
    }
    if input_problem { 2 } else { 1 }
}

/// A console argument that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// Turns a parse error of an argument into an [`InputError`].
pub fn input<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<T, InputError> {
    r.map_err(|e| InputError(e.to_string()))
}
