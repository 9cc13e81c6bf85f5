//! Issue 15's end-to-end test: a four-player 1835 game played by mail through the server, from
//! the start packet to the first Prussian moment. Every seat's orders arrive as a mail to its
//! signed reply address (the inbound path: ingest, route, commands, echo), each turn closes at its
//! deadline on the scheduler's pass, is adjudicated under the PBEM preset (two rounds a turn,
//! RULINGS K65; every player's orders awaited, K66) and published at once (review `auto`), and
//! every player gets a report by mail. When a round ends and a seat's orders no longer fit (HR 14,
//! RULINGS K61) the GM is asked by mail and answers `ANSWER <n> CONTINUE` to the signed GM
//! address the question came from; the turn then goes on and publishes.
//!
//! The order texts are the players' own lines, written from the last published position: shares
//! as cash allows (seat 4 buys BY and SX out of the IPO so that BA comes on sale, RELEASE in
//! `rules/1835/companies.toml`, and floats it — without a third share company the minors, BY and
//! SX hold every train before the first 4 and nobody has room for it), and for every company a
//! seat directs `LAY BEST` and the bank's next train in each operating round of the turn. The
//! first 4 asks M2's owner whether to form the Prussian; its sheet that turn says nothing, so it
//! waits (RULINGS K50), and the next turn it mails `FORM PR`: the Prussian forms, as the next
//! published turn and that player's report mail say.

use crate::db::test_db;
use crate::helpers::{PLAYERS, TestApp, create_game_on, spawn_app};
use crate::inbound::deliver;
use chrono::Duration;
use serde_json::Value;
use stationmaster::engine::Seat;
use stationmaster::engine::outcome::{Checkpoint, QuestionKind};
use stationmaster::schedule::GameClock;
use stationmaster::service::{CreatedGame, Review};
use std::sync::atomic::{AtomicUsize, Ordering};

static MAIL: AtomicUsize = AtomicUsize::new(0);

/// The turn by which the first 4 must have come on these orders (it comes in turn 14).
const LAST_TURN: i32 = 16;

/// The address of a seat's player, as [`PLAYERS`] gives it.
pub(crate) fn address(seat: u8) -> String {
    let p = PLAYERS[usize::from(seat) - 1];
    p[p.find('<').unwrap() + 1..p.find('>').unwrap()].to_string()
}

