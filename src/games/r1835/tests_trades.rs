//! Trains between two players' companies (issue 33; RULINGS K36, K75): by mail, sealed orders
//! that match (a matched trade, an unmatched one reported to both directors and no NMR, an
//! offer above the treasury, the buyer's other alternatives), the grammar and what is
//! published; and the replay fixture of a game recorded in Rails with such a trade, which the
//! `rails` preset's option takes and the `pbem` one refuses.

use super::options::ForeignTrainTrades;
use super::orders::parse;
use super::state::{Entity, Round, State};
use super::tests::{co, engine, game};
use super::trains::tests::{bank_at, fund, give, major, operating};
use super::*;
use crate::adjudication::{TurnResult, run_turn};
use crate::engine::prelude::*;
use crate::engine::{GameRng, OrderSheet, Seat, SetupSpec, Viewer};
use crate::orders::parse_sheet;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// BY (seat 1) operates in phase 2 with `cash`; SX (seat 2) holds a 2-train; the turn is
/// this one operating round.
fn position(g: &R1835, cash: i64) -> State {
    let (by, sx) = (major(g, "BY"), major(g, "SX"));
    let mut s = operating(g, by);
    fund(&mut s, by, cash);
    bank_at(g, &mut s, "3", "2");
    give(&mut s, sx, &["2"]);
    s.options.rounds_per_turn = 1;
    s
}

/// Plays the turn from `s` with these seats' orders.
fn play(g: &R1835, s: &State, orders: &[(u8, &str)]) -> TurnResult<R1835> {
    let sheets: BTreeMap<Seat, OrderSheet<Order>> = orders
        .iter()
        .map(|(seat, text)| {
            let (sheet, echo) = parse_sheet(g, text, Some((s, Seat(*seat))));
            assert_eq!(echo.errors, 0, "seat {seat}: {:?}", echo.lines);
            (Seat(*seat), sheet)
        })
        .collect();
    run_turn(g, s, 0, 0, sheets).expect("the turn plays")
}

fn notes(r: &TurnResult<R1835>, seat: u8) -> Vec<String> {
    r.notes.get(&Seat(seat)).map(|v| v.iter().map(|n| n.note.clone()).collect()).unwrap_or_default()
}

fn noted(r: &TurnResult<R1835>, seat: u8, what: &str) -> bool {
    notes(r, seat).iter().any(|n| n.contains(what))
}

fn trains(g: &R1835, s: &State, id: &str) -> Vec<String> {
    s.majors[co(g, id)].trains.clone()
}

#[test]
fn ruling_k75_matching_sealed_orders_sell_the_train_in_the_buyers_trains_step() {
    let g = engine();
    let s = position(&g, 500);
    let money = s.money();
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 2 FROM SX FOR 150"), (2, "SX: SELL TRAIN 2 TO BY MIN 100")]);
    let offer = Action::OfferTrain { company: "BY".into(), train: "2".into(), from: "SX".into(), price: 150 };
    let accept = Action::AnswerTrainOffer { company: "SX".into(), accept: true };
    let at = r.actions.iter().position(|(_, a, _)| *a == offer).expect("BY offers");
    assert_eq!(r.actions[at + 1], (Seat(2), accept, false), "SX's director's line accepts");
    assert_eq!(trains(&g, &r.state, "BY"), vec!["2"]);
    assert_eq!((r.state.majors[co(&g, "BY")].cash, r.state.majors[co(&g, "SX")].cash), (350, 150));
    assert_eq!(r.state.money(), money);
    assert!(noted(&r, 1, "offered SX 150 M for its 2-train"), "{:?}", notes(&r, 1));
    assert!(noted(&r, 2, "sold SX's 2-train to BY for its offer of 150 M"), "{:?}", notes(&r, 2));
    assert!(r.nmr.is_empty());
}

