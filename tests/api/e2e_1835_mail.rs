//! Issue 15's end-to-end test: a four-player 1835 game played by mail through the server. Every
//! seat's orders arrive as a mail to its signed reply address (the inbound path: ingest, route,
//! commands, echo), each turn closes at its deadline on the scheduler's pass, is adjudicated
//! under the PBEM preset (two rounds a turn, RULINGS K65; every player's orders awaited, K66)
//! and published at once (review `auto`), and every player gets a report by mail. The order texts
//! are today's stock-round lines (BUY, PASS); operating rounds run from the defaults. The game is
//! played until the first Prussian moment (the first 4 train) or turn 8: the defaults buy no
//! train today, so the moment comes only once orders can buy trains in operating rounds.

use crate::helpers::{PLAYERS, TestApp, create_game_on, spawn_app};
use crate::inbound::deliver;
use chrono::Duration;
use sqlx::PgPool;
use stationmaster::engine::Seat;
use stationmaster::schedule::GameClock;
use stationmaster::service::{CreatedGame, Review};
use std::sync::atomic::{AtomicUsize, Ordering};

static MAIL: AtomicUsize = AtomicUsize::new(0);

/// The address of a seat's player, as [`PLAYERS`] gives it.
fn address(seat: u8) -> String {
    let p = PLAYERS[usize::from(seat) - 1];
    p[p.find('<').unwrap() + 1..p.find('>').unwrap()].to_string()
}

/// A player mails orders (with FINAL) to the seat's reply address; the mail must be accepted.
async fn mail_orders(app: &TestApp, g: &CreatedGame, seat: u8, turn: i32, orders: &str) {
    let to = app.ctx.reply_address(g.id, Seat(seat), 1);
    let n = MAIL.fetch_add(1, Ordering::SeqCst);
    let raw = format!(
        "From: Player <{}>\r\nTo: {to}\r\nSubject: Re: turn {turn}\r\nMessage-ID: <e2e-{n}@mail.example.org>\r\n\
         Date: Mon, 2 Mar 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{orders}\r\nFINAL\r\n",
        address(seat)
    );
    let (status, outcome, echo) = deliver(app, raw.as_bytes()).await;
    assert_eq!(status, "accepted", "seat {seat}, turn {turn}: {outcome}");
    assert!(echo.is_some(), "the seat gets its echo by mail");
}

/// Closes the open turn at its deadline and returns the number of reports it mailed.
async fn close_at_deadline(app: &TestApp, g: &CreatedGame, turn: i32) -> usize {
    let before = app.outbox().await.iter().filter(|m| m.kind == "report").count();
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(g.id, turn).await;
    assert_eq!(t.status.as_str(), "published", "turn {turn}: {:?} {:?}", t.failure, t.held_reason);
    app.outbox().await.iter().filter(|m| m.kind == "report").count() - before
}

/// Stock-round orders for a later turn: a share of each floated company a seat can afford, in
/// today's line language; lines the adjudication cannot carry out are reported, not replaced.
const LATER: [&str; 4] =
    ["BUY 1 BY IPO\nBUY 1 BY IPO\nPASS", "BUY 1 SX IPO\nPASS", "BUY 1 BY IPO\nPASS", "PASS"];

#[sqlx::test(migrations = "./migrations")]
async fn a_four_player_1835_game_is_played_by_mail_over_several_turns(pool: PgPool) {
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
    assert_eq!(close_at_deadline(&app, &g, 1).await, 4, "a report for every player");
    let events = app.turn(g.id, 1).await.draft.unwrap().0.events;
    assert!(events.iter().any(|e| e.public.contains("M2")), "the packet was sold: {events:?}");

    // The first Prussian moment comes with the first 4 train: operating rounds run from the
    // defaults, which buy no train today, so the game is played until it or turn 8.
    let mut prussian = false;
    let mut turn = 2;
    while !prussian && turn <= 8 {
        let t = app.turn(g.id, turn).await;
        assert_eq!(t.acting_seats.len(), 4, "turn {turn} awaits every player (K66)");
        for seat in 1..=4u8 {
            mail_orders(&app, &g, seat, turn, LATER[usize::from(seat) - 1]).await;
        }
        assert_eq!(close_at_deadline(&app, &g, turn).await, 4);
        let outcome = app.turn(g.id, turn).await.draft.unwrap().0;
        assert!(outcome.nmr.is_empty(), "every seat sent orders: {:?}", outcome.nmr);
        // K65: each turn covers a stock round and the operating round after it.
        assert_eq!(outcome.state["round"]["stock"]["n"], serde_json::json!(turn + 1), "turn {turn}");
        prussian = outcome.events.iter().any(|e| e.public.contains("Prussian"));
        if outcome.game_over {
            break;
        }
        turn += 1;
    }
    assert!(turn > 3, "several turns were played by mail");
}
