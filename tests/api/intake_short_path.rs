//! The intake's short path (issue 32, RULING W19) remembers each game's open turn and which seat
//! a token opens. Each test warms that memory with one submission, changes what it remembered
//! behind its back, and checks that the next submission is judged on what is true now.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use serde_json::{Value, json};
use stationmaster::domain::Mailbox;
use stationmaster::service::{self, CreatedGame, Review, lifecycle};

/// A card of seat 2's hand (as an order names it, "7H") and the state with that card swapped
/// into seat 1's hand for one of seat 1's.
async fn swap_patch(app: &TestApp, g: &CreatedGame) -> (String, Value) {
    let mut state = app.turn(g.id, 1).await.start_state;
    let seats = state["seats"].as_array_mut().expect("seats");
    let theirs = seats[1]["hand"][0].clone();
    let mine = seats[0]["hand"][0].clone();
    seats[0]["hand"][0] = theirs.clone();
    seats[1]["hand"][0] = mine;
    let card = theirs.as_str().expect("a card").split('#').next().expect("a face").to_string();
    (card, json!({"seats": state["seats"]}))
}

fn advice(r: &crate::helpers::Resp) -> Value {
    r.json()["echo"]["lines"][0]["advice"].clone()
}

#[tokio::test]
async fn orders_sent_after_a_gm_correction_are_checked_against_the_corrected_table() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let (card, patch) = swap_patch(&app, &g).await;
    let before = app.post_orders(&g.id, t, format!("CLAIM {card} NORTH")).await;
    assert_eq!(before.status, StatusCode::CREATED, "{}", before.body);
    assert!(advice(&before).as_str().is_some_and(|a| a.contains("do not hold")), "{}", before.body);

    service::correct_state(&app.ctx, g.id, "gm@example.org", &patch, "hands were dealt wrong").await.unwrap();
    let after = app.post_orders(&g.id, t, format!("CLAIM {card} NORTH")).await;
    assert_eq!(after.status, StatusCode::CREATED, "{}", after.body);
    assert_eq!(advice(&after), Value::Null, "the card is in the corrected hand: {}", after.body);
    assert_eq!(after.json()["version"], 2);
}

#[tokio::test]
async fn a_replaced_seats_old_token_is_refused_even_after_it_was_used() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let old = g.seats[1].token.reveal();
    let first = app.post_orders(&g.id, old, orders[1].clone().expect("orders")).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);

    let erin = Mailbox::parse("Erin <erin@example.org>").unwrap();
    let r = lifecycle::replace_player(&app.ctx, g.id, "gm@example.org", 2, &erin).await.unwrap();
    let refused = app.post_orders(&g.id, old, orders[1].clone().expect("orders")).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let token = r.link.rsplit('/').next().expect("a token");
    let erins = app.post_orders(&g.id, token, orders[1].clone().expect("orders")).await;
    assert_eq!(erins.status, StatusCode::CREATED, "{}", erins.body);
    assert_eq!(erins.json()["version"], 2, "the seat's versions go on");
}

#[tokio::test]
async fn a_token_of_one_game_opens_no_other_game_after_it_was_used() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (a, b) = (app.create_game(Review::Gm).await, app.create_game(Review::Gm).await);
    let orders = app.claim_orders(&a).await;
    let t = a.seats[0].token.reveal();
    let own = app.post_orders(&a.id, t, orders[0].clone().expect("orders")).await;
    assert_eq!(own.status, StatusCode::CREATED, "{}", own.body);
    let other = app.post_orders(&b.id, t, orders[0].clone().expect("orders")).await;
    assert_eq!(other.status, StatusCode::FORBIDDEN, "{}", other.body);
}

#[tokio::test]
async fn orders_after_the_deadline_are_refused_though_the_turn_was_remembered_open() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let t = g.seats[0].token.reveal();
    assert_eq!(
        app.post_orders(&g.id, t, orders[0].clone().expect("orders")).await.status,
        StatusCode::CREATED
    );
    app.ctx.clock.advance(Duration::hours(49));
    let late = app.post_orders(&g.id, t, orders[0].clone().expect("orders")).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.body);
    assert!(late.body.contains("deadline of turn 1 passed"), "{}", late.body);
}

#[tokio::test]
async fn orders_after_the_turn_closed_go_to_the_next_turn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    for (i, o) in orders.iter().enumerate() {
        app.submit(&g, i, o.as_deref().expect("orders"), false).await;
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");
    let next = app.claim_orders(&g).await;
    let seat = next.iter().position(Option::is_some).expect("a seat acts in turn 2");
    let r = app.post_orders(&g.id, g.seats[seat].token.reveal(), next[seat].clone().expect("orders")).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!((r.json()["turn"].as_i64(), r.json()["version"].as_i64()), (Some(2), Some(1)), "{}", r.body);
}

#[tokio::test]
async fn a_seats_simultaneous_submissions_are_all_stored_under_distinct_versions() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let body = orders[0].clone().expect("orders");
    let t = g.seats[0].token.reveal();
    let sends = (0..12).map(|_| app.post_orders(&g.id, t, body.clone()));
    let answers = futures_util::future::join_all(sends).await;
    let mut versions: Vec<i64> = answers
        .iter()
        .map(|r| {
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
            r.json()["version"].as_i64().expect("a version")
        })
        .collect();
    versions.sort_unstable();
    assert_eq!(versions, (1..=12).collect::<Vec<_>>());
}

/// Holds the share lock an append under way holds on turn 1 of `g`, until the transaction ends.
async fn an_append_under_way(app: &TestApp, g: &CreatedGame) -> sqlx::Transaction<'static, sqlx::Postgres> {
    let mut tx = app.ctx.pool.begin().await.unwrap();
    sqlx::query("SELECT 1 FROM turns WHERE game_id = $1 AND number = 1 FOR SHARE")
        .bind(g.id)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx
}

/// A game whose seat 1 has sent orders (so the short path remembers it), and every seat's orders.
async fn a_warm_game() -> (TestApp, CreatedGame, Vec<Option<String>>, crate::db::TestDb) {
    let (pool, db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let warm = app.post_orders(&g.id, g.seats[0].token.reveal(), orders[0].clone().expect("orders")).await;
    assert_eq!(warm.status, StatusCode::CREATED, "{}", warm.body);
    (app, g, orders, db)
}

#[tokio::test]
async fn a_seats_orders_are_stored_while_another_seats_append_is_under_way() {
    let (app, g, orders, _db) = a_warm_game().await;
    let other = an_append_under_way(&app, &g).await;
    let send = app.post_orders(&g.id, g.seats[1].token.reveal(), orders[1].clone().expect("orders"));
    let r = tokio::time::timeout(std::time::Duration::from_secs(10), send)
        .await
        .expect("a seat's append does not wait for another seat's");
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    other.rollback().await.unwrap();
}

#[tokio::test]
async fn a_close_waits_for_an_append_under_way_and_then_plays_it() {
    let (app, g, _, _db) = a_warm_game().await;
    let append = an_append_under_way(&app, &g).await;
    let ctx = app.ctx.clone();
    let close = tokio::spawn(async move { service::close_turn(&ctx, g.id).await });
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(!close.is_finished(), "the close waits for the append's lock");
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "open");
    append.commit().await.unwrap();
    close.await.unwrap().unwrap();
    assert_ne!(app.turn(g.id, 1).await.status.as_str(), "open", "the close went on after the append");
}
