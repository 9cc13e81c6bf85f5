//! A drawing rendered over its printed layer (issue 38, RULING O28): most of a map is the same in
//! every game and every turn — its hexes as printed, their names, costs and terrain — so that
//! layer is rendered once per process and scale, and each drawing renders only its own elements
//! (tiles laid, tokens, headline …) over a copy of it. The PNG is the picture the whole document
//! renders to (a test compares the pixels); the SVG the pages show is the whole document.
//!
//! What a drawing says in its SVG (written by [`super::document_over`] and the drawing code):
//! - its root names the layer under it: `data-under` = the [`DrawingKey`] of the layer's own
//!   document ([`Printed`]), drawn in the same coordinates;
//! - its white ground is marked `data-layer="ground"`;
//! - each top-level element that the layer holds, written alike, is marked
//!   `data-layer="printed"`; every other element covers what of the layer it replaces (a laid
//!   tile's hex is filled over the printed one), so painting it over the layer gives the
//!   picture.
//!
//! Nothing is trusted that can be checked: a drawing naming a layer that is not known here, or
//! marking an element the layer does not hold, is rendered whole. The rasters are kept by the
//! layer's key and the scale, so a drawing is never rendered over another map's or another
//! scale's layer. A layer is the map's printed data only, never a seat's.

use super::pieces::{self, Pieces};
use super::png::steps;
use super::{DrawError, DrawingKey};
use resvg::tiny_skia;
use resvg::usvg::roxmltree;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// The root attribute naming the layer under a drawing.
pub const UNDER: &str = "data-under";
/// The attribute marking a top-level element as the layer's (`printed`) or the ground.
pub const LAYER: &str = "data-layer";
/// How many rasters of layers are kept (a map part as mailed is ≈ 9 MB of pixels).
const KEPT: usize = 4;
/// Scales are compared in steps of this (a scale read back from a document's `viewBox` may
/// differ from another's in its last digits): 1/10,000, under 0.2 px over a 2,000 px picture.
const SCALE_STEP: f64 = 1e-4;

/// One printed layer: a standalone SVG document ([`super::document`]) and its top-level elements.
#[derive(Debug, Clone)]
pub struct Printed {
    key: DrawingKey,
    doc: String,
    elements: HashSet<String>,
}

impl Printed {
    /// The layer drawn by `doc`; `None` when it is not an SVG document.
    pub fn new(doc: String) -> Option<Printed> {
        let elements = {
            let xml = roxmltree::Document::parse(&doc).ok()?;
            xml.root_element()
                .children()
                .filter(|n| n.is_element())
                .map(|n| doc[n.range()].to_string())
                .collect()
        };
        Some(Printed { key: DrawingKey::of(&doc), doc, elements })
    }

    /// The name a drawing gives this layer ([`UNDER`]).
    pub fn key(&self) -> DrawingKey {
        self.key
    }
}

/// A raster of a layer at a scale.
struct Raster {
    key: DrawingKey,
    scale: i64,
    pixmap: Arc<tiny_skia::Pixmap>,
}

/// The printed layers known to a renderer, their rasters (the last [`KEPT`] used), and the
/// rasters of the elements drawings painted over them lately (RULING O34).
pub struct Layers {
    printed: Vec<Printed>,
    rasters: Mutex<Vec<Raster>>,
    pieces: Pieces,
}

/// A drawing split for rendering over its layer.
struct Split<'a, 's> {
    printed: &'a Printed,
    /// The document's scale in [`SCALE_STEP`]s.
    scale: i64,
    /// The document's pixels across and down.
    size: (u32, u32),
    /// The document up to its first element, its own top-level elements (without the ground and
    /// those the layer holds), and what follows its last element.
    head: &'s str,
    elements: Vec<&'s str>,
    tail: &'s str,
}

impl Split<'_, '_> {
    /// The document without the ground and the elements the layer holds.
    fn own(&self) -> String {
        [self.head, &self.elements.concat(), self.tail].concat()
    }
}

impl Layers {
    /// A renderer knowing these layers (documents that do not parse are left out).
    pub fn new(docs: impl IntoIterator<Item = String>) -> Layers {
        Layers::with_budget(docs, pieces::BUDGET)
    }

    /// [`Layers::new`] keeping at most `budget` bytes of the elements' rasters.
    pub fn with_budget(docs: impl IntoIterator<Item = String>, budget: usize) -> Layers {
        Layers {
            printed: docs.into_iter().filter_map(Printed::new).collect(),
            rasters: Mutex::new(Vec::new()),
            pieces: Pieces::new(budget),
        }
    }

    /// The drawing's PNG: rendered over its layer when it names one known here, whole
    /// otherwise; the same picture either way.
    pub fn png(&self, svg: &str) -> Result<Vec<u8>, DrawError> {
        steps::encode(&self.pixmap(svg)?)
    }

