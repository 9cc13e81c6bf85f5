//! Property tests of the exact optimum on dense random boards: it is at least the value of any
//! legal set of routes, and the routes it returns are legal and add up to it. Also writes the
//! benchmark's fixtures (an ignored test).

use super::check::{StopRef, check_routes};
use super::graph::Graph;
use super::revenue::optimal;
use super::route::enumerate;
use super::tests_routes::{data, phase, trains};
use super::tests_support::{COMPANIES, Rng, dense_board, random_walk};
use proptest::prelude::*;

fn refs(g: &Graph, stops: &[u16]) -> Vec<StopRef> {
    stops.iter().map(|s| g.stop_label(*s).parse().expect("a stop label parses")).collect()
}

#[test]
#[ignore = "timing probe; run by hand"]
fn probe_dense_board_timings() {
    let d = data();
    for seed in 0..6 {
        let b = dense_board(&d, seed, 3);
        let g = Graph::build(&d, &b, &phase(&d, "3.4"));
        for c in COMPANIES {
            for set in [&["5", "6"][..], &["6+6"], &["4+4", "5+5"], &["6", "6+6"]] {
                let t = std::time::Instant::now();
                let n = enumerate(&g, c, &trains(&d, set)).len();
                let o = optimal(&g, c, &trains(&d, set));
                println!("seed {seed} {c} {set:?}: {n} routes, {} in {:?}", o.revenue, t.elapsed());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_optimum_is_legal_adds_up_and_beats_any_random_legal_route_set(seed in 0u64..10_000, depth in 1usize..4, pick in 0usize..64) {
        let d = data();
        let b = dense_board(&d, seed, depth);
        let g = Graph::build(&d, &b, &phase(&d, ["2", "2.4", "3", "3.4"][pick % 4]));
        let company = COMPANIES[pick % COMPANIES.len()];
        let sets: [&[&str]; 4] = [&["2", "3"], &["4", "3+3"], &["5", "2+2"], &["3", "4+4"]];
        let t = trains(&d, sets[(pick / 8) % 4]);
        let best = optimal(&g, company, &t);
        let declared: Vec<Vec<StopRef>> = best.routes.iter().flatten().map(|r| refs(&g, &r.stops)).collect();
        let ran: Vec<_> = best.routes.iter().zip(&t).filter(|(r, _)| r.is_some()).map(|(_, t)| t.clone()).collect();
        prop_assert_eq!(check_routes(&g, company, &ran, &declared), Ok(best.revenue));
        prop_assert_eq!(best.routes.iter().flatten().map(|r| r.value).sum::<i64>(), best.revenue);
        let mut rng = Rng(seed | 1);
        for _ in 0..40 {
            let walks: Vec<Vec<StopRef>> = t.iter().map(|_| {
                let w = random_walk(&g, company, &mut rng, 12);
                refs(&g, &w)
            }).collect();
            if let Ok(v) = check_routes(&g, company, &t, &walks) {
                prop_assert!(v <= best.revenue, "random legal routes earn {} > optimum {}", v, best.revenue);
            }
        }
    }
}

/// Writes `tests/fixtures/1835/boards/dense-<seed>.json`: a dense late-game board in phase 3.4
/// and the company with the most 6+6 routes on it, for `benches/revenue_1835.rs`.
#[test]
#[ignore = "writes the benchmark fixtures; run by hand"]
fn write_benchmark_fixtures() {
    let d = data();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/1835/boards");
    std::fs::create_dir_all(&dir).expect("fixture folder");
    for seed in 0..4 {
        let b = dense_board(&d, seed, 3);
        let g = Graph::build(&d, &b, &phase(&d, "3.4"));
        let six = trains(&d, &["6+6"]);
        let company = COMPANIES.iter().max_by_key(|c| enumerate(&g, c, &six).len()).expect("companies");
        let json = serde_json::json!({ "phase": "3.4", "company": company, "board": b });
        let text = serde_json::to_string_pretty(&json).expect("json");
        std::fs::write(dir.join(format!("dense-{seed}.json")), text + "\n").expect("write fixture");
    }
}

#[test]
fn the_benchmark_fixtures_are_boards_of_the_map_with_stations_of_their_company() {
    let d = data();
    for text in [
        include_str!("../../../../tests/fixtures/1835/boards/dense-0.json"),
        include_str!("../../../../tests/fixtures/1835/boards/dense-3.json"),
    ] {
        let v: serde_json::Value = serde_json::from_str(text).expect("fixture json");
        let b: super::state::BoardState = serde_json::from_value(v["board"].clone()).expect("a board");
        let company = v["company"].as_str().expect("company");
        assert!(b.tiles.keys().all(|at| d.hex(at).is_some()));
        assert!(b.tokens.values().flatten().any(|t| t.company == company));
    }
}

/// The best pair of routes by trying every pair: one route (or none) per train, disjoint track.
fn brute_force_pair(g: &Graph, company: &str, t: &[super::super::data::TrainType]) -> i64 {
    let routes = enumerate(g, company, t);
    let options = |train| -> Vec<Option<&super::route::Route>> {
        std::iter::once(None).chain(routes.iter().filter(|r| r.fits(train)).map(Some)).collect()
    };
    let (a, b) = (options(&t[0]), options(&t[1]));
    let mut best = 0;
    for x in &a {
        for y in &b {
            let clear = match (x, y) {
                (Some(x), Some(y)) => x.track.disjoint(y.track.words()),
                _ => true,
            };
            if clear {
                best = best.max(x.map_or(0, |r| r.value) + y.map_or(0, |r| r.value));
            }
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn the_optimum_equals_the_best_of_every_pair_of_routes_on_small_boards(seed in 0u64..10_000, pick in 0usize..64) {
        let d = data();
        let b = dense_board(&d, seed, 1);
        let g = Graph::build(&d, &b, &phase(&d, ["2", "3"][pick % 2]));
        let company = COMPANIES[pick % COMPANIES.len()];
        let sets: [&[&str]; 4] = [&["2", "3"], &["2", "2"], &["3", "2+2"], &["2+2", "2+2"]];
        let t = trains(&d, sets[(pick / 8) % 4]);
        prop_assert_eq!(optimal(&g, company, &t).revenue, brute_force_pair(&g, company, &t));
    }
}

/// The plain exhaustive search, kept as the reference for the pruned one: every legal route
/// enumerated, no floor, the branch and bound over all of them (RULINGS K19 without K25).
fn reference_optimum(g: &Graph, company: &str, t: &[super::super::data::TrainType]) -> i64 {
    let table = super::route::enumerate_table(g, company, t);
    let cands: Vec<Vec<(i64, &[u64], usize)>> = t
        .iter()
        .map(|train| {
            (0..table.len())
                .filter(|i| table.fits(*i, train))
                .map(|i| (table.value(i), table.track(i), i))
                .collect()
        })
        .collect();
    let same: Vec<bool> = (0..t.len()).map(|i| i > 0 && t[i - 1] == t[i]).collect();
    super::revenue::best_disjoint(cands, &same, g.paths.len()).0
}

fn fixture(d: &super::super::data::Data, text: &str) -> (Graph, String) {
    let v: serde_json::Value = serde_json::from_str(text).expect("fixture json");
    let b: super::state::BoardState = serde_json::from_value(v["board"].clone()).expect("a board");
    let ph = v["phase"].as_str().expect("phase");
    (Graph::build(d, &b, &phase(d, ph)), v["company"].as_str().expect("company").to_string())
}

#[test]
fn the_pruned_optimum_equals_the_exhaustive_search_on_the_benchmark_fixtures() {
    let d = data();
    for text in [
        include_str!("../../../../tests/fixtures/1835/boards/dense-0.json"),
        include_str!("../../../../tests/fixtures/1835/boards/dense-1.json"),
        include_str!("../../../../tests/fixtures/1835/boards/dense-2.json"),
        include_str!("../../../../tests/fixtures/1835/boards/dense-3.json"),
    ] {
        let (g, company) = fixture(&d, text);
        for set in [&["6"][..], &["5", "6"], &["4+4", "5"], &["3+3", "3+3"], &["2", "3", "4+4"]] {
            let t = trains(&d, set);
            let fast = optimal(&g, &company, &t);
            assert_eq!(fast.revenue, reference_optimum(&g, &company, &t), "{company} {set:?}");
            assert_eq!(fast.routes.iter().flatten().map(|r| r.value).sum::<i64>(), fast.revenue);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_pruned_optimum_equals_the_exhaustive_search_on_random_boards(seed in 0u64..10_000, depth in 1usize..4, pick in 0usize..64) {
        let d = data();
        let b = dense_board(&d, seed, depth);
        let g = Graph::build(&d, &b, &phase(&d, ["2", "2.4", "3", "3.4"][pick % 4]));
        let company = COMPANIES[pick % COMPANIES.len()];
        let sets: [&[&str]; 8] = [&["4"], &["3+3"], &["2", "3", "4"], &["4", "4"], &["3+3", "3+3"], &["5", "2+2"], &["2+2", "3", "4+4"], &["3", "4+4"]];
        let t = trains(&d, sets[(pick / 8) % 8]);
        let fast = optimal(&g, company, &t);
        prop_assert_eq!(fast.revenue, reference_optimum(&g, company, &t));
        prop_assert_eq!(fast.routes.iter().flatten().map(|r| r.value).sum::<i64>(), fast.revenue);
        prop_assert_eq!(fast.routes.len(), t.len());
    }
}
