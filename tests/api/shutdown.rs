//! A clean stop (issue 19): on SIGTERM the server stops taking work, finishes what is under way
//! and releases what it claimed, then exits — nothing is left leased.

use crate::db::test_db;
use crate::helpers::spawn_app;
use stationmaster::service::Review;
use stationmaster::service::audit::Actor;
use stationmaster::service::webhooks::{self, HookOwner};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[cfg(unix)]
#[tokio::test]
async fn on_sigterm_the_server_finishes_the_post_under_way_releases_the_rest_and_exits() {
    let (pool, _db) = test_db().await;
    // A chat service that takes two seconds to answer.
    let hits = Arc::new(AtomicUsize::new(0));
    let h = hits.clone();
    let slow = axum::Router::new().route(
        "/hook/{x}",
        axum::routing::post(move || {
            let h = h.clone();
            async move {
                h.fetch_add(1, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_secs(2)).await;
                axum::http::StatusCode::NO_CONTENT
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook = format!("http://{}/hook/slowSECRETabcd", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, slow).await });

    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    webhooks::set_hook(
        &app.ctx,
        g.id,
        HookOwner::Seat(stationmaster::engine::Seat(1)),
        Actor::Seat(1),
        &hook,
    )
    .await
    .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let row = stationmaster::store::webhooks::in_force(&mut conn, g.id).await.unwrap().remove(0);
    for i in 0..5 {
        let key = format!("test:{i}");
        stationmaster::store::webhooks::enqueue(&mut conn, &row, g.id, &key, "hello", app.ctx.now())
            .await
            .unwrap();
    }

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .arg("serve")
        .env("DATABASE_URL", crate::helpers::database_url(&pool))
        .env("STATIONMASTER_BIND", format!("127.0.0.1:{port}"))
        .env("STATIONMASTER_SECRET_KEY", "test-key")
        .env("STATIONMASTER_INGEST_SOCKET", "")
        .env("STATIONMASTER_TICK_SECS", "1")
        .env("STATIONMASTER_WEBHOOKS_ALLOW_PRIVATE", "1")
        .env_remove("STATIONMASTER_SMTP_URL")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if hits.load(Ordering::SeqCst) > 0 || server.try_wait().unwrap().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(hits.load(Ordering::SeqCst), 1, "the server's worker is posting the first notice");
    let term = std::process::Command::new("kill").args(["-TERM", &server.id().to_string()]).status().unwrap();
    assert!(term.success());
    let mut exit = None;
    for _ in 0..300 {
        if let Some(s) = server.try_wait().unwrap() {
            exit = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let Some(exit) = exit else {
        let _ = server.kill();
        panic!("the server did not stop within 15 s of SIGTERM");
    };
    assert!(exit.success(), "a clean stop: {exit:?}");

    let rows = stationmaster::store::webhooks::notices_of_game(&mut conn, g.id).await.unwrap();
    assert_eq!(rows.iter().filter(|r| r.sent_at.is_some()).count(), 1, "the post under way was finished");
    assert_eq!(hits.load(Ordering::SeqCst), 1, "no new post after the signal");
    let leased: i64 =
        sqlx::query_scalar("SELECT count(*) FROM webhook_outbox WHERE leased_until IS NOT NULL")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(leased, 0, "nothing left leased");
    assert!(rows.iter().filter(|r| r.sent_at.is_none()).all(|r| r.attempts == 0), "{rows:?}");
    let mail_leased: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE locked_until IS NOT NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(mail_leased, 0, "no mail left leased");
}
