//! The behaviours issue 33 settles, one test each: which certificates change hands with a
//! presidency (RULING K10, option `presidency_swap`), the Badische's home station (HR 8, RULING
//! K91, option `baden_home_on_float`), unconnected tile lays (RULING K92, option
//! `unconnected_lays`) and when a price marker enters the chart (RULING K93). The replays of
//! recorded games that need the options are in `tests_rails_replays.rs`.

use super::holdings::{Holder, pay};
use super::state::{Cert, Entity, Loc, Round, State};
use super::tests::*;
use super::*;
use crate::engine::Event;
use serde_json::{Value, json};

/// The sold packet, everyone rich, seat 1 to act in stock round 2.
fn rich(g: &R1835, extra: Value) -> State {
    let mut s = sold_packet(g, extra);
    for p in 0..4 {
        pay(&mut s, Holder::Bank, Holder::Player(p), 2000);
    }
    fresh_stock_round(g, &mut s, 2, 1);
    s
}

/// The percentages of a company's certificates a seat (1-based) holds, director's marked.
fn papers(g: &R1835, s: &State, seat: u8, id: &str) -> Vec<(u8, bool)> {
    let mut v: Vec<(u8, bool)> = s.majors[co(g, id)]
        .certs
        .iter()
        .filter(|c| c.at == Loc::Player(seat - 1))
        .map(|c| (c.percent, c.director))
        .collect();
    v.sort_unstable();
    v
}

/// MS: seat 1 holds the director's certificate and one 10 % (30 %), seat 2 one ordinary 20 %
/// and two 10 % (40 %); then the presidency is settled.
fn ms_overtaken(g: &R1835, options: Value) -> State {
    let mut s = rich(g, options);
    let ms = co(g, "MS");
    let certs = &mut s.majors[ms].certs;
    let ten = |certs: &Vec<Cert>, skip: usize| {
        certs.iter().enumerate().filter(|(_, c)| c.percent == 10).nth(skip).map(|(i, _)| i).expect("a 10 %")
    };
    let twenty = certs.iter().position(|c| c.percent == 20 && !c.director).expect("an ordinary 20 %");
    let (a, b, c) = (ten(certs, 0), ten(certs, 1), ten(certs, 2));
    for (i, at) in [(0, 0), (a, 0), (twenty, 1), (b, 1), (c, 1)] {
        certs[i].at = Loc::Player(at);
    }
    assert!(certs[0].director);
    let mut ev: Vec<Event> = Vec::new();
    g.settle_presidency(&mut s, ms, &mut ev);
    assert_eq!(g.president(&s, ms), Some(1), "40 % beats 30 %");
    s
}

#[test]
fn ruling_k10_pbem_hands_the_old_president_the_fewest_certificates() {
    let g = engine();
    let s = ms_overtaken(&g, Value::Null);
    assert_eq!(papers(&g, &s, 1, "MS"), vec![(10, false), (20, false)]);
    assert_eq!(papers(&g, &s, 2, "MS"), vec![(10, false), (10, false), (20, true)]);
}

#[test]
fn ruling_k10_the_rails_preset_hands_over_two_10_percent_certificates_first_as_rails_does() {
    let g = engine();
    let s = ms_overtaken(&g, json!({"preset": "rails"}));
    assert_eq!(papers(&g, &s, 1, "MS"), vec![(10, false), (10, false), (10, false)]);
    assert_eq!(papers(&g, &s, 2, "MS"), vec![(20, false), (20, true)]);
    // A new president without two 10 % certificates hands over a 20 %, in Rails too.
    let mut s = rich(&g, json!({"preset": "rails"}));
    let ms = co(&g, "MS");
    let pick = |s: &State, percent: u8, n: usize| -> Vec<usize> {
        let certs = &s.majors[ms].certs;
        (0..certs.len()).filter(|i| !certs[*i].director && certs[*i].percent == percent).take(n).collect()
    };
    let (tens, twenties) = (pick(&s, 10, 2), pick(&s, 20, 2));
    for (i, at) in [(0, 0), (tens[0], 0), (twenties[0], 1), (twenties[1], 1)] {
        s.majors[ms].certs[i].at = Loc::Player(at);
    }
    let mut ev: Vec<Event> = Vec::new();
    g.settle_presidency(&mut s, ms, &mut ev);
    assert_eq!(papers(&g, &s, 1, "MS"), vec![(10, false), (20, false)]);
    assert_eq!(papers(&g, &s, 2, "MS"), vec![(20, false), (20, true)]);
}

/// BY's, SX's IPO sold out (seats 2 and 3): BA is on sale in the standard release.
fn ba_on_sale(g: &R1835, options: Value) -> State {
    let mut s = rich(g, options);
    for (id, seat) in [("BY", 1u8), ("SX", 2)] {
        let c = co(g, id);
        while g.move_cert(&mut s, c, Loc::Ipo, Loc::Player(seat), |_| true).is_some() {}
    }
    s
}

