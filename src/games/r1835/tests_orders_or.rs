//! Orders in operating rounds: lines in their steps, HR 16 (unclear orders), the HR 17 ladder
//! for tiles (A → D), HR 12 (a stated intention for a silent company), HR 14 (one-round turns,
//! orders that no longer fit), and the silent company's options (RULINGS K62).

use super::state::{Entity, Step};
use super::tests::*;
use super::tests_orders::sheet;
use super::*;
use crate::engine::Seat;
use crate::engine::prelude::*;
use serde_json::{Value, json};

/// The standard sold packet, every player passing SR1: OR1.1 begins with M1 (seat 4's).
fn first_or(g: &R1835, extra: Value) -> State {
    let mut s = sold_packet(g, extra);
    while matches!(s.round, state::Round::Stock { .. }) {
        act(g, &mut s, Action::Pass);
    }
    s
}

/// M1 operating with a 2-train (so that lays change its income).
fn m1_with_a_train(g: &R1835) -> State {
    let mut s = first_or(g, Value::Null);
    s.minors[0].trains.push("2".into());
    s
}

fn line_of(a: &Action) -> String {
    match a {
        Action::LayTile { company, tile, hex, rotation } => {
            format!("{company}: LAY {tile} {hex} ROTATION {rotation}")
        }
        other => format!("{other:?}"),
    }
}

/// An order for a tile that cannot be laid now (a green tile in phase 2).
const IMPOSSIBLE: &str = "M1: LAY 14 O15 ROTATION 0";

#[test]
fn a_legal_ordered_lay_is_carried_out() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let lay = g.lay_candidates(&s, Entity::Minor(0), None).remove(0).action;
    let mut sh = sheet(&g, &line_of(&lay));
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(lay));
    assert!(a.notes[0].executed);
}

#[test]
fn house_rule_17a_uses_the_directors_contingency() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let lay = g.lay_candidates(&s, Entity::Minor(0), None).pop().unwrap().action;
    let text = format!("{IMPOSSIBLE} ELSE {}", line_of(&lay).trim_start_matches("M1: "));
    let mut sh = sheet(&g, &text);
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(lay));
    assert!(a.notes[0].note.contains("HR 17 A"), "{}", a.notes[0].note);
}

#[test]
fn house_rule_17b_refers_to_the_gm_with_the_lays_ranked_toward_the_target() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, &format!("{IMPOSSIBLE} TOWARD Berlin"));
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, None, "the GM chooses");
    assert!(a.notes[0].note.contains("HR 17 B") && a.notes[0].note.contains("E19"), "{}", a.notes[0].note);
    let r = g.refer(&s, &d, &sh).expect("a referral");
    assert!(r.prompt.contains("HR 17 B") && r.prompt.contains("Berlin"), "{}", r.prompt);
    let ranked = g.lay_candidates(&s, Entity::Minor(0), Some("E19"));
    assert_eq!(r.candidates[0], ranked[0].action, "nearest to Berlin first");
    assert!(
        ranked.windows(2).all(|w| w[0].distance.unwrap_or(u32::MAX) <= w[1].distance.unwrap_or(u32::MAX))
    );
    assert_eq!(r.candidates.last(), Some(&Action::Pass), "no tile is a choice too");
    // The next answer clears the referral.
    let _ = g.answer(&s, &d, &mut sh);
    assert_eq!(g.refer(&s, &d, &sh), None);
}

#[test]
fn house_rule_17c_lays_the_tile_with_most_income() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let best = g.most_income_lay(&s, Entity::Minor(0)).expect("a lay that earns more");
    let mut sh = sheet(&g, IMPOSSIBLE);
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(best));
    assert!(a.notes[0].note.contains("HR 17 C"), "{}", a.notes[0].note);
}

#[test]
fn house_rule_17d_lays_no_tile_when_none_gives_an_advantage() {
    let g = engine();
    let s = first_or(&g, Value::Null); // M1 has no train: no lay earns anything
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, IMPOSSIBLE);
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass));
    assert!(a.notes[0].note.contains("HR 17 D"), "{}", a.notes[0].note);
}

