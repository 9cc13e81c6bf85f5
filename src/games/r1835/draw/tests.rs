//! Snapshots of the 1835 picture: the map at the start, and a late position (the dense board of
//! `tests/fixtures/1835/boards/dense-0.json` in phase 3.4, with companies in play).

use crate::draw::snapshot::assert_drawing;
use crate::engine::prelude::*;
use crate::engine::{Seat, Viewer};
use crate::games::r1835::board::BoardState;
use crate::games::r1835::state::{Entity, LastRun, State};
use crate::games::r1835::tests::{engine, sold_packet, standard};
use serde_json::json;

pub(super) fn late() -> State {
    let g = engine();
    let mut s = sold_packet(&g, json!({}));
    let v: serde_json::Value =
        serde_json::from_str(include_str!("../../../../tests/fixtures/1835/boards/dense-0.json"))
            .expect("json");
    s.board = serde_json::from_value::<BoardState>(v["board"].clone()).expect("a board");
    s.phase =
        g.data.phases.iter().position(|p| p.id == "3.4").and_then(|i| u8::try_from(i).ok()).expect("3.4");
    for (i, c) in s.majors.iter_mut().enumerate().take(4) {
        c.price = crate::games::r1835::data::Space::parse(["C3", "F2", "H4", "C4"][i]);
        c.stamp = i as u32;
        c.floated = true;
        c.cash = 100 * i as i64 + 37;
        c.trains = vec!["5".into(), "6+6".into()];
    }
    s
}

#[test]
fn the_start_map_shows_every_hex_with_berlin_hamburg_and_koeln_where_the_data_puts_them() {
    let g = engine();
    let svg = g.draw(&standard(&g, 4, json!({})), Viewer::Public).expect("1835 draws");
    for name in ["Berlin", "Hamburg", "Köln", "Ostpreußen", "Elsass-Lothringen"] {
        assert!(svg.contains(&format!(">{name}<")), "{name} is on the map");
    }
    assert_drawing("r1835_start.svg", &svg);
}

#[test]
fn a_late_position_shows_tiles_tokens_market_markers_and_charters() {
    let g = engine();
    let s = late();
    let svg = g.draw(&s, Viewer::Public).expect("1835 draws");
    assert!(
        svg.contains("Stock market") && svg.contains("Companies") && svg.contains("treasury 137 M"),
        "{svg}"
    );
    // 1835 hides nothing: every seat sees the public picture.
    assert_eq!(g.draw(&s, Viewer::Seat(Seat(2))).as_deref(), Some(svg.as_str()));
    assert_drawing("r1835_late.svg", &svg);
}

/// The late position with the first two companies' best runs as their last runs.
pub(super) fn with_last_runs(s: &mut State) {
    let g = engine();
    for i in 0..2u8 {
        let (graph, best) = g.best_run(s, Entity::Major(i)).expect("a run");
        let routes: Vec<Vec<String>> = best
            .routes
            .iter()
            .flatten()
            .map(|r| r.stops.iter().map(|x| graph.stop_label(*x)).collect())
            .collect();
        assert!(!routes.is_empty(), "the fixture's company {i} has a route");
        s.last_runs.insert(s.majors[usize::from(i)].id.clone(), LastRun { revenue: best.revenue, routes });
    }
}

#[test]
fn the_last_runs_are_drawn_over_the_map_in_a_layer_of_their_own() {
    // RULING K68: every company's last run, in its colour, always drawn.
    let g = engine();
    let mut s = late();
    with_last_runs(&mut s);
    let svg = g.draw(&s, Viewer::Public).expect("1835 draws");
    assert!(svg.contains("<g id=\"last-runs\""), "{svg}");
    assert!(svg.matches("<polyline").count() >= 2, "one line per route");
    assert!(svg.contains(&format!("{} last ran", s.majors[0].id)), "and in words");
    assert_drawing("r1835_last_runs.svg", &svg);
    // A company no longer in play is not drawn.
    s.majors[0].price = None;
    let without = g.draw(&s, Viewer::Public).expect("draws");
    assert!(!without.contains(&format!("{} last ran", s.majors[0].id)));
}

/// The market's part of a drawing: from its heading to the players' heading (the markers come
/// after the printed grid and the charters' heading, RULING O34; no charter writes a bare id).
fn market_part(svg: &str) -> &str {
    let from = svg.find(">Stock market<").expect("the market");
    let to = svg.find(">Players<").expect("the players");
    &svg[from..to]
}

#[test]
fn ruling_k93_a_company_whose_par_is_set_has_no_marker_on_the_market_until_it_floats() {
    let g = engine();
    let mut s = late();
    let id = s.majors[0].id.clone();
    let marker = format!(">{id}<");
    let svg = g.draw(&s, Viewer::Public).expect("1835 draws");
    assert!(market_part(&svg).contains(&marker), "a floated company's marker is on the market");
    s.majors[0].floated = false;
    assert!(s.majors[0].price.is_some(), "its par is set");
    let svg = g.draw(&s, Viewer::Public).expect("1835 draws");
    assert!(!market_part(&svg).contains(&marker), "not floated: no marker yet\n{}", market_part(&svg));
}

#[test]
fn the_picture_comes_in_three_parts_the_same_for_every_viewer() {
    // Issue 36: map / market and companies / players, each a document of its own.
    let g = engine();
    let s = late();
    let parts = g.draw_parts(&s, Viewer::Public);
    let names: Vec<&str> = parts.iter().map(|p| p.name).collect();
    assert_eq!(names, ["map", "market", "players"]);
    assert!(parts[0].svg.contains(">Berlin<") && !parts[0].svg.contains("Stock market"));
    assert!(parts[1].svg.contains("Stock market") && parts[1].svg.contains("treasury 137 M"));
    assert!(parts[2].svg.contains(">Players<") && parts[2].svg.contains("certificates"));
    assert_eq!(g.draw_parts(&s, Viewer::Seat(Seat(2))), parts, "1835 hides nothing");
}

#[test]
fn no_label_of_a_mid_game_picture_lies_under_a_token_or_off_an_edge() {
    // Issue 36: station tokens covered Essen/Duisburg and Mainz/Wiesbaden; the start packet's
    // line ran off the right edge.
    let g = engine();
    let mut pictures = vec![("whole late", g.draw(&late(), Viewer::Public).expect("draws"))];
    pictures.extend(g.draw_parts(&late(), Viewer::Public).into_iter().map(|p| (p.name, p.svg)));
    for (name, svg) in pictures {
        let problems = crate::draw::collide::label_problems(&svg);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
    }
}

#[test]
fn no_label_of_the_start_map_lies_under_a_token_or_off_an_edge() {
    let g = engine();
    let s = standard(&g, 4, json!({}));
    let mut pictures = vec![("whole start", g.draw(&s, Viewer::Public).expect("draws"))];
    pictures.extend(g.draw_parts(&s, Viewer::Public).into_iter().map(|p| (p.name, p.svg)));
    for (name, svg) in pictures {
        let problems = crate::draw::collide::label_problems(&svg);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
    }
}