/// Seat 1 buys BA's director's certificate, seats 2-4 a 10 % each: BA floats.
fn ba_floated(g: &R1835, options: Value) -> State {
    let mut s = ba_on_sale(g, options);
    for percent in [20, 10, 10, 10] {
        act(g, &mut s, ipo("BA", percent));
        act(g, &mut s, Action::Pass);
    }
    assert!(s.majors[co(g, "BA")].floated);
    s
}

fn tokens_in(s: &State, hex: &str) -> Vec<String> {
    s.board.tokens.get(hex).into_iter().flatten().map(|t| t.company.clone()).collect()
}

#[test]
fn house_rule_8_keeps_badens_home_off_the_board_when_it_floats_in_pbem() {
    let g = engine();
    let s = ba_floated(&g, Value::Null);
    assert!(tokens_in(&s, "L6").is_empty());
    assert!(!s.majors[co(&g, "BA")].home_placed);
}

#[test]
fn ruling_k91_the_rails_preset_places_badens_home_when_it_floats_so_the_pfalzbahnen_may_follow() {
    let g = engine();
    let mut s = ba_floated(&g, json!({"preset": "rails"}));
    assert_eq!(tokens_in(&s, "L6"), vec!["BA".to_string()]);
    // Everybody passes: OR2.1; BY (seat 1, given the PfB) operates before BA.
    let pfb = g.data().private_index("PfB").expect("PfB");
    s.privates[pfb].owner = Some(0);
    while matches!(s.round, Round::Stock { .. }) {
        act(&g, &mut s, Action::Pass);
    }
    let ba = co(&g, "BA");
    while g.operating_entity(&s) != Some(Entity::Major(u8::try_from(co(&g, "BY")).expect("BY"))) {
        act(&g, &mut s, Action::Pass);
    }
    assert!(!s.majors[ba].operated, "BA has not operated yet");
    let other = 2 - g.data().majors[ba].station;
    act(&g, &mut s, Action::Pass);
    act(&g, &mut s, Action::PlaceToken { company: "BY".into(), hex: "L6".into(), city: other + 1 });
    assert_eq!(tokens_in(&s, "L6").len(), 2);
    assert!(s.privates[pfb].closed, "HR 5: the station closes the PfB");
}

#[test]
fn ruling_k92_an_unconnected_lay_is_refused_in_pbem() {
    let g = engine();
    let mut s = sold_packet(&g, Value::Null);
    to_by_track_step(&g, &mut s);
    let err = try_act(&g, &mut s, far_lay()).unwrap_err();
    assert!(err.contains("cannot trace track from its stations"), "{err}");
}

#[test]
fn ruling_k92_the_rails_preset_carries_out_an_unconnected_lay_and_names_it() {
    let g = engine();
    let mut s = sold_packet(&g, json!({"preset": "rails"}));
    to_by_track_step(&g, &mut s);
    let by = co(&g, "BY");
    let cash = s.majors[by].cash;
    let ev = act(&g, &mut s, far_lay());
    assert!(s.board.tiles.contains_key("D14"));
    assert_eq!(s.majors[by].cash, cash - 50, "the river's cost is paid");
    let text: Vec<&str> = ev.iter().map(|e| e.public.as_str()).collect();
    assert!(text.iter().any(|t| t.contains("an unconnected lay")), "{text:?}");
}

/// A yellow straight on the river hex D14, far from München.
fn far_lay() -> Action {
    Action::LayTile { company: "BY".into(), tile: "9".into(), hex: "D14".into(), rotation: 0 }
}

/// Everybody passes stock round 1; the minors pass; BY is in its track step.
fn to_by_track_step(g: &R1835, s: &mut State) {
    let by = Entity::Major(u8::try_from(co(g, "BY")).expect("BY"));
    for _ in 0..200 {
        if g.operating_entity(s) == Some(by) {
            return;
        }
        act(g, s, Action::Pass);
    }
    panic!("BY never operates");
}

#[test]
fn ruling_k93_of_two_companies_on_one_space_the_first_floated_operates_first() {
    let g = engine();
    // Half Thompson: BA and WT are both on sale once BY and SX are sold out; both start on B4.
    let mut s = ba_on_sale(&g, Value::Null);
    s.options.variant = options::Variant::HalfThompson;
    let (ba, wt) = (co(&g, "BA"), co(&g, "WT"));
    assert_eq!(g.data().majors[ba].start_space, g.data().majors[wt].start_space);
    // BA's director's certificate is sold first, but WT floats first.
    for (id, percent) in [("BA", 20), ("WT", 20), ("WT", 10), ("WT", 10), ("WT", 10)] {
        act(&g, &mut s, ipo(id, percent));
        act(&g, &mut s, Action::Pass);
    }
    assert!(s.majors[wt].floated && !s.majors[ba].floated);
    for _ in 0..3 {
        act(&g, &mut s, ipo("BA", 10));
        act(&g, &mut s, Action::Pass);
    }
    assert!(s.majors[ba].floated);
    while matches!(s.round, Round::Stock { .. }) {
        act(&g, &mut s, Action::Pass);
    }
    let at = |c: usize| s.or.queue.iter().position(|e| *e == Entity::Major(u8::try_from(c).unwrap_or(0)));
    let (wt_at, ba_at) = (at(wt).expect("WT operates"), at(ba).expect("BA operates"));
    assert!(wt_at < ba_at, "WT's marker entered B4 first: {:?}", s.or.queue);
}

