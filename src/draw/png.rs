//! A drawing rendered to PNG with resvg, for the inline picture of a report mail.
//!
//! Fonts (RULING O32): our drawings ask for "DejaVu Sans". The PNGs are written with the two
//! faces bundled with the binary (`assets/fonts/`: DejaVu Sans and DejaVu Sans Bold cut down to
//! the characters our drawings write, kerning kept, renamed "Stationmaster Sans"), which answer
//! for that family and for the generic sans-serif: the same picture on every machine, and a text
//! shaped in a fraction of the time the whole font takes (the shaper prepares every lookup of a
//! font for each text; DejaVu Sans has hundreds). The system's fonts are listed once per
//! process as the fallback for a character the bundled faces lack (a player's name in another
//! script); the system's own DejaVu Sans among them is renamed so that it answers only as that
//! fallback, and its files are read into memory then (the font database would otherwise read a
//! font's file again for every text it shapes).

use resvg::usvg;
use std::sync::{Arc, OnceLock};

/// The bundled faces, regular and bold (see `assets/fonts/LICENSE.txt`, made by
/// `assets/fonts/subset.sh`).
const BUNDLED: [&[u8]; 2] = [
    include_bytes!("../../assets/fonts/StationmasterSans.ttf"),
    include_bytes!("../../assets/fonts/StationmasterSans-Bold.ttf"),
];
const BUNDLED_FAMILY: &str = "Stationmaster Sans";
/// The family our drawings ask for (`draw::svg`).
const DRAWN_FAMILY: &str = "DejaVu Sans";
/// What the system's DejaVu Sans is called in the database: a fallback only.
const SYSTEM_DRAWN_FAMILY: &str = "DejaVu Sans (system)";
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

/// The font database: the bundled faces, answering for the family our drawings ask for and
/// for the generic sans-serif, and (when `system`) the system's fonts as fallbacks.
fn font_database(system: bool) -> usvg::fontdb::Database {
    let mut db = usvg::fontdb::Database::new();
    if system {
        db.load_system_fonts();
        hold_in_memory(&mut db, DRAWN_FAMILY);
    }
    for face in BUNDLED {
        db.load_font_data(face.to_vec());
    }
    let listed: Vec<_> = db.faces().cloned().collect();
    for mut face in listed {
        let ours = face.families.iter().any(|(name, _)| name == BUNDLED_FAMILY);
        let theirs = face.families.iter().any(|(name, _)| name == DRAWN_FAMILY);
        if !ours && !theirs {
            continue;
        }
        let language = face.families.first().map_or(usvg::fontdb::Language::English_UnitedStates, |f| f.1);
        face.families.retain(|(name, _)| name != DRAWN_FAMILY);
        face.families.push((if ours { DRAWN_FAMILY } else { SYSTEM_DRAWN_FAMILY }.to_string(), language));
        db.remove_face(face.id);
        db.push_face_info(face);
    }
    db.set_sans_serif_family(BUNDLED_FAMILY);
    db
}

/// Reads the files of `family`'s faces into memory, once. The font database only lists a system
/// font's file, and reads the whole file again every time text is shaped or outlined in it
/// (issue 38, docs/BENCHMARKS.md). A file that cannot be read stays listed by its path.
fn hold_in_memory(db: &mut usvg::fontdb::Database, family: &str) {
    use usvg::fontdb::Source;
    type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;
    let listed: Vec<_> = db
        .faces()
        .filter(|f| f.families.iter().any(|(name, _)| name == family))
        .filter(|f| matches!(f.source, Source::File(_)))
        .cloned()
        .collect();
    let mut read: Vec<(std::path::PathBuf, Bytes)> = Vec::new();
    for mut face in listed {
        let Source::File(path) = &face.source else { continue };
        let bytes = match read.iter().find(|(p, _)| p == path) {
            Some((_, bytes)) => bytes.clone(),
            None => match std::fs::read(path) {
                Ok(data) => {
                    let bytes: Bytes = Arc::new(data);
                    read.push((path.clone(), bytes.clone()));
                    bytes
                }
                Err(_) => continue,
            },
        };
        db.remove_face(face.id);
        face.source = Source::Binary(bytes);
        db.push_face_info(face);
    }
}

