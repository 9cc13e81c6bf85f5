//! The SVG element builder: elements with attributes, children and text, written out with every
//! attribute value and text escaped.

use std::fmt::{self, Display, Write};
use std::sync::Arc;

/// One SVG element: its name, attributes in the order given, and children. Attributes and text
/// are escaped as they are added and kept as the document's text (a drawing adds hundreds of
/// thousands of them in a test run: one buffer per element, not a string per value).
#[derive(Debug, Clone, PartialEq)]
pub struct El {
    name: &'static str,
    /// ` name="value"` for each attribute, escaped.
    attrs: String,
    children: Vec<Node>,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    El(El),
    /// Escaped text.
    Text(String),
    /// An element written out earlier ([`Fragment`]).
    Done(Arc<str>),
}

/// An element already written out, to be placed in many documents: the part of a picture every
/// viewer sees alike (a map with its pieces) is drawn once per state and placed in each viewer's
/// picture. Only [`El::finish`] makes one, so a fragment is markup this writer wrote and escaped,
/// never text from outside. Cloning it shares the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment(Arc<str>);

/// Escapes whatever is formatted into it onto a string.
struct Escaping<'a>(&'a mut String);

impl Write for Escaping<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        escape(s, self.0);
        Ok(())
    }
}

/// A number as SVG wants it: at most two decimals, no trailing zeros, never `-0`.
pub fn num(x: f64) -> String {
    let mut out = String::new();
    push_num(x, &mut out);
    out
}

/// [`num`] written onto `out`. Drawings write tens of thousands of numbers, so this works on the
/// rounded hundredths as an integer instead of formatting a float (the same text: the nearest
/// double to k/100 always prints as k's digits at two decimals).
fn push_num(x: f64, out: &mut String) {
    let hundredths = (x * 100.0).round();
    if !hundredths.is_finite() || hundredths == 0.0 {
        out.push('0');
        return;
    }
    if hundredths.abs() >= 1e15 {
        // Beyond exact integers in f64 hundredths: the float path.
        let s = format!("{:.2}", hundredths / 100.0);
        out.push_str(s.trim_end_matches('0').trim_end_matches('.'));
        return;
    }
    // Exact: |hundredths| < 1e15 < 2^63.
    let k = hundredths as i64;
    if k < 0 {
        out.push('-');
    }
    let (whole, frac) = (k.unsigned_abs() / 100, k.unsigned_abs() % 100);
    push_digits(whole, out);
    if frac != 0 {
        out.push('.');
        out.push(char::from(b'0' + (frac / 10) as u8));
        if frac % 10 != 0 {
            out.push(char::from(b'0' + (frac % 10) as u8));
        }
    }
}

/// `n` in decimal onto `out` (without the formatting machinery: drawings write tens of thousands).
fn push_digits(mut n: u64, out: &mut String) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

impl El {
    /// An empty element.
    pub fn new(name: &'static str) -> El {
        El { name, attrs: String::new(), children: Vec::new() }
    }
    /// Adds an attribute (its value escaped).
    pub fn attr(mut self, name: &'static str, value: impl AsRef<str>) -> El {
        self.attrs.push(' ');
        self.attrs.push_str(name);
        self.attrs.push_str("=\"");
        escape(value.as_ref(), &mut self.attrs);
        self.attrs.push('"');
        self
    }
    /// Adds a numeric attribute, written with [`num`].
    pub fn n(mut self, name: &'static str, value: f64) -> El {
        self.attrs.push(' ');
        self.attrs.push_str(name);
        self.attrs.push_str("=\"");
        push_num(value, &mut self.attrs);
        self.attrs.push('"');
        self
    }
    /// Adds a child element.
    pub fn child(mut self, child: El) -> El {
        self.children.push(Node::El(child));
        self
    }
    /// Adds a child element in place (for loops).
    pub fn push(&mut self, child: El) {
        self.children.push(Node::El(child));
    }
    /// Adds text content (escaped).
    pub fn text(mut self, text: impl Display) -> El {
        let mut escaped = String::new();
        let _ = write!(Escaping(&mut escaped), "{text}");
        self.children.push(Node::Text(escaped));
        self
    }

    /// A rectangle.
    pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str) -> El {
        El::new("rect").n("x", x).n("y", y).n("width", w).n("height", h).attr("fill", fill)
    }
    /// A circle.
    pub fn circle(cx: f64, cy: f64, r: f64, fill: &str) -> El {
        El::new("circle").n("cx", cx).n("cy", cy).n("r", r).attr("fill", fill)
    }
    /// A straight line.
    pub fn line(a: (f64, f64), b: (f64, f64), stroke: &str, width: f64) -> El {
        El::new("line")
            .n("x1", a.0)
            .n("y1", a.1)
            .n("x2", b.0)
            .n("y2", b.1)
            .attr("stroke", stroke)
            .n("stroke-width", width)
    }
    /// A text at (x, y) of `size` px, anchored at its middle.
    pub fn label(x: f64, y: f64, size: f64, text: impl Display) -> El {
        El::new("text").n("x", x).n("y", y).n("font-size", size).attr("text-anchor", "middle").text(text)
    }
    /// A text at (x, y) of `size` px, starting there.
    pub fn words(x: f64, y: f64, size: f64, text: impl Display) -> El {
        El::new("text").n("x", x).n("y", y).n("font-size", size).text(text)
    }
    /// A closed polygon through the points.
    pub fn polygon(points: &[(f64, f64)], fill: &str) -> El {
        let mut pts = String::with_capacity(points.len() * 12);
        for (i, (x, y)) in points.iter().enumerate() {
            if i > 0 {
                pts.push(' ');
            }
            push_num(*x, &mut pts);
            pts.push(',');
            push_num(*y, &mut pts);
        }
        El::new("polygon").attr("points", pts).attr("fill", fill)
    }
    /// The element written out once, to be placed in many documents with [`El::fragment`].
    pub fn finish(&self) -> Fragment {
        let mut out = String::with_capacity(32 * 1024);
        self.write(&mut out);
        Fragment(out.into())
    }
    /// A fragment placed as it was written (an element with no markup of its own).
    pub fn fragment(f: &Fragment) -> El {
        El { name: "", attrs: String::new(), children: vec![Node::Done(f.0.clone())] }
    }
    /// A group moved by (dx, dy).
    pub fn group(dx: f64, dy: f64) -> El {
        El::new("g").attr("transform", format!("translate({},{})", num(dx), num(dy)))
    }

    fn write(&self, out: &mut String) {
        if self.name.is_empty() {
            // A placed fragment: its markup only.
            self.write_children(out);
            return;
        }
        out.push('<');
        out.push_str(self.name);
        out.push_str(&self.attrs);
        if self.children.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        self.write_children(out);
        out.push_str("</");
        out.push_str(self.name);
        out.push('>');
    }

    fn write_children(&self, out: &mut String) {
        for c in &self.children {
            match c {
                Node::El(e) => e.write(out),
                Node::Text(t) => out.push_str(t),
                Node::Done(t) => out.push_str(t),
            }
        }
    }
}

