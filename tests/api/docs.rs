//! The docs hold the code to its word: every ruling in docs/RULINGS.md is cited where it is
//! implemented (`// RULING X1`, `RULINGS X1, X2`, `RULINGS X1-X3`), so a reader of a ruling can
//! find its code and a reader of the code its ruling.

use std::collections::BTreeSet;
use std::path::Path;

/// The ids of the rulings (`**S1 — …`), in the order of the document.
fn rulings(doc: &str) -> Vec<String> {
    doc.lines()
        .filter_map(|l| l.strip_prefix("**"))
        .filter_map(|l| l.split_once(" — ").map(|(id, _)| id.to_string()))
        .filter(|id| ruling_id(id).is_some())
        .collect()
}

/// `K12` → ('K', 12); a suffix letter (`W2b`) is allowed, and kept by the caller's exact match.
fn ruling_id(word: &str) -> Option<(char, u32)> {
    let mut chars = word.chars();
    let letter = chars.next().filter(char::is_ascii_uppercase)?;
    let digits: String = chars.take_while(char::is_ascii_digit).collect();
    let tail = &word[1 + digits.len()..];
    if digits.is_empty() || !tail.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    Some((letter, digits.parse().ok()?))
}

/// Every ruling a text cites after the word RULING or RULINGS: lists (`, `, ` and `, `/`) and
/// ranges (`P1-P4`, `P1–P4`) included.
fn cited(text: &str, into: &mut BTreeSet<String>) {
    for (i, _) in text.match_indices("RULING") {
        let rest = text[i + "RULING".len()..].trim_start_matches('S');
        let words = rest.split([' ', ',', '/', ')', ';', ':', '.']).filter(|w| !w.is_empty());
        for w in words {
            if w == "and" {
                continue;
            }
            let (from, to) = w.split_once(['-', '–']).unwrap_or((w, w));
            let (Some((a, m)), Some((b, n))) = (ruling_id(from), ruling_id(to)) else { break };
            if a != b {
                break;
            }
            into.insert(from.to_string());
            into.insert(to.to_string());
            for k in m + 1..n {
                into.insert(format!("{a}{k}"));
            }
        }
    }
}

fn walk(dir: &Path, into: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            cited(&std::fs::read_to_string(&path).unwrap(), into);
        }
    }
}

#[test]
fn every_ruling_is_cited_where_it_is_implemented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/RULINGS.md")).unwrap();
    let all = rulings(&doc);
    assert!(all.len() > 50, "docs/RULINGS.md lists its rulings as **X1 — …: found {all:?}");
    let mut seen = BTreeSet::new();
    walk(&root.join("src"), &mut seen);
    let uncited: Vec<&String> = all.iter().filter(|r| !seen.contains(*r)).collect();
    assert!(
        uncited.is_empty(),
        "rulings no code cites (add `// RULING X` where each is implemented): {uncited:?}"
    );
}

#[test]
fn a_citation_covers_lists_and_ranges() {
    let mut seen = BTreeSet::new();
    cited("// RULINGS P1-P3, S6 and D13 (RULING W2b).", &mut seen);
    let want = ["D13", "P1", "P2", "P3", "S6", "W2b"];
    assert_eq!(seen, want.iter().map(|s| s.to_string()).collect());
}
