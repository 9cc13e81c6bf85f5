//! Issue 38: the reports' drawings are kept once each under the SHA-256 of their SVG by the
//! publishing transaction, which renders nothing; the PNG is rendered later, once per distinct
//! drawing, and kept for every mail and page that shows it — never one viewer's for another's
//! (RULINGS O23–O25).

use crate::db::test_db;
use crate::helpers::{TestApp, create_game_on, spawn_app};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use http_body_util::BodyExt;
use sqlx::PgPool;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::{GameClock, Renderer, Review};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

/// The app with a renderer that counts its calls per drawing (by the SVG's SHA-256).
async fn counting_app(pool: PgPool) -> (TestApp, Arc<Mutex<BTreeMap<String, usize>>>) {
    let mut app = spawn_app(pool).await;
    let counts: Arc<Mutex<BTreeMap<String, usize>>> = Arc::default();
    let seen = counts.clone();
    app.ctx.renderer = Renderer::new(move |svg| {
        *seen.lock().unwrap().entry(stationmaster::draw::DrawingKey::of(svg).to_string()).or_default() += 1;
        stationmaster::draw::png(svg)
    });
    app.router = stationmaster::web::router(app.ctx.clone());
    (app, counts)
}

fn renders(counts: &Mutex<BTreeMap<String, usize>>) -> usize {
    counts.lock().unwrap().values().sum()
}

/// An 1835 game's first turn published and its four reports mailed, its three drawings rendered
/// once: their names and their PNGs as kept, in the order of their names.
async fn first_1835_turn_mailed(
    app: &TestApp,
    pool: &PgPool,
    counts: &Mutex<BTreeMap<String, usize>>,
) -> (Vec<stationmaster::draw::DrawingKey>, Vec<Vec<u8>>) {
    create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let sent = deliver_all(app).await;
    assert_eq!(sent.iter().filter(|m| m.contains("Turn 1 result")).count(), 4);
    assert_eq!(renders(counts), 3);
    let keys = kept(pool)
        .await
        .iter()
        .map(|(sha, _)| stationmaster::draw::DrawingKey::from_src(&format!("drawing:{sha}")).unwrap())
        .collect();
    let rendered =
        sqlx::query_scalar("SELECT png FROM drawing_pngs ORDER BY sha256").fetch_all(pool).await.unwrap();
    (keys, rendered)
}

