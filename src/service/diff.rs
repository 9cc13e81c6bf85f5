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

/// The changed lines only, marked, for a mail or a compact view.
pub fn changes(before: &str, after: &str) -> Vec<String> {
    diff(before, after).iter().filter(|l| l.changed()).map(DiffLine::marked).collect()
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