fn system_fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS.get_or_init(|| Arc::new(font_database(true))).clone()
}

/// Renders an SVG document to PNG bytes at its own size (1 px per SVG unit). Nothing is kept
/// here: the server keeps each drawing's PNG under its SHA-256 (`service::pictures`, RULING O24).
pub fn png(svg: &str) -> Result<Vec<u8>, DrawError> {
    render(svg, system_fonts())
}

fn render(svg: &str, fonts: Arc<usvg::fontdb::Database>) -> Result<Vec<u8>, DrawError> {
    let tree = steps::parse_with(svg, fonts)?;
    steps::encode(&steps::raster(&tree)?)
}

/// The steps of [`png`] one by one, for the benchmark that measures where the time goes
/// (`benches/draw_1835.rs`): reading the document (its texts shaped and turned into outlines),
/// rasterising it, encoding the pixels.
pub mod steps {
    use super::{DrawError, MAX_SIDE, system_fonts};
    use resvg::{tiny_skia, usvg};
    use std::sync::Arc;

    /// The document read into a render tree (the fonts loaded once per process).
    pub fn parse(svg: &str) -> Result<usvg::Tree, DrawError> {
        parse_with(svg, system_fonts())
    }

    pub(super) fn parse_with(svg: &str, fonts: Arc<usvg::fontdb::Database>) -> Result<usvg::Tree, DrawError> {
        let options = usvg::Options { fontdb: fonts, ..usvg::Options::default() };
        usvg::Tree::from_str(svg, &options).map_err(|e| DrawError::Svg(e.to_string()))
    }

    /// The tree rasterised at its own size, on white (RULING O28: a picture is on white paper;
    /// a document scaled for mail may leave a sliver under a pixel uncovered at its edge).
    pub fn raster(tree: &usvg::Tree) -> Result<tiny_skia::Pixmap, DrawError> {
        let mut pixmap = blank(tree)?;
        resvg::render(tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Ok(pixmap)
    }

    /// White pixels of the tree's size, to render it on.
    pub(crate) fn blank(tree: &usvg::Tree) -> Result<tiny_skia::Pixmap, DrawError> {
        let size = tree.size().to_int_size();
        white(size.width(), size.height())
    }

    /// White pixels, `width` × `height`, at most [`MAX_SIDE`] a side.
    pub(crate) fn white(width: u32, height: u32) -> Result<tiny_skia::Pixmap, DrawError> {
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(DrawError::TooLarge { width, height });
        }
        let mut pixmap =
            tiny_skia::Pixmap::new(width, height).ok_or(DrawError::TooLarge { width, height })?;
        pixmap.fill(tiny_skia::Color::WHITE);
        Ok(pixmap)
    }

    /// The pixels as PNG (RULING O26): an opaque picture — our drawings have a white ground —
    /// on a palette of at most 256 colours (RULING O35, [`crate::draw::palette`]) with the fast
    /// compression; one of too many colours as RGB with the fastest compression, or the fast one
    /// if it has at most [`FAST_UP_TO`] pixels; one with any transparent pixel as tiny-skia
    /// writes it.
    pub fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, DrawError> {
        let Some(cut) = crate::draw::palette::cut(pixmap.data()) else {
            let pixels = u64::from(pixmap.width()) * u64::from(pixmap.height());
            let small = pixels <= FAST_UP_TO;
            return encode_full_colour(
                pixmap,
                if small { png::Compression::Fast } else { png::Compression::Fastest },
            );
        };
        on_palette(pixmap, &cut, png::Compression::Fast)
    }

    /// The most pixels a full-colour picture may have to be written with the fast compression
    /// (RULING O26 amended in issue 38's fourth session): every byte goes four times through the
    /// mail, but a large picture's fast compression costs more than its bytes.
    pub const FAST_UP_TO: u64 = 1_000_000;

