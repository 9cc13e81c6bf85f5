//! What every answer carries (security headers), oversized forms, and the dev mailbox switch.

use crate::db::test_db;
use crate::helpers::{TestApp, settings, spawn_app};
use axum::http::StatusCode;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::service::{Ctx, Review};

#[tokio::test]
async fn every_page_forbids_framing_and_private_pages_are_neither_cached_nor_referred() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let bearer = format!("Bearer {t}");

    let home = app.get("/").await;
    let csp = home.headers["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'none'"), "{csp}");
    assert!(csp.contains("style-src 'self'"), "the pages' only style is the stylesheet: {csp}");
    assert!(!home.body.contains("<style"), "no inline style the policy would block");
    assert_eq!(home.headers["x-content-type-options"], "nosniff");
    let css = app.get("/style.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.headers["content-type"].to_str().unwrap().starts_with("text/css"));

    let private = [
        app.get(&format!("/play/{t}")).await,
        app.get("/gm/login").await,
        app.get_with(&format!("/api/v1/games/{}", g.id), "authorization", &bearer).await,
        app.get_with(&format!("/api/v1/games/{}/orders", g.id), "authorization", &bearer).await,
        app.get("/gm/magic/not-a-valid-link").await,
    ];
    for r in &private {
        assert_eq!(r.headers["cache-control"], "no-store", "{r:?}", r = r.headers);
        assert_eq!(r.headers["referrer-policy"], "no-referrer");
        assert!(r.headers.contains_key("content-security-policy"));
    }
}

#[tokio::test]
async fn an_oversized_form_is_answered_413() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let big = format!("orders={}", "x".repeat(300 * 1024));
    let r = app.post_form(&format!("/play/{t}/orders"), &big, None).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.body);
    let r = app
        .post_form("/gm/login", &format!("email=a%40b.org&password={}", "x".repeat(300 * 1024)), None)
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
}

pub(crate) async fn app_with(pool: PgPool, dev_mailbox: bool, bind: &str) -> TestApp {
    let mut s = settings();
    s.web.dev_mailbox = dev_mailbox;
    s.bind = bind.into();
    let ctx = Ctx::new(pool, s, Clock::system()).await.unwrap();
    TestApp { router: stationmaster::web::router(ctx.clone()), ctx }
}

#[tokio::test]
async fn the_dev_mailbox_is_served_only_with_its_flag_on_loopback_without_smtp() {
    let (pool, _db) = test_db().await;
    let plain = app_with(pool.clone(), false, "127.0.0.1:8080").await;
    assert_eq!(plain.get("/dev/mailbox").await.status, StatusCode::NOT_FOUND, "no flag, no mailbox");
    let flagged = app_with(pool.clone(), true, "127.0.0.1:8080").await;
    assert_eq!(flagged.get("/dev/mailbox").await.status, StatusCode::OK);
    let public = app_with(pool, true, "0.0.0.0:8080").await;
    assert_eq!(public.get("/dev/mailbox").await.status, StatusCode::NOT_FOUND, "never on a public bind");
}

#[tokio::test]
async fn the_server_takes_the_dev_mailbox_switch_from_its_environment_as_1() {
    let (pool, _db) = test_db().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .arg("serve")
        .env("DATABASE_URL", crate::helpers::database_url(&pool))
        .env("STATIONMASTER_BIND", format!("127.0.0.1:{port}"))
        .env("STATIONMASTER_INGEST_SOCKET", "")
        .env("STATIONMASTER_DEV_MAILBOX", "1")
        .env_remove("STATIONMASTER_SMTP_URL")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut answer = String::new();
    for _ in 0..100 {
        if let Ok(mut s) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            s.write_all(b"GET /dev/mailbox HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await.unwrap();
            s.read_to_string(&mut answer).await.unwrap();
            break;
        }
        if server.try_wait().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let exited = server.try_wait().unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(exited.is_none(), "the server refused STATIONMASTER_DEV_MAILBOX=1 and exited: {exited:?}");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}
