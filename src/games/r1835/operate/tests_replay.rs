//! The replay of a JSONL log through operating rounds (`ledger::replay`, the console's
//! `replay --ledger`): `tests/fixtures/1835/operating_round_first_turns.jsonl`, with tile,
//! station, run and dividend lines, and its cash checked by hand below.

use crate::games::r1835::data::Space;
use crate::games::r1835::ledger::{self, Replay};
use crate::games::r1835::state::{Round, Step};
use crate::games::r1835::tests::engine;
use serde_json::json;

const LOG: &str = include_str!("../../../../tests/fixtures/1835/operating_round_first_turns.jsonl");

fn replayed() -> Replay {
    let names: Vec<String> = ["A", "B", "C", "D"].iter().map(|x| x.to_string()).collect();
    ledger::replay(&engine(), &names, &json!({"variant": "standard"}), 0, LOG).expect("the log replays")
}

fn cash(r: &Replay, round: &str, entity: &str) -> i64 {
    r.rows.iter().find(|x| x.round == round && x.entity == entity).map_or(i64::MIN, |x| x.cash)
}

#[test]
fn a_log_with_tile_station_run_and_dividend_lines_replays_to_hand_checked_cash() {
    let r = replayed();
    // SR1: A: NF 100 + BY director 184 = 284 of 475; B: LD 190 + M4 160; C: M2 170 + M3 80;
    // D: M1 80 + BB 130. A minor's price is its treasury.
    for (who, c) in [("A", 191), ("B", 125), ("C", 225), ("D", 265), ("M1", 80), ("M2", 170), ("M4", 160)] {
        assert_eq!(cash(&r, "SR1", who), c, "SR1 {who}");
    }
    // OR1.1: private income NF 5, LD 20, BB 25; the minors' tiles cost nothing; no trains,
    // no revenue.
    for (who, c) in [("A", 196), ("B", 145), ("C", 225), ("D", 290), ("M1", 80)] {
        assert_eq!(cash(&r, "OR1.1", who), c, "OR1.1 {who}");
    }
    // SR2: A buys OBB 120, C PfB 150; BY floats with 50 % sold: 5 x 92 = 460.
    for (who, c) in [("A", 76), ("C", 75), ("BY", 460)] {
        assert_eq!(cash(&r, "SR2", who), c, "SR2 {who}");
    }
    // OR2.1 (not over: BY waits in its trains step): income NF 5 + OBB 10 to A, PfB 15 to C;
    // M1's tile on Köln (I3) costs 50; BY's station in L14 is the NF's (free, the NF closes);
    // BY withholds nothing and moves left from C3 to B3.
    let s = &r.state;
    assert_eq!((s.players[0].cash, s.players[2].cash, s.minors[0].cash), (91, 90, 30));
    let by = engine().data().major_index("BY").expect("BY");
    assert_eq!(s.majors[by].cash, 460);
    assert_eq!(s.majors[by].price, Space::parse("B3"));
    assert!(s.board.tokens.get("L14").is_some_and(|t| t.iter().any(|t| t.company == "BY")));
    assert!(s.privates[0].closed, "the NF");
    assert_eq!(s.round, Round::Operating { set: 2, n: 1, of: 1 });
    assert_eq!(s.or.turn.step, Step::Trains);
    assert_eq!(s.money(), 12000);
}

#[test]
fn the_operating_round_log_replays_twice_to_identical_ledgers() {
    let (a, b) = (replayed(), replayed());
    assert_eq!(a.csv(), b.csv());
    assert_eq!(a.state, b.state);
    assert!(a.csv().contains("\nOR1.1,M4,160\n"));
}