    /// The drawing's pixels ([`Layers::png`] before encoding): over its layer, its own elements
    /// painted one by one from their kept rasters where they refer to nothing (RULING O34), as
    /// one document otherwise.
    pub fn pixmap(&self, svg: &str) -> Result<tiny_skia::Pixmap, DrawError> {
        let Some(split) = self.split(svg) else {
            return steps::raster(&steps::parse(svg)?);
        };
        let under = self.raster(split.printed, split.scale)?;
        if Pieces::separable(svg) {
            let mut pixmap = if (under.width(), under.height()) == split.size {
                (*under).clone()
            } else {
                let mut pixmap = steps::white(split.size.0, split.size.1)?;
                copy_over(&under, &mut pixmap);
                pixmap
            };
            self.pieces.paint(split.head, &split.elements, &mut pixmap)?;
            return Ok(pixmap);
        }
        let tree = steps::parse(&split.own())?;
        let mut pixmap = steps::blank(&tree)?;
        copy_over(&under, &mut pixmap);
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        Ok(pixmap)
    }

    /// How many elements were painted from kept rasters and how many rendered (RULING O34).
    pub fn pieces_counts(&self) -> (u64, u64) {
        self.pieces.counts()
    }

    /// Whether `svg` is rendered over a layer (it names a known one and marks only what that
    /// layer holds), not whole.
    pub fn renders_over_layer(&self, svg: &str) -> bool {
        self.split(svg).is_some()
    }

    /// How many layer rasters are kept now (for tests).
    pub fn rasters_kept(&self) -> usize {
        self.rasters.lock().map(|r| r.len()).unwrap_or(0)
    }

    /// The drawing split from its layer, if it names a known one, every element it marks
    /// printed is the layer's, and its scale is the same across and down.
    fn split<'a, 's>(&'a self, svg: &'s str) -> Option<Split<'a, 's>> {
        // Most drawings name no layer: no need to read them twice.
        let root_tag = svg.split_once("<svg")?.1.split_once('>')?.0;
        if !root_tag.contains(UNDER) {
            return None;
        }
        let xml = roxmltree::Document::parse(svg).ok()?;
        let root = xml.root_element();
        let under = DrawingKey::from_hex(root.attribute(UNDER)?)?;
        let printed = self.printed.iter().find(|p| p.key == under)?;
        let scale = uniform_scale(&root)?;
        let pixels = |name: &str| -> Option<u32> {
            // As the renderer sizes a document: its width and height rounded.
            let v = root.attribute(name)?.parse::<f64>().ok()?.round();
            (1.0..=f64::from(u32::MAX)).contains(&v).then_some(v as u32)
        };
        let size = (pixels("width")?, pixels("height")?);
        let children: Vec<_> = root.children().filter(|n| n.is_element()).collect();
        let (first, last) = (children.first()?.range().start, children.last()?.range().end);
        let mut elements = Vec::with_capacity(children.len());
        for c in &children {
            let text = &svg[c.range()];
            match c.attribute(LAYER) {
                Some("ground") => {}
                Some("printed") if printed.elements.contains(text) => {}
                Some("printed") => return None,
                _ => elements.push(text),
            }
        }
        Some(Split { printed, scale, size, head: &svg[..first], elements, tail: &svg[last..] })
    }

    /// The layer's raster at `scale`: kept, or rendered now and kept.
    fn raster(&self, printed: &Printed, scale: i64) -> Result<Arc<tiny_skia::Pixmap>, DrawError> {
        let found = |r: &Raster| r.key == printed.key && r.scale == scale;
        if let Ok(mut kept) = self.rasters.lock()
            && let Some(i) = kept.iter().position(found)
        {
            // The most recently used last.
            let r = kept.remove(i);
            let pixmap = r.pixmap.clone();
            kept.push(r);
            return Ok(pixmap);
        }
        let tree = steps::parse(&printed.doc)?;
        let s = scale as f64 * SCALE_STEP;
        let size = tree.size();
        let (w, h) =
            ((f64::from(size.width()) * s).ceil() as u32, (f64::from(size.height()) * s).ceil() as u32);
        let mut pixmap = steps::white(w, h)?;
        resvg::render(&tree, tiny_skia::Transform::from_scale(s as f32, s as f32), &mut pixmap.as_mut());
        let pixmap = Arc::new(pixmap);
        if let Ok(mut kept) = self.rasters.lock() {
            if !kept.iter().any(found) {
                kept.push(Raster { key: printed.key, scale, pixmap: pixmap.clone() });
            }
            if kept.len() > KEPT {
                kept.remove(0);
            }
        }
        Ok(pixmap)
    }
}

