//! Tests of the fast legal lays (`legal_lays` against the lay-by-lay reference) and the
//! benchmark fixtures of `benches/lays_1835.rs`.

use super::state::BoardState;
use super::tests_support::{COMPANIES, dense_board};
use super::tests_track::{data, phase};
use super::track::legal_lays;

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
        let json = serde_json::json!({ "phase": "2", "company": "BY", "board": b });
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
