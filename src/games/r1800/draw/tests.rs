//! The 1800 picture: snapshots of two fixture positions (the start of a 4-player game, and the
//! same game after some random play by the engine's random player), what a seat's picture may
//! show of the hands and ambitions, and that the picture renders to PNG.

use crate::draw::snapshot::assert_drawing;
use crate::engine::prelude::*;
use crate::engine::{GameRng, Pick, Seat, SetupSpec, Viewer};
use crate::games::r1800::state::{Stage, State};
use crate::games::r1800::{R1800, shared};

fn game() -> &'static R1800 {
    shared().expect("the standard data loads")
}

/// A 4-player game at its start.
fn start() -> State {
    let spec = SetupSpec { seats: 4, options: serde_json::Value::Null };
    game().setup(&spec, &mut GameRng::for_setup(18)).expect("setup")
}

/// The same game played by the random player until its first Great War is under way (past the
/// first round), then two admin cards and one military card dealt from the decks to every seat,
/// so that every hand has something to hide.
fn played() -> State {
    let g = game();
    let mut s = start();
    let mut pick = Pick(18);
    let great_war = |s: &State| {
        s.round > 0
            && s.stage == Stage::War
            && s.war.declarations.iter().any(|d| d.cause == super::super::war::WarCause::GreatWar)
    };
    for n in 0..20_000 {
        if great_war(&s) || s.over() {
            break;
        }
        let legal = g.legal_actions(&s);
        let a = g.sim_pick(&s, &legal, &mut pick);
        g.apply(&mut s, &a, &mut GameRng::for_action(18, n)).expect("the random player plays legally");
    }
    for i in 0..s.players.len() {
        for _ in 0..2 {
            let c = s.admin_deck.pop().expect("admin cards left");
            s.players[i].admin.push(c);
        }
        let c = s.military_deck.pop().expect("military cards left");
        s.players[i].military.push(c);
        s.players[i].admin.sort_unstable();
    }
    s
}

fn draw(s: &State, viewer: Viewer) -> String {
    game().draw(s, viewer).expect("1800 draws")
}

/// The names of a seat's hidden things: admin cards, military cards, ambition.
fn hidden_names(s: &State, seat: usize) -> Vec<String> {
    let d = game().data();
    let pl = &s.players[seat];
    pl.admin
        .iter()
        .map(|c| d.admin[usize::from(*c)].name.clone())
        .chain(pl.military.iter().map(|c| d.military[usize::from(*c)].name.clone()))
        .chain(std::iter::once(d.ambitions[usize::from(pl.ambition)].name.clone()))
        .collect()
}

#[test]
fn the_start_of_a_four_player_game_shows_every_province_the_powers_and_the_seats_own_hand() {
    let s = start();
    let svg = draw(&s, Viewer::Seat(Seat(1)));
    for p in &game().data().provinces {
        let name = p.name.replace('\'', "&#39;");
        assert!(svg.contains(&format!(">{name}<")), "{} is on the map", p.name);
    }
    for words in ["North Sea", "Black Sea", "France (seat 1)", "prosperity 2", "Legend", "Ambition: "] {
        assert!(svg.contains(words), "{words} is in the picture");
    }
    assert_drawing("r1800_start_seat1.svg", &svg);
}

#[test]
fn a_game_after_random_play_is_drawn_with_its_pops_regiments_and_cards() {
    let s = played();
    assert!(s.round > 0, "the fixture is past the first round");
    assert!(!s.war.declarations.is_empty(), "the fixture has a war");
    let svg = draw(&s, Viewer::Public);
    let round = format!("round {} of 24", s.round + 1);
    assert!(svg.contains(&round), "{round}");
    assert!(svg.contains("<polygon"), "regiments are drawn as cones");
    assert!(svg.contains("declared war on") && svg.contains("Great War"), "the wars are listed");
    assert_drawing("r1800_played_public.svg", &svg);
}

