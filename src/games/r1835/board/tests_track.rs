//! Tests of tile-lay legality (FACTS §7.4, HR 7, RULINGS K27–K29), of where a company reaches,
//! and of the lays ranked for HR 17.

use super::graph::Graph;
use super::rank::ranked_lays;
use super::state::BoardState;
use super::tests_support::{Rng, dense_board};
use super::track::{Connection, LayError, check_lay, keeps_track, legal_lays};
use crate::games::r1835::data::{Data, Phase, Tile, neighbour};
use proptest::prelude::*;
use std::collections::BTreeSet;

pub(super) fn data() -> Data {
    Data::standard().expect("standard data")
}

pub(super) fn phase<'d>(d: &'d Data, id: &str) -> &'d Phase {
    d.phases.iter().find(|p| p.id == id).expect("phase")
}

fn lay(d: &Data, b: &BoardState, ph: &str, c: &str, at: &str, t: &str, r: u8) -> Result<i64, LayError> {
    check_lay(d, b, phase(d, ph), c, (at, t, r), Connection::Waived).map(|l| l.cost)
}

/// BY with its home station in München (O15).
fn bavaria(d: &Data) -> BoardState {
    let mut b = BoardState::default();
    b.place_token(d, "O15", 0, "BY", 0).expect("home");
    b
}

#[test]
fn a_tile_far_from_the_company_stations_is_not_connected() {
    let d = data();
    let b = bavaria(&d);
    let far = check_lay(&d, &b, phase(&d, "1"), "BY", ("D14", "9", 0), Connection::Required);
    assert!(matches!(far, Err(LayError::NotConnected { .. })), "{far:?}");
    let waived = check_lay(&d, &b, phase(&d, "1"), "BY", ("D14", "9", 0), Connection::Waived);
    assert!(!matches!(waived, Err(LayError::NotConnected { .. })), "{waived:?}");
}

#[test]
fn the_home_hex_and_the_track_leading_from_it_are_connected() {
    let d = data();
    let mut b = bavaria(&d);
    let home = legal_lays(&d, &b, phase(&d, "1"), "BY");
    assert!(!home.is_empty() && home.iter().all(|l| l.hex == "O15"), "{home:?}");
    let first = &home[0];
    b.lay(&d, &first.hex, &first.tile, first.rotation).expect("lay");
    let next = legal_lays(&d, &b, phase(&d, "1"), "BY");
    let (_, t, r) = b.tile_at(&d, "O15").expect("tile");
    let open: Vec<String> =
        t.stops.iter().flat_map(|s| s.exits.iter()).filter_map(|e| neighbour("O15", (e + r) % 6)).collect();
    assert!(next.iter().any(|l| open.contains(&l.hex)), "{next:?}");
    assert!(next.iter().all(|l| l.hex == "O15" || open.contains(&l.hex)), "{next:?}");
}

#[test]
fn green_tiles_wait_for_phase_2_and_colours_go_up_one_at_a_time() {
    let d = data();
    let mut b = BoardState::default();
    b.lay(&d, "D14", "9", 0).expect("lay");
    assert!(matches!(lay(&d, &b, "1", "BY", "D14", "19", 0), Err(LayError::ColourNotYet { .. })));
    assert!(matches!(lay(&d, &b, "3", "BY", "D14", "9", 0), Err(LayError::NotAnUpgrade { .. })));
    assert!(matches!(lay(&d, &b, "3", "BY", "D14", "43", 0), Err(LayError::NotAnUpgrade { .. })));
}

#[test]
fn terrain_is_paid_on_the_first_build_only() {
    let d = data();
    let mut b = BoardState::default();
    assert_eq!(lay(&d, &b, "1", "BY", "D14", "9", 0), Ok(50));
    b.lay(&d, "D14", "9", 0).expect("lay");
    let up = (0..6).find_map(|r| lay(&d, &b, "2", "BY", "D14", "19", r).ok());
    assert_eq!(up, Some(0));
}

#[test]
fn tiles_in_use_are_not_available() {
    let d = data();
    let two_villages: Vec<&str> = d.hexes.iter().filter(|h| h.tile == "-2").map(|h| h.at.as_str()).collect();
    let mut b = BoardState::default();
    let first =
        (0..6).find(|r| lay(&d, &b, "1", "BY", two_villages[0], "1", *r).is_ok()).expect("a rotation");
    b.lay(&d, two_villages[0], "1", first).expect("lay");
    let again: Vec<_> = (0..6).map(|r| lay(&d, &b, "1", "BY", two_villages[1], "1", r)).collect();
    assert!(again.iter().all(|e| *e == Err(LayError::NoneLeft("1".into()))), "{again:?}");
}

