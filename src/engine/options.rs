//! A game's setup options as a list (issue 37): each key of `SetupSpec.options` an engine takes,
//! with the kind of value it holds, so that the GM's "New game" form is generated from the
//! engine's own list. The engine's setup still checks every value (the form and `game create
//! --options` share that validation); this list only turns a form field into JSON.

use serde_json::Value;

/// One option a game may be set up with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key in `SetupSpec.options` (as `--options` takes it).
    pub name: &'static str,
    /// What it does, in one line.
    pub help: &'static str,
    pub kind: OptionKind,
}

/// The values an option takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these words (a JSON string).
    Choice(&'static [&'static str]),
    /// Yes or no (a JSON boolean).
    Flag,
    /// A whole number (a JSON number); the engine says which ones it allows.
    Number,
}

impl OptionSpec {
    /// The JSON value of a form field's text, or why it is none. Empty text is no value (the
    /// game's default).
    pub fn value(&self, text: &str) -> Result<Option<Value>, String> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        match self.kind {
            OptionKind::Choice(words) => words
                .iter()
                .find(|w| **w == text)
                .map(|w| Some(Value::String((*w).to_string())))
                .ok_or_else(|| format!("\"{text}\" is not one of: {}", words.join(", "))),
            OptionKind::Flag => match text {
                "true" | "yes" => Ok(Some(Value::Bool(true))),
                "false" | "no" => Ok(Some(Value::Bool(false))),
                _ => Err(format!("\"{text}\" is not yes or no")),
            },
            OptionKind::Number => text
                .parse::<i64>()
                .map(|n| Some(Value::from(n)))
                .map_err(|_| format!("\"{text}\" is not a whole number")),
        }
    }

    /// The words of a choice (empty for flags and numbers), for the form.
    pub fn choices(&self) -> &'static [&'static str] {
        match self.kind {
            OptionKind::Choice(words) => words,
            OptionKind::Flag | OptionKind::Number => &[],
        }
    }

    /// Whether the option is yes or no.
    pub fn is_flag(&self) -> bool {
        self.kind == OptionKind::Flag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_field_becomes_the_json_the_engine_reads_or_says_why_not() {
        let choice = OptionSpec { name: "v", help: "", kind: OptionKind::Choice(&["a", "b"]) };
        assert_eq!(choice.value(" b "), Ok(Some(Value::from("b"))));
        assert!(choice.value("c").unwrap_err().contains("a, b"));
        let flag = OptionSpec { name: "f", help: "", kind: OptionKind::Flag };
        assert_eq!(flag.value("yes"), Ok(Some(Value::Bool(true))));
        assert!(flag.value("maybe").is_err());
        let n = OptionSpec { name: "n", help: "", kind: OptionKind::Number };
        assert_eq!(n.value("30"), Ok(Some(Value::from(30))));
        assert!(n.value("3x").is_err());
        assert_eq!(n.value(""), Ok(None));
    }
}