    /// [`encode`] at another compression (for the benchmark's comparison).
    pub fn encode_at(
        pixmap: &tiny_skia::Pixmap,
        compression: png::Compression,
    ) -> Result<Vec<u8>, DrawError> {
        match crate::draw::palette::cut(pixmap.data()) {
            Some(cut) => on_palette(pixmap, &cut, compression),
            None => encode_full_colour(pixmap, compression),
        }
    }

    fn on_palette(
        pixmap: &tiny_skia::Pixmap,
        cut: &crate::draw::palette::Indexed,
        compression: png::Compression,
    ) -> Result<Vec<u8>, DrawError> {
        write(pixmap, compression, png::ColorType::Indexed, Some(cut.palette.clone()), &cut.indices)
    }

    /// [`encode_at`] without a palette: RGB for an opaque picture (for the benchmark's
    /// comparison, and for a picture of too many colours).
    pub fn encode_full_colour(
        pixmap: &tiny_skia::Pixmap,
        compression: png::Compression,
    ) -> Result<Vec<u8>, DrawError> {
        // The colour channels, in one pass that also finds whether every pixel is opaque
        // (premultiplied and straight colour are then the same).
        let rgba = pixmap.data();
        let mut rgb = vec![0u8; rgba.len() / 4 * 3];
        let mut alpha = u8::MAX;
        for (to, p) in rgb.chunks_exact_mut(3).zip(rgba.chunks_exact(4)) {
            to.copy_from_slice(&p[..3]);
            alpha &= p[3];
        }
        if alpha != u8::MAX {
            return pixmap.encode_png().map_err(|e| DrawError::Encode(e.to_string()));
        }
        write(pixmap, compression, png::ColorType::Rgb, None, &rgb)
    }

    /// A PNG of `pixmap`'s size from `data` in `colour` (eight bits a sample).
    fn write(
        pixmap: &tiny_skia::Pixmap,
        compression: png::Compression,
        colour: png::ColorType,
        palette: Option<Vec<u8>>,
        data: &[u8],
    ) -> Result<Vec<u8>, DrawError> {
        let encoding = |e: png::EncodingError| DrawError::Encode(e.to_string());
        let mut out = Vec::with_capacity(data.len() / 8);
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(colour);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(compression);
        if let Some(palette) = palette {
            encoder.set_palette(palette);
        }
        let mut writer = encoder.write_header().map_err(encoding)?;
        writer.write_image_data(data).map_err(encoding)?;
        writer.finish().map_err(encoding)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{El, document};
    use resvg::tiny_skia;

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

    /// The colour type of a PNG.
    fn colour_type(png: &[u8]) -> png::ColorType {
        png::Decoder::new(std::io::Cursor::new(png)).read_info().expect("a PNG").info().color_type
    }

    #[test]
    fn an_opaque_drawing_of_few_colours_is_written_on_a_palette_and_reads_back_pixel_for_pixel() {
        let svg = words();
        let pixmap = steps::raster(&steps::parse(&svg).expect("parses")).expect("rasterises");
        let bytes = png(&svg).expect("renders");
        // RULING O35: at most 256 colours (black text anti-aliased on white), all of them kept.
        assert_eq!(colour_type(&bytes), png::ColorType::Indexed, "one byte a pixel");
        let back = tiny_skia::Pixmap::decode_png(&bytes).expect("decodes");
        assert_eq!(back.data(), pixmap.data(), "the same pixels");
    }

    #[test]
    fn a_picture_of_too_many_colours_is_written_in_full_colour_pixel_for_pixel() {
        let mut pixmap = tiny_skia::Pixmap::new(256, 200).expect("pixels");
        for (i, p) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
            p.copy_from_slice(&[(i % 256) as u8, (i / 256) as u8, (i / 97 % 256) as u8, 255]);
        }
        let bytes = steps::encode(&pixmap).expect("encodes");
        assert_eq!(colour_type(&bytes), png::ColorType::Rgb, "no alpha channel for an opaque picture");
        assert_eq!(tiny_skia::Pixmap::decode_png(&bytes).expect("decodes").data(), pixmap.data());
    }

