//! Bad input anywhere gets a clear error naming the problem and changes nothing.

use crate::db::test_db;
use crate::helpers::spawn_app;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use stationmaster::service::{self, Review};

async fn versions(app: &crate::helpers::TestApp, game: &impl std::fmt::Display, token: &str) -> usize {
    let own = app
        .get_with(&format!("/api/v1/games/{game}/orders"), "authorization", &format!("Bearer {token}"))
        .await;
    own.json()["versions"].as_array().map_or(0, |v| v.len())
}

#[tokio::test]
async fn a_sheet_of_which_no_line_is_readable_is_refused_by_line_and_changes_nothing() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let r = app.post_orders(&g.id, t, "CLIAM 7H NORTH\nFLY TO THE MOON\nthanks\n").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let j = r.json();
    assert!(j["error"].as_str().unwrap().contains("none of their lines could be understood"), "{j}");
    assert!(j["error"].as_str().unwrap().contains("2 line(s) not understood"), "{j}");
    assert_eq!(j["echo"]["lines"][1]["line"], 2);
    assert!(j["echo"]["lines"][1]["error"].is_string());
    assert_eq!(j["echo"]["lines"][0]["suggestion"], "did you mean `CLAIM 7H NORTH`?", "{j}");
    assert_eq!(versions(&app, &g.id, t).await, 0, "nothing stored");
}

#[tokio::test]
async fn house_rule_16_a_line_not_understood_does_not_cost_the_sheet_the_api_stores_it_with_201() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let text = "CLAIM 7H NORTH\nand pick up some Bay if it gets cheap, thanks\nThanks!\n";
    let r = app.post_orders(&g.id, t, text).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let j = r.json();
    assert_eq!(j["echo"]["errors"], 1, "{j}");
    let bad = &j["echo"]["lines"][1];
    assert_eq!((bad["line"].as_i64(), bad["understood"].is_null()), (Some(2), true), "{j}");
    assert!(bad["error"].is_string() && bad["suggestion"].as_str().unwrap().contains('#'), "{j}");
    let courtesy = &j["echo"]["lines"][2];
    assert!(courtesy["error"].is_null() && courtesy["advice"].as_str().unwrap().contains("courtesy"), "{j}");
    assert_eq!(versions(&app, &g.id, t).await, 1, "stored");
}

#[tokio::test]
async fn a_body_over_64_kib_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let r = app.post_orders(&g.id, t, "# x\n".repeat(20_000)).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.json()["error"].as_str().unwrap().contains("at most 65536 bytes"), "{}", r.body);
    assert_eq!(versions(&app, &g.id, t).await, 0);
}

#[tokio::test]
async fn invalid_utf8_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let r = app.post_orders(&g.id, t, Body::from(vec![b'C', b'L', 0xff, 0xfe])).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.json()["error"].as_str().unwrap().contains("not valid UTF-8"), "{}", r.body);
    assert_eq!(versions(&app, &g.id, t).await, 0);
}

#[tokio::test]
async fn unknown_games_wrong_tokens_and_missing_tokens_are_told_apart() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let other = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();

    let unknown = app.post_orders(&"0192f0c4-5d1e-7c7a-9b6a-2f1e0d9c8b7a", t, "DRAW").await;
    assert_eq!(unknown.status, StatusCode::FORBIDDEN, "a token never reveals which games exist");
    let garbage = app.post_orders(&"not-a-game", t, "DRAW").await;
    assert_eq!(garbage.status, StatusCode::NOT_FOUND);
    assert!(garbage.json()["error"].as_str().unwrap().contains("not a game id"));
    let wrong = app.post_orders(&g.id, "wrongtoken", "DRAW").await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    let cross = app.post_orders(&other.id, t, "DRAW").await;
    assert_eq!(cross.status, StatusCode::FORBIDDEN, "seat token of another game");
    let cross_read = app
        .get_with(&format!("/api/v1/games/{}/orders", other.id), "authorization", &format!("Bearer {t}"))
        .await;
    assert_eq!(cross_read.status, StatusCode::FORBIDDEN);
    let none = app
        .send(Request::post(format!("/api/v1/games/{}/orders", g.id)).body(Body::from("DRAW")).unwrap())
        .await;
    assert_eq!(none.status, StatusCode::UNAUTHORIZED);
    let page = app.get("/play/wrongtoken").await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.body.contains("not valid"), "{}", page.body);
    let missing = app.get("/games/0192f0c4-5d1e-7c7a-9b6a-2f1e0d9c8b7a").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn orders_after_the_deadline_or_after_the_turn_closed_are_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    app.ctx.clock.advance(Duration::hours(49));
    let late = app.post_orders(&g.id, t, "DRAW").await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    assert!(late.json()["error"].as_str().unwrap().contains("deadline of turn 1 passed"), "{}", late.body);

    let g2 = app.create_game(Review::Gm).await;
    service::close_turn(&app.ctx, g2.id).await.unwrap();
    let closed = app.post_orders(&g2.id, g2.seats[0].token.reveal(), "DRAW").await;
    assert_eq!(closed.status, StatusCode::CONFLICT);
    assert!(closed.json()["error"].as_str().unwrap().contains("turn 1 is closed"), "{}", closed.body);
}

#[tokio::test]
async fn a_cross_site_form_post_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let req = Request::post(format!("/play/{}/orders", g.seats[0].token.reveal()))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "cross-site")
        .body(Body::from("orders=DRAW"))
        .unwrap();
    assert_eq!(app.send(req).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_web_form_refuses_malformed_orders_with_their_line() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let r = app
        .post_form(&format!("/play/{}/orders", g.seats[0].token.reveal()), "orders=HELLO+WORLD", None)
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.body.contains("HELLO WORLD") && r.body.contains("not understood"), "{}", r.body);
}