/// A mail from `from` to `to` through the ingest path; returns (status, outcome, echo).
async fn send(app: &TestApp, from: &str, to: &str, subject: &str, body: &str) -> (String, String, bool) {
    let n = MAIL.fetch_add(1, Ordering::SeqCst);
    let raw = format!(
        "From: Someone <{from}>\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <e2e-{n}@mail.example.org>\r\n\
         Date: Mon, 2 Mar 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    );
    let (status, outcome, echo) = deliver(app, raw.as_bytes()).await;
    (status, outcome, echo.is_some())
}

/// A player mails orders (with FINAL) to the seat's reply address; the mail must be accepted.
pub(crate) async fn mail_orders(app: &TestApp, g: &CreatedGame, seat: u8, turn: i32, orders: &str) {
    let to = app.ctx.reply_address(g.id, Seat(seat), 1);
    let body = format!("{orders}\r\nFINAL");
    let (status, outcome, echo) = send(app, &address(seat), &to, &format!("Re: turn {turn}"), &body).await;
    assert_eq!(status, "accepted", "seat {seat}, turn {turn}: {outcome}");
    assert!(echo, "the seat gets its echo by mail");
}

/// Closes the open turn at its deadline; each HR 14 checkpoint the adjudication stops at is
/// answered by the GM by mail (CONTINUE). Returns the checkpoints answered.
pub(crate) async fn close_at_deadline(app: &TestApp, g: &CreatedGame, turn: i32) -> usize {
    let before = app.outbox().await.iter().filter(|m| m.kind == "report").count();
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let mut answered = 0;
    while let Some(q) = app.turn(g.id, turn).await.question.map(|q| q.0) {
        assert_eq!(q.kind, QuestionKind::Checkpoint, "turn {turn}: only HR 14 stops here: {}", q.prompt);
        let asked =
            app.outbox().await.into_iter().rev().find(|m| m.subject.contains("go on with the next round?"));
        let asked = asked.expect("the GM is asked by mail");
        assert!(
            asked.body_text.contains(&format!("ANSWER {} CONTINUE", q.number + 1)),
            "{}",
            asked.body_text
        );
        let to = asked.reply_to.expect("the question mail carries the GM's signed address");
        let answer = format!("ANSWER {} CONTINUE", q.number + 1);
        let (status, outcome, _) = send(app, "gm@example.org", &to, "Re: go on?", &answer).await;
        assert_eq!(status, "accepted", "turn {turn}: {outcome}");
        let t = app.turn(g.id, turn).await;
        assert!(t.gm_answers.0.ends_with(&[Checkpoint::Continue.to_answer()]), "stored as the GM's answer");
        answered += 1;
        assert!(answered < 5, "turn {turn}: the checkpoints do not end");
    }
    let t = app.turn(g.id, turn).await;
    assert_eq!(t.status.as_str(), "published", "turn {turn}: {:?} {:?}", t.failure, t.held_reason);
    let reports = app.outbox().await.iter().filter(|m| m.kind == "report").count() - before;
    assert_eq!(reports, 4, "turn {turn}: a report for every player");
    answered
}

/// The share companies seat `seat` directs in a published state (its director's certificate).
fn directs(state: &Value, seat: u8) -> Vec<String> {
    let director = |c: &Value| {
        c["certs"].as_array().into_iter().flatten().any(|x| {
            x["director"].as_bool() == Some(true) && x["at"]["player"].as_u64() == Some(u64::from(seat) - 1)
        })
    };
    let majors = state["majors"].as_array().expect("majors");
    majors
        .iter()
        .filter(|c| c["floated"].as_bool() == Some(true) && director(c))
        .filter_map(|c| c["id"].as_str().map(str::to_string))
        .collect()
}

/// A train order for a company in any phase: the bank's next train up to the first 4 (the
/// Prussian moment), written as players write it (a nested contingency, docs/1835-orders.md).
fn buy_train(company: &str) -> String {
    format!(
        "{company}: IF TRAIN 2 AVAILABLE THEN BUY TRAIN 2 ELSE IF TRAIN 2+2 AVAILABLE THEN BUY TRAIN 2+2 \
         ELSE IF TRAIN 3 AVAILABLE THEN BUY TRAIN 3 ELSE IF TRAIN 3+3 AVAILABLE THEN BUY TRAIN 3+3 \
         ELSE BUY TRAIN 4"
    )
}

/// A seat's orders for a turn after the packet, from the last published `state`: its stock
/// lines, then for every company it directs (its minors, the share companies whose director's
/// certificate it holds) `LAY BEST` and a train from the bank in each operating round of the
/// turn (twice: a turn covers two rounds, K65). Lines that cannot be carried out are reported,
/// not replaced (HR 19); a company's lines wait for its operating turn. Seats 1 and 2 write
/// purchases they cannot always pay for (the HR 14 checkpoints); seats 3 and 4 say when.
fn orders(seat: u8, state: &Value) -> String {
    let seat4 = "IF CASH >= 100 THEN (BUY 1 BA IPO ELSE BUY 1 BY IPO ELSE BUY 1 SX IPO)";
    let (stock, minors): (String, &[&str]) = match seat {
        1 => ("BUY 1 BY IPO\nBUY 1 BY IPO\nPASS".into(), &[]),
        2 => ("BUY 1 SX IPO\nPASS".into(), &["M4", "M5"]),
        3 => ("IF CASH >= 200 THEN (BUY 1 BA IPO ELSE BUY 1 BY IPO)\nPASS".into(), &["M2", "M3"]),
        _ => ([seat4; 4].join("\n"), &["M1", "M6"]),
    };
    let mut companies: Vec<String> = minors.iter().map(|m| m.to_string()).collect();
    companies.extend(directs(state, seat));
    let lay = |c: &str| format!("{c}: LAY BEST");
    let trains: Vec<String> =
        companies.iter().flat_map(|c| [lay(c), buy_train(c), lay(c), buy_train(c)]).collect();
    format!("{stock}\n{}", trains.join("\n"))
}

#[tokio::test]
async fn a_four_player_1835_game_is_played_by_mail_to_the_first_prussian_moment() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    let packet = [
        "BUY NF\nBUY BY\nBUY OBB",
        "BUY LD\nBUY M4\nBUY M5",
        "BUY M2\nBUY M3\nBUY PFB",
        "BUY M1\nBUY BB\nBUY HB\nBUY M6",
    ];
    for (i, orders) in packet.iter().enumerate() {
        mail_orders(&app, &g, i as u8 + 1, 1, orders).await;
    }
    close_at_deadline(&app, &g, 1).await;
    let events = app.turn(g.id, 1).await.draft.unwrap().0.events;
    assert!(events.iter().any(|e| e.public.contains("M2")), "the packet was sold: {events:?}");

    // Played by mail until the first 4 is bought and M2's owner (seat 3) is asked.
    let (mut first_three, mut checkpoints, mut four) = (false, 0, None);
    let mut state = app.turn(g.id, 1).await.draft.unwrap().0.state;
    let mut turn = 2;
    while four.is_none() {
        assert!(turn <= LAST_TURN, "no 4 by turn {LAST_TURN}");
        let t = app.turn(g.id, turn).await;
        assert_eq!(t.acting_seats.len(), 4, "turn {turn} awaits every player (K66)");
        for seat in 1..=4u8 {
            mail_orders(&app, &g, seat, turn, &orders(seat, &state)).await;
        }
        checkpoints += close_at_deadline(&app, &g, turn).await;
        let outcome = app.turn(g.id, turn).await.draft.unwrap().0;
        assert!(outcome.nmr.is_empty(), "every seat sent orders: {:?}", outcome.nmr);
        assert!(!outcome.game_over);
        // K65, K67: each turn covers two rounds (a stock round and an operating round, or two
        // operating rounds of a set once phase 2 brings two a set).
        let (was, now) = (state["round_seq"].as_u64(), outcome.state["round_seq"].as_u64());
        assert_eq!(now, was.map(|n| n + 2), "turn {turn} played two rounds");
        first_three |= outcome.events.iter().any(|e| e.public.contains("buys a 3-train"));
        if outcome.events.iter().any(|e| e.public.contains("buys a 4-train")) {
            four = Some(turn);
        }
        state = outcome.state;
        turn += 1;
    }
    let four = four.unwrap();
    assert!(first_three, "the orders by mail bought the 3s (phase 2) on the way");
    assert!(checkpoints >= 1, "an HR 14 checkpoint came and the GM answered it by mail");
    let asked = app.turn(g.id, four).await.draft.unwrap().0;
    let said = |text: &str| asked.events.iter().any(|e| e.public.contains(text));
    assert!(said("M2's owner may now form the Prussian"), "{:?}", asked.events);
    // Its sheet that turn had no answer: it waits (RULINGS K50); the question comes again.
    assert!(said("Seat 3 does not form the Prussian for now"), "{:?}", asked.events);

    // M2's owner answers by mail; the others play on.
    let next = four + 1;
    for seat in 1..=4u8 {
        let mut text = orders(seat, &state);
        if seat == 3 {
            text = format!("FORM PR\n{text}");
        }
        mail_orders(&app, &g, seat, next, &text).await;
    }
    close_at_deadline(&app, &g, next).await;
    let outcome = app.turn(g.id, next).await.draft.unwrap().0;
    let formed = outcome.events.iter().find(|e| e.public.starts_with("Seat 3 forms the Prussian with M2"));
    assert!(formed.is_some(), "{:?}", outcome.events);
    let pr = outcome.state["majors"].as_array().unwrap().iter().find(|c| c["id"] == "PR").unwrap();
    assert_eq!(pr["floated"], true, "the Prussian is open");
    let notes = &outcome.notes[&Seat(3)];
    assert!(notes.iter().any(|n| n.line == 1 && n.executed), "seat 3's FORM PR was carried out: {notes:?}");
    let mails = app.outbox().await;
    let report_of = |seat: u8| {
        let mail = mails.iter().find(|m| {
            m.kind == "report" && m.to_addr == address(seat) && m.subject.contains(&format!("Turn {next} "))
        });
        mail.expect("every seat's report of the turn").body_text.clone()
    };
    let (own, other) = (report_of(3), report_of(1));
    assert!(own.contains("line 1: carried out: FORM PR"), "{own}");
    // RULINGS K73: round by round, each action with the line that caused it beside it; the lines
    // seat 3 could not carry out are in its report alone.
    let rounds = own.matches("  * — OR").count() + own.matches("  * — SR").count();
    assert!(rounds >= 2, "grouped by round, this turn's two rounds each under its heading: {own}");
    let after = &own[own.find("Seat 3 forms the Prussian with M2").expect("the event")..];
    let until_next_event = after.find("\n  * ").unwrap_or(after.len());
    assert!(after[..until_next_event].contains("your line 1: carried out: FORM PR"), "{after}");
    assert!(other.contains("seat 3's line 1: FORM PR"), "published lines carried out: {other}");
    for n in notes.iter().filter(|n| !n.executed && n.note.contains("M3")) {
        assert!(own.contains(&n.note), "{own}");
        assert!(!other.contains(&n.note), "seat 3's line {} not carried out is private: {other}", n.line);
    }
}
