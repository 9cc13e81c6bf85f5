//! "See your orders before the deadline" (issue 36): in 1835, a game of open information, a seat
//! sees its latest orders played now against the table (the other seats silent) — nothing is
//! stored or changed; in a game with hidden hands there is no preview at all.

use crate::db::test_db;
use crate::helpers::{create_game_on, spawn_app};
use axum::http::StatusCode;
use stationmaster::service::{GameClock, Review};

#[tokio::test]
async fn an_1835_seat_sees_its_orders_played_now_and_nothing_changes() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    let t = g.seats[0].token.reveal();
    let page = app.get(&format!("/play/{t}")).await.body;
    assert!(!page.contains("id=\"preview\""), "nothing to preview before orders are sent");
    let sent = app.post_orders(&g.id, t, "BUY NF\nBUY BY\nBUY THE MOON".to_string()).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.body);
    let page = app.get(&format!("/play/{t}")).await.body;
    assert!(page.contains(&format!("href=\"/play/{t}/preview\"")), "the seat page links the preview");
    let before = app.turn(g.id, 1).await;

    let preview = app.get(&format!("/play/{t}/preview")).await;
    assert_eq!(preview.status, StatusCode::OK, "{}", preview.body);
    let body = &preview.body;
    assert!(body.contains("Your orders, played now") && body.contains("BUY NF"), "{body}");
    assert!(body.contains("class=\"ok\""), "a line carried out says what it did: {body}");
    assert!(body.contains("The table after") && body.contains("What would happen"), "{body}");

    let after = app.turn(g.id, 1).await;
    assert_eq!(after.status.as_str(), "open", "the turn is untouched");
    assert_eq!(after.start_state, before.start_state);
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let versions =
        stationmaster::store::orders::count_of_seat(&mut conn, g.id, 1, stationmaster::engine::Seat(1));
    assert_eq!(versions.await.unwrap(), 1, "nothing stored");
}

#[tokio::test]
async fn a_game_with_hidden_hands_has_no_preview() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let t = g.seats[0].token.reveal();
    app.post_orders(&g.id, t, orders[0].clone().unwrap()).await;
    assert!(!app.get(&format!("/play/{t}")).await.body.contains("id=\"preview\""));
    let r = app.get(&format!("/play/{t}/preview")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("keeps information hidden"), "{}", r.body);
}
