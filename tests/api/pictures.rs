//! The picture of the table after a published turn at its stable address (issue 16), and the
//! report mail's HTML with the picture as an inline part.

use crate::db::test_db;
use crate::helpers::{create_game_on, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use stationmaster::engine::{Seat, Viewer};
use stationmaster::service::{GameClock, Review};

#[tokio::test]
async fn a_published_turn_has_its_public_picture_at_a_stable_address() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let url = format!("/games/{}/turns/1/table.svg", g.id);
    assert_eq!(app.get(&url).await.status, StatusCode::NOT_FOUND, "turn 1 is still open");
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let r = app.get(&url).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.headers["content-type"], "image/svg+xml; charset=utf-8");
    assert!(r.body.contains("<svg") && r.body.contains("Railroaded"), "{}", r.body);
    assert!(!r.body.contains("Hand of"), "the public picture shows no hand:\n{}", r.body);
    assert_eq!(app.get(&url).await.body, r.body, "the address is stable");
    for other in ["2", "0", "99", "x", "-1"] {
        let r = app.get(&format!("/games/{}/turns/{other}/table.svg", g.id)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "turn {other}");
    }
}

#[tokio::test]
async fn a_draft_waiting_for_the_gm_has_no_picture_yet() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let r = app.get(&format!("/games/{}/turns/1/table.svg", g.id)).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "a draft is not published: {}", r.body);
}

#[tokio::test]
async fn a_report_mail_shows_the_seats_picture_inline_and_archives_the_report_without_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let report = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.kind == "report" && m.to_addr == g.seats[0].player.email.as_str())
        .expect("seat 1's report");
    let html = report.body_html.clone().expect("an HTML part");
    assert!(html.contains("<img src=\"drawing:"), "the kept drawing, rendered when sent: {html}");
    let drawn = stationmaster::service::pictures::pngs_in(&app.ctx, &html).await.unwrap();
    let message =
        stationmaster::mail::build_message(&report, "Stationmaster <sm@sm.test>", &drawn).expect("builds");
    let text = String::from_utf8(message.formatted()).expect("utf-8");
    assert!(text.contains("Content-Type: multipart/related;"), "{text}");
    assert!(text.contains("Content-Type: image/png") && text.contains("Content-ID: <picture1."), "{text}");
    // The PNG sent is the seat's drawing, rendered outside the publishing transaction and kept,
    // the same every time the mail is built.
    let sha = html.split_once("src=\"drawing:").and_then(|(_, rest)| rest.split_once('"')).unwrap().0;
    let svg: String = sqlx::query_scalar("SELECT svg FROM drawings WHERE encode(sha256, 'hex') = $1")
        .bind(sha)
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap();
    assert!(svg.contains("Hand of"), "seat 1's own drawing");
    let png_of = |text: &str| {
        let part = text.split_once("Content-Transfer-Encoding: base64\r\n\r\n").unwrap().1;
        let part: String = part[..part.find("\r\n--").unwrap()].split("\r\n").collect();
        data_encoding::BASE64.decode(part.as_bytes()).unwrap()
    };
    assert_eq!(png_of(&text), stationmaster::draw::png(&svg).unwrap());
    let drawn = stationmaster::service::pictures::pngs_in(&app.ctx, &html).await.unwrap();
    let again =
        stationmaster::mail::build_message(&report, "Stationmaster <sm@sm.test>", &drawn).expect("builds");
    let again = String::from_utf8(again.formatted()).unwrap();
    assert_eq!(png_of(&again), png_of(&text), "built again, the same picture");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let archived: String =
        sqlx::query_scalar("SELECT body_html FROM reports WHERE game_id = $1 AND turn = 1 AND seat = 1")
            .bind(g.id)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    assert!(!archived.contains("data:image") && archived.contains("<pre>"), "{archived}");
}