#[test]
fn house_rule_16_an_order_leaving_the_rotation_open_is_not_carried_out_and_is_no_nmr() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let all = g.lay_candidates(&s, Entity::Minor(0), None);
    let open = all
        .iter()
        .find_map(|c| match &c.action {
            Action::LayTile { tile, hex, .. } => {
                let n = all.iter().filter(|o| matches!(&o.action, Action::LayTile { tile: t, hex: h, .. } if t == tile && h == hex)).count();
                (n > 1).then(|| format!("M1: LAY {tile} {hex}"))
            }
            _ => None,
        })
        .expect("a tile that fits in several rotations");
    let echo = g.advise(&s, Seat(4), &sheet(&g, &open).orders[0].order).expect("an echo");
    assert!(
        echo.starts_with("now: ") && echo.contains("unclear (HR 16)") && echo.contains("not an NMR"),
        "{echo}"
    );
    let mut sh = sheet(&g, &open);
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass), "not carried out; the step passes");
    assert!(
        a.notes[0].note.contains("unclear (HR 16)") && a.notes[0].note.contains("not an NMR"),
        "{}",
        a.notes[0].note
    );
}

#[test]
fn a_line_for_a_later_step_waits_for_that_step() {
    let g = engine();
    let mut s = m1_with_a_train(&g);
    let mut sh = sheet(&g, "M1: RUN BEST\nM1: SPLIT");
    let d = g.next_decision(&s).unwrap();
    assert_eq!(g.answer(&s, &d, &mut sh).action, Some(Action::Pass), "no track order: no tile");
    assert_eq!(sh.used, vec![false, false]);
    while s.or.turn.step != Step::Run {
        act(&g, &mut s, Action::Pass);
    }
    let d = g.next_decision(&s).unwrap();
    let a = g.answer(&s, &d, &mut sh);
    assert!(matches!(a.action, Some(Action::Run { .. })), "{a:?}");
    assert_eq!(sh.used, vec![true, false]);
}

#[test]
fn house_rule_12_a_silent_companys_stated_intention_goes_to_the_gm() {
    let g = engine();
    let s = m1_with_a_train(&g);
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, "INTENT M1: TOWARD Berlin");
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, None);
    assert!(a.notes[0].note.contains("HR 12"), "{}", a.notes[0].note);
    let r = g.refer(&s, &d, &sh).expect("a referral");
    assert_eq!(r.candidates[0], g.lay_candidates(&s, Entity::Minor(0), Some("E19"))[0].action);
}

#[test]
fn house_rule_14_a_player_asks_for_a_one_round_turn() {
    let g = engine();
    assert!(g.wants_one_round(&sheet(&g, "BUY 1 BY\nONE ROUND")));
    assert!(!g.wants_one_round(&sheet(&g, "BUY 1 BY")));
}

#[test]
fn house_rule_14_orders_for_a_company_the_seat_no_longer_directs_do_not_fit() {
    let g = engine();
    let s = first_or(&g, Value::Null);
    // Seat 1 directs BY, not SX (seat 2's).
    assert_eq!(g.misfit(&s, Seat(1), &sheet(&g, "BY: RUN BEST")), None);
    let why = g.misfit(&s, Seat(1), &sheet(&g, "SX: RUN BEST")).expect("a misfit");
    assert!(why.contains("you do not direct SX"), "{why}");
    let mut closed = s.clone();
    closed.minors[1].closed = true;
    let why = g.misfit(&closed, Seat(3), &sheet(&g, "M2: RUN BEST")).expect("a misfit");
    assert!(why.contains("M2 is closed"), "{why}");
}

#[test]
fn rulings_k62_the_silent_dividend_follows_the_games_option() {
    let g = engine();
    for (option, want) in [("payout", DividendKind::Payout), ("withhold", DividendKind::Withhold)] {
        let mut s = first_or(&g, json!({ "silent_dividend": option }));
        while !(s.or.turn.step == Step::Dividend && matches!(g.operating_entity(&s), Some(Entity::Major(_))))
        {
            let by = g.operating_entity(&s).map(|e| g.entity_id(&s, e)) == Some("BY".into());
            if by && s.or.turn.step == Step::Run {
                s.or.turn.revenue = Some(50);
                s.or.turn.step = Step::Dividend;
                continue;
            }
            act(&g, &mut s, Action::Pass);
        }
        let d = g.next_decision(&s).unwrap();
        let mut sh = sheet(&g, "SX: RUN BEST");
        let a = g.answer(&s, &d, &mut sh);
        assert_eq!(a.action, Some(Action::Dividend { company: "BY".into(), kind: want }), "{option}");
    }
}

