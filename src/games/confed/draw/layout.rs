//! Where the drawing puts each station: `rules/confederate_rails/layout.toml` (a reconstruction,
//! RULING F61) read and checked against the map, and projected from longitude and latitude to
//! the drawing's pixels. The file is embedded at build time and parsed once; a file that misses
//! a station, names one twice or names one the map lacks is a [`LayoutError`] naming the entry.

use crate::draw::geo::{self, LayoutFile, Place, Projection};
use serde::Deserialize;
use std::sync::OnceLock;

pub use crate::draw::geo::{Layout, LayoutError};
use crate::games::confed::Data;

/// The file's places: the stations (the layout's `first`), then the entry points (`second`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    reconstructed: bool,
    stations: Vec<Place>,
    entry: Vec<Place>,
}

impl LayoutFile for Raw {
    const FILE: &'static str = "rules/confederate_rails/layout.toml";
    /// How degrees become pixels: 92.0 px per degree of latitude; degrees of longitude shrink by the cosine of the map's
    /// middle latitude (about 34° N); 40.0 px around the stations.
    const PROJECTION: Projection = Projection { scale: 92.0, lon_shrink: 0.829, pad: 40.0 };
    fn reconstructed(&self) -> bool {
        self.reconstructed
    }
    fn groups(&self) -> [&[Place]; 2] {
        [&self.stations, &self.entry]
    }
}

/// The shipped layout for `data` (parsed once; checked against `data` on every call): the
/// stations by id, the entry points in the map's order.
pub fn standard(data: &Data) -> Result<Layout, LayoutError> {
    static RAW: OnceLock<Result<Raw, LayoutError>> = OnceLock::new();
    place(geo::shipped(&RAW, include_str!("../../../../rules/confederate_rails/layout.toml"))?, data)
}

/// The layout in `text`, checked against `data` (a file of one's own, in tests).
#[cfg(test)]
pub fn load(text: &str, data: &Data) -> Result<Layout, LayoutError> {
    place(&geo::read(text)?, data)
}

fn place(raw: &Raw, data: &Data) -> Result<Layout, LayoutError> {
    let station_names: Vec<&str> = data.map.stations.iter().map(|s| s.name.as_str()).collect();
    let entry_names: Vec<&str> = data.map.entries.iter().map(|e| e.name.as_str()).collect();
    geo::lay_out(raw, [("station", &station_names), ("entry point", &entry_names)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::confed::shared;

    const SHIPPED: &str = include_str!("../../../../rules/confederate_rails/layout.toml");

    fn data() -> &'static Data {
        shared().expect("the shipped data load").data()
    }

    #[test]
    fn the_shipped_layout_places_every_station_and_entry_point_as_a_marked_reconstruction() {
        let l = standard(data()).expect("the shipped layout is valid");
        assert!(l.reconstructed);
        assert_eq!(l.first.len(), data().map.stations.len());
        assert_eq!(l.second.len(), 4);
        let inside = |p: &(f64, f64)| p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= l.width && p.1 <= l.height;
        assert!(l.first.iter().chain(&l.second).all(inside));
    }

    #[test]
    fn richmond_lies_north_east_of_atlanta_and_memphis_west_of_nashville() {
        let l = standard(data()).expect("valid");
        let at = |n: &str| l.first[data().map.station(n).expect(n)];
        let (richmond, atlanta) = (at("Richmond"), at("Atlanta"));
        assert!(richmond.0 > atlanta.0 && richmond.1 < atlanta.1);
        assert!(at("Memphis").0 < at("Nashville").0);
    }

    #[test]
    fn a_missing_station_is_an_error_naming_it() {
        let text = SHIPPED.replace("  { name = \"Corinth\", lon = -88.52, lat = 34.93 },\n", "");
        let e = load(&text, data()).expect_err("Corinth is missing");
        assert_eq!(
            e.to_string(),
            "rules/confederate_rails/layout.toml: station \"Corinth\": not placed: every one needs lon and lat"
        );
    }

    #[test]
    fn an_unknown_or_twice_placed_station_is_an_error_naming_it() {
        let extra = SHIPPED
            .replace("stations = [\n", "stations = [\n  { name = \"Atlantis\", lon = -80.0, lat = 30.0 },\n");
        let e = load(&extra, data()).expect_err("no Atlantis");
        assert!(e.to_string().contains("station \"Atlantis\": the map has no station"), "{e}");
        let twice = SHIPPED
            .replace("stations = [\n", "stations = [\n  { name = \"Corinth\", lon = -80.0, lat = 30.0 },\n");
        let e = load(&twice, data()).expect_err("Corinth twice");
        assert!(e.to_string().contains("station \"Corinth\": placed twice"), "{e}");
    }

    #[test]
    fn a_file_that_is_not_the_layout_shape_is_an_error() {
        assert!(load("reconstructed = true\nstations = 3\n", data()).is_err());
        let out_of_range = SHIPPED.replace("lon = -88.52, lat = 34.93", "lon = -288.52, lat = 34.93");
        let e = load(&out_of_range, data()).expect_err("out of range");
        assert!(e.to_string().contains("station \"Corinth\""), "{e}");
    }
}
