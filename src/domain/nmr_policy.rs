//! A game's NMR policy: what happens when a seat sends no orders for a turn (issue #3). Chosen by
//! the GM per game from presets or field by field; stored as JSON on the game.
//!
//! The 1835 house rules 12–13 are the `hr1835` preset: stated intentions (standing orders) are
//! used, the turn still counts as an NMR, and the second NMR flags the seat for replacement.

use serde::{Deserialize, Serialize};

/// What the server does with a seat that has no orders at the close of a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fallback {
    /// The rules engine's default play for the seat.
    EngineDefault,
    /// The turn is held for the GM, who enters orders for the seat, extends the deadline or
    /// releases the turn with defaults.
    WaitForGm,
    /// The turn is adjudicated, and each decision of the seat goes to the GM as a question with
    /// the legal moves ranked (the rules' default first).
    AskGm,
}

/// A game's NMR policy (RULING S5: the default preset is the house rules' ladder, HR 12-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct NmrPolicy {
    /// Use the seat's standing orders (stated intentions) when it sent none for the turn.
    pub use_standing_orders: bool,
    /// Whether a turn played from standing orders still counts as an NMR (HR 12: it does).
    pub standing_counts_as_nmr: bool,
    /// What happens when neither this turn's orders nor standing orders exist.
    pub fallback: Fallback,
    /// At this many NMRs the seat is flagged for replacement and the table is told; `None`
    /// never flags.
    pub flag_after: Option<u32>,
}

impl Default for NmrPolicy {
    /// The server's default: the 1835 house rules' ladder, which is what PBEM GMs expect.
    fn default() -> Self {
        NmrPolicy::HR1835
    }
}

/// A policy name the server does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown NMR policy \"{0}\"; known presets: hr1835, lenient, strict, gm-decides")]
pub struct UnknownPolicy(pub String);

impl NmrPolicy {
    /// HR 12–13: stated intentions are used but still count; the 2nd NMR brings a replacement.
    pub const HR1835: NmrPolicy = NmrPolicy {
        use_standing_orders: true,
        standing_counts_as_nmr: true, // HR 12 "this would still count as the first NMR"
        fallback: Fallback::EngineDefault,
        flag_after: Some(2), // HR 13 "In the event of a second NMR, a replacement player will be found."
    };
    /// Standing orders are as good as orders; nobody is flagged automatically.
    pub const LENIENT: NmrPolicy = NmrPolicy {
        use_standing_orders: true,
        standing_counts_as_nmr: false,
        fallback: Fallback::EngineDefault,
        flag_after: None,
    };
    /// No play without the player or the GM: a missing seat holds the turn for the GM.
    pub const STRICT: NmrPolicy = NmrPolicy {
        use_standing_orders: false,
        standing_counts_as_nmr: true,
        fallback: Fallback::WaitForGm,
        flag_after: Some(2),
    };

    /// The GM plays a missing seat, move by move, from ranked candidates.
    pub const GM_DECIDES: NmrPolicy = NmrPolicy {
        use_standing_orders: true,
        standing_counts_as_nmr: true,
        fallback: Fallback::AskGm,
        flag_after: Some(2),
    };

    /// A preset by name.
    pub fn preset(name: &str) -> Result<NmrPolicy, UnknownPolicy> {
        match name.trim().to_ascii_lowercase().as_str() {
            "hr1835" | "default" => Ok(NmrPolicy::HR1835),
            "lenient" => Ok(NmrPolicy::LENIENT),
            "strict" => Ok(NmrPolicy::STRICT),
            "gm-decides" => Ok(NmrPolicy::GM_DECIDES),
            other => Err(UnknownPolicy(other.chars().take(40).collect())),
        }
    }

    /// The policy stored as JSON (`{}` and missing fields take the defaults; a value of the
    /// wrong shape is an error).
    pub fn from_stored(v: &serde_json::Value) -> Result<NmrPolicy, serde_json::Error> {
        NmrPolicy::deserialize(v)
    }

    /// Whether the `count`th NMR of a seat (counted after this turn) flags it for replacement.
    pub fn flags_at(&self, count: u32) -> bool {
        self.flag_after.is_some_and(|n| n > 0 && count == n)
    }

    /// One line for the GM and the rules page.
    pub fn describe(&self) -> String {
        let standing = match (self.use_standing_orders, self.standing_counts_as_nmr) {
            (false, _) => "standing orders are not used",
            (true, true) => "standing orders are used (still an NMR)",
            (true, false) => "standing orders are used (not an NMR)",
        };
        let fallback = match self.fallback {
            Fallback::EngineDefault => "otherwise the rules' default play",
            Fallback::WaitForGm => "otherwise the turn waits for the GM",
            Fallback::AskGm => "otherwise the GM decides each of the seat's moves",
        };
        let flag = match self.flag_after {
            Some(n) => format!("NMR no. {n} flags the seat for replacement"),
            None => "no automatic replacement".to_string(),
        };
        format!("{standing}; {fallback}; {flag}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn house_rule_13_flags_the_seat_at_the_second_nmr_only() {
        let p = NmrPolicy::HR1835;
        assert!(!p.flags_at(1));
        assert!(p.flags_at(2));
        assert!(!p.flags_at(3), "a seat is flagged once, not again at every later NMR");
    }

    #[test]
    fn house_rule_12_uses_stated_intentions_but_still_counts_the_nmr() {
        let p = NmrPolicy::preset("HR1835").unwrap();
        assert!(p.use_standing_orders && p.standing_counts_as_nmr);
    }

    #[test]
    fn a_stored_empty_policy_is_the_default_and_fields_override_it() {
        assert_eq!(NmrPolicy::from_stored(&serde_json::json!({})).ok(), Some(NmrPolicy::HR1835));
        let p = NmrPolicy::from_stored(&serde_json::json!({"fallback": "wait_for_gm", "flag_after": null}));
        assert_eq!(p.map(|p| (p.fallback, p.flag_after)).ok(), Some((Fallback::WaitForGm, None)));
    }

    #[test]
    fn a_stored_policy_of_the_wrong_shape_is_an_error_not_the_default() {
        assert!(NmrPolicy::from_stored(&serde_json::json!({"fallback": "shrug"})).is_err());
        assert!(NmrPolicy::from_stored(&serde_json::json!("strict")).is_err());
    }

    #[test]
    fn an_unknown_preset_is_named_in_the_error() {
        assert!(NmrPolicy::preset("gentle").unwrap_err().to_string().contains("\"gentle\""));
    }
}