/// Every minor with a 2-train, the first operating round played (passing) until `m` lays track.
fn minor_at_track(g: &R1835, m: usize) -> State {
    let mut s = first_or(g, Value::Null);
    for minor in &mut s.minors {
        minor.trains.push("2".into());
    }
    while !(g.operating_entity(&s) == Some(Entity::Minor(m as u8)) && s.or.turn.step == Step::Track) {
        act(g, &mut s, Action::Pass);
    }
    s
}

/// The best revenue `e` can earn next turn after `lay` now and its best lay then (K71).
fn two_turn_best(g: &R1835, s: &State, e: Entity, lay: &Action) -> i64 {
    let Action::LayTile { company, tile, hex, rotation } = lay else { panic!("{lay:?}") };
    let mut board = s.board.clone();
    board.lay(&g.data, hex, tile, *rotation).unwrap();
    let phase = g.phase_now(s).unwrap();
    let trains = g.entity_trains(s, e);
    board::ranked_lays(&g.data, &board, phase, company, &trains, None)
        .iter()
        .map(|c| c.revenue)
        .max()
        .unwrap_or(0)
}

#[test]
fn house_rule_17c_looks_ahead_to_a_tile_that_pays_only_next_turn() {
    let g = engine();
    let s = minor_at_track(&g, 3);
    let e = Entity::Minor(3);
    let now = g.lay_candidates(&s, e, None);
    assert!(now.iter().all(|c| c.revenue == 0), "no tile earns M4 anything this turn");
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, "M4: LAY 14 O15 ROTATION 0");
    let a = g.answer(&s, &d, &mut sh);
    let laid = a.action.clone().expect("a tile");
    assert!(matches!(laid, Action::LayTile { .. }), "{laid:?}");
    assert!(
        a.notes[0].note.contains("HR 17 C") && a.notes[0].note.contains("this turn and next"),
        "{}",
        a.notes[0].note
    );
    let best = two_turn_best(&g, &s, e, &laid);
    assert!(best > 0, "the tile opens a paying route next turn");
    for c in now.iter().take(orders::LOOKAHEAD_LAYS) {
        assert!(two_turn_best(&g, &s, e, &c.action) <= best, "{:?} would do better", c.action);
    }
}

#[test]
fn house_rule_17d_lays_no_tile_when_neither_this_turn_nor_next_pays() {
    let g = engine();
    let s = minor_at_track(&g, 1);
    let e = Entity::Minor(1);
    let now = g.lay_candidates(&s, e, None);
    assert!(!now.is_empty(), "M2 could lay a tile");
    assert!(now.iter().all(|c| c.revenue == 0 && two_turn_best(&g, &s, e, &c.action) == 0));
    let d = g.next_decision(&s).unwrap();
    let mut sh = sheet(&g, "M2: LAY 14 O15 ROTATION 0");
    let a = g.answer(&s, &d, &mut sh);
    assert_eq!(a.action, Some(Action::Pass));
    assert!(a.notes[0].note.contains("HR 17 D"), "{}", a.notes[0].note);
}

#[test]
fn house_rule_14_a_formation_order_no_longer_fits_once_the_prussian_has_formed() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    let form = sheet(&g, "FORM PR");
    assert_eq!(g.misfit(&s, Seat(3), &form), None, "not formed yet: the line still fits");
    let pr = g.data.major_index("PR").expect("the Prussian");
    s.majors[pr].floated = true;
    let why = g.misfit(&s, Seat(3), &form).expect("a misfit");
    assert!(why.contains("line 1 (FORM PR): the Prussian has formed"), "{why}");
}

#[test]
fn house_rule_14_an_exchange_order_for_a_paper_already_exchanged_does_not_fit() {
    let g = engine();
    let mut s = first_or(&g, Value::Null);
    let exchange = sheet(&g, "EXCHANGE M2");
    assert_eq!(g.misfit(&s, Seat(3), &exchange), None);
    s.minors[1].closed = true;
    let why = g.misfit(&s, Seat(3), &exchange).expect("a misfit");
    assert!(why.contains("M2 exchanged into the Prussian already"), "{why}");
}
