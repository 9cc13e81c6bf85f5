//! The map part rendered over the map as printed (issue 38, RULING O28): the same picture as the
//! whole document, at the start, mid-game, late and with the last runs drawn over the map.

use super::tests::{late, with_last_runs};
use crate::draw::{Layers, Part, png_steps};
use crate::engine::Viewer;
use crate::engine::prelude::*;
use crate::games::r1835::board::BoardState;
use crate::games::r1835::state::State;
use crate::games::r1835::tests::{engine, standard};
use resvg::tiny_skia::Pixmap;
use serde_json::json;

/// The positions compared: the start, a mid-game board, the dense late board, and the late
/// board with two companies' last runs over it.
fn positions() -> Vec<(&'static str, State)> {
    let g = engine();
    let mut mid = late();
    let v: serde_json::Value =
        serde_json::from_str(include_str!("../../../../tests/fixtures/1835/boards/mid-0.json"))
            .expect("json");
    mid.board = serde_json::from_value::<BoardState>(v["board"].clone()).expect("a board");
    let mut runs = late();
    with_last_runs(&mut runs);
    vec![("start", standard(&g, 4, json!({}))), ("mid-0", mid), ("dense-0", late()), ("last runs", runs)]
}

fn map_part(s: &State) -> Part {
    part(s, "map")
}

fn part(s: &State, name: &str) -> Part {
    engine().draw_parts(s, Viewer::Public).into_iter().find(|p| p.name == name).expect("the part")
}

/// How two pictures of the same size differ: the share of pixels with a channel off by more
/// than 32, and the mean difference per channel.
fn difference(a: &Pixmap, b: &Pixmap) -> (f64, f64) {
    assert_eq!((a.width(), a.height()), (b.width(), b.height()), "the same size");
    let pixels = a.data().len() / 4;
    let mut off = 0usize;
    let mut sum = 0u64;
    for (p, q) in a.data().chunks_exact(4).zip(b.data().chunks_exact(4)) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
        off += usize::from(d > 32);
        sum += p.iter().zip(q).map(|(x, y)| u64::from(x.abs_diff(*y))).sum::<u64>();
    }
    (off as f64 / pixels as f64, sum as f64 / (pixels * 4) as f64)
}

#[test]
fn the_map_part_as_mailed_over_its_printed_layer_is_the_picture_of_the_whole_document() {
    let g = engine();
    let layers = Layers::new(g.printed_layers());
    for (name, s) in positions() {
        let (svg, w, h) = map_part(&s).for_mail();
        assert!(layers.renders_over_layer(&svg), "{name}: drawn over the printed layer");
        let over = layers.pixmap(&svg).expect("renders");
        let whole = png_steps::raster(&png_steps::parse(&svg).expect("parses")).expect("rasterises");
        assert_eq!((over.width(), over.height()), (w, h));
        let (off, mean) = difference(&over, &whole);
        // Only the anti-aliased edges of hexes drawn in another order differ.
        assert!(off < 0.001 && mean < 0.1, "{name}: {:.4} % of pixels off, mean {mean:.3}", off * 100.0);
        // RULING O34: painted again from the rasters its elements left, the same pixels.
        let (found, rendered) = layers.pieces_counts();
        assert_eq!(layers.pixmap(&svg).expect("renders").data(), over.data(), "{name}: again");
        let (found_again, rendered_again) = layers.pieces_counts();
        // The last runs' overlay covers the map: too large a raster to keep, painted each time.
        let overlays = usize::from(svg.contains("last ran"));
        assert_eq!(
            rendered_again - rendered,
            overlays as u64,
            "{name}: nothing else rendered the second time"
        );
        assert!(found_again - found >= 5, "{name}: {} elements found kept", found_again - found);
    }
    assert_eq!(layers.rasters_kept(), 1, "one map, one scale: one raster");
}

#[test]
fn the_market_part_as_mailed_over_its_printed_grid_is_the_picture_of_the_whole_document() {
    let g = engine();
    let layers = Layers::new(g.printed_layers());
    for (name, s) in positions() {
        let (svg, w, h) = part(&s, "market").for_mail();
        assert!(layers.renders_over_layer(&svg), "{name}: drawn over the printed grid");
        let over = layers.pixmap(&svg).expect("renders");
        let whole = png_steps::raster(&png_steps::parse(&svg).expect("parses")).expect("rasterises");
        assert_eq!((over.width(), over.height()), (w, h));
        let (off, mean) = difference(&over, &whole);
        assert!(off < 0.001 && mean < 0.1, "{name}: {:.4} % of pixels off, mean {mean:.3}", off * 100.0);
        // RULING O34: each marker and charter painted again from its kept raster.
        let rendered = layers.pieces_counts().1;
        assert_eq!(layers.pixmap(&svg).expect("renders").data(), over.data(), "{name}: again");
        assert_eq!(layers.pieces_counts().1, rendered, "{name}: nothing rendered the second time");
    }
}