impl Extend<El> for El {
    fn extend<I: IntoIterator<Item = El>>(&mut self, children: I) {
        self.children.extend(children.into_iter().map(Node::El));
    }
}

impl Display for El {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

/// Escapes text or an attribute value; drops characters XML does not allow at all.
fn escape(s: &str, out: &mut String) {
    // Most values need nothing: one pass over the bytes, then a copy. 0xEF starts U+FFFE/U+FFFF.
    let plain = |b: u8| b >= b' ' && !matches!(b, b'<' | b'>' | b'&' | b'"' | b'\'' | 0xEF);
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() && plain(bytes[i]) {
        i += 1;
    }
    if i == bytes.len() {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

/// A standalone SVG document `width` × `height` px with a white background, a title (for
/// screen readers and as the picture's text alternative) and the body.
pub fn document(width: f64, height: f64, title: &str, body: Vec<El>) -> String {
    standalone(width, height, title, None, body)
}

/// A [`document`] drawn over a printed layer (RULING O28, [`super::layers`]): its root names the
/// layer by the key of the layer's own document, and its white ground is marked as such. The
/// caller marks the elements the layer holds.
pub fn document_over(
    width: f64,
    height: f64,
    title: &str,
    under: &super::DrawingKey,
    body: Vec<El>,
) -> String {
    standalone(width, height, title, Some(under), body)
}

fn standalone(
    width: f64,
    height: f64,
    title: &str,
    under: Option<&super::DrawingKey>,
    body: Vec<El>,
) -> String {
    let mut root = El::new("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .n("width", width)
        .n("height", height)
        .attr("viewBox", format!("0 0 {} {}", num(width), num(height)))
        .attr("font-family", "DejaVu Sans, Verdana, sans-serif");
    let mut ground = El::rect(0.0, 0.0, width, height, "#ffffff");
    if let Some(key) = under {
        root = root.attr(super::layers::UNDER, key.to_string());
        ground = ground.attr(super::layers::LAYER, "ground");
    }
    let mut svg = root.child(El::new("title").text(title)).child(ground);
    for e in body {
        svg.push(e);
    }
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    svg.write(&mut out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        let e = El::new("text").attr("data-x", "a\"><script>").text("Anna <b>&</b> 'Bo'");
        assert_eq!(
            e.to_string(),
            "<text data-x=\"a&quot;&gt;&lt;script&gt;\">Anna &lt;b&gt;&amp;&lt;/b&gt; &#39;Bo&#39;</text>"
        );
    }

    #[test]
    fn control_characters_never_reach_the_document() {
        let e = El::new("text").text("a\u{0}b\u{1b}c\nd");
        assert_eq!(e.to_string(), "<text>abc d</text>");
    }

    #[test]
    fn numbers_keep_two_decimals_at_most() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.256), "1.26");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(-3.07), "-3.07");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(1e20), "100000000000000000000");
    }

    proptest::proptest! {
        #[test]
        fn numbers_are_written_as_two_decimal_formatting_writes_them(x in -1.0e7f64..1.0e7) {
            // The float formatting the integer path replaces, as it was.
            let r = (x * 100.0).round() / 100.0;
            let r = if r == 0.0 || !r.is_finite() { 0.0 } else { r };
            let s = format!("{r:.2}");
            proptest::prop_assert_eq!(num(x), s.trim_end_matches('0').trim_end_matches('.'));
        }
    }

    #[test]
    fn a_fragment_placed_in_a_document_writes_what_the_element_would_have() {
        let board = El::group(0.0, 30.0).child(El::words(1.0, 2.0, 8.0, "Anna <&> Bo"));
        let placed = document(10.0, 20.0, "t", vec![El::fragment(&board.finish())]);
        assert_eq!(placed, document(10.0, 20.0, "t", vec![board]));
        assert!(placed.contains("Anna &lt;&amp;&gt; Bo"), "{placed}");
    }

    #[test]
    fn a_document_is_standalone_svg_with_a_title() {
        let doc = document(10.0, 20.0, "The <table>", vec![El::circle(1.0, 2.0, 3.0, "red")]);
        assert!(doc.starts_with("<?xml"));
        assert!(doc.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(doc.contains("<title>The &lt;table&gt;</title>"));
        assert!(doc.contains("<circle cx=\"1\" cy=\"2\" r=\"3\" fill=\"red\"/>"));
    }
}
