//! Bounds on what a seat can pile up: versions per turn are capped, lists come a page at a time,
//! and empty orders are refused (rulings W1, W5).

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use stationmaster::service::{self, Review};

/// Sends `n` valid versions (comments make each body different) for seat 1.
async fn send_versions(app: &TestApp, game: &impl std::fmt::Display, token: &str, card: &str, n: usize) {
    for i in 0..n {
        let r = app.post_orders(game, token, format!("# try {i}\nCLAIM {card} NORTH")).await;
        assert_eq!(r.status, StatusCode::CREATED, "version {}: {}", i + 1, r.body);
    }
}

fn own_orders_uri(game: &impl std::fmt::Display, query: &str) -> String {
    format!("/api/v1/games/{game}/orders{query}")
}

#[tokio::test]
async fn a_seat_keeps_at_most_fifty_versions_per_turn_and_is_told_why_the_next_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let card = app.hand(&g.id, t, 1).await[0].clone();
    send_versions(&app, &g.id, t, &card, 50).await;

    let over = app.post_orders(&g.id, t, format!("CLAIM {card} EAST")).await;
    assert_eq!(over.status, StatusCode::BAD_REQUEST, "{}", over.body);
    let msg = over.json()["error"].as_str().unwrap().to_string();
    assert!(msg.contains("50 versions") && msg.contains("version 50 stands"), "{msg}");

    let own = app.get_with(&own_orders_uri(&g.id, ""), "authorization", &format!("Bearer {t}")).await;
    assert_eq!(own.json()["total"], 50, "nothing stored: {}", own.body);
    assert_eq!(own.json()["versions"][0]["version"], 50);
}

#[tokio::test]
async fn a_seats_versions_come_a_page_at_a_time_newest_first() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let card = app.hand(&g.id, t, 1).await[0].clone();
    send_versions(&app, &g.id, t, &card, 12).await;
    let bearer = format!("Bearer {t}");

    let first = app.get_with(&own_orders_uri(&g.id, ""), "authorization", &bearer).await.json();
    let numbers = |page: &serde_json::Value| -> Vec<i64> {
        page["versions"].as_array().unwrap().iter().map(|v| v["version"].as_i64().unwrap()).collect()
    };
    assert_eq!(numbers(&first), (3..=12).rev().collect::<Vec<_>>(), "{first}");
    assert_eq!(first["total"], 12);
    assert_eq!(first["next"], "?before=3");

    let rest = app.get_with(&own_orders_uri(&g.id, "?before=3"), "authorization", &bearer).await.json();
    assert_eq!(numbers(&rest), vec![2, 1]);
    assert!(rest["next"].is_null());

    let small = app.get_with(&own_orders_uri(&g.id, "?limit=2"), "authorization", &bearer).await.json();
    assert_eq!(numbers(&small), vec![12, 11]);
    let bad = app.get_with(&own_orders_uri(&g.id, "?limit=500"), "authorization", &bearer).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
}

#[tokio::test]
async fn a_page_of_long_orders_holds_fewer_versions_and_the_pages_still_hold_them_all() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let card = app.hand(&g.id, t, 1).await[0].clone();
    let line = format!("CLAIM {card} NORTH\n");
    let long = line.repeat(60_000 / line.len());
    for _ in 0..4 {
        let r = app.post_orders(&g.id, t, long.clone()).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    let bearer = format!("Bearer {t}");
    let (mut seen, mut query, mut pages) = (Vec::new(), String::new(), 0);
    loop {
        let page = app.get_with(&own_orders_uri(&g.id, &query), "authorization", &bearer).await;
        assert!(page.body.len() < 2 * 1024 * 1024, "a page of {} bytes", page.body.len());
        let page = page.json();
        seen.extend(page["versions"].as_array().unwrap().iter().map(|v| v["version"].as_i64().unwrap()));
        pages += 1;
        match page["next"].as_str() {
            Some(next) => query = next.to_string(),
            None => break,
        }
    }
    assert!(pages > 1, "four versions of 60 KB do not fit one page");
    assert_eq!(seen, vec![4, 3, 2, 1]);
    let seat_page = app.get(&format!("/play/{t}")).await;
    assert!(seat_page.body.len() < 2 * 1024 * 1024, "the seat page is {} bytes", seat_page.body.len());
}

#[tokio::test]
async fn the_seat_page_shows_the_latest_versions_and_counts_the_older_ones() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let card = app.hand(&g.id, t, 1).await[0].clone();
    send_versions(&app, &g.id, t, &card, 12).await;

    let page = app.get(&format!("/play/{t}")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Version 12</h3>") && page.body.contains("Version 3</h3>"));
    assert!(!page.body.contains("Version 2</h3>"), "older versions are not on the page");
    assert!(page.body.contains("2 older versions"), "{}", page.body);
}

#[tokio::test]
async fn published_orders_come_a_page_at_a_time() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    for seat in &g.seats {
        let t = seat.token.reveal();
        let card = app.hand(&g.id, t, seat.seat).await[0].clone();
        for i in 0..3 {
            let r = app.post_orders(&g.id, t, format!("# {i}\nCLAIM {card} NORTH")).await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        }
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();

    let first = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.json();
    let versions = first["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 10, "{first}");
    assert_eq!(first["total"], 12);
    let next = first["next"].as_str().unwrap();
    assert_eq!(next, "?after=4.1");
    let rest = app.get(&format!("/api/v1/games/{}/turns/1/orders{next}", g.id)).await.json();
    let rest: Vec<(i64, i64)> = rest["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["seat"].as_i64().unwrap(), v["version"].as_i64().unwrap()))
        .collect();
    assert_eq!(rest, vec![(4, 2), (4, 3)]);
}

#[tokio::test]
async fn empty_orders_are_refused_by_the_api_and_the_form_and_change_nothing() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    for body in ["", "\n  \n", "# only a comment\n"] {
        let r = app.post_orders(&g.id, t, body).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{body:?}: {}", r.body);
        assert!(r.json()["error"].as_str().unwrap().contains("no orders in them"), "{}", r.body);
    }
    let form = app.post_form(&format!("/play/{t}/orders"), "orders=%23+nothing%0A&final=1", None).await;
    assert_eq!(form.status, StatusCode::BAD_REQUEST, "{}", form.body);
    assert!(form.body.contains("no orders in them"));

    let own = app.get_with(&own_orders_uri(&g.id, ""), "authorization", &format!("Bearer {t}")).await;
    assert_eq!(own.json()["versions"].as_array().unwrap().len(), 0, "nothing stored");
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "open", "nothing marked final, nothing closed");
}

#[tokio::test]
async fn empty_orders_are_refused_from_the_console_with_exit_code_2() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    let file = std::env::temp_dir().join(format!("empty-orders-{}.txt", g.id));
    std::fs::write(&file, "# nothing yet\n\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .args(["orders", "submit", "--game", &g.id.to_string(), "--seat", "1", "--file"])
        .arg(&file)
        .env("DATABASE_URL", crate::helpers::database_url(&pool))
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no orders in them"));
    let t = g.seats[0].token.reveal();
    let own = app.get_with(&own_orders_uri(&g.id, ""), "authorization", &format!("Bearer {t}")).await;
    assert_eq!(own.json()["total"], 0, "nothing stored");
}
