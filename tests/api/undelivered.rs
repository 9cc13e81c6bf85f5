//! Mail that did not go out, for the GM: on the dashboard (never the body), re-sent from the
//! dashboard or the console (audit-logged), and one summary mail once SMTP works again
//! (rulings O1–O3).

use crate::db::test_db;
use crate::helpers::{TestApp, database_url, spawn_app_with};
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use chrono::{SubsecRound, TimeDelta, Utc};
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::mail::Transport;
use stationmaster::mail::deliver::{DeliveryStats, Leasing, deliver_due_at};
use stationmaster::service::{CreatedGame, Review, undelivered};
use std::process::Command;
use std::time::Duration;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The app on a clock an hour ahead of the wall (mail queued now is due by it).
async fn app(pool: PgPool) -> TestApp {
    spawn_app_with(pool, Clock::fixed((Utc::now() + TimeDelta::hours(1)).trunc_subsecs(0))).await
}

async fn pass(app: &TestApp, port: u16) -> DeliveryStats {
    let smtp = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    deliver_due_at(&app.ctx, &smtp, &app.ctx.clock, Leasing::default()).await.unwrap()
}

/// Fails every mail of the game once against a dead server; returns the game.
async fn game_with_failed_mail(app: &TestApp) -> CreatedGame {
    let g = app.create_game(Review::Gm).await;
    let stats = pass(app, free_port()).await;
    assert!(stats.claimed >= 4 && stats.retrying == stats.claimed, "{stats:?}");
    g
}

fn tokens(g: &CreatedGame) -> Vec<String> {
    g.seats.iter().map(|s| s.token.reveal().to_string()).collect()
}

