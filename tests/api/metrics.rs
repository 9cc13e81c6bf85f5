//! `/metrics` (issue 19): served on its own address, never by the public router; after a small
//! game every family is there, the gauges read from the database say what the database holds,
//! and no token, reply tag, address or game id is in the text (RULING O6).

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::Duration;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::metrics as m;
use stationmaster::service::{Review, Shutdown, inbound};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Starts the metrics listener of `app` on a port of its own; returns its address.
async fn metrics_listener(app: &TestApp, shutdown: Shutdown) -> std::net::SocketAddr {
    let handle = m::install().unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(stationmaster::web::serve_metrics(app.ctx.clone(), handle, listener, shutdown));
    addr
}

/// One scrape over a real connection: the status line and the body.
async fn scrape(addr: std::net::SocketAddr) -> (String, String) {
    let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
    conn.write_all(b"GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut raw = String::new();
    conn.read_to_string(&mut raw).await.unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_string(), body.to_string())
}

/// The value of a sample (name with its labels as rendered, e.g. `x{state="idle"}`).
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no sample {series} in\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

/// A turn played through the API, the web form and mail (one seat each), closed by the
/// scheduler with the deadline.
async fn play_a_turn(app: &TestApp, g: &stationmaster::service::CreatedGame) {
    let orders = app.claim_orders(g).await;
    app.submit(g, 0, orders[0].as_deref().unwrap(), false).await;
    let form = format!("orders={}", orders[1].as_deref().unwrap().replace(' ', "+"));
    let r = app.post_form(&format!("/play/{}/orders", g.seats[1].token.reveal()), &form, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let to = app.ctx.reply_address(g.id, stationmaster::engine::Seat(3), 1);
    let raw = format!(
        "From: Cleo <cleo@example.org>\r\nTo: {to}\r\nSubject: Orders\r\nMessage-ID: <m1@example.org>\r\n\r\n{}\r\n",
        orders[2].as_deref().unwrap()
    );
    let stored =
        inbound::ingest(&app.ctx.pool, &[inbound::Arrived::new(raw.as_bytes(), "test")], app.ctx.now())
            .await
            .unwrap();
    inbound::process_inbound(&app.ctx, stored[0].id).await.unwrap();
    // A refused sheet is a request too (422), but stores nothing.
    let bad = app.post_orders(&g.id, g.seats[3].token.reveal(), "FLY TO THE MOON").await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    app.ctx.clock.advance(Duration::hours(48));
    assert_eq!(app.tick().await, 1);
}

#[tokio::test]
async fn the_public_router_never_serves_metrics() {
    let (pool, _db) = test_db().await;
    m::install().unwrap();
    let app = spawn_app(pool).await;
    assert_eq!(app.get("/metrics").await.status, StatusCode::NOT_FOUND);
    assert_eq!(stationmaster::config::WebSettings::default().metrics_addr(), None, "off by default");
}

#[tokio::test]
async fn a_scrape_after_a_small_game_has_every_family_and_no_secret() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let (switch, shutdown) = Shutdown::new();
    let addr = metrics_listener(&app, shutdown).await;
    let g = app.create_game(Review::Auto).await;
    play_a_turn(&app, &g).await;
    // Turn 2 is due for 90 s and no scheduler has run: the lag says so.
    let deadline: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("SELECT deadline FROM turns WHERE status = 'open'")
            .fetch_one(&pool)
            .await
            .unwrap();
    app.ctx.clock.advance(deadline - app.ctx.now() + Duration::seconds(90));

    let age = || async {
        let secs: f64 =
            sqlx::query_scalar("SELECT EXTRACT(EPOCH FROM now() - min(created_at))::float8 FROM outbox")
                .fetch_one(&pool)
                .await
                .unwrap();
        secs
    };
    let at_least = age().await;
    let (status, before) = scrape(addr).await;
    let at_most = age().await;
    assert!(status.contains("200"), "{status}");
    let waiting: i64 = sqlx::query_scalar("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(waiting > 0);
    assert_eq!(sample(&before, m::OUTBOX_DEPTH), waiting as f64);
    let oldest = sample(&before, m::OUTBOX_OLDEST_AGE);
    assert!(at_least <= oldest && oldest <= at_most, "{at_least} <= {oldest} <= {at_most}");
    assert_eq!(sample(&before, m::TURNS_DUE), 1.0);
    assert_eq!(sample(&before, m::SCHEDULER_LAG), 90.0);

    let (port, mut smtp) = crate::helpers::smtp_server().await;
    let transport = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    while deliver_due(&app.ctx, &transport, chrono::Utc::now()).await.unwrap().claimed > 0 {}
    while let Ok(Ok(_)) = tokio::time::timeout(std::time::Duration::from_millis(300), smtp.rx.recv()).await {}
    let (_, text) = scrape(addr).await;
    switch.stop();

    assert_eq!(sample(&text, m::OUTBOX_DEPTH), 0.0);
    assert_eq!(sample(&text, m::OUTBOX_OLDEST_AGE), 0.0);
    for family in [
        m::HTTP_REQUESTS,
        m::HTTP_DURATION,
        m::ORDERS_STORED,
        m::MAILS_INGESTED,
        m::OUTBOX_ATTEMPTS,
        m::OUTBOX_DEPTH,
        m::OUTBOX_GIVEN_UP,
        m::OUTBOX_OLDEST_AGE,
        m::TURNS_ADJUDICATED,
        m::ADJUDICATION_DURATION,
        m::ADJUDICATION_CPU,
        m::SCHEDULER_PASS,
        m::SCHEDULER_LAG,
        m::TURNS_DUE,
        m::DB_CONNECTIONS,
        m::DB_MAX_CONNECTIONS,
    ] {
        assert!(text.contains(&format!("# TYPE {family} ")), "no family {family} in\n{text}");
    }
    for series in [
        "stationmaster_http_requests_total{route=\"/api/v1/games/{id}/orders\",method=\"POST\",status=\"201\"}",
        "stationmaster_http_requests_total{route=\"/api/v1/games/{id}/orders\",method=\"POST\",status=\"422\"}",
        "stationmaster_http_requests_total{route=\"/play/{token}/orders\",method=\"POST\",status=\"303\"}",
        "stationmaster_orders_stored_total{channel=\"api\"}",
        "stationmaster_orders_stored_total{channel=\"web\"}",
        "stationmaster_orders_stored_total{channel=\"mail\"}",
        "stationmaster_mails_ingested_total{outcome=\"accepted\"}",
        "stationmaster_outbox_attempts_total{result=\"sent\"}",
        "stationmaster_turns_adjudicated_total{engine=\"railroaded\",result=\"done\"}",
        "stationmaster_adjudication_duration_seconds_count{engine=\"railroaded\"}",
        "stationmaster_adjudication_cpu_seconds_count{engine=\"railroaded\"}",
        "stationmaster_scheduler_pass_duration_seconds_count",
        "stationmaster_db_pool_connections{state=\"idle\"}",
    ] {
        assert!(sample(&text, series) >= 1.0, "{series}");
    }
    assert!(text.contains("stationmaster_http_request_duration_seconds_bucket{"), "latency as a histogram");

    let mut secrets = vec![g.id.to_string(), "example.org".to_string(), "@".to_string()];
    for (i, s) in g.seats.iter().enumerate() {
        secrets.push(s.token.reveal().to_string());
        let reply = app.ctx.reply_address(g.id, stationmaster::engine::Seat(i as u8 + 1), 1);
        secrets.push(reply.split('@').next().unwrap().rsplit(['+', '.']).next().unwrap().to_string());
    }
    for secret in &secrets {
        assert!(!text.contains(secret.as_str()), "{secret} is in the metrics");
    }
}
