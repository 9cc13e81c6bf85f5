//! Following a game without mail (issue 16): the public Atom feed of a game, a seat's private
//! feed behind its secret link, and chat webhooks delivered through their own outbox to a real
//! HTTP server on localhost (the test settings allow private targets; the screen itself is
//! tested in `domain::webhook_url`).

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use stationmaster::service::{CreatedGame, Review};
use std::sync::{Arc, Mutex};

/// A chat service stand-in: records every POST body; answers with `status` (shared, so a test
/// can change it between passes).
struct Catcher {
    url: String,
    bodies: Arc<Mutex<Vec<serde_json::Value>>>,
    status: Arc<Mutex<u16>>,
}

async fn catcher() -> Catcher {
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let status = Arc::new(Mutex::new(204u16));
    let (b, s) = (bodies.clone(), status.clone());
    let app = axum::Router::new().route(
        "/hook/{secret}",
        axum::routing::post(move |body: String| {
            let (b, s) = (b.clone(), s.clone());
            async move {
                b.lock().unwrap().push(serde_json::from_str(&body).unwrap_or_default());
                StatusCode::from_u16(*s.lock().unwrap()).unwrap()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    Catcher { url: format!("http://{addr}/hook/s3cr3tTOKENabcd"), bodies, status }
}

async fn publish_turn_1(app: &TestApp, g: &CreatedGame) {
    let orders = app.claim_orders(g).await;
    for (i, o) in orders.iter().enumerate() {
        if let Some(o) = o {
            assert_eq!(
                app.post_orders(&g.id, g.seats[i].token.reveal(), o.clone()).await.status,
                StatusCode::CREATED
            );
        }
    }
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert!(app.turn(g.id, 1).await.published_at.is_some(), "turn 1 published");
}

fn form(url: &str) -> String {
    format!("url={}", url.replace(':', "%3A").replace('/', "%2F"))
}

#[tokio::test]
async fn a_players_webhook_is_told_of_the_published_turn_and_the_next_deadline() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let hook = catcher().await;
    let g = app.create_game(Review::Auto).await;
    let token = g.seats[0].token.reveal().to_string();
    let r = app.post_form(&format!("/play/{token}/webhook"), &form(&hook.url), None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let page = app.get(&format!("/play/{token}")).await;
    assert!(page.body.contains("/…abcd"), "the page shows the webhook masked");
    assert!(!page.body.contains("s3cr3tTOKEN"), "and never in full (RULING W14)");

    publish_turn_1(&app, &g).await;
    let stats = stationmaster::webhook::deliver_due(&app.ctx).await.unwrap();
    assert!(stats.claimed >= 2 && stats.sent == stats.claimed, "{stats:?}");
    let bodies = hook.bodies.lock().unwrap().clone();
    let texts: Vec<String> = bodies.iter().map(|b| b["content"].as_str().unwrap().to_string()).collect();
    assert!(
        texts.iter().any(|t| t.contains("turn 2 of \"Test Line\" is open; orders are due by")),
        "{texts:?}"
    );
    assert_eq!(
        texts.iter().filter(|t| t.contains("turn 1 of \"Test Line\" was published")).count(),
        1,
        "{texts:?}"
    );
    for (t, b) in texts.iter().zip(&bodies) {
        assert_eq!(b["text"], b["content"], "Slack reads `text`");
        assert!(
            !t.contains(&token) && !t.contains("/play/"),
            "a chat notice never holds the seat's link: {t}"
        );
    }
    // Delivered once: the next pass finds nothing.
    assert_eq!(stationmaster::webhook::deliver_due(&app.ctx).await.unwrap().claimed, 0);
}

#[tokio::test]
async fn a_failing_webhook_is_retried_later_and_a_gone_one_is_given_up() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let hook = catcher().await;
    let g = app.create_game(Review::Auto).await;
    let token = g.seats[1].token.reveal().to_string();
    app.post_form(&format!("/play/{token}/webhook"), &form(&hook.url), None).await;
    *hook.status.lock().unwrap() = 503;
    publish_turn_1(&app, &g).await;
    let first = stationmaster::webhook::deliver_due(&app.ctx).await.unwrap();
    assert!(first.claimed >= 2 && first.retrying == first.claimed, "{first:?}");
    assert_eq!(stationmaster::webhook::deliver_due(&app.ctx).await.unwrap().claimed, 0, "not due yet");
    *hook.status.lock().unwrap() = 200;
    app.ctx.clock.advance(Duration::minutes(2));
    let second = stationmaster::webhook::deliver_due(&app.ctx).await.unwrap();
    assert_eq!(second.sent, first.claimed, "{second:?}");

    *hook.status.lock().unwrap() = 404;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let third = stationmaster::webhook::deliver_due(&app.ctx).await.unwrap();
    assert!(third.claimed > 0 && third.given_up == third.claimed, "{third:?}");
}

#[tokio::test]
async fn a_webhook_to_a_private_address_is_refused_when_private_targets_are_not_allowed() {
    let (pool, _db) = test_db().await;
    let mut app = spawn_app(pool).await;
    std::sync::Arc::make_mut(&mut app.ctx.settings).webhooks_allow_private = false;
    app.router = stationmaster::web::router(app.ctx.clone());
    let g = app.create_game(Review::Auto).await;
    let token = g.seats[0].token.reveal().to_string();
    let r =
        app.post_form(&format!("/play/{token}/webhook"), &form("https://169.254.169.254/latest"), None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert!(r.body.contains("private, loopback or reserved"), "{}", r.body);
    assert!(!r.body.contains("169.254"), "the refusal does not echo the address");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    assert!(
        stationmaster::store::webhooks::in_force(&mut conn, g.id).await.unwrap().is_empty(),
        "nothing stored"
    );
}

#[tokio::test]
async fn the_game_feed_shows_public_results_and_a_seat_feed_its_own_reports() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    publish_turn_1(&app, &g).await;

    let public = app.get(&format!("/games/{}/feed.atom", g.id)).await;
    assert_eq!(public.status, StatusCode::OK);
    assert!(public.headers["content-type"].to_str().unwrap().starts_with("application/atom+xml"));
    assert!(public.body.contains("<title>Test Line: turn 1 result</title>"), "{}", public.body);
    assert!(public.body.contains("<entry>"));
    for s in &g.seats {
        assert!(!public.body.contains(s.token.reveal()), "no seat link in the public feed");
    }
    let own = app.get(&format!("/play/{}/feed.atom", g.seats[0].token.reveal())).await;
    assert_eq!(own.status, StatusCode::OK);
    assert!(own.body.contains("Turn 1 result"), "{}", own.body);
    assert!(!own.body.contains(&format!("urn:stationmaster:{}:seat:2", g.id)), "only the seat's own reports");

    let bad = app.get("/play/not-a-token/feed.atom").await;
    assert_eq!(bad.status, StatusCode::FORBIDDEN, "{}", bad.body);
}

#[tokio::test]
async fn the_public_game_page_tells_what_happened_in_each_published_turn_and_no_secret() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let before = app.get(&format!("/games/{}", g.id)).await;
    assert!(!before.body.contains("What happened"), "nothing is published yet");
    publish_turn_1(&app, &g).await;

    let page = app.get(&format!("/games/{}", g.id)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("What happened") && page.body.contains("<summary>Turn 1</summary>"),
        "{}",
        page.body
    );
    let outcome = app.turn(g.id, 1).await.draft.expect("the published outcome").0;
    assert!(!outcome.events.is_empty());
    for e in &outcome.events {
        let shown = crate::helpers::askama_escape(&e.public);
        assert!(
            page.body.contains(&format!("<li>{shown}</li>")),
            "the event {:?} is told: {}",
            e.public,
            page.body
        );
        if let Some(secret) = &e.secret {
            assert!(
                !page.body.contains(&crate::helpers::askama_escape(&secret.text)),
                "a seat's secret on the public page"
            );
        }
    }
}
