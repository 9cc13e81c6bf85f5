//! A report rendered again, matched against the document's copy (RULING O20): the rendering
//! carries markers where a report holds what may rightly differ from a rendering today — the
//! seat link of the old server, the next deadline's words (the GM may have moved it since), the
//! name of a seat's earlier player — and the document's text must be the rendering with each
//! marker replaced by a value of its kind. Everything else must be equal, byte for byte.

use std::collections::BTreeMap;

/// What may stand where a marker is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A seat link of the exporting server: one address, no spaces or quotes.
    Link,
    /// A deadline in words ("Tue 3 Mar 2026, 12:00 UTC").
    Deadline,
    /// A player's name.
    Name,
}

/// A marker in a rendering and the kind of value it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Slot {
    pub marker: String,
    pub kind: Kind,
}

impl Kind {
    /// Whether `value` (as it stands in the text or the HTML) can be one of this kind.
    fn admits(self, value: &str) -> bool {
        let plain = !value.is_empty()
            && !value.contains(['\n', '\r', '<', '>', '"'])
            && !value.contains("://")
            && !value.chars().any(char::is_control);
        match self {
            // The placeholder a report is stored with (RULING P8), or an old server's link.
            Kind::Link => {
                value == crate::service::notices::SEAT_LINK
                    || !value.is_empty()
                        && value.len() <= 500
                        && !value.contains(['"', '\'', '<', '>', '`'])
                        && !value.chars().any(|c| c.is_whitespace() || c.is_control())
            }
            Kind::Deadline => {
                plain
                    && value.len() <= 100
                    && !value.contains('@')
                    && value.starts_with(|c: char| c.is_ascii_uppercase())
            }
            Kind::Name => plain && value.chars().count() <= 200 && !value.contains('@'),
        }
    }
}

/// Matches `actual` against `rendered`: `Ok` with each marker's value when `actual` is
/// `rendered` with every marker replaced by an admissible value (the same value wherever the
/// same marker stands), else `Err` with the first line that differs.
pub(super) fn fit(rendered: &str, slots: &[Slot], actual: &str) -> Result<BTreeMap<String, String>, String> {
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    let mut template = rendered;
    let mut rest = actual;
    loop {
        let next =
            slots.iter().filter_map(|s| template.find(&s.marker).map(|at| (at, s))).min_by_key(|(at, _)| *at);
        let Some((at, slot)) = next else {
            return if template == rest { Ok(values) } else { Err(first_difference(template, actual, rest)) };
        };
        let piece = &template[..at];
        let Some(after) = rest.strip_prefix(piece) else {
            return Err(first_difference(piece, actual, rest));
        };
        template = &template[at + slot.marker.len()..];
        // The value runs to where the rendering's next fixed text begins.
        let following = slots
            .iter()
            .filter_map(|s| template.find(&s.marker))
            .min()
            .map_or(template, |end| &template[..end]);
        let len = if following.is_empty() { Some(after.len()) } else { after.find(following) };
        let value = len.map(|n| &after[..n]).filter(|v| slot.kind.admits(v));
        let Some(value) = value else {
            return Err(format!("where it shows a {:?}: {}", slot.kind, first_line(after)));
        };
        if values.get(&slot.marker).is_some_and(|v| v != value) {
            return Err(format!("a {:?} differs from the same one earlier: {value}", slot.kind));
        }
        values.insert(slot.marker.clone(), value.to_string());
        rest = &after[value.len()..];
    }
}

/// `rendered` with each marker replaced by its value.
pub(super) fn fill(rendered: &str, values: &BTreeMap<String, String>) -> String {
    values.iter().fold(rendered.to_string(), |text, (marker, value)| text.replace(marker.as_str(), value))
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().chars().take(120).collect()
}

/// The first line where `expected` and `rest` (the unmatched end of `whole`) part, as "line N
/// differs: …" with N counted in `whole`.
fn first_difference(expected: &str, whole: &str, rest: &str) -> String {
    let before = whole[..whole.len() - rest.len()].matches('\n').count();
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.split('\n').collect(), rest.split('\n').collect());
    let n = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i)).unwrap_or(0);
    let shown: String = a.get(n).copied().unwrap_or("(nothing)").chars().take(120).collect();
    format!("line {} differs: {shown}", before + n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots() -> Vec<Slot> {
        vec![
            Slot { marker: "@@LINK@@".into(), kind: Kind::Link },
            Slot { marker: "@@DL@@".into(), kind: Kind::Deadline },
            Slot { marker: "@@N1@@".into(), kind: Kind::Name },
        ]
    }

    const RENDERED: &str =
        "Report for @@N1@@\nNext deadline: @@DL@@\nYour order page: @@LINK@@ — or reply.\n";

    #[test]
    fn a_copy_with_other_links_and_deadlines_fits_and_gives_its_values() {
        let actual = "Report for Anna\nNext deadline: Tue 3 Mar 2026, 12:00 UTC\nYour order page: http://old.example/play/ABC — or reply.\n";
        let v = fit(RENDERED, &slots(), actual).unwrap();
        assert_eq!(v["@@LINK@@"], "http://old.example/play/ABC");
        assert_eq!(v["@@DL@@"], "Tue 3 Mar 2026, 12:00 UTC");
        let mut ours = v.clone();
        ours.insert("@@LINK@@".into(), "http://new.example/play/XYZ".into());
        assert!(fill(RENDERED, &ours).contains("page: http://new.example/play/XYZ — or reply"));
    }

    #[test]
    fn a_line_added_anywhere_does_not_fit() {
        let actual = "Report for Anna\nNext deadline: Tue 3 Mar 2026, 12:00 UTC\nYour order page: http://old.example/play/ABC — or reply.\nUrgent: sign in at http://evil.example\n";
        let err = fit(RENDERED, &slots(), actual).unwrap_err();
        assert!(err.contains("line 4 differs"), "{err}");
    }

    #[test]
    fn a_link_smuggled_into_a_deadline_or_a_name_does_not_fit() {
        let actual = "Report for Anna\nNext deadline: Tue, see http://evil.example\nYour order page: http://x/play/A — or reply.\n";
        assert!(fit(RENDERED, &slots(), actual).is_err());
        let actual = "Report for Anna <a@evil.example>\nNext deadline: Tue 3 Mar\nYour order page: http://x/play/A — or reply.\n";
        assert!(fit(RENDERED, &slots(), actual).is_err());
    }

    #[test]
    fn a_rendering_without_markers_must_be_equal() {
        assert!(fit("same\n", &slots(), "same\n").is_ok());
        assert_eq!(fit("same\n", &slots(), "same\nmore\n").unwrap_err(), "line 2 differs: more");
    }
}