/// The words of a drawing, its text elements joined by spaces (a name broken over two panel
/// lines reads whole).
fn words(svg: &str) -> String {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| t.split_once('>').and_then(|(_, rest)| rest.split_once("</text>")).map(|(w, _)| w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_seats_drawing_shows_its_own_hands_and_ambition_and_never_another_seats() {
    let s = played();
    let public = words(&draw(&s, Viewer::Public));
    let checked =
        each_seat_sees_only_its_own(&s, &public, |me| words(&draw(&s, Viewer::Seat(Seat::from_index(me)))));
    assert!(checked > 10, "the fixture has other seats' secrets to look for ({checked})");
}

#[test]
fn the_public_drawing_shows_no_hidden_card_and_hand_sizes_only() {
    let s = played();
    let svg = draw(&s, Viewer::Public);
    for (i, pl) in s.players.iter().enumerate() {
        let sizes = format!(
            "{}, {}",
            crate::engine::counted(pl.admin.len(), "admin card"),
            crate::engine::counted(pl.military.len(), "military card")
        );
        assert!(svg.contains(&sizes), "seat {}'s hand sizes: {sizes}", i + 1);
    }
    assert!(!svg.contains("Admin cards:") && !svg.contains("Military cards:") && !svg.contains("Ambition: "));
    // Passing every admin and military card to the next hand (sizes kept) and the unrevealed
    // ambitions round the table changes nothing in the public picture.
    let mut other = s.clone();
    let mut admin: Vec<u8> = s.players.iter().flat_map(|p| p.admin.clone()).collect();
    let mut military: Vec<u8> = s.players.iter().flat_map(|p| p.military.clone()).collect();
    for pool in [&mut admin, &mut military] {
        if !pool.is_empty() {
            pool.rotate_left(1);
        }
    }
    let secret: Vec<usize> = (0..s.players.len()).filter(|i| !s.players[*i].revealed).collect();
    for (k, i) in secret.iter().enumerate() {
        other.players[*i].ambition = s.players[secret[(k + 1) % secret.len()]].ambition;
    }
    for pl in &mut other.players {
        pl.admin = admin.drain(..pl.admin.len()).collect();
        pl.military = military.drain(..pl.military.len()).collect();
    }
    assert_ne!(other, s, "the re-deal changed some hand");
    assert_eq!(draw(&other, Viewer::Public), svg);
}

#[test]
fn the_drawing_renders_to_png() {
    for s in [start(), played()] {
        let png = crate::draw::png(&draw(&s, Viewer::Gm)).expect("renders");
        assert!(png.starts_with(b"\x89PNG"));
    }
}

#[test]
fn the_picture_comes_as_the_map_and_the_panel_and_only_a_seats_own_panel_shows_its_hand() {
    // Issue 36: the map the same for everyone; the panel as the viewer may see it, held to the
    // same test as the whole picture: a seat's parts never name another seat's secrets.
    let s = played();
    let parts = |v: Viewer| -> String {
        let p = game().draw_parts(&s, v);
        assert_eq!(p.iter().map(|p| p.name).collect::<Vec<_>>(), ["map", "panel"]);
        words(&p.iter().map(|p| p.svg.as_str()).collect::<String>())
    };
    let public = parts(Viewer::Public);
    assert_eq!(game().draw_parts(&s, Viewer::Public)[0], game().draw_parts(&s, Viewer::Seat(Seat(1)))[0]);
    assert!(!public.contains("Admin cards:") && !public.contains("Military cards:"));
    let checked = each_seat_sees_only_its_own(&s, &public, |me| parts(Viewer::Seat(Seat::from_index(me))));
    assert!(checked > 10, "{checked}");
}

#[test]
fn no_label_of_a_game_in_progress_lies_under_a_token_or_off_an_edge() {
    let s = played();
    let mut pictures = vec![("whole", draw(&s, Viewer::Seat(Seat(1))))];
    pictures.extend(game().draw_parts(&s, Viewer::Seat(Seat(1))).into_iter().map(|p| (p.name, p.svg)));
    for (name, svg) in pictures {
        let problems = crate::draw::collide::label_problems(&svg);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
    }
}

/// Asserts that each seat's rendering (`render(seat index)`) shows its own hidden names and none
/// of another seat's; a name the viewer holds too, or that the table sees anyway (`public`: a
/// development card or war of the same name), proves nothing. Returns how many were checked.
fn each_seat_sees_only_its_own(s: &State, public: &str, render: impl Fn(usize) -> String) -> usize {
    let mut checked = 0;
    for me in 0..s.players.len() {
        let svg = render(me);
        let mine = hidden_names(s, me);
        for name in &mine {
            assert!(svg.contains(name.as_str()), "seat {} sees its own {name}", me + 1);
        }
        for other in (0..s.players.len()).filter(|o| *o != me) {
            for name in hidden_names(s, other) {
                if mine.contains(&name) || public.contains(name.as_str()) {
                    continue;
                }
                assert!(
                    !svg.contains(name.as_str()),
                    "seat {} must not see seat {}'s {name}",
                    me + 1,
                    other + 1
                );
                checked += 1;
            }
        }
    }
    checked
}
