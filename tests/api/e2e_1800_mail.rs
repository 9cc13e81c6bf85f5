//! Issue 35's end-to-end test for 1800: a four-player game (France, Prussia, Austria, Great
//! Britain) played by mail through the server for several rounds, one round a turn (RULING E30).
//! Every seat's orders arrive as a mail to its signed reply address (ingest, route, echo); each
//! turn closes at its deadline on the scheduler's pass and is published at once (review `auto`);
//! the reports go out over real SMTP (the in-process test server, `support/smtp.rs`).
//!
//! The seed deals a game whose era I brings the Great War in round 2 and Rising Fascism in round
//! 4, and offers a Professional Army in round 1's draft. Each seat places its commerce on Autocracy and
//! activates it every round, so it holds three admin cards when Rising Fascism asks for them. The
//! answers to the event are standing orders written in the first sheets and never repeated
//! (RULING E21, HR 12): France pays, Prussia accepts the revolution, Great Britain first accepts
//! and replaces that with PAY in round 2, Austria says nothing (the rules' default: it pays). In
//! the Great War France's regiment, recruited from the army it drafted, attacks the
//! conscript Prussia raised in the Rheinland; the battle is resolved at the war's end.

use crate::db::test_db;
use crate::helpers::{PLAYERS, TestApp, spawn_app};
use crate::inbound::deliver;
use chrono::Duration;
use stationmaster::domain::{EmailAddress, Mailbox, TurnLength};
use stationmaster::engine::Seat;
use stationmaster::engine::outcome::TurnOutcome as Outcome;
use stationmaster::service::{self, CreateGame, CreatedGame, GameClock, Review};
use std::sync::atomic::{AtomicUsize, Ordering};

static MAIL: AtomicUsize = AtomicUsize::new(0);

/// The game's seed: its era I deals the events and the draft described above.
const SEED: u64 = 223;
/// The round (= turn) of Rising Fascism and of the Great War under [`SEED`].
const FASCISM: i32 = 4;
const GREAT_WAR: i32 = 2;

/// The address of a seat's player, as [`PLAYERS`] gives it.
fn address(seat: u8) -> String {
    let p = PLAYERS[usize::from(seat) - 1];
    p[p.find('<').unwrap() + 1..p.find('>').unwrap()].to_string()
}

/// A player mails orders (with FINAL) to the seat's reply address; the mail must be accepted and
/// answered with the echo.
async fn mail_orders(app: &TestApp, g: &CreatedGame, seat: u8, turn: i32, orders: &str) {
    let to = app.ctx.reply_address(g.id, Seat(seat), 1);
    let n = MAIL.fetch_add(1, Ordering::SeqCst);
    let raw = format!(
        "From: Someone <{}>\r\nTo: {to}\r\nSubject: Re: turn {turn}\r\nMessage-ID: <e2e1800-{n}@mail.example.org>\r\n\
         Date: Mon, 2 Mar 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{orders}\r\nFINAL\r\n",
        address(seat)
    );
    let (status, outcome, echo) = deliver(app, raw.as_bytes()).await;
    assert_eq!(status, "accepted", "seat {seat}, turn {turn}: {outcome}");
    assert!(echo.is_some(), "seat {seat} gets its echo by mail");
}

/// Closes the open turn at its deadline; it must publish without a question, with a report for
/// every player. Returns the published outcome.
async fn close_at_deadline(app: &TestApp, g: &CreatedGame, turn: i32) -> Outcome {
    let before = app.outbox().await.iter().filter(|m| m.kind == "report").count();
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(g.id, turn).await;
    assert!(t.question.is_none(), "turn {turn} asks nothing of the GM");
    assert_eq!(t.status.as_str(), "published", "turn {turn}: {:?} {:?}", t.failure, t.held_reason);
    let reports = app.outbox().await.iter().filter(|m| m.kind == "report").count() - before;
    assert_eq!(reports, 4, "turn {turn}: a report for every player");
    t.draft.expect("the adjudicated turn").0
}

/// A seat's sheet for a turn: the standing answers to Rising Fascism (first sheets only), the
/// draft, Autocracy's admin card, and the war lines.
fn orders(seat: u8, turn: i32) -> String {
    let mut lines: Vec<&str> = Vec::new();
    match (seat, turn) {
        (1, 1) => lines.push("EVENT Rising Fascism PAY"),
        (2, 1) => lines.push("EVENT Rising Fascism ACCEPT"),
        (4, 1) => lines.push("EVENT Rising Fascism ACCEPT"),
        (4, 2) => lines.push("EVENT Rising Fascism PAY"),
        _ => {}
    }
    if seat == 1 {
        lines.extend(["DRAFT Standing Army, Professional Army, PASS", "RECRUIT Champagne"]);
    } else {
        lines.push("DRAFT PASS");
    }
    lines.extend(["PLACE C ON Autocracy", "ACTIVATE Autocracy"]);
    match seat {
        1 => lines.extend(["WAR PASS", "WAR MOVE Champagne TO Rheinland"]),
        2 => lines.push("WAR CONSCRIPT Rheinland"),
        _ => {}
    }
    lines.join("\n")
}

