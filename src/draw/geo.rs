//! Maps drawn from places given by longitude and latitude (issue 16): a layout file's entries
//! ([`Place`]), checked against the names the game's map gives them — every name once, none
//! unknown, degrees in range — and projected to the drawing's pixels ([`Projection`]). A file
//! that fails a check is a [`LayoutError`] naming the file and the entry. Each game's drawing
//! reads its own `rules/<game>/layout.toml` ([`LayoutFile`]: two groups of places under the
//! game's own keys) and hands it here to be laid out ([`lay_out`]) as a [`Layout`].

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// One entry of a layout file: a name of the game's map and where it lies.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub name: String,
    pub lon: f64,
    pub lat: f64,
}

/// A layout file could not be used: which file, which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct LayoutError {
    /// The file, as the repository names it (`rules/1800/layout.toml`).
    pub file: &'static str,
    /// The entry at fault (`province "Wales"`), or empty for the whole file.
    pub entry: String,
    /// What is wrong, in words.
    pub msg: String,
}

/// How degrees become pixels: latitude at `scale` px a degree, longitude shrunk by the cosine
/// of the map's middle latitude (`lon_shrink`), `pad` px around the outermost places.
#[derive(Debug, Clone, Copy)]
pub struct Projection {
    pub scale: f64,
    pub lon_shrink: f64,
    pub pad: f64,
}

/// One kind of place in a layout: its word in errors (`"station"`), the file's entries, and the
/// names the map gives that kind, in the map's order.
pub struct Group<'a> {
    pub what: &'a str,
    pub places: &'a [Place],
    pub known: &'a [&'a str],
}

/// The groups placed: for each group, each known name's pixel position in the map's order; and
/// the map's width and height.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub groups: Vec<Vec<(f64, f64)>>,
    pub width: f64,
    pub height: f64,
}

impl Projection {
    /// Checks every group against its known names and projects them all onto one map.
    pub fn place(&self, file: &'static str, groups: &[Group]) -> Result<Placed, LayoutError> {
        let checked = groups.iter().map(|g| by_name(file, g)).collect::<Result<Vec<_>, _>>()?;
        let all: Vec<&Place> = checked.iter().flat_map(|m| m.values().copied()).collect();
        let min_lon = all.iter().map(|p| p.lon).fold(f64::INFINITY, f64::min);
        let max_lon = all.iter().map(|p| p.lon).fold(f64::NEG_INFINITY, f64::max);
        let min_lat = all.iter().map(|p| p.lat).fold(f64::INFINITY, f64::min);
        let max_lat = all.iter().map(|p| p.lat).fold(f64::NEG_INFINITY, f64::max);
        let at = |p: &Place| {
            (
                self.pad + (p.lon - min_lon) * self.lon_shrink * self.scale,
                self.pad + (max_lat - p.lat) * self.scale,
            )
        };
        let groups = groups
            .iter()
            .zip(&checked)
            .map(|(g, placed)| g.known.iter().filter_map(|n| placed.get(n)).map(|p| at(p)).collect())
            .collect();
        Ok(Placed {
            groups,
            width: 2.0 * self.pad + (max_lon - min_lon) * self.lon_shrink * self.scale,
            height: 2.0 * self.pad + (max_lat - min_lat) * self.scale,
        })
    }
}

/// A game's layout file, in its own TOML keys: marked a reconstruction or not, and its places in
/// two groups (the map's stations or provinces, then its entry points or sea zones).
pub trait LayoutFile: serde::de::DeserializeOwned + Send + Sync + 'static {
    /// The file, as errors name it (`rules/1800/layout.toml`).
    const FILE: &'static str;
    /// How the file's degrees become the drawing's pixels.
    const PROJECTION: Projection;
    /// Whether the file says it is a reconstruction.
    fn reconstructed(&self) -> bool;
    /// The entries of the two groups, in the order of [`Layout::first`] and [`Layout::second`].
    fn groups(&self) -> [&[Place]; 2];
}

/// A map of two kinds of place laid out, in px from the map's top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The file says it is a reconstruction.
    pub reconstructed: bool,
    /// The first group (stations, provinces), by the map's order.
    pub first: Vec<(f64, f64)>,
    /// The second group (entry points, sea zones), by the map's order.
    pub second: Vec<(f64, f64)>,
    /// The map's width and height.
    pub width: f64,
    pub height: f64,
}

/// An engine's layout, placed on its first drawing and kept for every later one (placing checks
/// every name of the file against the map: a tenth of a drawing's time). Clones share it.
#[derive(Debug, Clone, Default)]
pub struct LayoutCell(Arc<OnceLock<Result<Layout, LayoutError>>>);

