//! The order layer's HR 16 reading, on every engine: a line not understood is kept and marked,
//! courtesy words ignored, the readable lines stand; carried intentions join the played sheet.

use super::{parse_sheet, played_sheet};
use crate::engine::{Orders, Seat, SetupSpec};
use crate::games::railroaded::Railroaded;
use crate::registry::{self, DynGame};

/// Checks `text` for seat 1 of a fresh game of `engine`.
fn echo_of(engine: &dyn DynGame, text: &str) -> super::Echo {
    let spec = SetupSpec { seats: *engine.seat_counts().start(), options: serde_json::json!({}) };
    let state = engine.setup(&spec, 7).expect("setup");
    engine.check_orders(&state, Seat(1), text).expect("checked")
}

#[test]
fn house_rule_16_every_engine_keeps_its_readable_lines_and_marks_only_the_unreadable_one() {
    for engine in registry::engines() {
        let example = engine.order_example();
        let readable = echo_of(*engine, example).readable();
        assert!(readable > 0, "{}: its example has orders", engine.slug());
        let text = format!("Hi all,\n{example}\nand pick up some Bay if it gets cheap, thanks\nThanks!\n");
        let echo = echo_of(*engine, &text);
        assert_eq!(echo.readable(), readable, "{}: every readable line stands: {echo:?}", engine.slug());
        assert_eq!(echo.errors, 1, "{}: {echo:?}", engine.slug());
        let bad = echo.lines.iter().find(|l| l.error.is_some()).expect("the marked line");
        assert!(bad.text.starts_with("and pick up"), "{}: {bad:?}", engine.slug());
        assert!(bad.suggestion.as_deref().is_some_and(|s| s.contains('#')), "{}: {bad:?}", engine.slug());
        let ignored: Vec<&str> =
            echo.lines.iter().filter(|l| l.is_ignored()).map(|l| l.text.as_str()).collect();
        assert_eq!(ignored, ["Hi all,", "Thanks!"], "{}: courtesies are ignored", engine.slug());
        assert!(echo.canonical.contains("? and pick up"), "{}: sealed as `? text`", engine.slug());
    }
}

#[test]
fn house_rule_16_the_adjudication_plays_only_the_readable_lines() {
    let g = Railroaded::standard().expect("rules");
    let (sheet, echo) = parse_sheet(&g, "CLAIM 7H NORTH\nFLY TO THE MOON\nthanks\nDRAW please", None);
    let lines: Vec<usize> = sheet.orders.iter().map(|o| o.line).collect();
    assert_eq!(lines, [1, 4], "line 2 is not understood, line 3 a courtesy");
    assert_eq!(echo.lines[3].understood.as_deref(), Some("DRAW"));
    assert!(echo.lines[3].advice.as_deref().is_some_and(|a| a.contains("\"please\" ignored")), "{echo:?}");
}

#[test]
fn house_rule_16_one_round_please_is_read_as_one_round() {
    let g = registry::find("1835").expect("1835");
    let echo = echo_of(g, "One round please");
    assert_eq!((echo.errors, echo.lines[0].understood.as_deref()), (0, Some("ONE ROUND")));
}

#[test]
fn house_rule_16_a_misspelt_order_word_is_answered_with_the_line_corrected() {
    let g = Railroaded::standard().expect("rules");
    let (_, echo) = parse_sheet(&g, "CLIAM 7H NORTH", None);
    assert_eq!(echo.lines[0].suggestion.as_deref(), Some("did you mean `CLAIM 7H NORTH`?"), "{echo:?}");
    let (_, echo) = parse_sheet(&g, "ZZZ", None);
    assert_eq!(echo.lines[0].suggestion, None, "nothing useful to say about a short unknown word");
}

#[test]
fn house_rule_16_a_sheet_of_courtesies_has_no_readable_order() {
    let g = Railroaded::standard().expect("rules");
    let (sheet, echo) = parse_sheet(&g, "Thanks!\nBest regards", None);
    assert!(sheet.is_empty());
    assert_eq!((echo.readable(), echo.errors), (0, 0));
}

#[test]
fn house_rule_12_carried_intentions_are_played_after_the_sheet_as_line_0() {
    let g = Railroaded::standard().expect("rules");
    let sheet = played_sheet(&g, "CLAIM 7H NORTH", &["DRAW".to_string(), "NOT AN ORDER".to_string()]);
    let lines: Vec<(usize, String)> = sheet.orders.iter().map(|o| (o.line, o.order.to_string())).collect();
    assert_eq!(lines, [(1, "CLAIM 7H NORTH".to_string()), (0, "DRAW".to_string())]);
    assert_eq!(sheet.used.len(), 2);
    assert!(g.lasting(&sheet.orders[1].order).is_none(), "Railroaded states no lasting intentions");
}
