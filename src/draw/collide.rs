//! The label-collision check of drawings (tests only, issue 36): every text's box, estimated with
//! [`super::text::width`], must lie inside the drawing and must not be covered by a token — a
//! circle the drawing marks `class="token"` (a station token or a city's circle, a chip of
//! pops) — unless the text is that token's own label (its anchor inside the circle). Our writer moves groups only by
//! `translate`, which is all the check follows.

use resvg::usvg::roxmltree::{Document, Node};

/// A text's box: left, top, right, bottom, and the text.
struct TextBox {
    b: [f64; 4],
    anchor: (f64, f64),
    text: String,
}

/// A filled circle: centre and radius.
struct Token {
    c: (f64, f64),
    r: f64,
}

fn num(n: Node<'_, '_>, name: &str) -> f64 {
    n.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(0.0)
}

/// The offset a `transform="translate(x,y)"` adds.
fn translate(n: Node<'_, '_>) -> (f64, f64) {
    let Some(t) = n.attribute("transform").and_then(|t| t.strip_prefix("translate(")) else {
        return (0.0, 0.0);
    };
    let mut it = t.trim_end_matches(')').split([',', ' ']).filter_map(|v| v.parse::<f64>().ok());
    (it.next().unwrap_or(0.0), it.next().unwrap_or(0.0))
}

fn walk(n: Node<'_, '_>, off: (f64, f64), texts: &mut Vec<TextBox>, tokens: &mut Vec<Token>) {
    let (dx, dy) = translate(n);
    let off = (off.0 + dx, off.1 + dy);
    match n.tag_name().name() {
        "text" => {
            let text: String = n.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect();
            let size = num(n, "font-size");
            let bold = n.attribute("font-weight") == Some("bold");
            let w = super::text::width(&text, size, bold);
            let (x, y) = (num(n, "x") + off.0, num(n, "y") + off.1);
            let left = match n.attribute("text-anchor") {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            let anchor = match n.attribute("text-anchor") {
                Some("middle") => (x, y - 0.3 * size),
                _ => (left + w / 2.0, y - 0.3 * size),
            };
            texts.push(TextBox { b: [left, y - 0.76 * size, left + w, y + 0.24 * size], anchor, text });
            return;
        }
        "circle" if n.attribute("class") == Some("token") => {
            tokens.push(Token { c: (num(n, "cx") + off.0, num(n, "cy") + off.1), r: num(n, "r") });
        }
        _ => {}
    }
    for c in n.children().filter(Node::is_element) {
        walk(c, off, texts, tokens);
    }
}

/// What is wrong with the labels of an SVG document: each text off an edge or under a token, in
/// words (empty when every label is clear).
pub fn label_problems(svg: &str) -> Vec<String> {
    let doc = Document::parse(svg).expect("a drawing is XML");
    let root = doc.root_element();
    let (w, h) = (num(root, "width"), num(root, "height"));
    let (mut texts, mut tokens) = (Vec::new(), Vec::new());
    walk(root, (0.0, 0.0), &mut texts, &mut tokens);
    let mut out = Vec::new();
    for t in &texts {
        let [l, top, r, b] = t.b;
        if t.text.trim().is_empty() {
            continue;
        }
        if l < -0.5 || top < -0.5 || r > w + 0.5 || b > h + 0.5 {
            out.push(format!(
                "\"{}\" runs off the edge ({l:.0}..{r:.0} × {top:.0}..{b:.0} in {w:.0} × {h:.0})",
                t.text
            ));
        }
        for k in &tokens {
            let own = (t.anchor.0 - k.c.0).hypot(t.anchor.1 - k.c.1) < k.r;
            let nearest = (k.c.0.clamp(l, r), k.c.1.clamp(top, b));
            let depth = k.r - (nearest.0 - k.c.0).hypot(nearest.1 - k.c.1);
            if !own && depth > 1.0 {
                out.push(format!("\"{}\" lies under a token at ({:.0}, {:.0})", t.text, k.c.0, k.c.1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::label_problems;
    use crate::draw::{El, document};

    #[test]
    fn a_label_under_a_token_or_off_the_edge_is_found_and_a_tokens_own_label_is_not() {
        let clear = document(
            200.0,
            60.0,
            "t",
            vec![
                El::circle(20.0, 20.0, 9.0, "red").attr("class", "token"),
                El::label(20.0, 23.0, 8.0, "BY"),
                El::words(40.0, 24.0, 10.0, "Essen"),
            ],
        );
        assert!(label_problems(&clear).is_empty(), "{:?}", label_problems(&clear));
        let covered = document(
            200.0,
            60.0,
            "t",
            vec![
                El::group(10.0, 0.0).child(El::circle(35.0, 30.0, 9.0, "red").attr("class", "token")),
                El::words(30.0, 34.0, 10.0, "Duisburg Ruhrort"),
            ],
        );
        assert_eq!(label_problems(&covered).len(), 1, "{:?}", label_problems(&covered));
        let off =
            document(100.0, 60.0, "t", vec![El::words(60.0, 30.0, 12.0, "Start packet on sale: everything")]);
        assert!(label_problems(&off)[0].contains("runs off the edge"));
    }
}
