//! A drawing rendered to PNG with resvg, for the inline picture of a report mail.
//!
//! Fonts: the system's fonts are read once per process. Our drawings ask for "DejaVu Sans" and
//! fall back to the generic sans-serif family, which is pointed at DejaVu Sans when the system
//! has it and otherwise at the small font bundled with the binary (`assets/fonts/`, a DejaVu
//! Sans subset renamed "Stationmaster Sans"), so text still renders on a machine without fonts.

use resvg::{tiny_skia, usvg};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};

/// The bundled fallback font (see `assets/fonts/LICENSE.txt`).
const FALLBACK_FONT: &[u8] = include_bytes!("../../assets/fonts/StationmasterSans.ttf");
const FALLBACK_FAMILY: &str = "Stationmaster Sans";
const PREFERRED_FAMILY: &str = "DejaVu Sans";
/// The largest picture rendered, in pixels per side (a drawing is a few hundred to 1,500 px).
const MAX_SIDE: u32 = 4096;

/// A drawing could not be rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error("the drawing is not a valid SVG document: {0}")]
    Svg(String),
    #[error("the drawing is {width} × {height} px, more than {MAX_SIDE} px a side")]
    TooLarge { width: u32, height: u32 },
    #[error("the picture could not be encoded as PNG: {0}")]
    Encode(String),
}

/// The font database: the system's fonts (when `system`) and the bundled fallback, with the
/// generic sans-serif family set to what is there.
fn font_database(system: bool) -> usvg::fontdb::Database {
    let mut db = usvg::fontdb::Database::new();
    if system {
        db.load_system_fonts();
    }
    db.load_font_data(FALLBACK_FONT.to_vec());
    let has = |family: &str| db.faces().any(|f| f.families.iter().any(|(name, _)| name == family));
    let sans = if has(PREFERRED_FAMILY) { PREFERRED_FAMILY } else { FALLBACK_FAMILY };
    db.set_sans_serif_family(sans);
    db
}

fn system_fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| Arc::new(font_database(true))).clone()
}

/// How many recent renderings are kept: a turn's reports often share one drawing (every seat
/// of an 1835 game sees the same table), and are sent one after the other.
const KEPT: usize = 8;

/// Renders an SVG document to PNG bytes at its own size (1 px per SVG unit). The last few
/// renderings are kept by the SHA-256 of the document, so the same drawing is rendered once.
pub fn png(svg: &str) -> Result<Vec<u8>, DrawError> {
    type Kept = Mutex<VecDeque<([u8; 32], Vec<u8>)>>;
    static RECENT: OnceLock<Kept> = OnceLock::new();
    let key: [u8; 32] = Sha256::digest(svg.as_bytes()).into();
    let recent = RECENT.get_or_init(Kept::default);
    if let Some((_, png)) = recent.lock().unwrap_or_else(|e| e.into_inner()).iter().find(|(k, _)| *k == key) {
        return Ok(png.clone());
    }
    let png = render(svg, system_fonts())?;
    let mut kept = recent.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT {
        kept.pop_front();
    }
    kept.push_back((key, png.clone()));
    Ok(png)
}

fn render(svg: &str, fonts: Arc<usvg::fontdb::Database>) -> Result<Vec<u8>, DrawError> {
    let options = usvg::Options { fontdb: fonts, ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| DrawError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(DrawError::TooLarge { width, height });
    }
    let mut pixmap = tiny_skia::Pixmap::new(width, height).ok_or(DrawError::TooLarge { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| DrawError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{El, document};

    /// How many pixels of a PNG are not white.
    fn inked(png: &[u8]) -> usize {
        let pixmap = tiny_skia::Pixmap::decode_png(png).expect("a PNG");
        pixmap.pixels().iter().filter(|p| p.red() < 200 || p.green() < 200 || p.blue() < 200).count()
    }

    fn words() -> String {
        document(200.0, 40.0, "text", vec![El::words(4.0, 28.0, 24.0, "Köln 7♥ Anna")])
    }

    #[test]
    fn a_drawing_renders_to_a_png_of_its_size() {
        let bytes = png(&words()).expect("renders");
        assert!(bytes.starts_with(b"\x89PNG"));
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).expect("decodes");
        assert_eq!((pixmap.width(), pixmap.height()), (200, 40));
        assert!(inked(&bytes) > 100, "the text is drawn");
    }

    #[test]
    fn text_renders_without_any_system_font() {
        let bytes = render(&words(), Arc::new(font_database(false))).expect("renders");
        assert!(inked(&bytes) > 100, "the bundled font draws the text");
    }

    #[test]
    fn a_broken_or_huge_document_is_an_error_not_a_panic() {
        assert!(matches!(png("<svg"), Err(DrawError::Svg(_))));
        assert!(matches!(png("not svg at all"), Err(DrawError::Svg(_))));
        let huge = document(10_000.0, 10.0, "wide", vec![]);
        assert!(matches!(png(&huge), Err(DrawError::TooLarge { .. })));
    }
}