#[test]
fn no_track_off_the_map_or_across_the_water_west_of_hamburg() {
    let d = data();
    let b = BoardState::default();
    // Tile 9 joins sides 3 and 0 turned by r; B10's side 3 (south-west) is C9, across the water.
    assert!(matches!(lay(&d, &b, "1", "BY", "B10", "9", 0), Err(LayError::OffMap { .. })));
    let edge =
        d.hexes.iter().find(|h| h.tile == "0" && neighbour(&h.at, 0).is_none_or(|n| d.hex(&n).is_none()));
    let edge = edge.expect("a hex on the north edge");
    assert!(matches!(lay(&d, &b, "1", "BY", &edge.at, "9", 0), Err(LayError::OffMap { .. })));
}

/// A buildable empty hex next to a fixed hex, and the side facing its blank side.
fn next_to_blank_fixed(d: &Data) -> (String, u8) {
    for h in d.hexes.iter().filter(|h| h.tile == "0") {
        for side in 0..6u8 {
            let Some(n) = neighbour(&h.at, side).and_then(|n| d.hex(&n)) else { continue };
            let Some(p) = d.preprinted_tile(&n.tile).filter(|p| p.colour == "fixed") else { continue };
            let back = (side + 3 + 6 - n.rotation) % 6;
            let open = p
                .stops
                .iter()
                .flat_map(|s| s.exits.iter())
                .chain(p.track.iter().flatten())
                .any(|e| *e == back);
            if !open {
                return (h.at.clone(), side);
            }
        }
    }
    panic!("no empty hex beside a blank printed side")
}

#[test]
fn house_rule_7_track_may_end_at_a_blank_tile_edge_but_not_at_a_blank_printed_side() {
    let d = data();
    let (at, side) = next_to_blank_fixed(&d);
    // Tile 9 (sides 3 and 0) turned so that one end faces `side`.
    let r = side % 6;
    let b = BoardState::default();
    assert!(matches!(lay(&d, &b, "1", "BY", &at, "9", r), Err(LayError::BlankPrintedSide { .. })));
    // Against a laid tile whose edge is blank, the same kind of end is allowed.
    let mut b = BoardState::default();
    b.lay(&d, "D14", "9", 0).expect("lay");
    // A side where tile 9 (sides 0 and 3, unturned) shows no track.
    let beside = [1u8, 2, 4, 5]
        .into_iter()
        .find(|s| neighbour("D14", *s).is_some_and(|n| d.hex(&n).is_some_and(|h| h.tile == "0")));
    let s = beside.expect("an empty neighbour");
    let n = neighbour("D14", s).expect("neighbour");
    let into_d14 = (s + 3) % 6;
    let res = (0..6u8)
        .filter(|r| [(3 + r) % 6, *r].contains(&into_d14))
        .map(|r| lay(&d, &b, "1", "BY", &n, "9", r))
        .collect::<Vec<_>>();
    assert!(res.iter().all(|e| !matches!(e, Err(LayError::BlankPrintedSide { .. }))), "{res:?}");
}

/// Pairs of map sides joined by a tile's track, directly or through one stop, and the sides
/// each kind of stop leads to: the track a tile puts on a hex, computed independently of
/// `keeps_track`.
fn joins(t: &Tile, r: u8) -> BTreeSet<(String, u8, u8)> {
    let mut out = BTreeSet::new();
    for [a, b] in &t.track {
        let (a, b) = ((a + r) % 6, (b + r) % 6);
        out.insert(("track".into(), a.min(b), a.max(b)));
    }
    for s in &t.stops {
        for a in &s.exits {
            for b in &s.exits {
                let (a, b) = ((a + r) % 6, (b + r) % 6);
                out.insert((s.kind.clone(), a.min(b), a.max(b)));
            }
        }
    }
    out
}

fn family_hex(d: &Data, label: Option<&str>, pre: &str) -> String {
    d.hexes.iter().find(|h| h.label.as_deref() == label && h.tile == pre).map(|h| h.at.clone()).expect("hex")
}

