//! The Confederate Rails picture: a snapshot of a fixture position (a 3-seat game through its
//! set-up, then the war arranged by hand: occupation, congestion, disruption, Bad Rails, an
//! abandoned load, a train in the Repair Box), and what a seat's picture may show of the hands.

use crate::draw::snapshot::assert_drawing;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Seat, SetupSpec, Viewer};
use crate::games::confed::state::{Abandoned, Place, Stage, State};
use crate::games::confed::{Confed, shared};

fn game() -> &'static Confed {
    shared().expect("the standard data loads")
}

fn st(name: &str) -> usize {
    game().data().map.station(name).unwrap_or_else(|| panic!("station {name}"))
}

fn seg(a: &str, b: &str) -> usize {
    game().data().map.segments_between(st(a), st(b)).first().copied().unwrap_or_else(|| panic!("{a}-{b}"))
}

/// Three seats after the set-up (default answers), then a war in progress.
fn fixture() -> State {
    let g = game();
    let spec = SetupSpec { seats: 3, options: serde_json::Value::Null };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(16)).expect("setup");
    let mut n = 0;
    while !matches!(s.stage, Stage::Activate) {
        let a = g.default_action(&s).expect("a default");
        g.apply(&mut s, &a, &mut GameRng::for_action(16, n)).expect("default is legal");
        n += 1;
    }
    s.players[0].specials = vec![1, 6];
    s.players[1].specials = vec![4];
    s.players[2].specials = vec![7, 8];
    s.occupied.extend([st("Nashville"), st("Norfolk"), st("Corinth")]);
    s.congested.insert(st("Atlanta"));
    s.bridges_out.insert(seg("Richmond", "Petersburg"));
    s.ripped.insert(seg("Atlanta", "Marietta"), 2);
    s.bad_rails.insert(13);
    s.blockade = 1;
    s.abandoned.push(Abandoned { chit: 20, at: st("Macon (GA)"), dropoff: st("Savannah"), reserved: None });
    if let Some(t) = s.players[1].trains.first_mut() {
        t.at = Place::RepairBox;
    }
    if let Some(c) = s.players[0].trains.first_mut().and_then(|t| t.load.as_mut()) {
        c.picked = true;
    }
    s
}

#[test]
fn a_seats_picture_of_a_war_in_progress_shows_the_map_its_hand_and_the_war() {
    let g = game();
    let s = fixture();
    let svg = g.draw(&s, Viewer::Seat(Seat(1))).expect("Confederate Rails draws");
    for words in [
        "Richmond",
        "New Orleans",
        "Union: Maryland",
        "General Lee",
        "The Great Iron Treasure Hunt",
        "Bad Rails: #13",
        ">R2<",
        "bridge out",
        "Repair Box",
        "Abandoned at Macon (GA)",
    ] {
        assert!(svg.contains(words), "{words} is in the picture");
    }
    assert_drawing("confed_seat1.svg", &svg);
}

#[test]
fn a_seats_picture_holds_nothing_of_another_seats_special_events() {
    let g = game();
    let s = fixture();
    let svg = g.draw(&s, Viewer::Seat(Seat(1))).expect("draws");
    for hidden in ["Foreign Intervention", "The Great Train Raid", "The Through-Freight Law"] {
        assert!(!svg.contains(hidden), "seat 1 must not see {hidden}");
    }
    // The same picture whatever the others hold, as long as they hold as many.
    let mut other = s.clone();
    other.players[1].specials = vec![5];
    other.players[2].specials = vec![2, 3];
    assert_eq!(g.draw(&other, Viewer::Seat(Seat(1))), Some(svg));
    let public = g.draw(&s, Viewer::Public).expect("draws");
    assert!(!public.contains("General Lee") && !public.contains("Foreign Intervention"));
    let gm = g.draw(&s, Viewer::Gm).expect("draws");
    assert!(gm.contains("General Lee") && gm.contains("Foreign Intervention"));
}

#[test]
fn the_draw_piles_order_does_not_change_the_picture() {
    let g = game();
    let s = fixture();
    let mut shuffled = s.clone();
    shuffled.pile.reverse();
    assert_ne!(shuffled.pile, s.pile, "the fixture has a pile to reorder");
    assert_eq!(g.draw(&shuffled, Viewer::Public), g.draw(&s, Viewer::Public));
}

#[test]
fn the_picture_comes_as_the_map_and_the_panel_and_only_a_seats_own_panel_names_its_events() {
    // Issue 36: the map the same for everyone; the panel as the viewer may see it.
    let g = game();
    let s = fixture();
    let own = g.draw_parts(&s, Viewer::Seat(Seat(1)));
    let names: Vec<&str> = own.iter().map(|p| p.name).collect();
    assert_eq!(names, ["map", "panel"]);
    assert!(own[0].svg.contains("Richmond") && !own[0].svg.contains("Special Event"));
    assert!(own[1].svg.contains("General Lee") && own[1].svg.contains("Legend"));
    for hidden in ["Foreign Intervention", "The Great Train Raid", "The Through-Freight Law"] {
        assert!(own.iter().all(|p| !p.svg.contains(hidden)), "seat 1 must not see {hidden}");
    }
    let public = g.draw_parts(&s, Viewer::Public);
    assert_eq!(public[0], own[0], "the map is the same for everyone");
    assert!(public.iter().all(|p| !p.svg.contains("General Lee") && !p.svg.contains("Foreign Intervention")));
    assert!(public[1].svg.contains("2 Special Events held"), "counts only");
}

#[test]
fn the_map_shows_every_lines_number() {
    // Issue 36: `RRC 12` must be found on the map.
    let g = game();
    let map = &g.draw_parts(&fixture(), Viewer::Public)[0].svg;
    let lines: std::collections::BTreeSet<u8> =
        g.data().map.segments.iter().flat_map(|s| s.owners.iter().copied()).collect();
    assert!(lines.len() > 10);
    for l in lines {
        assert!(map.contains(&format!("class=\"line-number\">{l}<")), "line {l} is numbered on the map");
    }
}

#[test]
fn no_label_of_a_war_in_progress_lies_under_a_token_or_off_an_edge() {
    let g = game();
    let s = fixture();
    let mut pictures = vec![("whole", g.draw(&s, Viewer::Seat(Seat(1))).expect("draws"))];
    pictures.extend(g.draw_parts(&s, Viewer::Seat(Seat(1))).into_iter().map(|p| (p.name, p.svg)));
    for (name, svg) in pictures {
        let problems = crate::draw::collide::label_problems(&svg);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
    }
}
