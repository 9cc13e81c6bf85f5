//! What an import keeps without having verified it (RULING O22): the rows of a document whose
//! content nothing on this server can check, named so that `game import` says so plainly instead
//! of accepting them in silence (RULING O19 says why each cannot be checked).

use super::history::History;
use super::{GameDocument, drafts, table};
use crate::store::export::Table;
use serde_json::Value;

/// The rows of `doc` kept as the document has them, each named with why it was not verified.
pub(super) fn list(doc: &GameDocument, history: &History, replayed: &drafts::Replayed) -> Vec<String> {
    let mut out = Vec::new();
    if !history.told() {
        out.push(
            "audit_log: the game is older than its audit log, so what was in force when each turn was \
             adjudicated (standing orders, absences, the referrals setting) was checked against the log \
             and the game only"
                .to_string(),
        );
    }
    let int = |row: &Value, key: &str| row.get(key).and_then(Value::as_i64).unwrap_or_default();
    let text = |row: &Value, key: &str| row.get(key).and_then(Value::as_str).unwrap_or_default().to_string();
    for (i, row) in table(doc, Table::Turns).iter().enumerate() {
        let drafted = matches!(text(row, "status").as_str(), "draft" | "published");
        let number = int(row, "number");
        let played = i32::try_from(number).is_ok_and(|n| replayed.contains_key(&n));
        if drafted && !row["draft"].is_null() && !played {
            out.push(format!(
                "turns row {} (turn {number}): its draft's events and notes were not played again (no audit \
                 entry says what it was adjudicated from); its actions and state were checked against the log",
                i + 1
            ));
        }
    }
    for (i, row) in table(doc, Table::Timers).iter().enumerate() {
        if !row["done_at"].is_null() {
            out.push(format!(
                "timers row {} (turn {}, {}): it already ran; what it did is only its own outcome's words",
                i + 1,
                int(row, "turn"),
                text(row, "kind")
            ));
        }
    }
    for i in 0..table(doc, Table::Rollbacks).len() {
        out.push(format!(
            "rollbacks row {}: its archived turns' events, notes, orders and reports (kept, never shown to a \
             player or mailed again); its log and turns were played again",
            i + 1
        ));
    }
    out
}
