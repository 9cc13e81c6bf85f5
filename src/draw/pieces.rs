//! The rasters of a drawing's own elements, kept per process (issue 38, RULING O34): a map part
//! is painted over its printed layer ([`super::layers`], RULING O28), and what it paints there —
//! a laid tile's hex with its track, stations and tokens, a label — mostly looks the same from one
//! drawing to the next and from one game to another. Each top-level element is rendered alone,
//! on transparent pixels aligned to the drawing's own pixel grid, and kept by its exact text and
//! the document's root (size, scale, inherited font); a drawing is then painted element by
//! element, in document order, from the kept rasters or, for an element not seen before,
//! rendering it now.
//!
//! Painting a kept raster over the canvas is painting the element there (source-over is
//! associative): the picture is the whole document's but for the rounding of anti-aliased edges
//! (the tests compare the pixels). An element is found only by its own text, so a raster is never
//! another element's, another drawing size's or another scale's; a drawing whose elements refer
//! to each other (`url(#…)`, `<use>`, `<style>`, `<defs>`) is not painted this way.

use super::DrawError;
use super::png::steps;
use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The bytes of pixels kept at most (≈ 1,800 hexes of an 1835 map part as mailed).
pub const BUDGET: usize = 64 << 20;
/// An element whose raster would take more than this is painted without keeping it (a frame
/// around the whole picture is not worth keeping).
const LARGEST: usize = 1 << 20;
/// Pixels added around an element's bounds for its anti-aliased edge.
const PAD: f32 = 2.0;

/// One element's raster, and where its top left goes on the canvas.
struct Piece {
    x: i32,
    y: i32,
    pixmap: tiny_skia::Pixmap,
}

/// A kept element: its raster (`None` when it paints nothing, e.g. a `<title>`), and when it
/// was last used.
struct Kept {
    piece: Option<Arc<Piece>>,
    used: u64,
}

/// The rasters kept, their bytes, a clock of uses, and how many were found or rendered.
#[derive(Default)]
struct Store {
    kept: HashMap<String, Kept>,
    bytes: usize,
    clock: u64,
    found: u64,
    rendered: u64,
}

/// The rasters of elements painted lately, at most a budget of bytes (the least recently used
/// go first).
pub struct Pieces {
    store: Mutex<Store>,
    budget: usize,
}

impl Pieces {
    /// An empty store keeping at most `budget` bytes of pixels.
    pub fn new(budget: usize) -> Pieces {
        Pieces { store: Mutex::new(Store::default()), budget }
    }

    /// Whether a drawing's elements can be painted one by one: none refers to another.
    pub fn separable(svg: &str) -> bool {
        !["url(#", "<use", "<style", "<defs", "href="].iter().any(|s| svg.contains(s))
    }

    /// Paints `elements` (top-level elements of a document whose text up to its first element
    /// is `head`) in order over `canvas`, from their kept rasters, those not kept rendered now —
    /// all of them from one reading of a document that holds just them.
    pub fn paint(
        &self,
        head: &str,
        elements: &[&str],
        canvas: &mut tiny_skia::Pixmap,
    ) -> Result<(), DrawError> {
        // Each element's raster if kept (`Some`), or `None` to render; what paints nothing is left out.
        let painted: Vec<&str> = elements
            .iter()
            .copied()
            .filter(|e| !["<title", "<desc", "<metadata"].iter().any(|t| e.starts_with(t)))
            .collect();
        let mut kept: Vec<Option<Option<Arc<Piece>>>> =
            painted.iter().map(|e| self.find(&[head, e].concat())).collect();
        let missing: Vec<usize> = (0..painted.len()).filter(|&i| kept[i].is_none()).collect();
        if let Ok(mut store) = self.store.lock() {
            store.rendered += missing.len() as u64;
        }
        let tree = if missing.is_empty() {
            None
        } else {
            let mut doc = String::from(head);
            for &i in &missing {
                doc.push_str(&format!("<g id=\"{}\">", piece_id(i)));
                doc.push_str(painted[i]);
                doc.push_str("</g>");
            }
            doc.push_str("</svg>");
            Some(steps::parse(&doc)?)
        };
        let size = (canvas.width(), canvas.height());
        for (i, element) in painted.iter().enumerate() {
            let piece = match (kept[i].take(), &tree) {
                (Some(piece), _) => piece,
                (None, Some(tree)) => match cut(tree, i, size)? {
                    Cut::Piece(piece) => {
                        self.keep([head, element].concat(), piece.clone());
                        piece
                    }
                    Cut::Large(node, transform) => {
                        resvg::render_node(node, transform, &mut canvas.as_mut());
                        continue;
                    }
                },
                (None, None) => None,
            };
            if let Some(p) = piece {
                paint_over(&p, canvas);
            }
        }
        Ok(())
    }

