//! Stated intentions that last until withdrawn (HR 12, RULING S24), for every engine.
//!
//! An engine names the lines that state such an intention (`Orders::lasting`, e.g. 1835's
//! `INTENT BY: TOWARD E19`), each under a key (`INTENT BY`). The intentions a seat has in force
//! are folded from the sheets it played, turn by turn: a line states or replaces the intention
//! of its key, a withdrawing line (`INTENT BY: NONE`) ends it. At a close, the intentions in
//! force that the seat's sheet does not restate are carried into the sheet it plays.

use crate::engine::{Game, Lasting};
use std::collections::BTreeMap;

/// A seat's stated intentions in force: key → the line in canonical form.
pub type Intentions = BTreeMap<String, String>;

/// One line of a sheet that states (`line`) or withdraws (`line` empty) a lasting intention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastingLine {
    pub key: String,
    /// The line in canonical form; `None` when it withdraws the intention.
    pub line: Option<String>,
}

/// The lasting lines of an order text, in sheet order, read as the sheet is played
/// ([`super::parse_sheet`]: lines the language cannot read are none).
pub fn lasting_lines<G: Game>(game: &G, text: &str) -> Vec<LastingLine> {
    super::parse_sheet(game, text, None)
        .0
        .orders
        .into_iter()
        .filter_map(|n| {
            let Lasting { key, withdraws } = game.lasting(&n.order)?;
            Some(LastingLine { key, line: (!withdraws).then(|| n.order.to_string()) })
        })
        .collect()
}

/// Applies a played sheet's lasting lines, in order, to the intentions in force.
pub fn apply(in_force: &mut Intentions, lines: &[LastingLine]) {
    for l in lines {
        match &l.line {
            Some(line) => in_force.insert(l.key.clone(), line.clone()),
            None => in_force.remove(&l.key),
        };
    }
}

/// The intentions in force to carry into a sheet: those whose key its own lines do not name
/// (a line of the sheet states, replaces or withdraws them itself).
pub fn carried(in_force: &Intentions, sheet: &[LastingLine]) -> Vec<String> {
    in_force
        .iter()
        .filter(|(key, _)| !sheet.iter().any(|l| &l.key == *key))
        .map(|(_, line)| line.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(key: &str, line: &str) -> LastingLine {
        LastingLine { key: key.into(), line: Some(line.into()) }
    }

    fn withdraws(key: &str) -> LastingLine {
        LastingLine { key: key.into(), line: None }
    }

    #[test]
    fn house_rule_12_an_intention_lasts_until_withdrawn_and_a_new_one_replaces_it() {
        let mut in_force = Intentions::new();
        apply(&mut in_force, &[states("INTENT BY", "INTENT BY: TOWARD E19")]);
        apply(&mut in_force, &[]);
        assert_eq!(in_force["INTENT BY"], "INTENT BY: TOWARD E19", "a silent turn keeps it");
        apply(&mut in_force, &[states("INTENT BY", "INTENT BY: TOWARD O15"), states("INTENT SX", "X")]);
        assert_eq!(in_force["INTENT BY"], "INTENT BY: TOWARD O15", "a new one replaces it");
        apply(&mut in_force, &[withdraws("INTENT BY")]);
        assert_eq!(in_force.keys().collect::<Vec<_>>(), ["INTENT SX"], "NONE withdraws it");
    }

    #[test]
    fn house_rule_12_a_sheet_that_names_an_intention_is_not_given_the_old_one() {
        let in_force = Intentions::from([
            ("INTENT BY".to_string(), "INTENT BY: TOWARD E19".to_string()),
            ("INTENT SX".to_string(), "INTENT SX: TOWARD H16".to_string()),
        ]);
        assert_eq!(carried(&in_force, &[withdraws("INTENT BY")]), ["INTENT SX: TOWARD H16"]);
        assert_eq!(carried(&in_force, &[]).len(), 2);
    }
}