// ---- RULING K94: a sale that passes the presidency, as Rails carries it out ----

/// MS, operated, with the given ordinary certificates (percentages) at seats 1 and 2 and in the
/// pool; seat 1 also holds the director's certificate. Seat 1 is to act in stock round 2.
fn ms_held(g: &R1835, options: Value, seat1: &[u8], seat2: &[u8], pool: &[u8]) -> State {
    let mut s = rich(g, options);
    let ms = co(g, "MS");
    s.majors[ms].certs[0].at = Loc::Player(0);
    for (at, percents) in [(Loc::Player(0), seat1), (Loc::Player(1), seat2), (Loc::Pool, pool)] {
        for percent in percents {
            let i = s.majors[ms]
                .certs
                .iter()
                .position(|c| c.at == Loc::Ipo && !c.director && c.percent == *percent);
            s.majors[ms].certs[i.expect("a certificate left")].at = at;
        }
    }
    s.majors[ms].operated = true;
    assert_eq!(g.president(&s, ms), Some(0));
    s
}

/// The percentages of MS's ordinary certificates in the pool.
fn ms_pool(g: &R1835, s: &State) -> Vec<u8> {
    let mut v: Vec<u8> =
        s.majors[co(g, "MS")].certs.iter().filter(|c| c.at == Loc::Pool).map(|c| c.percent).collect();
    v.sort_unstable();
    v
}

#[test]
fn ruling_k94_the_rails_preset_sells_the_directors_part_out_of_the_new_presidents_certificates() {
    let g = engine();
    // Seat 1: director + 2 × 10 % (40 %); seat 2: 20 % + 10 % (30 %). Seat 1 sells 2 × 10 %.
    let mut rails = ms_held(&g, json!({"preset": "rails"}), &[10, 10], &[20, 10], &[]);
    let cash = rails.players[0].cash;
    let ev = act(&g, &mut rails, sell("MS", 2, 10));
    assert_eq!(g.president(&rails, co(&g, "MS")), Some(1));
    assert_eq!(
        papers(&g, &rails, 1, "MS"),
        vec![(10, false), (10, false)],
        "A keeps its own 10 % certificates"
    );
    assert_eq!(papers(&g, &rails, 2, "MS"), vec![(10, false), (20, true)]);
    assert_eq!(ms_pool(&g, &rails), vec![20], "the pool holds B's 20 %, as in Rails");
    let text: Vec<&str> = ev.iter().map(|e| e.public.as_str()).collect();
    assert!(text.iter().any(|t| t.contains("puts 20 % in the pool")), "{text:?}");
    // The same percentages and cash as the swap-then-sell of the pbem preset.
    let mut pbem = ms_held(&g, Value::Null, &[10, 10], &[20, 10], &[]);
    act(&g, &mut pbem, sell("MS", 2, 10));
    assert_eq!(papers(&g, &pbem, 1, "MS"), vec![(20, false)]);
    assert_eq!(ms_pool(&g, &pbem), vec![10, 10]);
    assert_eq!(rails.players[0].cash - cash, pbem.players[0].cash - cash);
    assert_eq!(g.percent_of(&rails, co(&g, "MS"), 1), g.percent_of(&pbem, co(&g, "MS"), 1));
}

#[test]
fn ruling_k94_a_sale_smaller_than_the_directors_certificate_takes_the_difference_back_from_the_pool() {
    let g = engine();
    // Seat 1: director + 10 % (30 %); seat 2: 20 % + 10 % (30 %); a 10 % in the pool. Seat 1
    // sells 1 × 10 %: B's 20 % goes to the pool and A takes a 10 % back from it.
    let mut s = ms_held(&g, json!({"preset": "rails"}), &[10], &[20, 10], &[10]);
    act(&g, &mut s, sell("MS", 1, 10));
    assert_eq!(g.president(&s, co(&g, "MS")), Some(1));
    assert_eq!(papers(&g, &s, 1, "MS"), vec![(10, false), (10, false)]);
    assert_eq!(ms_pool(&g, &s), vec![20]);
    // Without a 10 % in the pool Rails' way cannot be carried out: the swap, then the sale.
    let mut s = ms_held(&g, json!({"preset": "rails"}), &[10], &[20, 10], &[]);
    act(&g, &mut s, sell("MS", 1, 10));
    assert_eq!(papers(&g, &s, 1, "MS"), vec![(20, false)]);
    assert_eq!(ms_pool(&g, &s), vec![10]);
}
