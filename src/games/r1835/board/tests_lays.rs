//! Tests of the fast legal lays (`legal_lays` against the lay-by-lay reference) and the
//! benchmark fixtures of `benches/lays_1835.rs`.

use super::access::{Access, home_hex};
use super::graph::{End, Graph};
use super::reach::reach;
use super::state::BoardState;
use super::tests_support::{COMPANIES, dense_board};
use super::tests_track::{data, phase};
use super::track::{Connection, Lay, LayError, check_lay, keeps_track, legal_lays};
use crate::games::r1835::data::{Data, Phase};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Writes `tests/fixtures/1835/boards/mid-<seed>.json`: a board in phase 2 where every buildable
/// hex carries a yellow tile (the printed yellow hexes a green one), cities holding tokens, for
/// `benches/lays_1835.rs`: the most candidate upgrades a company can have.
#[test]
#[ignore = "writes the benchmark fixtures; run by hand"]
fn write_lay_fixtures() {
    let d = data();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/1835/boards");
    std::fs::create_dir_all(&dir).expect("fixture folder");
    for seed in 0..2 {
        let b = dense_board(&d, seed, 1);
        let ph = phase(&d, "2");
        let most = COMPANIES.iter().max_by_key(|c| legal_lays(&d, &b, ph, c).len()).expect("companies");
        let json = serde_json::json!({ "phase": "2", "company": most, "board": b });
        let text = serde_json::to_string_pretty(&json).expect("json");
        std::fs::write(dir.join(format!("mid-{seed}.json")), text + "\n").expect("write fixture");
    }
}

#[test]
#[ignore = "timing probe"]
fn probe_legal_lays_timing() {
    let d = data();
    for (seed, depth, ph) in [(0, 1, "2"), (1, 1, "2"), (0, 2, "3"), (0, 3, "3.4")] {
        let b: BoardState = dense_board(&d, seed, depth);
        for c in COMPANIES {
            let t = std::time::Instant::now();
            let n = legal_lays(&d, &b, phase(&d, ph), c).len();
            println!("seed {seed} depth {depth} {c}: {n} lays in {:.1?}", t.elapsed());
        }
    }
}

/// The reference: every (hex, tile, rotation) that `check_lay` without the connection accepts
/// and that is connected when the tile is laid on a copy of the board and the board walked again.
fn reference_lays(d: &Data, b: &BoardState, ph: &Phase, c: &str) -> BTreeSet<(String, String, u8)> {
    let own = |at: &str| b.tokens.get(at).into_iter().flatten().any(|t| t.company == c);
    let none = !b.tokens.values().flatten().any(|t| t.company == c);
    let home = home_hex(d, c);
    let mut out = BTreeSet::new();
    for h in &d.hexes {
        for t in &d.tiles {
            for r in 0..6u8 {
                if check_lay(d, b, ph, c, (&h.at, &t.id, r), Connection::Waived).is_err() {
                    continue;
                }
                let mut after = b.clone();
                after.lay(d, &h.at, &t.id, r).expect("a legal lay");
                let g = Graph::build(d, &after, ph);
                let hi = u16::try_from(g.hexes.iter().position(|x| *x == h.at).expect("hex")).expect("u16");
                let reached = reach(&g, c);
                let walked =
                    g.paths.iter().filter(|p| p.hex == hi).flat_map(|p| [p.a, p.b]).any(|e| match e {
                        End::Side(x) => reached.side_from_outside(x, hi),
                        End::Stop(_) => false,
                    });
                if own(&h.at) || (none && home.as_deref() == Some(h.at.as_str())) || walked {
                    out.insert((h.at.clone(), t.id.clone(), r));
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn legal_lays_are_exactly_the_lays_connected_when_laid_and_walked(seed in 0u64..10_000, depth in 0usize..3, pick in 0usize..8) {
        let d = data();
        let b = dense_board(&d, seed, depth);
        let ph = phase(&d, if depth == 0 { "1" } else { "3" });
        let c = COMPANIES[pick % COMPANIES.len()];
        prop_assert!(Access::of(&d, &b, ph, c).is_some(), "the graph's hex sides are named");
        let reference = reference_lays(&d, &b, ph, c);
        let listed = legal_lays(&d, &b, ph, c);
        for l in &listed {
            prop_assert!(reference.contains(&(l.hex.clone(), l.tile.clone(), l.rotation)), "{l:?} not legal");
        }
        // Every reference lay is listed, or the same track in another rotation is.
        for (at, t, r) in &reference {
            let tile = d.tiles.iter().find(|x| x.id == *t).expect("tile");
            let same = |l: &Lay| {
                l.hex == *at && l.tile == *t && keeps_track(tile, *r, tile, l.rotation) && keeps_track(tile, l.rotation, tile, *r)
            };
            prop_assert!(listed.iter().any(same), "{at} {t} r{r} missing");
        }
    }
}

#[test]
fn house_rule_3_brown_hamburg_lies_only_as_the_elbe_runs_on_the_map() {
    let d = data();
    let b = BoardState::default();
    let ph = phase(&d, "3");
    let lay = |r| check_lay(&d, &b, ph, "SX", ("C11", "221", r), Connection::Waived);
    assert!(lay(0).is_ok(), "{:?}", lay(0));
    for r in 1..6 {
        assert_eq!(lay(r), Err(LayError::FixedOrientation { tile: "221".into(), rotation: 0 }));
    }
    let mut b = BoardState::default();
    b.place_token(&d, "C11", 1, "SX", 0).expect("token");
    let listed: Vec<Lay> = legal_lays(&d, &b, ph, "SX").into_iter().filter(|l| l.hex == "C11").collect();
    assert_eq!(listed.iter().map(|l| (l.tile.as_str(), l.rotation)).collect::<Vec<_>>(), vec![("221", 0)]);
}