#[tokio::test]
async fn the_gm_sees_undelivered_mail_without_bodies_and_re_sends_it_from_the_dashboard() {
    let (pool, _db) = test_db().await;
    let app = app(pool).await;
    let g = game_with_failed_mail(&app).await;
    let cookie = app.gm_cookie("gm@example.org").await;
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert_eq!(dash.status, StatusCode::OK);
    assert!(dash.body.contains("Mail out that did not arrive"), "{}", dash.body);
    let rows = app.outbox().await;
    let anna = rows.iter().find(|r| r.to_addr == "anna@example.org").expect("Anna's welcome");
    assert!(dash.body.contains("anna@example.org") && dash.body.contains("retrying"), "{}", dash.body);
    assert!(dash.body.contains(&crate::helpers::askama_escape(&anna.subject)), "{}", dash.body);
    for token in tokens(&g) {
        assert!(!dash.body.contains(&token), "a seat's private link leaked onto the dashboard");
    }

    // A cross-site form post is refused, like every GM control.
    let forged = Request::post(format!("/gm/games/{}/mail/resend", g.id))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::COOKIE, &cookie)
        .header("sec-fetch-site", "cross-site")
        .header(header::ORIGIN, "https://evil.example")
        .body(Body::from(format!("mail={}", anna.id)))
        .unwrap();
    assert_eq!(app.send(forged).await.status, StatusCode::FORBIDDEN);
    // Another GM cannot.
    let other = app.gm_cookie("other@example.org").await;
    let r = app.post_form(&format!("/gm/games/{}/mail/resend", g.id), "mail=1", Some(&other)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    // Nonsense is a clear error.
    let r = app.post_form(&format!("/gm/games/{}/mail/resend", g.id), "mail=abc", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);

    let r = app
        .post_form(&format!("/gm/games/{}/mail/resend", g.id), &format!("mail={}", anna.id), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let again = app.outbox().await.into_iter().find(|r| r.id == anna.id).unwrap();
    assert_eq!((again.next_attempt_at, again.first_failed_at, again.gave_up_at), (app.ctx.now(), None, None));
    assert_eq!(again.message_id, anna.message_id, "the same mail, the same Message-ID");
    let log = stationmaster::service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    let entry = log.entries.iter().find(|e| e.action == "mail re-sent").expect("audit-logged");
    assert!(entry.actor == "gm:gm@example.org" && entry.detail.to_string().contains("anna@example.org"));
    // Re-sending it again before it failed again: nothing to re-send.
    let r = app
        .post_form(&format!("/gm/games/{}/mail/resend", g.id), &format!("mail={}", anna.id), Some(&cookie))
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
}

#[tokio::test]
async fn once_smtp_works_again_the_gm_gets_one_summary_of_the_late_mail() {
    let (pool, _db) = test_db().await;
    let app = app(pool).await;
    let port = free_port();
    let g = game_with_failed_mail(&app).await;
    let failed = app.outbox().await.len();
    // Twenty minutes of outage: still down, nobody to tell yet (the GM's mail would fail too).
    for _ in 0..20 {
        app.ctx.clock.advance(TimeDelta::minutes(1));
        assert_eq!(pass(&app, port).await.sent, 0);
    }
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 0);

    let mut server = crate::smtp::start(port).await;
    // Within the longest backoff one mail is due, goes out, and the rest follow at once.
    app.ctx.clock.advance(stationmaster::mail::deliver::MAX_RETRY_DELAY);
    let mut sent = 0;
    for _ in 0..5 {
        sent += pass(&app, port).await.sent;
    }
    assert_eq!(sent, failed, "everything went out once the server was back");
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 1, "one summary, not one per mail");
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 0, "told once");
    let summaries: Vec<_> =
        app.outbox().await.into_iter().filter(|r| r.kind == undelivered::SUMMARY_KIND).collect();
    assert_eq!(summaries.len(), 1);
    let s = &summaries[0];
    assert_eq!(s.to_addr, "gm@example.org");
    for who in ["anna@example.org", "bert@example.org", "cleo@example.org", "dan@example.org"] {
        assert!(s.body_text.contains(who), "{}", s.body_text);
    }
    assert!(s.body_text.contains("delivered late"), "{}", s.body_text);
    for token in tokens(&g) {
        assert!(
            !s.body_text.contains(&token) && !s.body_html.as_deref().unwrap_or_default().contains(&token)
        );
    }
    assert_eq!(pass(&app, port).await.sent, 1, "the summary goes out");
    let mut got = 0;
    while let Ok(Some(_)) =
        tokio::time::timeout(Duration::from_millis(500), server.rx.recv()).await.map(Result::ok)
    {
        got += 1;
    }
    assert_eq!(got, failed + 1);
    server.stop();
}

#[tokio::test]
async fn a_short_hiccup_tells_the_gm_nothing() {
    let (pool, _db) = test_db().await;
    let app = app(pool).await;
    let port = free_port();
    game_with_failed_mail(&app).await;
    let server = crate::smtp::start(port).await;
    app.ctx.clock.advance(TimeDelta::minutes(2));
    assert!(pass(&app, port).await.sent > 0);
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 0);
    app.ctx.clock.advance(TimeDelta::hours(1));
    assert_eq!(pass(&app, port).await.claimed, 0, "everything went out");
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 0, "nor later");
    server.stop();
}

