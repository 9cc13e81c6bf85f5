//! A line diff of two texts (longest common subsequence), for the GM's draft review: the table
//! before the turn and after the draft, as the GM sees them (cash, holdings, board, hands).

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffLine {
    Same(String),
    Removed(String),
    Added(String),
}

impl DiffLine {
    /// "  ", "- " or "+ " followed by the line.
    pub fn marked(&self) -> String {
        match self {
            DiffLine::Same(l) => format!("  {l}"),
            DiffLine::Removed(l) => format!("- {l}"),
            DiffLine::Added(l) => format!("+ {l}"),
        }
    }
    /// Whether the line changed.
    pub fn changed(&self) -> bool {
        !matches!(self, DiffLine::Same(_))
    }
}

/// Texts longer than this (in lines) are compared by their changed lines only, without the
/// quadratic table.
const MAX_LINES: usize = 2_000;

/// The line diff from `before` to `after`.
pub fn diff(before: &str, after: &str) -> Vec<DiffLine> {
    let a: Vec<&str> = before.lines().collect();
    let b: Vec<&str> = after.lines().collect();
    if a.len() > MAX_LINES || b.len() > MAX_LINES {
        let removed = a.iter().filter(|l| !b.contains(l)).map(|l| DiffLine::Removed(l.to_string()));
        let added = b.iter().filter(|l| !a.contains(l)).map(|l| DiffLine::Added(l.to_string()));
        return removed.chain(added).collect();
    }
    // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(DiffLine::Same(a[i].to_string()));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            // Removals before additions, as diffs are read.
            out.push(DiffLine::Removed(a[i].to_string()));
            i += 1;
        } else {
            out.push(DiffLine::Added(b[j].to_string()));
            j += 1;
        }
    }
    out
}

/// The changed lines, marked, under the heading of the entity they belong to (issue 36: a line
/// diff of the whole table showed Austria's cards under Prussia's heading). A table text is read as
/// sections: a line that is not indented heads the indented lines below it (a power, a seat, a
/// company, "Lines …"). Sections are matched by their heading's name — what comes before its first
/// `:` (else its first word), so "France (seat 1): prosperity 2" and "France (seat 1): prosperity
/// 3" are one entity — and
/// each is compared with its own counterpart. A changed section shows its heading (marked when it
/// changed itself, as context when not), then its changed lines; a section only on one side is
/// wholly removed or added. For a mail or a compact view.
pub fn changes(before: &str, after: &str) -> Vec<String> {
    let (old, new) = (sections(before), sections(after));
    let mut out = Vec::new();
    for (key, n) in &new {
        match old.iter().find(|(k, _)| k == key) {
            Some((_, o)) => out.extend(section_changes(o, n)),
            None => out.extend(n.iter().map(|l| DiffLine::Added(l.to_string()).marked())),
        }
    }
    for (key, o) in &old {
        if !new.iter().any(|(k, _)| k == key) {
            out.extend(o.iter().map(|l| DiffLine::Removed(l.to_string()).marked()));
        }
    }
    out
}

/// A text's sections, each named by its heading ([`changes`]) — the lines before the first
/// heading form a section of their own — with the n-th section of a repeated name told apart.
fn sections(text: &str) -> Vec<((String, usize), Vec<&str>)> {
    let mut out: Vec<((String, usize), Vec<&str>)> = Vec::new();
    for line in text.lines() {
        let heads = !line.starts_with(char::is_whitespace) && !line.trim().is_empty();
        if heads || out.is_empty() {
            let name = match (heads, line.split_once(':')) {
                (false, _) => String::new(),
                (true, Some((name, _))) => name.trim().to_string(),
                // A heading with no name before a colon ("Round 2 of 24 …") is named by its
                // first word, so its next state is the same entity.
                (true, None) => line.split_whitespace().next().unwrap_or_default().to_string(),
            };
            let nth = out.iter().filter(|((k, _), _)| *k == name).count();
            out.push(((name, nth), Vec::new()));
        }
        if let Some((_, lines)) = out.last_mut() {
            lines.push(line);
        }
    }
    out
}

/// One entity's changes: nothing when it is unchanged; else its heading (changed or as context)
/// and its changed lines.
fn section_changes(before: &[&str], after: &[&str]) -> Vec<String> {
    let d = diff(&before.join("\n"), &after.join("\n"));
    if !d.iter().any(DiffLine::changed) {
        return Vec::new();
    }
    let heading = match (before.first(), after.first()) {
        (Some(b), Some(a)) if b == a && !a.starts_with(char::is_whitespace) => {
            Some(DiffLine::Same(a.to_string()))
        }
        _ => None,
    };
    heading.iter().chain(d.iter().filter(|l| l.changed())).map(DiffLine::marked).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn only_the_changed_lines_are_marked() {
        let before = "Anna: cash 100\nBert: cash 80\nBoard: empty";
        let after = "Anna: cash 60\nBert: cash 80\nBoard: empty\nAnna holds 2 BY";
        assert_eq!(changes(before, after), ["- Anna: cash 100", "+ Anna: cash 60", "+ Anna holds 2 BY"]);
    }

    #[test]
    fn a_change_is_shown_under_its_own_entitys_heading() {
        let before = "Round 1\nPrussia (seat 2): prosperity 2\n  #1 Autocracy\n  #2 Roads\nAustria (seat 3): prosperity 2\n  #1 Autocracy\n  #2 Roads";
        let after = "Round 2\nPrussia (seat 2): prosperity 2\n  #1 Autocracy\n  #2 Roads\nAustria (seat 3): prosperity 3\n  #1 Autocracy\n  #2 Roads\n  #3 Railways";
        assert_eq!(
            changes(before, after),
            [
                "- Round 1",
                "+ Round 2",
                "- Austria (seat 3): prosperity 2",
                "+ Austria (seat 3): prosperity 3",
                "+   #3 Railways",
            ]
        );
        let quiet = "Austria (seat 3): prosperity 3\n  #1 Autocracy\n  #2 Railways";
        assert_eq!(
            changes("Austria (seat 3): prosperity 3\n  #1 Autocracy\n  #2 Roads", quiet),
            ["  Austria (seat 3): prosperity 3", "-   #2 Roads", "+   #2 Railways"],
            "an unchanged heading stands as the context of its changed lines"
        );
    }

    #[test]
    fn an_entity_on_one_side_only_is_wholly_added_or_removed() {
        let before = "Lines:\n  #1 B&O\nseat 1: $2500\n  train 1";
        let after = "Lines:\n  #1 B&O\nseat 2: $2400\n  train 1";
        assert_eq!(
            changes(before, after),
            ["+ seat 2: $2400", "+   train 1", "- seat 1: $2500", "-   train 1"]
        );
    }

    proptest! {
        #[test]
        fn applying_the_diff_gives_back_both_texts(a in prop::collection::vec("[abc]{0,2}", 0..12),
                                                   b in prop::collection::vec("[abc]{0,2}", 0..12)) {
            let (before, after) = (a.join("\n"), b.join("\n"));
            let d = diff(&before, &after);
            let old: Vec<&str> = d.iter().filter_map(|l| match l { DiffLine::Same(s) | DiffLine::Removed(s) => Some(s.as_str()), _ => None }).collect();
            let new: Vec<&str> = d.iter().filter_map(|l| match l { DiffLine::Same(s) | DiffLine::Added(s) => Some(s.as_str()), _ => None }).collect();
            prop_assert_eq!(old, before.lines().collect::<Vec<_>>());
            prop_assert_eq!(new, after.lines().collect::<Vec<_>>());
        }
    }
}