/// The document's pixels per unit of its `viewBox`, in [`SCALE_STEP`]s, when it is the same
/// across and down.
fn uniform_scale(root: &roxmltree::Node<'_, '_>) -> Option<i64> {
    let num = |name: &str| root.attribute(name)?.parse::<f64>().ok().filter(|v| *v > 0.0);
    let (w, h) = (num("width")?, num("height")?);
    let vb: Vec<f64> = root.attribute("viewBox")?.split_whitespace().filter_map(|v| v.parse().ok()).collect();
    let [0.0, 0.0, vw, vh] = vb[..] else { return None };
    let (sx, sy) = ((w / vw / SCALE_STEP).round(), (h / vh / SCALE_STEP).round());
    (sx == sy && sx >= 1.0).then_some(sx as i64)
}

/// `from`'s pixels onto the top left of `to`, as far as both reach (the layer is opaque).
fn copy_over(from: &tiny_skia::Pixmap, to: &mut tiny_skia::Pixmap) {
    let (fw, tw) = (from.width() as usize * 4, to.width() as usize * 4);
    let w = fw.min(tw);
    let rows = from.height().min(to.height()) as usize;
    let (src, dst) = (from.data(), to.data_mut());
    for y in 0..rows {
        dst[y * tw..y * tw + w].copy_from_slice(&src[y * fw..y * fw + w]);
    }
}