#[test]
fn ruling_k75_an_unmatched_offer_is_reported_to_both_directors_and_is_no_nmr() {
    let g = engine();
    let s = position(&g, 500);
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 2 FROM SX FOR 150"), (2, "SX: SELL TRAIN 2 TO BY MIN 200")]);
    let decline = Action::AnswerTrainOffer { company: "SX".into(), accept: false };
    assert!(r.actions.contains(&(Seat(2), decline, false)), "answered by the orders, not a default");
    assert_eq!(trains(&g, &r.state, "SX"), vec!["2"], "SX keeps its train");
    assert!(noted(&r, 2, "BY offers 150 M"), "{:?}", notes(&r, 2));
    assert!(noted(&r, 2, "so SX keeps it — not an NMR"), "{:?}", notes(&r, 2));
    assert!(noted(&r, 1, "SX's director has declined 150 M"), "{:?}", notes(&r, 1));
    let to_buyer = r.events.iter().any(|e| e.text_for(Viewer::Seat(Seat(1))).contains("your offer of 150 M"));
    assert!(to_buyer, "the buyer's report says what became of the offer");
    assert!(r.nmr.is_empty() && !r.defaulted.contains(&Seat(2)));
    for viewer in [Viewer::Public, Viewer::Seat(Seat(3))] {
        assert!(r.events.iter().all(|e| !e.text_for(viewer).contains("150")), "the price stays hidden");
    }
}

#[test]
fn ruling_k75_a_silent_seller_keeps_the_train_without_a_default() {
    let g = engine();
    let s = position(&g, 500);
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 2 FROM SX FOR 150")]);
    let decline = Action::AnswerTrainOffer { company: "SX".into(), accept: false };
    assert!(r.actions.contains(&(Seat(2), decline, false)));
    assert!(!r.nmr.contains(&Seat(2)) && !r.defaulted.contains(&Seat(2)));
    assert!(noted(&r, 2, "no order of yours sells it"));
}

#[test]
fn ruling_k75_a_sale_line_no_offer_reached_is_reported_to_its_director_alone() {
    let g = engine();
    let s = position(&g, 500);
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 3"), (2, "SX: SELL TRAIN 2 TO BY MIN 100")]);
    assert_eq!(trains(&g, &r.state, "SX"), vec!["2"], "no offer, no sale");
    let mine: Vec<_> = r.notes.get(&Seat(2)).into_iter().flatten().filter(|n| n.line == 1).collect();
    assert_eq!(mine.len(), 1, "one note on the seller's line: {mine:?}");
    assert!(!mine[0].executed && mine[0].note.contains("no matching purchase"), "{mine:?}");
    assert!(!noted(&r, 1, "MIN 100") && !noted(&r, 1, "no matching purchase"), "{:?}", notes(&r, 1));
    for viewer in [Viewer::Public, Viewer::Seat(Seat(1)), Viewer::Seat(Seat(3))] {
        assert!(r.events.iter().all(|e| !e.text_for(viewer).contains("100")), "the minimum stays private");
    }
    assert!(r.nmr.is_empty() && !r.defaulted.contains(&Seat(2)));
    // An offer that reached the line and was too low has its own note, and no second one.
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 2 FROM SX FOR 150"), (2, "SX: SELL TRAIN 2 TO BY MIN 200")]);
    assert!(!noted(&r, 2, "no matching purchase"), "{:?}", notes(&r, 2));
}

#[test]
fn ruling_k75_an_offer_above_the_treasury_is_not_made() {
    let g = engine();
    let s = position(&g, 100);
    let r = play(&g, &s, &[(1, "BY: BUY TRAIN 2 FROM SX FOR 150"), (2, "SX: SELL TRAIN 2 TO BY MIN 100")]);
    assert!(r.actions.iter().all(|(_, a, _)| !matches!(a, Action::OfferTrain { .. })));
    assert!(noted(&r, 1, "BY has 100 M; a train from another company is paid from the treasury only (HR 9)"));
    assert_eq!(trains(&g, &r.state, "SX"), vec!["2"]);
    assert!(r.nmr.is_empty());
}