impl LayoutCell {
    /// The layout, placed by `place` on the first call; a failure is kept and given again.
    pub fn get(&self, place: impl FnOnce() -> Result<Layout, LayoutError>) -> Result<&Layout, &LayoutError> {
        self.0.get_or_init(place).as_ref()
    }
}

/// The layout file in `text` (a whole-file error names [`LayoutFile::FILE`]).
pub fn read<F: LayoutFile>(text: &str) -> Result<F, LayoutError> {
    parse(F::FILE, text)
}

/// The shipped file `text`, read once into `cell`.
pub fn shipped<F: LayoutFile>(
    cell: &'static OnceLock<Result<F, LayoutError>>,
    text: &str,
) -> Result<&'static F, LayoutError> {
    cell.get_or_init(|| read(text)).as_ref().map_err(Clone::clone)
}

/// The file's two groups checked against the names the map gives each kind (`(the kind's word in
/// errors, its names in the map's order)`, in the order of [`LayoutFile::groups`]) and projected
/// onto one map.
pub fn lay_out<F: LayoutFile>(file: &F, kinds: [(&str, &[&str]); 2]) -> Result<Layout, LayoutError> {
    let groups = file.groups();
    let groups = [0, 1].map(|i| Group { what: kinds[i].0, places: groups[i], known: kinds[i].1 });
    let placed = F::PROJECTION.place(F::FILE, &groups)?;
    // One list per group, in the groups' order.
    let mut groups = placed.groups.into_iter();
    let (first, second) = (groups.next().unwrap_or_default(), groups.next().unwrap_or_default());
    Ok(Layout {
        reconstructed: file.reconstructed(),
        first,
        second,
        width: placed.width,
        height: placed.height,
    })
}

/// A layout file's text as `T`, or the parser's reason as a [`LayoutError`] for the whole file.
pub fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, LayoutError> {
    toml::from_str(text).map_err(|e| LayoutError { file, entry: String::new(), msg: e.to_string() })
}

/// Each of the group's places by the name the map gives it: every name once, every name known,
/// in range.
fn by_name<'a>(file: &'static str, g: &Group<'a>) -> Result<BTreeMap<&'a str, &'a Place>, LayoutError> {
    let what = g.what;
    let err = |entry: String, msg: String| LayoutError { file, entry, msg };
    let mut out = BTreeMap::new();
    for p in g.places {
        let entry = format!("{what} \"{}\"", p.name);
        if !g.known.contains(&p.name.as_str()) {
            return Err(err(entry, format!("the map has no {what} of that name")));
        }
        if !(-180.0..=180.0).contains(&p.lon) || !(-90.0..=90.0).contains(&p.lat) {
            return Err(err(entry, "lon must be within ±180 and lat within ±90 degrees".into()));
        }
        if out.insert(p.name.as_str(), p).is_some() {
            return Err(err(entry, "placed twice".into()));
        }
    }
    if let Some(missing) = g.known.iter().find(|n| !out.contains_key(*n)) {
        return Err(err(format!("{what} \"{missing}\""), "not placed: every one needs lon and lat".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, lon: f64, lat: f64) -> Place {
        Place { name: name.into(), lon, lat }
    }

    const PROJ: Projection = Projection { scale: 10.0, lon_shrink: 0.5, pad: 5.0 };

    #[test]
    fn places_are_projected_north_up_with_longitude_shrunk_and_padding_around() {
        let places = [p("West", 0.0, 10.0), p("East", 4.0, 8.0)];
        let g = Group { what: "town", places: &places, known: &["East", "West"] };
        let placed = PROJ.place("layout.toml", &[g]).expect("valid");
        // In the map's order: East, then West.
        assert_eq!(placed.groups, vec![vec![(25.0, 25.0), (5.0, 5.0)]]);
        assert_eq!((placed.width, placed.height), (30.0, 30.0));
    }

    #[test]
    fn a_layout_error_names_the_file_and_the_entry() {
        let places = [p("West", 0.0, 10.0)];
        let g = Group { what: "town", places: &places, known: &["East", "West"] };
        let e = PROJ.place("layout.toml", &[g]).expect_err("East is missing");
        assert_eq!(e.to_string(), "layout.toml: town \"East\": not placed: every one needs lon and lat");
        let e = parse::<Place>("layout.toml", "name = 3").expect_err("not a place");
        assert!(e.to_string().starts_with("layout.toml: "), "{e}");
    }
}
