//! Where the drawing puts each province and sea zone: `rules/1800/layout.toml` (a reconstruction,
//! RULING E61) read and checked against the map, and projected from longitude and latitude to the
//! drawing's pixels. The file is embedded at build time and parsed once; a file that misses a
//! province or sea zone, names one twice or names one the map lacks is a [`LayoutError`] naming
//! the entry.

use crate::games::r1800::Data;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Pixels per degree of latitude.
const SCALE: f64 = 46.0;
/// Degrees of longitude shrink by the cosine of the map's middle latitude (about 50° N).
const LON_SHRINK: f64 = 0.643;
/// The space around the provinces, in px.
const PAD: f64 = 46.0;

/// The layout file could not be used: which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules/1800/layout.toml: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct LayoutError {
    /// The entry at fault (`province "Wales"`), or empty for the whole file.
    pub entry: String,
    /// What is wrong, in words.
    pub msg: String,
}

fn err(entry: impl Into<String>, msg: impl Into<String>) -> LayoutError {
    LayoutError { entry: entry.into(), msg: msg.into() }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    reconstructed: bool,
    provinces: Vec<Place>,
    seas: Vec<Place>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Place {
    name: String,
    lon: f64,
    lat: f64,
}

/// Every province and sea zone placed in the drawing, in px from the map's top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The file says it is a reconstruction.
    pub reconstructed: bool,
    /// By province index of the data.
    pub provinces: Vec<(f64, f64)>,
    /// By sea zone, in the data's order.
    pub seas: Vec<(f64, f64)>,
    /// The map's width and height.
    pub width: f64,
    pub height: f64,
}

impl Layout {
    /// The shipped layout for `data` (parsed once; checked against `data` on every call).
    pub fn standard(data: &Data) -> Result<Layout, LayoutError> {
        static RAW: OnceLock<Result<Raw, LayoutError>> = OnceLock::new();
        let raw = RAW.get_or_init(|| parse(include_str!("../../../../rules/1800/layout.toml")));
        place(raw.as_ref().map_err(Clone::clone)?, data)
    }

    /// The layout in `text`, checked against `data` (a file of one's own, in tests).
    #[cfg(test)]
    pub fn load(text: &str, data: &Data) -> Result<Layout, LayoutError> {
        place(&parse(text)?, data)
    }
}

fn parse(text: &str) -> Result<Raw, LayoutError> {
    toml::from_str(text).map_err(|e| err("", e.to_string()))
}

/// Each of `places` by the name the map gives it: every name once, every name known, in range.
fn by_name<'a>(
    places: &'a [Place],
    what: &str,
    known: &[&str],
) -> Result<BTreeMap<&'a str, &'a Place>, LayoutError> {
    let mut out = BTreeMap::new();
    for p in places {
        let entry = format!("{what} \"{}\"", p.name);
        if !known.contains(&p.name.as_str()) {
            return Err(err(entry, format!("the map has no {what} of that name")));
        }
        if !(-180.0..=180.0).contains(&p.lon) || !(-90.0..=90.0).contains(&p.lat) {
            return Err(err(entry, "lon must be within ±180 and lat within ±90 degrees"));
        }
        if out.insert(p.name.as_str(), p).is_some() {
            return Err(err(entry, "placed twice"));
        }
    }
    if let Some(missing) = known.iter().find(|n| !out.contains_key(*n)) {
        return Err(err(format!("{what} \"{missing}\""), "not placed: every one needs lon and lat"));
    }
    Ok(out)
}