#[test]
fn ruling_k75_a_declined_offer_goes_on_to_the_lines_other_alternatives() {
    let g = engine();
    let s = position(&g, 500);
    let orders = "BY: BUY TRAIN 2 FROM SX FOR 150 ELSE BUY TRAIN 2 FROM SX FOR 220 ELSE BUY TRAIN 3";
    let r = play(&g, &s, &[(1, orders), (2, "SX: SELL TRAIN 2 TO BY MIN 200")]);
    assert_eq!(trains(&g, &r.state, "BY"), vec!["2"], "the second offer meets the minimum");
    assert_eq!(r.state.majors[co(&g, "SX")].cash, 220);
    let r = play(&g, &s, &[(1, orders), (2, "SX: SELL TRAIN 2 TO BY FOR 180")]);
    assert_eq!(trains(&g, &r.state, "BY"), vec!["3"], "neither offer is the one named: BY buys a 3");
    assert_eq!(trains(&g, &r.state, "SX"), vec!["2"]);
}

#[test]
fn ruling_k75_a_sale_line_names_its_train_buyer_and_price_and_is_never_published() {
    let g = engine();
    let s = position(&g, 500);
    let line = |t: &str| parse(t).map(|o| o.to_string());
    assert_eq!(line("sx: sell train 2 to bay min 200").as_deref(), Ok("SX: SELL TRAIN 2 TO BY MIN 200"));
    assert_eq!(line("SX: SELL TRAIN 2 TO BY FOR 250").as_deref(), Ok("SX: SELL TRAIN 2 TO BY FOR 250"));
    for bad in ["SX: SELL TRAIN 2 TO BY", "SX: SELL TRAIN 2 MIN 200", "SX: SELL TRAIN 2 TO BY MIN 0"] {
        assert!(parse(bad).is_err(), "{bad} is not understood");
    }
    assert!(parse("SELL TRAIN 2 TO BY MIN 200").is_err(), "a company's line names the company");
    let (sheet, echo) = parse_sheet(&g, "SX: SELL TRAIN 2 TO BY MIN 200", Some((&s, Seat(2))));
    assert!(echo.lines[0].advice.as_deref().is_some_and(|a| a.contains("answers BY's offer")), "{echo:?}");
    let text = "BY: BUY TRAIN 2 FROM SX FOR 150\nBY: PASS";
    let r = play(&g, &s, &[(1, text), (2, "SX: SELL TRAIN 2 TO BY MIN 100")]);
    let (buyer, _) = parse_sheet(&g, text, None);
    let public = g.public_lines(&buyer, &r.notes[&Seat(1)]);
    assert!(!public.contains(&1), "the offer's line is not published: {public:?}");
    assert!(g.public_lines(&sheet, &r.notes[&Seat(2)]).is_empty(), "nor the sale's");
}

#[test]
fn the_rails_preset_takes_a_recorded_trade_and_the_pbem_preset_asks_for_an_offer() {
    let g = engine();
    assert_eq!(
        game(&g, 4, json!({"preset": "rails"})).options.foreign_train_trades,
        ForeignTrainTrades::Direct
    );
    assert_eq!(game(&g, 4, Value::Null).options.foreign_train_trades, ForeignTrainTrades::Offer);
    let mut stored = serde_json::to_value(game(&g, 4, Value::Null)).expect("a state");
    stored["options"].as_object_mut().expect("options").remove("foreign_train_trades");
    let old: State = serde_json::from_value(stored).expect("a game stored before the option loads");
    assert_eq!(old.options.foreign_train_trades, ForeignTrainTrades::Offer);
}

// ---- the replay fixture: a game recorded in Rails with a trade between two players ----

const WHOLE: &str = "tests/fixtures/1835/whole_game";
const TRADE: &str = "tests/data/1835/replays/rails_trade_between_players";

fn read(path: &str, ext: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}.{ext}", env!("CARGO_MANIFEST_DIR"))).expect("a fixture file")
}

fn log_lines(log: &str) -> impl Iterator<Item = &str> {
    log.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
}

