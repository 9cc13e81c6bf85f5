//! The name of one drawing: the SHA-256 of its SVG document (issue 38). A report mail holds
//! `drawing:<hex>` where its picture goes ([`DrawingKey::src`]); the drawing itself, and its PNG
//! once rendered, are kept once under that name however many mails and pages show it
//! (RULING O24). Two viewers whose pictures differ in anything — a hand, a secret draw — have
//! different documents and so different names: a picture kept for one is never found for the
//! other.

use sha2::{Digest, Sha256};
use std::fmt;

/// The SHA-256 of a drawing's SVG document, as it is mailed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DrawingKey(pub [u8; 32]);

/// What an `<img src="…">` holds in place of a stored drawing.
const SCHEME: &str = "drawing:";

impl DrawingKey {
    /// The name of the drawing `svg`.
    pub fn of(svg: &str) -> Self {
        DrawingKey(Sha256::digest(svg.as_bytes()).into())
    }

    /// The `src` a report's HTML gives the picture: `drawing:` and the hex digest.
    pub fn src(&self) -> String {
        format!("{SCHEME}{self}")
    }

    /// The drawing an `src` value names, if it is one of ours ([`DrawingKey::src`]).
    pub fn from_src(src: &str) -> Option<Self> {
        Self::from_hex(src.strip_prefix(SCHEME)?)
    }

    /// The key written as its hex digest ([`DrawingKey`]'s `Display`), if `hex` is one.
    pub fn from_hex(hex: &str) -> Option<Self> {
        let bytes = data_encoding::HEXLOWER.decode(hex.as_bytes()).ok()?;
        Some(DrawingKey(bytes.try_into().ok()?))
    }

    /// Every drawing an HTML body names in its `src="drawing:…"` attributes, each once, in
    /// order of first appearance.
    pub fn all_in(html: &str) -> Vec<Self> {
        let mut keys: Vec<Self> = Vec::new();
        for (at, m) in html.match_indices("src=\"drawing:") {
            let value = &html[at + m.len() - SCHEME.len()..];
            let Some(end) = value.find('"') else { break };
            if let Some(k) = Self::from_src(&value[..end])
                && !keys.contains(&k)
            {
                keys.push(k);
            }
        }
        keys
    }
}

impl fmt::Display for DrawingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&data_encoding::HEXLOWER.encode(&self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawing_is_named_by_the_sha256_of_its_document_and_read_back_from_its_src() {
        let k = DrawingKey::of("<svg/>");
        assert_eq!(k.to_string().len(), 64);
        assert_eq!(DrawingKey::from_src(&k.src()), Some(k));
        assert_ne!(DrawingKey::of("<svg />"), k, "another document, another name");
        for bad in ["drawing:", "drawing:zz", "data:image/png;base64,AAAA", "drawing:abcd"] {
            assert_eq!(DrawingKey::from_src(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_drawings_of_a_body_are_listed_once_each() {
        let (a, b) = (DrawingKey::of("a"), DrawingKey::of("b"));
        let html = format!(
            "<img src=\"{}\"><img src=\"{}\"><img src=\"{}\"><img src=\"drawing:nope\"><img src=\"x.png\">",
            a.src(),
            b.src(),
            a.src()
        );
        assert_eq!(DrawingKey::all_in(&html), vec![a, b]);
    }
}