/// The kept drawings: (sha256 hex, whether rendered).
async fn kept(pool: &PgPool) -> Vec<(String, bool)> {
    sqlx::query_as(
        "SELECT encode(sha256, 'hex'), EXISTS (SELECT 1 FROM drawing_pngs p WHERE p.sha256 = d.sha256) \
         FROM drawings d ORDER BY 1",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

/// A GET answered with its status, content type and raw bytes.
async fn get_bytes(app: &TestApp, uri: &str) -> (StatusCode, String, Vec<u8>) {
    let resp = app.router.clone().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    let status = resp.status();
    let kind =
        resp.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    (status, kind, resp.into_body().collect().await.unwrap().to_bytes().to_vec())
}

/// Delivers every due mail to a local SMTP server; the raw mails received.
async fn deliver_all(app: &TestApp) -> Vec<String> {
    let (port, mut server) = crate::helpers::smtp_server().await;
    let transport = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    while deliver_due(&app.ctx, &transport, chrono::Utc::now()).await.unwrap().claimed > 0 {}
    let mut got = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_millis(800), server.rx.recv()).await
    {
        got.push(String::from_utf8(m.raw_bytes().unwrap()).unwrap());
    }
    got
}

/// The PNG parts of a raw mail, decoded.
fn png_parts(raw: &str) -> Vec<Vec<u8>> {
    raw.split("Content-Type: image/png")
        .skip(1)
        .map(|part| {
            let body = part.split_once("\r\n\r\n").unwrap().1;
            let body: String = body[..body.find("\r\n--").unwrap()].split("\r\n").collect();
            data_encoding::BASE64.decode(body.as_bytes()).unwrap()
        })
        .collect()
}

#[tokio::test]
async fn publishing_an_1835_turn_keeps_its_drawings_once_and_renders_none_until_the_mail_goes() {
    let (pool, _db) = test_db().await;
    let (app, counts) = counting_app(pool.clone()).await;
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");
    assert_eq!(renders(&counts), 0, "the publishing transaction rendered nothing");
    let drawings = kept(&pool).await;
    // 1835 hides nothing: its three parts (map, market, players) are kept once for all four seats.
    assert_eq!(drawings.len(), 3, "{drawings:?}");
    assert!(drawings.iter().all(|(_, rendered)| !rendered), "none rendered yet: {drawings:?}");
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    assert_eq!(reports.len(), 4);
    for r in &reports {
        let html = r.body_html.as_deref().unwrap();
        assert!(!html.contains("data:image"), "no drawing is carried in the mail row itself");
        for (sha, _) in &drawings {
            assert!(html.contains(&format!("src=\"drawing:{sha}\"")), "each report names the kept drawing");
        }
    }

    let mails = deliver_all(&app).await;
    let sent: Vec<_> = mails.iter().filter(|m| m.contains("Turn 1 result")).collect();
    assert_eq!(sent.len(), 4, "four reports sent");
    assert_eq!(renders(&counts), 3, "each distinct drawing rendered once for the four mails");
    assert!(counts.lock().unwrap().values().all(|n| *n == 1), "{:?}", counts.lock().unwrap());
    let first = png_parts(sent[0]);
    assert_eq!(first.len(), 3, "three pictures in each report");
    for m in &sent {
        assert_eq!(png_parts(m), first, "every seat got the same kept pictures");
    }
    assert!(kept(&pool).await.iter().all(|(_, rendered)| *rendered), "the PNGs are kept");

    // The web takes the same kept renderings: the public picture of turn 1 (the whole table, a
    // drawing of its own) is rendered on the first request only.
    let url = format!("/games/{}/turns/1/table.png", g.id);
    let (status, kind, png) = get_bytes(&app, &url).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/png"));
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!(renders(&counts), 4);
    assert_eq!(get_bytes(&app, &url).await.2, png, "the same picture");
    assert_eq!(renders(&counts), 4, "read back, not rendered again");
}

#[tokio::test]
async fn a_kept_picture_is_only_ever_given_for_the_viewers_own_drawing() {
    let (pool, _db) = test_db().await;
    let (app, counts) = counting_app(pool.clone()).await;
    // Railroaded: each seat's picture shows its own hand.
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert_eq!(renders(&counts), 0, "the publishing transaction rendered nothing");
    assert_eq!(kept(&pool).await.len(), 4, "four seats, four different drawings");

    // Each seat's report carries the rendering of its own drawing alone.
    let sha_of =
        |html: &str| html.split_once("src=\"drawing:").unwrap().1.split_once('"').unwrap().0.to_string();
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    let mails = deliver_all(&app).await;
    assert_eq!(renders(&counts), 4);
    for r in &reports {
        let sha = sha_of(r.body_html.as_deref().unwrap());
        let svg: String = sqlx::query_scalar("SELECT svg FROM drawings WHERE encode(sha256, 'hex') = $1")
            .bind(&sha)
            .fetch_one(&pool)
            .await
            .unwrap();
        assert!(svg.contains("Hand of"), "a seat's own drawing, with its hand");
        let mail = mails
            .iter()
            .find(|m| m.contains("Turn 1 result") && m.contains(&format!("<{}>", r.to_addr)))
            .expect("the seat's report");
        assert_eq!(png_parts(mail), vec![stationmaster::draw::png(&svg).unwrap()], "its own drawing");
    }

    // The pages: seat 1's picture kept first; seat 2 and the public are given their own.
    let mut seen = Vec::new();
    for who in [
        format!("/play/{}/table", g.seats[0].token.reveal()),
        format!("/play/{}/table", g.seats[1].token.reveal()),
        format!("/games/{}/table", g.id),
    ] {
        let (_, _, svg) = get_bytes(&app, &format!("{who}.svg")).await;
        let svg = String::from_utf8(svg).unwrap();
        let (status, _, png) = get_bytes(&app, &format!("{who}.png")).await;
        assert_eq!(status, StatusCode::OK, "{who}");
        assert_eq!(png, stationmaster::draw::png(&svg).unwrap(), "{who}: the rendering of its own drawing");
        assert!(!seen.contains(&png), "{who}: never another viewer's picture");
        seen.push(png);
    }
    let (status, _, _) = get_bytes(&app, "/play/not-a-token/table.png").await;
    assert!(status.is_client_error(), "{status}");
}

#[tokio::test]
async fn kept_drawings_go_after_the_retention_period_and_a_page_keeps_its_drawing_anew() {
    let (pool, _db) = test_db().await;
    let (app, counts) = counting_app(pool.clone()).await;
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert_eq!(kept(&pool).await.len(), 4);
    let purge = || stationmaster::mail::retention::purge_drawings(&app.ctx);
    app.ctx.clock.advance(Duration::days(13));
    assert_eq!(purge().await.unwrap(), 0, "within the 14 days mail is kept");
    app.ctx.clock.advance(Duration::days(2));
    assert_eq!(purge().await.unwrap(), 4);
    assert!(kept(&pool).await.is_empty());
    let (status, _, png) = get_bytes(&app, &format!("/games/{}/turns/1/table.png", g.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(png.starts_with(b"\x89PNG"));
    assert_eq!((kept(&pool).await.len(), renders(&counts)), (1, 1), "kept and rendered anew");
}

#[tokio::test]
async fn a_turns_pictures_are_held_in_memory_for_its_next_mails_and_forgotten_with_the_drawings() {
    let (pool, _db) = test_db().await;
    let (app, counts) = counting_app(pool.clone()).await;
    let (keys, rendered) = first_1835_turn_mailed(&app, &pool, &counts).await;

    // RULING O29: with the database's copies gone, the PNGs still come from memory, unrendered.
    sqlx::query("DELETE FROM drawing_pngs").execute(&pool).await.unwrap();
    let held = stationmaster::service::pictures::pngs(&app.ctx, &keys).await.unwrap();
    let held: Vec<Vec<u8>> = held.into_values().map(|p| p.png().to_vec()).collect();
    assert_eq!(held, rendered, "the same pictures, from memory");
    assert_eq!(renders(&counts), 3, "none rendered again");

    // Removed after the retention period (RULING O27): nothing of them is held any more either.
    app.ctx.clock.advance(Duration::days(15));
    assert_eq!(stationmaster::mail::retention::purge_drawings(&app.ctx).await.unwrap(), 3);
    let gone = stationmaster::service::pictures::pngs(&app.ctx, &keys).await.unwrap();
    assert!(gone.is_empty(), "no PNG given for a drawing removed: {:?}", gone.keys());
    assert_eq!(renders(&counts), 3, "and none rendered: the drawings are not kept");
}

#[tokio::test]
async fn large_values_are_compressed_with_lz4_where_the_server_has_it_and_pngs_not_again() {
    let (pool, _db) = test_db().await;
    // RULING O30: whether this server has LZ4 (a setting it cannot take otherwise).
    let mut tx = pool.begin().await.unwrap();
    let lz4 = sqlx::query("SET LOCAL default_toast_compression = 'lz4'").execute(&mut *tx).await.is_ok();
    drop(tx);
    let columns: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT attrelid::regclass::text || '.' || attname, attcompression::text, attstorage::text \
         FROM pg_attribute WHERE attnum > 0 AND NOT attisdropped AND attrelid IN \
         ('games'::regclass, 'turns'::regclass, 'reports'::regclass, 'outbox'::regclass, \
          'drawings'::regclass, 'drawing_pngs'::regclass, 'rollbacks'::regclass) ORDER BY 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let of = |name: &str| columns.iter().find(|(n, _, _)| n == name).cloned().expect(name);
    for name in [
        "games.state",
        "games.setup",
        "turns.start_state",
        "turns.draft",
        "reports.body_text",
        "reports.body_html",
        "outbox.body_text",
        "outbox.body_html",
        "drawings.svg",
        "rollbacks.archive",
    ] {
        let (_, compression, _) = of(name);
        assert_eq!(compression == "l", lz4, "{name}: {compression:?} (the server has LZ4: {lz4})");
    }
    assert_eq!(of("drawing_pngs.png").2, "e", "a PNG is stored out of line, not compressed again");
}

#[tokio::test]
async fn the_pngs_are_an_unlogged_cache_and_after_the_database_loses_them_each_is_rendered_again_alike() {
    let (pool, _db) = test_db().await;
    let (app, counts) = counting_app(pool.clone()).await;
    let persistence = |table: &'static str| {
        sqlx::query_scalar::<_, String>("SELECT relpersistence::text FROM pg_class WHERE oid = $1::regclass")
            .bind(table)
            .fetch_one(&pool)
    };
    // RULING O33: the PNGs are written to no WAL; the SVGs they are rendered from are.
    assert_eq!(persistence("drawing_pngs").await.unwrap(), "u", "the PNGs' table is unlogged");
    assert_eq!(persistence("drawings").await.unwrap(), "p", "the drawings' table is logged");
    let (keys, rendered) = first_1835_turn_mailed(&app, &pool, &counts).await;
    assert_eq!(rendered.len(), 3, "each drawing's PNG kept");

    // A crash of the database server empties an unlogged table, as this does; a server started
    // after it holds nothing in memory.
    sqlx::query("TRUNCATE drawing_pngs").execute(&pool).await.unwrap();
    let (restarted, counts) = counting_app(pool.clone()).await;
    let again = stationmaster::service::pictures::pngs(&restarted.ctx, &keys).await.unwrap();
    assert_eq!(renders(&counts), 3, "each drawing rendered once more, from its kept SVG");
    let again: Vec<Vec<u8>> = again.into_values().map(|p| p.png().to_vec()).collect();
    assert_eq!(again, rendered, "the same pictures as before the loss");
    let kept_again: Vec<Vec<u8>> =
        sqlx::query_scalar("SELECT png FROM drawing_pngs ORDER BY sha256").fetch_all(&pool).await.unwrap();
    assert_eq!(kept_again, rendered, "and kept again, byte for byte");
}