#[tokio::test]
async fn a_confederate_rails_turn_is_drawn_at_its_address_and_in_each_seats_report() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(
        &app.ctx,
        "confederate-rails",
        serde_json::json!({}),
        Review::Auto,
        GameClock::default(),
    )
    .await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let r = app.get(&format!("/games/{}/turns/1/table.svg", g.id)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Confederate Rails") && r.body.contains("Union: Maryland"), "{}", r.body);
    assert!(!r.body.contains("Special Events held:"), "the public picture names no hand");
    let report = app.outbox().await.into_iter().find(|m| m.kind == "report").expect("a report");
    let drawn = stationmaster::service::pictures::pngs_in(&app.ctx, report.body_html.as_deref().unwrap())
        .await
        .unwrap();
    let message =
        stationmaster::mail::build_message(&report, "Stationmaster <sm@sm.test>", &drawn).expect("builds");
    let text = String::from_utf8(message.formatted()).expect("utf-8");
    assert!(text.contains("Content-Type: image/png") && text.contains("Content-ID: <picture1."), "{text}");
}

/// The game's state as stored, and the engine's drawing of it for `viewer`.
async fn drawn_now(
    app: &crate::helpers::TestApp,
    id: stationmaster::domain::GameId,
    viewer: Viewer,
) -> String {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let (slug, state): (String, serde_json::Value) =
        sqlx::query_as("SELECT engine, state FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    let engine = stationmaster::registry::find(&slug).expect("an engine");
    engine.draw(&state, viewer).unwrap().expect("a drawing")
}

#[tokio::test]
async fn the_seats_whole_picture_now_shows_its_own_hand_and_no_other_seats() {
    // Issue 36: `/play/{token}/table.svg`, behind the seat's secret link.
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let r = app.get(&format!("/play/{}/table.svg", g.seats[0].token.reveal())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.headers["content-type"], "image/svg+xml; charset=utf-8");
    assert!(r.body.contains("Hand of seat 1"), "its own hand: {}", r.body);
    for other in 2..=4 {
        assert!(!r.body.contains(&format!("Hand of seat {other}")), "no hand of seat {other}: {}", r.body);
    }
    assert_eq!(r.body, drawn_now(&app, g.id, Viewer::Seat(Seat(1))).await, "seat 1's own drawing, whole");
    let second = app.get(&format!("/play/{}/table.svg", g.seats[1].token.reveal())).await;
    assert!(second.body.contains("Hand of seat 2") && !second.body.contains("Hand of seat 1"));
}

#[tokio::test]
async fn the_public_whole_picture_now_shows_no_hand() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let r = app.get(&format!("/games/{}/table.svg", g.id)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.headers["content-type"], "image/svg+xml; charset=utf-8");
    assert!(r.body.contains("<svg") && !r.body.contains("Hand of"), "no hand in public: {}", r.body);
    assert_eq!(r.body, drawn_now(&app, g.id, Viewer::Public).await, "the public drawing, whole");
}

#[tokio::test]
async fn a_bad_token_or_game_has_no_picture() {
    // A link that is no seat's is refused as the seat page refuses it (403, the web's "a bad
    // link"); a game that does not exist has no picture (404).
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let token = g.seats[0].token.reveal().to_string();
    let wrong = format!("{}x", &token[..token.len() - 1]);
    for (url, status) in [
        (format!("/play/{wrong}/table.svg"), StatusCode::FORBIDDEN),
        ("/play/not-a-token/table.svg".to_string(), StatusCode::FORBIDDEN),
        ("/games/00000000-0000-0000-0000-000000000000/table.svg".to_string(), StatusCode::NOT_FOUND),
        ("/games/x/table.svg".to_string(), StatusCode::NOT_FOUND),
    ] {
        let r = app.get(&url).await;
        assert_eq!(r.status, status, "{url}: {}", r.body);
        assert!(
            !r.body.contains("Hand of") && !r.headers["content-type"].to_str().unwrap().contains("svg"),
            "{url}"
        );
    }
}