    /// How many elements were found kept and how many rendered, since the start.
    pub fn counts(&self) -> (u64, u64) {
        self.store.lock().map(|s| (s.found, s.rendered)).unwrap_or((0, 0))
    }

    /// The bytes of pixels kept now.
    pub fn bytes(&self) -> usize {
        self.store.lock().map(|s| s.bytes).unwrap_or(0)
    }

    fn find(&self, key: &str) -> Option<Option<Arc<Piece>>> {
        let mut store = self.store.lock().ok()?;
        store.clock += 1;
        let now = store.clock;
        let piece = store.kept.get_mut(key).map(|k| {
            k.used = now;
            k.piece.clone()
        });
        if piece.is_some() {
            store.found += 1;
        }
        piece
    }

    /// Keeps a raster, and lets the least recently used go while over the budget.
    fn keep(&self, key: String, piece: Option<Arc<Piece>>) {
        let Ok(mut store) = self.store.lock() else { return };
        store.clock += 1;
        let used = store.clock;
        let bytes = size_of(&piece) + key.len();
        if let Some(old) = store.kept.insert(key.clone(), Kept { piece, used }) {
            store.bytes -= size_of(&old.piece) + key.len();
        }
        store.bytes += bytes;
        if store.bytes > self.budget {
            // Down to three quarters of the budget at once, so this sort is rare.
            let mut by_use: Vec<(u64, String)> =
                store.kept.iter().map(|(k, v)| (v.used, k.clone())).collect();
            by_use.sort_unstable();
            for (_, k) in by_use {
                if store.bytes <= self.budget / 4 * 3 {
                    break;
                }
                if let Some(old) = store.kept.remove(&k) {
                    store.bytes -= size_of(&old.piece) + k.len();
                }
            }
        }
    }
}

/// The id of the group that holds element `i` in the document of the elements to render.
fn piece_id(i: usize) -> String {
    format!("stationmaster-piece-{i}")
}

/// An element rendered alone from the document of the elements to render.
enum Cut<'t> {
    /// Its raster, on transparent pixels over its bounds on the canvas's grid (`None`: it
    /// paints nothing).
    Piece(Option<Arc<Piece>>),
    /// Too large to keep: its node and the transform that paints it straight onto the canvas.
    Large(&'t usvg::Node, tiny_skia::Transform),
}

/// Renders element `i` of `tree` (the document of the elements to render, each in its group)
/// alone, aligned to the pixel grid of a canvas of `size`.
fn cut(tree: &usvg::Tree, i: usize, size: (u32, u32)) -> Result<Cut<'_>, DrawError> {
    let Some(node) = tree.node_by_id(&piece_id(i)) else { return Ok(Cut::Piece(None)) };
    let Some(b) = node.abs_layer_bounding_box() else { return Ok(Cut::Piece(None)) };
    // resvg paints a node moved by minus its bounds' corner in its own units: put it back, under
    // the transform of the group that holds it (the document's scale), then move it by (-x, -y).
    let placed = |x: f32, y: f32| {
        tiny_skia::Transform::from_translate(-x, -y)
            .pre_concat(node.abs_transform())
            .pre_translate(b.x(), b.y())
    };
    let (cw, ch) = (size.0 as i32, size.1 as i32);
    let x0 = ((b.left() - PAD).floor() as i32).clamp(0, cw);
    let y0 = ((b.top() - PAD).floor() as i32).clamp(0, ch);
    let x1 = ((b.right() + PAD).ceil() as i32).clamp(0, cw);
    let y1 = ((b.bottom() + PAD).ceil() as i32).clamp(0, ch);
    let (w, h) = ((x1 - x0) as u32, (y1 - y0) as u32);
    if w == 0 || h == 0 {
        return Ok(Cut::Piece(None));
    }
    if (w as usize) * (h as usize) * 4 > LARGEST {
        return Ok(Cut::Large(node, placed(0.0, 0.0)));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or(DrawError::TooLarge { width: w, height: h })?;
    resvg::render_node(node, placed(x0 as f32, y0 as f32), &mut pixmap.as_mut());
    Ok(Cut::Piece(Some(Arc::new(Piece { x: x0, y: y0, pixmap }))))
}

