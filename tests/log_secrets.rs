//! Secrets never reach a log line (issue 19): a game played through every channel — seat links
//! on the web, the API with bearer tokens, mail to the signed reply address, the GM signing in
//! by password and by mailed link, a chat webhook — with every log line captured as JSON at the
//! most verbose level, then searched for each secret.
//!
//! Its own test binary: a thread-local log capture misses lines when other tests in the same
//! process register the same call sites at the same time (tracing's interest cache), so this
//! test runs alone.

#[path = "support/db.rs"]
mod db;
#[allow(dead_code)]
#[path = "api/helpers.rs"]
mod helpers;
#[path = "support/smtp.rs"]
mod smtp;

use crate::db::test_db;
use axum::http::StatusCode;
use chrono::Duration;
use helpers::{TestApp, spawn_app};
use stationmaster::service::Review;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Every log line written while the guard lives, as JSON.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture() -> (Captured, tracing::subscriber::DefaultGuard) {
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_span_list(true)
        .with_env_filter(stationmaster::logs::filter("trace"))
        .with_writer(move || writer.clone())
        .finish();
    (logs, tracing::subscriber::set_default(subscriber))
}

async fn play_a_turn_through_every_channel(app: &TestApp, g: &stationmaster::service::CreatedGame) {
    let orders = app.claim_orders(g).await;
    // Seat 1 on its page, seat 2 by the API, seat 3 by mail to its reply address.
    if let Some(o) = &orders[0] {
        let token = g.seats[0].token.reveal();
        let form = format!("orders={}&final=on", o.replace(' ', "+"));
        let r = app.post_form(&format!("/play/{token}/orders"), &form, None).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        app.get(&format!("/play/{token}")).await;
        app.get(&format!("/play/{token}/feed.atom")).await;
    }
    if let Some(o) = &orders[1] {
        app.submit(g, 1, o, true).await;
    }
    if let Some(o) = &orders[2] {
        let to = app.ctx.reply_address(g.id, stationmaster::engine::Seat(3), 1);
        let raw = format!(
            "From: Cleo <cleo@example.org>\r\nTo: {to}\r\nSubject: Orders\r\nMessage-ID: <log1@example.org>\r\n\r\n{o}\r\nFINAL\r\n"
        );
        use stationmaster::service::inbound;
        let arrived = inbound::Arrived::new(raw.as_bytes(), "test");
        let stored = inbound::ingest(&app.ctx.pool, &[arrived], app.ctx.now()).await.unwrap();
        inbound::process_inbound(&app.ctx, stored[0].id).await.unwrap();
    }
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
}

#[tokio::test]
async fn no_log_line_of_a_whole_turn_holds_a_token_reply_tag_link_password_or_webhook() {
    let (pool, _db) = test_db().await;
    let (logs, _guard) = capture();
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let hook = "http://127.0.0.1:9/hook/WEBHOOKSECRETxyz123";
    let token = g.seats[0].token.reveal().to_string();
    let r = app
        .post_form(
            &format!("/play/{token}/webhook"),
            &format!("url={}", hook.replace(':', "%3A").replace('/', "%2F")),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);

    let cookie = app.gm_cookie("gm@example.org").await;
    // A sign-in link too (mailed, then used).
    app.post_form("/gm/login", "email=gm%40example.org", None).await;
    let mail = app.outbox().await.into_iter().rev().find(|m| m.kind == "gm-login").unwrap();
    let link = mail
        .body_text
        .split_whitespace()
        .find(|w| w.starts_with("http://sm.test/gm/magic/"))
        .unwrap()
        .to_string();
    app.get(link.trim_start_matches("http://sm.test")).await;

    play_a_turn_through_every_channel(&app, &g).await;
    let r = app.post_form(&format!("/gm/games/{}/publish", g.id), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    stationmaster::webhook::deliver_due(&app.ctx).await.unwrap();

    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(text.lines().count() > 20, "the capture saw the turn: {} lines", text.lines().count());
    let mut secrets: Vec<(String, String)> = Vec::new();
    for (i, s) in g.seats.iter().enumerate() {
        secrets.push((format!("seat {} token", i + 1), s.token.reveal().to_string()));
        let reply = app.ctx.reply_address(g.id, stationmaster::engine::Seat(i as u8 + 1), 1);
        let local = reply.split('@').next().unwrap().to_string();
        secrets.push((
            format!("seat {} reply tag", i + 1),
            local.rsplit(['+', '.']).next().unwrap().to_string(),
        ));
    }
    secrets.push(("GM session".into(), cookie.split('=').nth(1).unwrap().to_string()));
    secrets.push(("GM sign-in link".into(), link.rsplit('/').next().unwrap().to_string()));
    secrets.push(("GM password".into(), "a long enough secret".into()));
    secrets.push(("webhook".into(), "WEBHOOKSECRETxyz123".into()));
    for (what, secret) in &secrets {
        assert!(secret.len() >= 8, "{what} is a real secret: {secret}");
        if let Some(line) = text.lines().find(|l| l.contains(secret.as_str())) {
            panic!("the {what} is in a log line: {line}");
        }
    }
    assert!(text.contains("request_id"), "request spans carry the request id");
    assert!(
        text.contains(&format!("\"game.id\":\"{}\"", g.id)),
        "lines about a game carry its id as a field"
    );
    assert!(text.contains("/play/{token}"), "routes are logged as templates");
}