#[tokio::test]
async fn a_four_player_1800_game_is_played_by_mail_through_rising_fascism_and_the_great_war() {
    let (pool, _db) = test_db().await;
    let (port, mut server) = crate::helpers::smtp_server().await;
    let app = spawn_app(pool).await;
    let g = service::create_game(
        &app.ctx,
        CreateGame {
            engine: "1800".into(),
            name: "Europe by Mail".into(),
            gm: EmailAddress::parse("gm@example.org").unwrap(),
            players: PLAYERS.iter().map(|p| Mailbox::parse(p).unwrap()).collect(),
            seed: Some(SEED),
            turn_length: "48h".parse::<TurnLength>().unwrap(),
            review: Review::Auto,
            options: serde_json::json!({}),
            clock: GameClock::default(),
        },
    )
    .await
    .unwrap();

    let mut outcomes = Vec::new();
    for turn in 1..=FASCISM.max(GREAT_WAR) {
        let t = app.turn(g.id, turn).await;
        assert_eq!(t.acting_seats.len(), 4, "turn {turn} awaits every player (RULING E30)");
        for seat in 1..=4u8 {
            mail_orders(&app, &g, seat, turn, &orders(seat, turn)).await;
        }
        let outcome = close_at_deadline(&app, &g, turn).await;
        assert!(outcome.nmr.is_empty(), "every seat sent orders: {:?}", outcome.nmr);
        assert_eq!(outcome.state["round"].as_u64(), Some(turn as u64), "turn {turn} played one round");
        outcomes.push(outcome);
    }
    let said =
        |turn: i32, text: &str| outcomes[(turn - 1) as usize].events.iter().any(|e| e.public.contains(text));
    let events =
        |turn: i32| outcomes[(turn - 1) as usize].events.iter().map(|e| e.public.clone()).collect::<Vec<_>>();

    // Rising Fascism is drawn when round 3 ends; the seats that can pay are asked, and their
    // standing answers decide at the start of round 4.
    assert!(said(FASCISM - 1, "the global event is Rising Fascism"), "{:?}", events(FASCISM - 1));
    assert!(said(FASCISM - 1, "Prussia must discard 3 admin cards or suffer the revolution"));
    let fascism = events(FASCISM);
    let discards = |power: &str| fascism.iter().any(|e| e.starts_with(&format!("{power} discards ")));
    assert!(discards("France"), "France's standing PAY: {fascism:?}");
    assert!(discards("Great Britain"), "Great Britain's PAY replaced its ACCEPT: {fascism:?}");
    assert!(discards("Austria"), "silence pays when it can (RULING E21): {fascism:?}");
    assert!(!discards("Prussia"), "{fascism:?}");
    assert!(said(FASCISM, "Revolution in Prussia"), "Prussia's standing ACCEPT: {fascism:?}");
    let notes = &outcomes[(FASCISM - 1) as usize].notes;
    let standing = |seat: u8, text: &str| {
        notes[&Seat(seat)].iter().any(|n| n.line == 0 && n.executed && n.note.contains(text))
    };
    assert!(standing(1, "paid in cards"), "France's line from turn 1: {:?}", notes[&Seat(1)]);
    assert!(standing(2, "took the loss"), "Prussia's line from turn 1: {:?}", notes[&Seat(2)]);
    assert!(standing(4, "paid in cards"), "Great Britain's line from turn 2: {:?}", notes[&Seat(4)]);

    // The Great War: France's regiment attacks Prussia's conscript in the Rheinland.
    let war = events(GREAT_WAR);
    // Drawn when round 1 ends, the event stands at the end of turn 1.
    assert!(said(GREAT_WAR - 1, "The Great War: every power is at war"), "{:?}", events(GREAT_WAR - 1));
    assert!(said(1, "France recruits a regiment in Champagne"), "{:?}", events(1));
    assert!(said(GREAT_WAR, "Prussia conscripts a regiment in Rheinland"), "{war:?}");
    assert!(said(GREAT_WAR, "France attacks Prussia's regiment in Rheinland from Champagne"), "{war:?}");
    assert!(said(GREAT_WAR, "The war is over"), "{war:?}");
    let france = &outcomes[(GREAT_WAR - 1) as usize].notes[&Seat(1)];
    assert!(france.iter().any(|n| n.line == 6 && n.executed), "France's WAR MOVE (line 6): {france:?}");

    // Every report went out over SMTP, one a turn to each player; Prussia's report of round 4
    // tells of its revolution.
    let got = crate::helpers::deliver_over_smtp(&app, port, &mut server).await;
    for seat in 1..=4u8 {
        for turn in 1..=FASCISM.max(GREAT_WAR) {
            let to = format!("<{}>", address(seat));
            let n = got
                .iter()
                .filter(|raw| raw.contains(&to) && raw.contains(&format!("Turn {turn} result")))
                .count();
            assert_eq!(n, 1, "seat {seat} got its report of turn {turn} over SMTP, once");
        }
    }
    let mails = app.outbox().await;
    let prussia = mails.iter().find(|m| {
        m.kind == "report" && m.to_addr == address(2) && m.subject.contains(&format!("Turn {FASCISM} "))
    });
    let prussia = &prussia.expect("Prussia's report of the round of Rising Fascism").body_text;
    assert!(prussia.contains("Revolution in Prussia"), "{prussia}");
}