impl std::fmt::Debug for Layers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Layers").field("printed", &self.printed.len()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{El, Part, document, document_over};

    fn printed(e: El) -> El {
        e.attr(LAYER, "printed")
    }

    /// A layer: a square of `colour` with a word, both marked printed.
    fn layer(colour: &str) -> String {
        document(
            120.0,
            60.0,
            "layer",
            vec![
                printed(El::rect(10.0, 10.0, 40.0, 40.0, colour)),
                printed(El::words(60.0, 30.0, 12.0, "Köln")),
            ],
        )
    }

    /// A drawing over `layer`: the layer's square and word marked, a disc of its own over the
    /// square; as mailed at `scale`.
    fn drawing(layer: &str, colour: &str, scale: f64) -> String {
        let key = DrawingKey::of(layer);
        let svg = document_over(
            130.0,
            70.0,
            "drawing",
            &key,
            vec![
                printed(El::rect(10.0, 10.0, 40.0, 40.0, colour)),
                El::circle(30.0, 30.0, 12.0, "#1f5fbf"),
                printed(El::words(60.0, 30.0, 12.0, "Köln")),
                El::words(60.0, 50.0, 8.0, "seat 1"),
            ],
        );
        let part = Part { name: "map", title: "The map", svg };
        if scale == 1.0 { part.svg } else { part_at(&part, scale) }
    }

    /// The part's document scaled as [`Part::for_mail`] scales it, by `k`.
    fn part_at(part: &Part, k: f64) -> String {
        let (w, h) = part.size().expect("sized");
        let (w, h) = ((w * k).ceil(), (h * k).ceil());
        crate::draw::part::resized(&part.svg, w, h, Some((w / k, h / k)))
    }

    /// The whole document's pixels, as [`crate::draw::png`] renders them.
    fn whole(svg: &str) -> tiny_skia::Pixmap {
        steps::raster(&steps::parse(svg).expect("parses")).expect("rasterises")
    }

    /// Whether two pictures of the same size are the same but for anti-aliasing: no channel off
    /// by more than 32, and under one channel in 500 off by more than 2.
    fn near(a: &tiny_skia::Pixmap, b: &tiny_skia::Pixmap) -> bool {
        assert_eq!((a.width(), a.height()), (b.width(), b.height()), "the same size");
        let d: Vec<u8> = a.data().iter().zip(b.data()).map(|(x, y)| x.abs_diff(*y)).collect();
        d.iter().all(|d| *d <= 32) && d.iter().filter(|d| **d > 2).count() * 500 < d.len()
    }

    #[test]
    fn a_drawing_over_its_printed_layer_renders_as_the_whole_document() {
        let (red, green) = (layer("#d9463b"), layer("#78b85a"));
        let layers = Layers::new([red.clone(), green.clone()]);
        for (l, colour) in [(&red, "#d9463b"), (&green, "#78b85a")] {
            for scale in [1.0, 1.5, 10.0 / 7.0] {
                let svg = drawing(l, colour, scale);
                assert!(layers.split(&svg).is_some(), "drawn over its layer at {scale}");
                let over = layers.pixmap(&svg).expect("renders");
                assert!(near(&over, &whole(&svg)), "{colour} at {scale}");
            }
        }
    }

    #[test]
    fn the_rasters_are_kept_by_layer_and_scale_so_no_drawing_gets_another_maps_or_scales_layer() {
        let (red, green) = (layer("#d9463b"), layer("#78b85a"));
        let layers = Layers::new([red.clone(), green.clone()]);
        // Red at 1.5, green at 1.5 (the same scale, another layer), red at 2 (another scale):
        // each over its own layer's raster, three kept.
        for (l, colour, scale) in [(&red, "#d9463b", 1.5), (&green, "#78b85a", 1.5), (&red, "#d9463b", 2.0)] {
            let svg = drawing(l, colour, scale);
            let over = layers.pixmap(&svg).expect("renders");
            assert!(near(&over, &whole(&svg)), "{colour} at {scale}");
        }
        assert_eq!(layers.rasters_kept(), 3);
    }

    #[test]
    fn a_drawing_naming_an_unknown_layer_or_marking_what_its_layer_lacks_is_rendered_whole() {
        let (red, green) = (layer("#d9463b"), layer("#78b85a"));
        let layers = Layers::new([red.clone()]);
        // Names the green layer, which this renderer does not know.
        let unknown = drawing(&green, "#78b85a", 1.5);
        // Names the red layer but marks a green square as printed: not the layer's.
        let lying = drawing(&red, "#78b85a", 1.5);
        for svg in [unknown, lying] {
            assert!(layers.split(&svg).is_none());
            assert_eq!(layers.pixmap(&svg).expect("renders").data(), whole(&svg).data(), "rendered whole");
        }
        assert_eq!(layers.rasters_kept(), 0, "no layer was rendered");
    }

    #[test]
    fn a_drawing_painted_from_its_elements_kept_rasters_is_the_picture_of_the_whole_document() {
        let red = layer("#d9463b");
        let layers = Layers::new([red.clone()]);
        for scale in [1.5, 10.0 / 7.0] {
            let svg = drawing(&red, "#d9463b", scale);
            let before = layers.pieces_counts();
            let first = layers.pixmap(&svg).expect("renders");
            let after_first = layers.pieces_counts();
            let again = layers.pixmap(&svg).expect("renders");
            let after_again = layers.pieces_counts();
            assert!(near(&first, &whole(&svg)), "at {scale}");
            assert_eq!(again.data(), first.data(), "at {scale}: the same pixels from the kept rasters");
            // RULING O34: the disc and the seat's word (the title paints nothing); rendered once,
            // then found.
            assert_eq!((after_first.1 - before.1, after_first.0 - before.0), (2, 0), "at {scale}");
            assert_eq!((after_again.1 - after_first.1, after_again.0 - after_first.0), (0, 2), "at {scale}");
        }
    }

    #[test]
    fn an_elements_raster_is_found_only_by_its_own_text_and_its_documents_root() {
        let red = layer("#d9463b");
        let layers = Layers::new([red.clone()]);
        let blue = drawing(&red, "#d9463b", 1.5);
        let green = blue.replace("#1f5fbf", "#2e8b57");
        let larger = drawing(&red, "#d9463b", 2.0);
        for svg in [&blue, &green, &larger] {
            assert!(near(&layers.pixmap(svg).expect("renders"), &whole(svg)));
        }
        let (blue_px, green_px) = (layers.pixmap(&blue).unwrap(), layers.pixmap(&green).unwrap());
        // The disc's centre (30, 30) at 1.5: each drawing its own colour.
        let at = |p: &tiny_skia::Pixmap| p.pixel(45, 45).map(|c| (c.red(), c.green(), c.blue()));
        assert_eq!(at(&blue_px), Some((0x1f, 0x5f, 0xbf)));
        assert_eq!(at(&green_px), Some((0x2e, 0x8b, 0x57)));
        // Blue: 2 rendered; green: its disc (its word found); at 2: 2 more.
        assert_eq!(layers.pieces_counts().1, 2 + 1 + 2);
    }

    #[test]
    fn a_drawing_whose_elements_refer_to_each_other_is_painted_as_one_document() {
        let red = layer("#d9463b");
        let layers = Layers::new([red.clone()]);
        let svg = drawing(&red, "#d9463b", 1.5).replace(
            "<title>",
            "<defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#000\"/></linearGradient></defs><title>",
        );
        assert!(!Pieces::separable(&svg));
        assert!(near(&layers.pixmap(&svg).expect("renders"), &whole(&svg)));
        assert_eq!(layers.pieces_counts(), (0, 0), "no element rendered alone");
    }

    #[test]
    fn the_kept_rasters_stay_within_their_budget() {
        let red = layer("#d9463b");
        let budget = 40_000;
        let layers = Layers::with_budget([red.clone()], budget);
        for i in 0..40 {
            let svg = drawing(&red, "#d9463b", 1.5).replace("#1f5fbf", &format!("#1f5f{:02x}", i));
            assert!(near(&layers.pixmap(&svg).expect("renders"), &whole(&svg)), "drawing {i}");
            assert!(layers.pieces.bytes() <= budget, "drawing {i}: {} bytes kept", layers.pieces.bytes());
        }
        assert!(layers.pieces.bytes() > 0, "some kept");
    }
}
