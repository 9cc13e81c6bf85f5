//! A picture in parts a reader can take in at once (issue 36): a large table is drawn as its map,
//! its market, its players' panel … each a standalone SVG document, besides the whole picture.
//! The pages place each part scaled to the page's width; the report mail sends each as an image
//! sized so that its smallest text is readable ([`Part::mail_scale`]).

/// One part of a picture: a standalone SVG document with a name for addresses and a heading.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// A short stable name, for addresses and anchors (`map`, `market`, `players`, `panel`,
    /// `table`).
    pub name: &'static str,
    /// What the part shows, as its heading ("The map").
    pub title: &'static str,
    /// The part as a standalone SVG document.
    pub svg: String,
}

/// The smallest text in a mailed picture, in pixels as the reader's mail program shows it.
pub const MAIL_MIN_TEXT_PX: f64 = 10.0;

impl Part {
    /// The part's size in SVG units (its root's `width` and `height`).
    pub fn size(&self) -> Option<(f64, f64)> {
        root_size(&self.svg)
    }
    /// The smallest `font-size` of its texts, if it has any.
    pub fn smallest_font(&self) -> Option<f64> {
        smallest_font(&self.svg)
    }
    /// How much the part is enlarged for mail: enough that its smallest text is
    /// [`MAIL_MIN_TEXT_PX`] at one image pixel per screen pixel; never shrunk.
    pub fn mail_scale(&self) -> f64 {
        self.smallest_font().map_or(1.0, |f| (MAIL_MIN_TEXT_PX / f).max(1.0))
    }
    /// The part as mailed: its document with the root's width and height multiplied by
    /// [`Part::mail_scale`] and rounded up to whole pixels, and that size. The `viewBox` grows
    /// by the rounding (under a pixel, right and below), so the picture is scaled by exactly
    /// the mail scale across and down, whatever its size — the scale its printed layer is kept
    /// at (RULING O28).
    pub fn for_mail(&self) -> (String, u32, u32) {
        let k = self.mail_scale();
        let (w, h) = self.size().unwrap_or((0.0, 0.0));
        let (w, h) = ((w * k).ceil(), (h * k).ceil());
        (resized(&self.svg, w, h, Some((w / k, h / k))), w as u32, h as u32)
    }
}

/// The root `<svg>` element's opening tag: where it starts and ends in `svg`.
fn root_tag(svg: &str) -> Option<(usize, usize)> {
    let start = svg.find("<svg")?;
    let end = start + svg[start..].find('>')?;
    Some((start, end))
}

/// A numeric attribute's value in a tag (` name="…"`).
fn attr_num(tag: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    tag[at..].split('"').next()?.parse().ok()
}

/// An SVG document's width and height (its root's attributes).
pub fn root_size(svg: &str) -> Option<(f64, f64)> {
    let (s, e) = root_tag(svg)?;
    let tag = &svg[s..e];
    Some((attr_num(tag, "width")?, attr_num(tag, "height")?))
}

/// The smallest `font-size` in a document.
pub fn smallest_font(svg: &str) -> Option<f64> {
    svg.match_indices(" font-size=\"")
        .filter_map(|(i, k)| svg[i + k.len()..].split('"').next()?.parse::<f64>().ok())
        .filter(|f| *f > 0.0)
        .reduce(f64::min)
}

/// The document with its root's width and height set to `w` × `h`, and its `viewBox` to
/// `0 0 vw vh` when given (a root without them is returned as it was).
pub fn resized(svg: &str, w: f64, h: f64, view: Option<(f64, f64)>) -> String {
    let Some((s, e)) = root_tag(svg) else { return svg.to_string() };
    let tag = &svg[s..e];
    let set = |tag: &str, name: &str, v: f64| -> Option<String> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        let len = tag[at..].find('"')?;
        Some(format!("{}{}{}", &tag[..at], super::num(v), &tag[at + len..]))
    };
    let sized = set(tag, "width", w).and_then(|t| set(&t, "height", h));
    let viewed = match view {
        Some((vw, vh)) => sized.and_then(|t| {
            let key = " viewBox=\"";
            let at = t.find(key)? + key.len();
            let len = t[at..].find('"')?;
            Some(format!("{}0 0 {} {}{}", &t[..at], super::num(vw), super::num(vh), &t[at + len..]))
        }),
        None => sized,
    };
    match viewed {
        Some(t) => format!("{}{t}{}", &svg[..s], &svg[e..]),
        None => svg.to_string(),
    }
}

/// The document without the root's `width` and `height`, for a page that sizes it by CSS from
/// its `viewBox` (issue 36: a picture scales to the page, no fixed pixel width).
pub fn fluid(svg: &str) -> String {
    let Some((s, e)) = root_tag(svg) else { return svg.to_string() };
    let mut tag = svg[s..e].to_string();
    for name in ["width", "height"] {
        let key = format!(" {name}=\"");
        if let Some(at) = tag.find(&key)
            && let Some(len) = tag[at + key.len()..].find('"')
        {
            tag.replace_range(at..at + key.len() + len + 1, "");
        }
    }
    format!("{}{tag}{}", &svg[..s], &svg[e..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{El, document};

    fn part(font: f64) -> Part {
        let svg = document(
            200.0,
            40.0,
            "t",
            vec![El::words(4.0, 28.0, font, "Köln"), El::words(4.0, 10.0, 12.0, "x")],
        );
        Part { name: "map", title: "The map", svg }
    }

    #[test]
    fn a_part_with_small_text_is_enlarged_for_mail_until_its_smallest_text_is_ten_pixels() {
        let p = part(8.0);
        assert_eq!(p.smallest_font(), Some(8.0));
        let (svg, w, h) = p.for_mail();
        assert_eq!((w, h), (250, 50));
        assert_eq!(root_size(&svg), Some((250.0, 50.0)));
        assert!(svg.contains("viewBox=\"0 0 200 40\""), "{svg}");
        assert_eq!(part(11.0).for_mail().1, 200, "a part already readable is never shrunk");
    }

    #[test]
    fn a_mailed_part_is_scaled_by_exactly_its_mail_scale_across_and_down() {
        // RULING O28: 203 × 41 at 1.25 is 253.75 × 51.25, rounded up to 254 × 52 px; the
        // viewBox grows to 254 / 1.25 × 52 / 1.25, so the scale stays 1.25 both ways.
        let svg = document(203.0, 41.0, "t", vec![El::words(4.0, 28.0, 8.0, "Köln")]);
        let (svg, w, h) = Part { name: "map", title: "The map", svg }.for_mail();
        assert_eq!((w, h), (254, 52));
        assert!(svg.contains("viewBox=\"0 0 203.2 41.6\""), "{svg}");
    }

    #[test]
    fn a_part_on_a_page_has_a_view_box_and_no_fixed_size() {
        let out = fluid(&part(10.0).svg);
        let root = &out[out.find("<svg").unwrap()..];
        let root = &root[..root.find('>').unwrap()];
        assert!(!root.contains(" width=") && !root.contains(" height="), "{root}");
        assert!(root.contains("viewBox=\"0 0 200 40\""));
        assert!(out.contains("<rect x=\"0\" y=\"0\" width=\"200\""), "children keep theirs");
    }
}