/// Paints a raster over the canvas where it goes: premultiplied source-over, each channel
/// `src + dst × (255 − src alpha) / 255` rounded (tiny-skia's own `draw_pixmap` takes its
/// general pattern pipeline in floating point, several times slower for this). A raster is
/// always within its canvas: it was cut to a canvas of the same size (its key holds the size).
fn paint_over(piece: &Piece, canvas: &mut tiny_skia::Pixmap) {
    let (cw, ch) = (canvas.width() as usize, canvas.height() as usize);
    let (x, y) = (piece.x.max(0) as usize, piece.y.max(0) as usize);
    let pw = (piece.pixmap.width() as usize).min(cw.saturating_sub(x));
    let rows = (piece.pixmap.height() as usize).min(ch.saturating_sub(y));
    let stride = piece.pixmap.width() as usize * 4;
    let (src, dst) = (piece.pixmap.data(), canvas.data_mut());
    for row in 0..rows {
        let s = &src[row * stride..row * stride + pw * 4];
        let at = ((y + row) * cw + x) * 4;
        let d = &mut dst[at..at + pw * 4];
        for (s, d) in s.chunks_exact(4).zip(d.chunks_exact_mut(4)) {
            match s[3] {
                0 => {}
                255 => d.copy_from_slice(s),
                a => {
                    let keep = 255 - u32::from(a);
                    for (d, s) in d.iter_mut().zip(s) {
                        *d = s.saturating_add(div255(u32::from(*d) * keep));
                    }
                }
            }
        }
    }
}

/// `v / 255` rounded, for `v` up to 255 × 255.
fn div255(v: u32) -> u8 {
    let v = v + 128;
    ((v + (v >> 8)) >> 8) as u8
}

fn size_of(piece: &Option<Arc<Piece>>) -> usize {
    piece.as_ref().map_or(0, |p| p.pixmap.data().len())
}

impl std::fmt::Debug for Pieces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pieces").field("bytes", &self.bytes()).field("budget", &self.budget).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dividing_by_255_rounds_as_exact_arithmetic_does() {
        for v in 0..=255 * 255u32 {
            assert_eq!(u32::from(div255(v)), (v * 2 + 255) / 510, "{v}");
        }
    }

    #[test]
    fn a_raster_is_painted_over_its_place_source_over() {
        let mut canvas = tiny_skia::Pixmap::new(4, 3).expect("pixmap");
        canvas.fill(tiny_skia::Color::from_rgba8(200, 100, 50, 255));
        let mut pixmap = tiny_skia::Pixmap::new(2, 2).expect("pixmap");
        let px = pixmap.data_mut();
        px[..4].copy_from_slice(&[10, 20, 30, 255]); // opaque: replaces
        px[4..8].copy_from_slice(&[0, 0, 0, 0]); // transparent: leaves
        px[8..12].copy_from_slice(&[64, 0, 0, 128]); // half: premultiplied red over
        let piece = Piece { x: 1, y: 1, pixmap };
        paint_over(&piece, &mut canvas);
        let at = |x: usize, y: usize| canvas.data()[(y * 4 + x) * 4..(y * 4 + x) * 4 + 4].to_vec();
        assert_eq!(at(0, 0), vec![200, 100, 50, 255], "outside the raster");
        assert_eq!(at(1, 1), vec![10, 20, 30, 255]);
        assert_eq!(at(2, 1), vec![200, 100, 50, 255]);
        // 64 + 200 × 127 / 255 = 163.6; 100 × 127 / 255 = 49.8; 50 × 127 / 255 = 24.9; alpha 255.
        assert_eq!(at(1, 2), vec![164, 50, 25, 255]);
    }
}
