//! The 1833 card game through the whole server: create a game, sealed orders for the acting
//! seats, close and publish the turn, and per-seat reports that show only the seat's own hand.

use crate::db::test_db;
use crate::helpers::{PLAYERS, TestApp, spawn_app};
use axum::http::StatusCode;
use stationmaster::domain::{EmailAddress, Mailbox, TurnLength};
use stationmaster::service::{self, CloseOutcome, CreateGame, CreatedGame, GameClock, Review};

async fn create_1833(app: &TestApp) -> CreatedGame {
    service::create_game(
        &app.ctx,
        CreateGame {
            engine: "1833".into(),
            name: "Erie Canal Line".into(),
            gm: EmailAddress::parse("gm@example.org").unwrap(),
            players: PLAYERS.iter().map(|p| Mailbox::parse(p).unwrap()).collect(),
            seed: Some(7),
            turn_length: "48h".parse::<TurnLength>().unwrap(),
            review: Review::Auto,
            options: serde_json::json!({"turn_size": "player"}),
            clock: GameClock::default(),
        },
    )
    .await
    .unwrap()
}

fn reports_for_turn(rows: &[stationmaster::store::outbox::OutboxRow], email: &str) -> Vec<String> {
    rows.iter().filter(|m| m.kind == "report" && m.to_addr == email).map(|m| m.body_text.clone()).collect()
}

#[tokio::test]
async fn game_1833_orders_of_the_active_seat_are_played_and_each_report_shows_only_its_own_hand() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_1833(&app).await;

    // Turn 1 is the set-up selection, ordered by every seat with a preference list.
    for s in &g.seats {
        let display = app.seat_view(&g.id, s.token.reveal()).await["view"]["display"].clone();
        let first = display[0].as_str().unwrap().to_string();
        let r = app
            .post_orders(&g.id, s.token.reveal(), format!("SELECT {first}\nTAKE DISCARD: any Level 3"))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let out = service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(out, CloseOutcome::Published { game: g.id, turn: 1 });

    // Turn 2 is seat 1's player-turn: only seat 1 orders.
    let seat2 = &g.seats[1];
    let r = app.post_orders(&g.id, seat2.token.reveal(), "DRAW DECK").await;
    assert_ne!(r.status, StatusCode::CREATED, "seat 2 has nothing to order in seat 1's turn");
    let seat1 = &g.seats[0];
    let before = app.hand(&g.id, seat1.token.reveal(), 1).await;
    assert_eq!(before.len(), 4, "four cards after the selection: {before:?}");
    let r = app
        .post_orders(
            &g.id,
            seat1.token.reveal(),
            "IF HAND HAS Level 1 THEN DRAW DECK TO LIMIT\nTAKE DISCARD: NONE",
        )
        .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let out = service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(out, CloseOutcome::Published { game: g.id, turn: 2 });
    assert_eq!(app.hand(&g.id, seat1.token.reveal(), 1).await.len(), 5, "drawn to the hand limit");

    let view = app.seat_view(&g.id, seat1.token.reveal()).await;
    assert!(view["view"]["seats"][1].get("hand").is_none(), "seat 1 does not see seat 2's hand");
    assert_eq!(view["view"]["seats"][1]["hand_size"], 4);

    let rows = app.outbox().await;
    for s in &g.seats {
        let mine = reports_for_turn(&rows, s.player.email.as_str());
        assert!(!mine.is_empty(), "a report for seat {}", s.seat);
        let body = mine.last().unwrap();
        assert!(body.contains(&format!("Hand of seat {}:", s.seat)), "own hand shown:\n{body}");
        for other in (1..=4u8).filter(|o| *o != s.seat) {
            assert!(
                !body.contains(&format!("Hand of seat {other}:")),
                "hand of seat {other} leaked to seat {}",
                s.seat
            );
        }
        assert!(body.contains("Selection pool:"), "{body}");
    }
}