#[test]
fn the_printed_layer_is_the_maps_data_alone_the_same_whatever_the_game() {
    let g = engine();
    let layers = g.printed_layers();
    assert_eq!(layers.len(), 2, "the map and the market's grid");
    assert!(layers[0].contains(">Berlin<") && layers[0].contains(">Hamburg<"));
    assert!(layers[1].contains(">Stock market<") && layers[1].contains(">Companies<"));
    for (name, s) in positions() {
        let part = map_part(&s).svg;
        let (a, b) = (part.find(" data-under=\"").expect("names its layer") + 13, 64);
        assert_eq!(&part[a..a + b], crate::draw::DrawingKey::of(&layers[0]).to_string(), "{name}");
        assert_eq!(g.printed_layers(), layers, "{name}: the layer does not change with the game");
    }
    // Nothing of a game: no company's token, no off-board value of a phase, no headline.
    for layer in &layers {
        for company in ["BY", "SX", "BA", "WT", "HE", "MS", "OL", "PR", "M1"] {
            let fill = format!("fill=\"{}\"", super::company_colour(company));
            assert!(!layer.contains(&fill), "the printed layer holds no {company} token or marker");
        }
        for text in ["bank", "phase", "#f3b2ac", "treasury", "seat"] {
            assert!(!layer.contains(text), "the printed layer holds no {text}");
        }
    }
}

#[test]
fn each_part_as_mailed_on_its_palette_keeps_its_fills_and_company_colours_and_strays_little_at_edges() {
    // RULING O35: the PNG a report carries, read back, against the pixels rendered.
    for (name, s) in positions() {
        for part_name in ["map", "market", "players"] {
            let (svg, _, _) = part(&s, part_name).for_mail();
            let rendered = png_steps::raster(&png_steps::parse(&svg).expect("parses")).expect("rasterises");
            let png = png_steps::encode(&rendered).expect("encodes");
            let reader = png::Decoder::new(std::io::Cursor::new(&png)).read_info().expect("a PNG");
            assert_eq!(reader.info().color_type, png::ColorType::Indexed, "{name} {part_name}: on a palette");
            let mailed = Pixmap::decode_png(&png).expect("decodes");
            let (off, mean) = difference(&mailed, &rendered);
            assert!(
                off < 0.001 && mean < 0.1,
                "{name} {part_name}: {:.4} % of pixels off, mean {mean:.3}",
                off * 100.0
            );
            // Every colour that covers a thousandth of the picture, kept pixel for pixel.
            let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
            for p in rendered.data().chunks_exact(4) {
                *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
            }
            let pixels = rendered.data().len() / 4;
            for (p, q) in rendered.data().chunks_exact(4).zip(mailed.data().chunks_exact(4)) {
                if counts[&[p[0], p[1], p[2]]] * 1000 >= pixels {
                    assert_eq!(p, q, "{name} {part_name}: a fill's pixel kept");
                }
            }
            // A company's colour where it fills a token, a marker or a charter (not where an
            // edge's blend happens to hit it): shown as itself, or where an overlay leaves little
            // of it, as a colour no player could tell from it.
            for company in ["BY", "SX", "BA", "WT", "HE", "MS", "OL", "PR", "M1"] {
                let colour = super::company_colour(company);
                let c = u32::from_str_radix(&colour[1..], 16).expect("a colour");
                let rgb = [(c >> 16) as u8, (c >> 8) as u8, c as u8];
                let shown: Vec<u8> = rendered
                    .data()
                    .chunks_exact(4)
                    .zip(mailed.data().chunks_exact(4))
                    .filter(|(p, _)| p[..3] == rgb)
                    .map(|(p, q)| p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0))
                    .collect();
                let strayed = shown.iter().copied().max().unwrap_or(0);
                assert!(
                    shown.len() < 20 || strayed <= 2,
                    "{name} {part_name}: {company}'s {colour} shown {strayed} off"
                );
            }
        }
    }
}
