//! Where the drawing puts each province and sea zone: `rules/1800/layout.toml` (a reconstruction,
//! RULING E61) read and checked against the map, and projected from longitude and latitude to the
//! drawing's pixels. The file is embedded at build time and parsed once; a file that misses a
//! province or sea zone, names one twice or names one the map lacks is a [`LayoutError`] naming
//! the entry.

use crate::draw::geo::{self, LayoutFile, Place, Projection};
use serde::Deserialize;
use std::sync::OnceLock;

pub use crate::draw::geo::{Layout, LayoutError};
use crate::games::r1800::Data;

/// The file's places: the provinces (the layout's `first`), then the sea zones (`second`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    reconstructed: bool,
    provinces: Vec<Place>,
    seas: Vec<Place>,
}

impl LayoutFile for Raw {
    const FILE: &'static str = "rules/1800/layout.toml";
    /// How degrees become pixels: 46.0 px per degree of latitude; degrees of longitude shrink by the cosine of the map's
    /// middle latitude (about 50° N); 46.0 px around the provinces.
    const PROJECTION: Projection = Projection { scale: 46.0, lon_shrink: 0.643, pad: 46.0 };
    fn reconstructed(&self) -> bool {
        self.reconstructed
    }
    fn groups(&self) -> [&[Place]; 2] {
        [&self.provinces, &self.seas]
    }
}

/// The shipped layout for `data` (parsed once; checked against `data` on every call): the
/// provinces by index of the data, the sea zones in the data's order.
pub fn standard(data: &Data) -> Result<Layout, LayoutError> {
    static RAW: OnceLock<Result<Raw, LayoutError>> = OnceLock::new();
    place(geo::shipped(&RAW, include_str!("../../../../rules/1800/layout.toml"))?, data)
}

/// The layout in `text`, checked against `data` (a file of one's own, in tests).
#[cfg(test)]
pub fn load(text: &str, data: &Data) -> Result<Layout, LayoutError> {
    place(&geo::read(text)?, data)
}

fn place(raw: &Raw, data: &Data) -> Result<Layout, LayoutError> {
    let province_names: Vec<&str> = data.provinces.iter().map(|p| p.name.as_str()).collect();
    let sea_names: Vec<&str> = data.sea_names.iter().map(String::as_str).collect();
    geo::lay_out(raw, [("province", &province_names), ("sea zone", &sea_names)])
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
        l.first[i]
    }

    #[test]
    fn the_shipped_layout_places_every_province_and_sea_once_as_a_marked_reconstruction() {
        let l = standard(data()).expect("the shipped layout is valid");
        assert!(l.reconstructed);
        assert_eq!(l.first.len(), 73);
        assert_eq!(l.first.len(), data().provinces.len());
        assert_eq!(l.second.len(), 11);
        let inside = |p: &(f64, f64)| p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= l.width && p.1 <= l.height;
        assert!(l.first.iter().chain(&l.second).all(inside));
        // No two provinces on one spot: every pair at least a node's width apart.
        for (i, a) in l.first.iter().enumerate() {
            for b in &l.first[i + 1..] {
                assert!((a.0 - b.0).hypot(a.1 - b.1) > 36.0, "{a:?} and {b:?} overlap");
            }
        }
    }

    #[test]
    fn london_lies_west_of_berlin_and_st_petersburg_north_of_constantinople() {
        let l = standard(data()).expect("valid");
        assert!(at(&l, "London").0 < at(&l, "Berlin").0);
        assert!(at(&l, "St. Petersburg").1 < at(&l, "Constantinople").1);
    }

    #[test]
    fn a_missing_province_is_an_error_naming_it() {
        let text = SHIPPED.replace("  { name = \"Wales\", lon = -4.2, lat = 52.2 },\n", "");
        assert_ne!(text, SHIPPED);
        let e = load(&text, data()).expect_err("Wales is missing");
        assert_eq!(
            e.to_string(),
            "rules/1800/layout.toml: province \"Wales\": not placed: every one needs lon and lat"
        );
    }

    #[test]
    fn a_repeated_or_unknown_province_is_an_error_naming_it() {
        let twice = SHIPPED
            .replace("provinces = [\n", "provinces = [\n  { name = \"Wales\", lon = -3.0, lat = 52.0 },\n");
        let e = load(&twice, data()).expect_err("Wales twice");
        assert!(e.to_string().contains("province \"Wales\": placed twice"), "{e}");
        let extra = SHIPPED.replace(
            "provinces = [\n",
            "provinces = [\n  { name = \"Atlantis\", lon = -20.0, lat = 40.0 },\n",
        );
        let e = load(&extra, data()).expect_err("no Atlantis");
        assert!(e.to_string().contains("province \"Atlantis\": the map has no province"), "{e}");
    }

    #[test]
    fn a_missing_sea_or_a_file_of_the_wrong_shape_is_an_error() {
        let text = SHIPPED.replace("  { name = \"Black Sea\", lon = 34.0, lat = 43.0 },\n", "");
        let e = load(&text, data()).expect_err("the Black Sea is missing");
        assert!(e.to_string().contains("sea zone \"Black Sea\": not placed"), "{e}");
        assert!(load("reconstructed = true\nprovinces = 3\n", data()).is_err());
        let out_of_range = SHIPPED.replace("lon = -4.2, lat = 52.2", "lon = -284.2, lat = 52.2");
        let e = load(&out_of_range, data()).expect_err("out of range");
        assert!(e.to_string().contains("province \"Wales\""), "{e}");
    }
}