fn console(db: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .args(args)
        .env("DATABASE_URL", db)
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

#[tokio::test]
async fn the_console_lists_undelivered_mail_and_re_sends_it() {
    let (pool, _db) = test_db().await;
    let db = database_url(&pool);
    let app = app(pool).await;
    let g = game_with_failed_mail(&app).await;
    let id = g.id.to_string();
    let out = console(&db, &["mail", "undelivered", "--game", &id, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let n = listed.as_array().unwrap().len();
    assert!(n >= 4);
    assert!(listed.to_string().contains("anna@example.org") && !listed.to_string().contains("body"));
    for token in tokens(&g) {
        assert!(!listed.to_string().contains(&token));
    }
    let out = console(&db, &["mail", "resend", "--game", &id]);
    assert_eq!(out.status.code(), Some(2), "say which: {}", String::from_utf8_lossy(&out.stderr));
    let out = console(&db, &["mail", "resend", "--game", &id, "--all", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again.as_array().unwrap().len(), n);
    let out = console(&db, &["mail", "undelivered", "--game", &id]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Every mail of this game went out"));
    let log = stationmaster::service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "mail re-sent" && e.actor == "gm:console"));
}

// The scripted SMTP server of tests/mail_delivery; its held answers are not used here.
#[allow(dead_code)]
#[path = "../mail_delivery/fake_smtp.rs"]
mod fake_smtp;

fn anna_is_gone(to: &str) -> &'static str {
    if to == "anna@example.org" { "550 5.1.1 no such user" } else { "250 ok" }
}

#[tokio::test]
async fn a_refused_mail_is_given_up_and_its_gm_told_at_once() {
    let (pool, _db) = test_db().await;
    let app = app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let server = fake_smtp::start(anna_is_gone, false).await;
    let stats = pass(&app, server.port).await;
    assert_eq!(stats.given_up, 1, "{stats:?}");
    assert!(!server.accepted().contains(&"anna@example.org".to_string()));
    assert!(server.accepted().contains(&"bert@example.org".to_string()));
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 1, "no need to wait for a refusal");
    let summary = app.outbox().await.into_iter().find(|r| r.kind == undelivered::SUMMARY_KIND).unwrap();
    assert!(summary.body_text.contains("anna@example.org") && summary.body_text.contains("refused"));
    assert!(!summary.body_text.contains("bert@example.org"), "Bert's mail went out");

    let cookie = app.gm_cookie("gm@example.org").await;
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert!(dash.body.contains("given up (refused)") && dash.body.contains("550"), "{}", dash.body);
    // Re-sent (the player fixed their mailbox): tried again, refused again, listed again.
    let r = app.post_form(&format!("/gm/games/{}/mail/resend", g.id), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(pass(&app, server.port).await.given_up, 1);
}

#[tokio::test]
async fn mail_queued_under_the_dev_mailbox_can_be_dropped_before_smtp_sends_it() {
    let (pool, _db) = test_db().await;
    let db = database_url(&pool);
    let app = app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let queued = app.outbox().await.len();
    assert!(queued >= 4, "the seats' welcome mails wait in the outbox");

    let console = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_stationmaster"))
            .args(args)
            .env("DATABASE_URL", &db)
            .env("STATIONMASTER_SECRET_KEY", "test-key")
            .env("RUST_LOG", "warn")
            .output()
            .expect("the binary runs")
    };
    let shown = console(&["mail", "backlog"]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.status.success() && text.contains(&format!("{queued} mails are waiting")), "{text}");
    assert!(text.contains("mail backlog --drop"), "{text}");

    let dropped = console(&["mail", "backlog", "--drop"]);
    let text = String::from_utf8_lossy(&dropped.stdout);
    assert!(dropped.status.success() && text.contains(&format!("Gave up {queued} unsent mails")), "{text}");
    assert_eq!(undelivered::backlog(&app.ctx).await.unwrap().0, 0);

    let server = crate::smtp::start(0).await;
    let port = server.port;
    assert_eq!(pass(&app, port).await.sent, 0, "nothing dropped goes out");
    assert_eq!(undelivered::tell_gms(&app.ctx).await.unwrap(), 0, "the operator decided: no GM summary");
    let log = stationmaster::service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    assert!(log.entries.iter().any(|e| e.action == "unsent mail dropped"), "the game's audit log says so");
    let again = undelivered::resend(&app.ctx, g.id, "gm@example.org", None).await.unwrap();
    assert_eq!(again.len(), queued, "a game's dropped mail can still be re-sent");
    assert_eq!(pass(&app, port).await.sent, queued);
    server.stop();
}