#[test]
fn upgrades_keep_the_family_of_plain_town_city_y_xx_b_and_hh_hexes() {
    let d = data();
    let families = [
        (family_hex(&d, None, "0"), None),
        (family_hex(&d, None, "-1"), None),
        (family_hex(&d, None, "-10"), None),
        ("O15".to_string(), Some("Y")),
        ("L6".to_string(), Some("XX")),
        ("E19".to_string(), Some("B")),
        ("C11".to_string(), Some("HH")),
    ];
    let ph = phase(&d, "3");
    for (at, label) in families {
        let mut b = BoardState::default();
        let mut steps = 0;
        loop {
            let (_, old, old_r) = b.tile_at(&d, &at).expect("tile");
            let ok: Vec<(String, u8)> = d
                .tiles
                .iter()
                .flat_map(|t| (0..6).map(move |r| (t.id.clone(), r)))
                .filter(|(t, r)| check_lay(&d, &b, ph, "BY", (&at, t, *r), Connection::Waived).is_ok())
                .collect();
            for (t, r) in &ok {
                let new = d.tiles.iter().find(|x| x.id == *t).expect("tile");
                assert_eq!(new.label.as_deref(), label, "{at}: tile {t}");
                assert!(joins(old, old_r).is_subset(&joins(new, *r)), "{at}: {t} r{r} loses track");
            }
            let Some((t, r)) = ok.first() else { break };
            b.lay(&d, &at, t, *r).expect("lay");
            steps += 1;
        }
        assert!(steps >= 1, "{at}: nothing could be laid");
    }
}

#[test]
fn an_upgrade_that_would_drop_a_path_is_refused() {
    let d = data();
    let mut b = BoardState::default();
    b.lay(&d, "D14", "9", 0).expect("lay");
    let old = d.tiles.iter().find(|t| t.id == "9").expect("9");
    for r in 0..6 {
        let new = d.tiles.iter().find(|t| t.id == "19").expect("19");
        let res = lay(&d, &b, "2", "BY", "D14", "19", r);
        if !keeps_track(old, 0, new, r) {
            assert!(matches!(res, Err(LayError::TrackLost { .. })), "r{r}: {res:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn a_legal_lay_never_removes_track(seed in 1u64..10_000, depth in 0usize..3) {
        let d = data();
        let b = dense_board(&d, seed, depth);
        let ph = phase(&d, "3");
        let mut rng = Rng(seed | 1);
        for _ in 0..40 {
            let h = &d.hexes[rng.below(d.hexes.len())];
            let t = &d.tiles[rng.below(d.tiles.len())];
            let r = u8::try_from(rng.below(6)).unwrap_or(0);
            if check_lay(&d, &b, ph, "BY", (&h.at, &t.id, r), Connection::Waived).is_ok() {
                let (_, old, old_r) = b.tile_at(&d, &h.at).expect("tile");
                prop_assert!(joins(old, old_r).is_subset(&joins(t, r)), "{} {} r{}", h.at, t.id, r);
            }
        }
    }
}

#[test]
fn house_rule_17_candidates_are_ranked_by_revenue_then_distance() {
    let d = data();
    let mut b = bavaria(&d);
    b.lay(&d, "O15", "201", 0).expect("lay");
    let ph = phase(&d, "1");
    let trains = vec![d.trains[0].clone()];
    let ranked = ranked_lays(&d, &b, ph, "BY", &trains, Some("L14"));
    assert_eq!(ranked.len(), legal_lays(&d, &b, ph, "BY").len());
    assert!(ranked.windows(2).all(|w| w[0].revenue >= w[1].revenue));
    assert!(ranked.iter().all(|c| c.distance.is_some()));
    let g = Graph::build(&d, &b, ph);
    assert!(g.stops.iter().any(|s| s.has_token("BY")));
}

#[test]
fn legal_lays_lists_every_lay_that_check_lay_accepts_once_per_track() {
    let d = data();
    let b = dense_board(&d, 7, 1);
    let ph = phase(&d, "3");
    let listed = legal_lays(&d, &b, ph, "SX");
    assert!(!listed.is_empty());
    for h in &d.hexes {
        for t in &d.tiles {
            for r in 0..6 {
                if check_lay(&d, &b, ph, "SX", (&h.at, &t.id, r), Connection::Required).is_ok() {
                    let same = |l: &&super::track::Lay| {
                        let mut other = b.clone();
                        other.lay(&d, &l.hex, &l.tile, l.rotation).is_ok_and(|()| {
                            let (_, x, xr) = other.tile_at(&d, &h.at).expect("tile");
                            l.hex == h.at && l.tile == t.id && joins(x, xr) == joins(t, r)
                        })
                    };
                    assert!(listed.iter().any(|l| same(&l)), "{} {} r{r} missing", h.at, t.id);
                }
            }
        }
    }
}
