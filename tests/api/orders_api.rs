//! Sealed orders through the JSON API: versions, echo, receipts, and who may read what.

use crate::db::test_db;
use crate::helpers::spawn_app;
use axum::http::StatusCode;
use sha2::{Digest, Sha256};
use stationmaster::service::{self, Review};

#[tokio::test]
async fn every_submission_is_appended_as_a_new_version_with_an_echo_and_a_receipt() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let hand = app.hand(&g.id, t, 1).await;

    let first = app.post_orders(&g.id, t, format!("# my claim\nclaim {} north", hand[0])).await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
    let j = first.json();
    assert_eq!(j["version"], 1);
    assert_eq!(j["echo"]["lines"][0]["line"], 2, "line numbers are the player's own");
    assert_eq!(j["echo"]["lines"][0]["understood"], format!("CLAIM {} NORTH", hand[0]));
    assert_eq!(j["digest"].as_str().unwrap().len(), 64);

    let second = app.post_orders(&g.id, t, format!("CLAIM {} EAST", hand[1])).await;
    assert_eq!(second.json()["version"], 2);

    let own = app
        .get_with(&format!("/api/v1/games/{}/orders", g.id), "authorization", &format!("Bearer {t}"))
        .await;
    let versions = own.json()["versions"].as_array().unwrap().clone();
    assert_eq!(versions.len(), 2, "the first version was kept, not overwritten");
    assert_eq!(versions[1]["body"], format!("# my claim\nclaim {} north", hand[0]));
}

#[tokio::test]
async fn a_receipt_can_be_checked_by_anyone_once_the_turn_is_published() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let t = g.seats[0].token.reveal();
    let hand = app.hand(&g.id, t, 1).await;
    let digest = app.post_orders(&g.id, t, format!("CLAIM {} NORTH", hand[0])).await.json()["digest"]
        .as_str()
        .unwrap()
        .to_string();

    let sealed = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await;
    assert_eq!(sealed.status, StatusCode::FORBIDDEN, "sealed until publication: {}", sealed.body);

    service::close_turn(&app.ctx, g.id).await.unwrap();
    let published = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await;
    assert_eq!(published.status, StatusCode::OK);
    let v = &published.json()["versions"][0];
    // The claim was played, so its line is public: hash = sha256(salt \n line), receipt =
    // sha256 of the line hashes joined by newlines (one line here).
    let line = &v["lines"][0];
    assert_eq!(line["text"], format!("CLAIM {} NORTH", hand[0]));
    let hash = data_encoding::HEXLOWER.encode(&Sha256::digest(format!(
        "{}\n{}",
        line["salt"].as_str().unwrap(),
        line["text"].as_str().unwrap()
    )));
    assert_eq!(line["hash"], hash);
    assert_eq!(data_encoding::HEXLOWER.encode(&Sha256::digest(hash.as_bytes())), digest);
    assert_eq!(v["digest"], digest);
}

#[tokio::test]
async fn a_seat_sees_its_own_hand_and_nobody_elses() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let v = app.seat_view(&g.id, g.seats[1].token.reveal()).await;
    let seats = v["view"]["seats"].as_array().unwrap();
    assert!(seats[1]["hand"].is_array(), "own hand shown");
    for (i, s) in seats.iter().enumerate() {
        if i != 1 {
            assert!(s.get("hand").is_none(), "seat {} hand leaked to seat 2: {s}", i + 1);
        }
    }
}

#[tokio::test]
async fn the_public_game_page_and_api_show_no_hand() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let mut hands = Vec::new();
    for s in &g.seats {
        hands.push(app.hand(&g.id, s.token.reveal(), s.seat).await);
    }
    let api = app.get(&format!("/api/v1/games/{}", g.id)).await.json();
    for s in api["view"]["seats"].as_array().unwrap() {
        assert!(s.get("hand").is_none(), "hand in the public API: {s}");
    }
    let page = app.get(&format!("/games/{}", g.id)).await;
    assert_eq!(page.status, StatusCode::OK);
    // A whole hand of nine cards never appears together on the public page.
    for h in &hands {
        assert!(!page.body.contains(&h.join(" ")), "a hand appears on the public page");
    }
    assert!(!page.body.contains("Hand of"), "{}", page.body);
}

#[tokio::test]
async fn orders_marked_final_are_reported_final() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let hand = app.hand(&g.id, t, 1).await;
    let r = app.post_orders(&g.id, t, format!("CLAIM {} NORTH", hand[0])).await;
    assert_eq!(r.json()["is_final"], false);
    let req = axum::http::Request::post(format!("/api/v1/games/{}/orders/final", g.id))
        .header("authorization", format!("Bearer {t}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let fin = app.send(req).await;
    assert_eq!(fin.status, StatusCode::OK, "{}", fin.body);
    let own = app
        .get_with(&format!("/api/v1/games/{}/orders", g.id), "authorization", &format!("Bearer {t}"))
        .await;
    assert_eq!(own.json()["versions"][0]["is_final"], true);
}