    #[test]
    fn a_picture_is_rendered_on_white_where_its_document_leaves_it_bare() {
        // RULING O28: a mailed part's viewBox may reach under a pixel past its white ground.
        let bare = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>";
        let pixmap = steps::raster(&steps::parse(bare).expect("parses")).expect("rasterises");
        assert!(pixmap.pixels().iter().all(|p| p.alpha() == 255 && p.red() == 255), "white, opaque");
    }

    #[test]
    fn text_renders_without_any_system_font() {
        let bytes = render(&words(), Arc::new(font_database(false))).expect("renders");
        assert!(inked(&bytes) > 100, "the bundled font draws the text");
        // RULING O32: the system's fonts change nothing in a picture our drawings make.
        assert_eq!(bytes, png(&words()).expect("renders"), "the same picture with the system's fonts");
    }

    #[test]
    fn the_fonts_our_drawings_use_are_held_in_memory_and_the_bundled_faces_answer_for_them() {
        let db = font_database(true);
        let named = |family: &str| -> Vec<_> {
            db.faces().filter(|f| f.families.iter().any(|(n, _)| n == family)).cloned().collect()
        };
        let (drawn, system) = (named(DRAWN_FAMILY), named(SYSTEM_DRAWN_FAMILY));
        assert!(
            drawn.iter().chain(&system).all(|f| matches!(f.source, usvg::fontdb::Source::Binary(_))),
            "no face of {DRAWN_FAMILY} is read from its file at each text"
        );
        // RULING O32: the bundled regular and bold, and nothing else, answer for the family.
        let mut weights: Vec<u16> = drawn.iter().map(|f| f.weight.0).collect();
        weights.sort_unstable();
        assert_eq!(weights, [400, 700]);
        assert!(drawn.iter().all(|f| f.families.iter().any(|(n, _)| n == BUNDLED_FAMILY)));
    }

    #[test]
    fn the_bundled_faces_hold_every_character_our_drawings_write() {
        use usvg::fontdb::{Family, Query, Weight};
        let db = font_database(false);
        // Every character of the engines' drawing code and of the rules' names (a player's own
        // name in another script falls back on the system's fonts).
        let mut written = String::new();
        for dir in ["src/games", "src/draw", "rules"] {
            let mut stack = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    stack.extend(
                        std::fs::read_dir(&path).expect("a directory").map(|e| e.expect("an entry").path()),
                    );
                } else if path.to_string_lossy().contains("/draw") || dir == "rules" {
                    written.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
                }
            }
        }
        for weight in [Weight::NORMAL, Weight::BOLD] {
            let query = Query { families: &[Family::Name(DRAWN_FAMILY)], weight, ..Query::default() };
            let id = db.query(&query).expect("the bundled face answers for the family");
            let missing: std::collections::BTreeSet<char> = db
                .with_face_data(id, |data, index| {
                    use read_fonts::TableProvider;
                    let cmap =
                        read_fonts::FontRef::from_index(data, index).and_then(|f| f.cmap()).expect("a font");
                    written.chars().filter(|c| !c.is_control() && cmap.map_codepoint(*c).is_none()).collect()
                })
                .expect("the face's data");
            assert!(missing.is_empty(), "weight {}: no glyph for {missing:?}", weight.0);
        }
    }

    #[test]
    fn a_broken_or_huge_document_is_an_error_not_a_panic() {
        assert!(matches!(png("<svg"), Err(DrawError::Svg(_))));
        assert!(matches!(png("not svg at all"), Err(DrawError::Svg(_))));
        let huge = document(10_000.0, 10.0, "wide", vec![]);
        assert!(matches!(png(&huge), Err(DrawError::TooLarge { .. })));
    }
}