fn place(raw: &Raw, data: &Data) -> Result<Layout, LayoutError> {
    let province_names: Vec<&str> = data.provinces.iter().map(|p| p.name.as_str()).collect();
    let sea_names: Vec<&str> = data.sea_names.iter().map(String::as_str).collect();
    let provinces = by_name(&raw.provinces, "province", &province_names)?;
    let seas = by_name(&raw.seas, "sea zone", &sea_names)?;
    let all: Vec<&Place> = provinces.values().chain(seas.values()).copied().collect();
    let min_lon = all.iter().map(|p| p.lon).fold(f64::INFINITY, f64::min);
    let max_lon = all.iter().map(|p| p.lon).fold(f64::NEG_INFINITY, f64::max);
    let min_lat = all.iter().map(|p| p.lat).fold(f64::INFINITY, f64::min);
    let max_lat = all.iter().map(|p| p.lat).fold(f64::NEG_INFINITY, f64::max);
    let at = |p: &Place| (PAD + (p.lon - min_lon) * LON_SHRINK * SCALE, PAD + (max_lat - p.lat) * SCALE);
    let pick = |names: &[&str], placed: &BTreeMap<&str, &Place>| -> Vec<(f64, f64)> {
        names.iter().filter_map(|n| placed.get(n)).map(|p| at(p)).collect()
    };
    Ok(Layout {
        reconstructed: raw.reconstructed,
        provinces: pick(&province_names, &provinces),
        seas: pick(&sea_names, &seas),
        width: 2.0 * PAD + (max_lon - min_lon) * LON_SHRINK * SCALE,
        height: 2.0 * PAD + (max_lat - min_lat) * SCALE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::r1800::shared;

    const SHIPPED: &str = include_str!("../../../../rules/1800/layout.toml");

    fn data() -> &'static Data {
        shared().expect("the shipped data load").data()
    }

    fn at(l: &Layout, name: &str) -> (f64, f64) {
        let i = data().provinces.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("{name}"));
        l.provinces[i]
    }

    #[test]
    fn the_shipped_layout_places_every_province_and_sea_once_as_a_marked_reconstruction() {
        let l = Layout::standard(data()).expect("the shipped layout is valid");
        assert!(l.reconstructed);
        assert_eq!(l.provinces.len(), 73);
        assert_eq!(l.provinces.len(), data().provinces.len());
        assert_eq!(l.seas.len(), 11);
        let inside = |p: &(f64, f64)| p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= l.width && p.1 <= l.height;
        assert!(l.provinces.iter().chain(&l.seas).all(inside));
        // No two provinces on one spot: every pair at least a node's width apart.
        for (i, a) in l.provinces.iter().enumerate() {
            for b in &l.provinces[i + 1..] {
                assert!((a.0 - b.0).hypot(a.1 - b.1) > 36.0, "{a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn london_lies_west_of_berlin_and_st_petersburg_north_of_constantinople() {
        let l = Layout::standard(data()).expect("valid");
        assert!(at(&l, "London").0 < at(&l, "Berlin").0);
        assert!(at(&l, "St. Petersburg").1 < at(&l, "Constantinople").1);
    }

    #[test]
    fn a_missing_province_is_an_error_naming_it() {
        let text = SHIPPED.replace("  { name = \"Wales\", lon = -4.2, lat = 52.2 },\n", "");
        assert_ne!(text, SHIPPED);
        let e = Layout::load(&text, data()).expect_err("Wales is missing");
        assert_eq!(
            e.to_string(),
            "rules/1800/layout.toml: province \"Wales\": not placed: every one needs lon and lat"
        );
    }

    #[test]
    fn a_repeated_or_unknown_province_is_an_error_naming_it() {
        let twice = SHIPPED
            .replace("provinces = [\n", "provinces = [\n  { name = \"Wales\", lon = -3.0, lat = 52.0 },\n");
        let e = Layout::load(&twice, data()).expect_err("Wales twice");
        assert!(e.to_string().contains("province \"Wales\": placed twice"), "{e}");
        let extra = SHIPPED.replace(
            "provinces = [\n",
            "provinces = [\n  { name = \"Atlantis\", lon = -20.0, lat = 40.0 },\n",
        );
        let e = Layout::load(&extra, data()).expect_err("no Atlantis");
        assert!(e.to_string().contains("province \"Atlantis\": the map has no province"), "{e}");
    }

    #[test]
    fn a_missing_sea_or_a_file_of_the_wrong_shape_is_an_error() {
        let text = SHIPPED.replace("  { name = \"Black Sea\", lon = 34.0, lat = 43.0 },\n", "");
        let e = Layout::load(&text, data()).expect_err("the Black Sea is missing");
        assert!(e.to_string().contains("sea zone \"Black Sea\": not placed"), "{e}");
        assert!(Layout::load("reconstructed = true\nprovinces = 3\n", data()).is_err());
        let out_of_range = SHIPPED.replace("lon = -4.2, lat = 52.2", "lon = -284.2, lat = 52.2");
        let e = Layout::load(&out_of_range, data()).expect_err("out of range");
        assert!(e.to_string().contains("province \"Wales\""), "{e}");
    }
}
