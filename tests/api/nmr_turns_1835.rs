//! Issue 38: the storm turn of 1835 (no seat sends orders: every move the rules' default, HR 17's
//! ladder included) gives the same outcome — actions, events, notes, state — as when its
//! digests were kept in `tests/data/1835/nmr_turns.txt` (written and checked in full by
//! `cargo bench --bench turn_1835 -- --write | --check`). A speed-up of the engine changes no
//! result: this test checks a sample of the kept turns in the unoptimised build.

#[path = "../../benches/common/positions_1835.rs"]
mod positions;

use std::collections::BTreeMap;

/// Every `SAMPLE`th kept turn of the fixtures and of the first random games is checked.
const SAMPLE: usize = 8;

#[test]
fn storm_turns_without_orders_give_the_kept_outcomes() {
    let kept = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/1835/nmr_turns.txt"))
        .expect("the kept digests");
    let kept: BTreeMap<&str, &str> = kept.lines().filter_map(|l| l.split_once(' ')).collect();
    let g = stationmaster::games::r1835::R1835::standard().expect("1835 data");
    let engine = stationmaster::registry::find("1835").expect("the 1835 engine");
    let all = positions::check_set(&g, 2);
    let mut checked = 0;
    for p in all.iter().step_by(SAMPLE) {
        let now = positions::storm_turn(engine, p);
        assert_eq!(kept.get(p.name().as_str()).copied(), Some(now.as_str()), "{}", p.name());
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} turns checked");
}