/// A trade the operating company could make now with another player's company at half the
/// printed price, if Rails' option takes a recorded one: its seat (1-based) and action.
fn trade_here(g: &R1835, s: &State) -> Option<(u8, Action)> {
    if !matches!(s.round, Round::Operating { .. }) || s.or.turn.step != state::Step::Trains {
        return None;
    }
    let e = g.operating_entity(s)?;
    let p = g.controller(s, e)?;
    let others = (0..s.majors.len())
        .filter_map(|c| u8::try_from(c).ok().map(Entity::Major))
        .chain((0..s.minors.len()).filter_map(|m| u8::try_from(m).ok().map(Entity::Minor)));
    for x in others.filter(|x| g.controller(s, *x).is_some_and(|q| q != p)) {
        let held = match x {
            Entity::Major(c) => s.majors[usize::from(c)].trains.clone(),
            Entity::Minor(m) => s.minors[usize::from(m)].trains.clone(),
        };
        for t in held {
            let a = Action::BuyTrain {
                company: g.entity_id(s, e),
                train: t.clone(),
                from: g.entity_id(s, x),
                price: g.train_price(&t) / 2,
            };
            let mut trial = s.clone();
            trial.options.foreign_train_trades = ForeignTrainTrades::Direct;
            if g.apply_action(&mut trial, &a).is_ok() {
                return Some((p + 1, a));
            }
        }
    }
    None
}

/// The fixture as made: the whole game's log up to the first trains step in which a company
/// could buy a train of another player's company, then that purchase at half its printed price.
fn made(g: &R1835) -> String {
    let whole = read(WHOLE, "jsonl");
    let spec = SetupSpec { seats: 4, options: json!({}) };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(14)).expect("setup");
    let mut out = vec![
        "# 1835 as Rails records it: a company buys a train of another player's company at an agreed price (issue 33).".to_string(),
        "# The log of tests/fixtures/1835/whole_game.jsonl up to the first chance of such a trade, then the trade.".into(),
        "# Made by src/games/r1835/tests_trades.rs (REGENERATE=1); do not edit by hand.".into(),
    ];
    for line in log_lines(&whole) {
        if let Some((seat, action)) = trade_here(g, &s) {
            out.push(json!({"action": action, "seat": seat}).to_string());
            return format!("{}\n", out.join("\n"));
        }
        let v: Value = serde_json::from_str(line).expect("a log line");
        let action: Action = serde_json::from_value(v["action"].clone()).expect("an action");
        g.apply_action(&mut s, &action).expect("the whole game replays");
        out.push(line.to_string());
    }
    panic!("the whole game offers no trade between two players")
}

/// Replays the fixture with `options`: the state at its end, or the first action refused.
fn replay(g: &R1835, options: Value) -> Result<(State, State), (usize, String)> {
    let spec = SetupSpec { seats: 4, options };
    let mut s = g.setup(&spec, &mut GameRng::for_setup(14)).expect("setup");
    let mut before = s.clone();
    for (i, line) in log_lines(&read(TRADE, "jsonl")).enumerate() {
        let v: Value = serde_json::from_str(line).expect("a log line");
        let action: Action = serde_json::from_value(v["action"].clone()).expect("an action");
        before = s.clone();
        g.apply(&mut s, &action, &mut GameRng::for_action(14, i as u64)).map_err(|e| (i, e.0))?;
    }
    Ok((before, s))
}

#[test]
fn the_rails_trade_fixture_is_the_whole_game_up_to_its_first_chance_of_a_trade() {
    let g = engine();
    let made = made(&g);
    if std::env::var("REGENERATE").is_ok() {
        let path = format!("{}/{TRADE}.jsonl", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, &made).expect("the fixture is written");
    }
    assert_eq!(read(TRADE, "jsonl"), made);
}

#[test]
fn a_game_recorded_in_rails_with_a_trade_between_two_players_replays_with_the_option_and_not_without() {
    let g = engine();
    let file: Value = serde_json::from_str(&read(TRADE, "json")).expect("the game file");
    assert_eq!(file["options"], json!({"foreign_train_trades": "direct"}));
    let (before, after) = replay(&g, file["options"].clone()).expect("the option takes the recorded trade");
    assert_eq!(after.money(), before.money(), "the ledger is conserved");
    let count = |s: &State| {
        s.majors.iter().map(|c| c.trains.len()).sum::<usize>()
            + s.minors.iter().map(|m| m.trains.len()).sum::<usize>()
    };
    assert_eq!(count(&after), count(&before), "the train changed hands, none came or went");
    let lines = log_lines(&read(TRADE, "jsonl")).count();
    let (at, why) = replay(&g, json!({})).expect_err("the pbem preset refuses it");
    assert_eq!(at, lines - 1, "only the trade is refused");
    assert!(why.contains("RULINGS K36, K75"), "{why}");
}
