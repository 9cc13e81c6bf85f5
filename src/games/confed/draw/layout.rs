//! Where the drawing puts each station: `rules/confederate_rails/layout.toml` (a reconstruction,
//! RULING F61) read and checked against the map, and projected from longitude and latitude to
//! the drawing's pixels. The file is embedded at build time and parsed once; a file that misses
//! a station, names one twice or names one the map lacks is a [`LayoutError`] naming the entry.

use crate::games::confed::Data;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Pixels per degree of latitude.
const SCALE: f64 = 92.0;
/// Degrees of longitude shrink by the cosine of the map's middle latitude (about 34° N).
const LON_SHRINK: f64 = 0.829;
/// The space around the stations, in px.
const PAD: f64 = 40.0;

/// The layout file could not be used: which entry, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("rules/confederate_rails/layout.toml: {entry}{sep}{msg}", sep = if entry.is_empty() { "" } else { ": " })]
pub struct LayoutError {
    /// The entry at fault (`station "Corinth"`), or empty for the whole file.
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
    stations: Vec<Place>,
    entry: Vec<Place>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Place {
    name: String,
    lon: f64,
    lat: f64,
}

/// Every station and entry point placed in the drawing, in px from the map's top left.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The file says it is a reconstruction.
    pub reconstructed: bool,
    /// By station id.
    pub stations: Vec<(f64, f64)>,
    /// By entry point, in the map's order.
    pub entries: Vec<(f64, f64)>,
    /// The map's width and height.
    pub width: f64,
    pub height: f64,
}

impl Layout {
    /// The shipped layout for `data` (parsed once; checked against `data` on every call).
    pub fn standard(data: &Data) -> Result<Layout, LayoutError> {
        static RAW: OnceLock<Result<Raw, LayoutError>> = OnceLock::new();
        let raw = RAW.get_or_init(|| parse(include_str!("../../../../rules/confederate_rails/layout.toml")));
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
    let map = &data.map;
    let station_names: Vec<&str> = map.stations.iter().map(|s| s.name.as_str()).collect();
    let entry_names: Vec<&str> = map.entries.iter().map(|e| e.name.as_str()).collect();
    let stations = by_name(&raw.stations, "station", &station_names)?;
    let entries = by_name(&raw.entry, "entry point", &entry_names)?;
    let all: Vec<&Place> = stations.values().chain(entries.values()).copied().collect();
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
        stations: pick(&station_names, &stations),
        entries: pick(&entry_names, &entries),
        width: 2.0 * PAD + (max_lon - min_lon) * LON_SHRINK * SCALE,
        height: 2.0 * PAD + (max_lat - min_lat) * SCALE,
    })
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
        let l = Layout::standard(data()).expect("the shipped layout is valid");
        assert!(l.reconstructed);
        assert_eq!(l.stations.len(), data().map.stations.len());
        assert_eq!(l.entries.len(), 4);
        let inside = |p: &(f64, f64)| p.0 >= 0.0 && p.1 >= 0.0 && p.0 <= l.width && p.1 <= l.height;
        assert!(l.stations.iter().chain(&l.entries).all(inside));
    }

    #[test]
    fn richmond_lies_north_east_of_atlanta_and_memphis_west_of_nashville() {
        let l = Layout::standard(data()).expect("valid");
        let at = |n: &str| l.stations[data().map.station(n).expect(n)];
        let (richmond, atlanta) = (at("Richmond"), at("Atlanta"));
        assert!(richmond.0 > atlanta.0 && richmond.1 < atlanta.1);
        assert!(at("Memphis").0 < at("Nashville").0);
    }

    #[test]
    fn a_missing_station_is_an_error_naming_it() {
        let text = SHIPPED.replace("  { name = \"Corinth\", lon = -88.52, lat = 34.93 },\n", "");
        let e = Layout::load(&text, data()).expect_err("Corinth is missing");
        assert_eq!(
            e.to_string(),
            "rules/confederate_rails/layout.toml: station \"Corinth\": not placed: every one needs lon and lat"
        );
    }

    #[test]
    fn an_unknown_or_twice_placed_station_is_an_error_naming_it() {
        let extra = SHIPPED
            .replace("stations = [\n", "stations = [\n  { name = \"Atlantis\", lon = -80.0, lat = 30.0 },\n");
        let e = Layout::load(&extra, data()).expect_err("no Atlantis");
        assert!(e.to_string().contains("station \"Atlantis\": the map has no station"), "{e}");
        let twice = SHIPPED
            .replace("stations = [\n", "stations = [\n  { name = \"Corinth\", lon = -80.0, lat = 30.0 },\n");
        let e = Layout::load(&twice, data()).expect_err("Corinth twice");
        assert!(e.to_string().contains("station \"Corinth\": placed twice"), "{e}");
    }

    #[test]
    fn a_file_that_is_not_the_layout_shape_is_an_error() {
        assert!(Layout::load("reconstructed = true\nstations = 3\n", data()).is_err());
        let out_of_range = SHIPPED.replace("lon = -88.52, lat = 34.93", "lon = -288.52, lat = 34.93");
        let e = Layout::load(&out_of_range, data()).expect_err("out of range");
        assert!(e.to_string().contains("station \"Corinth\""), "{e}");
    }
}
