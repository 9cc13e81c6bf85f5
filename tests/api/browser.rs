//! The seat page in a real browser (issue 16): Debian's chromium, headless, driven through
//! chromedriver by fantoccini (WebDriver), against the server on a loopback port. A player opens
//! the seat page at phone width, sees the drawing (or the table), sends orders with a mistake,
//! corrects them in the form shown again, marks them final; the GM adjudicates and publishes on
//! the dashboard; the player sees the report on the page. Each step leaves a screenshot under
//! `target/tmp/browser/` (the path is printed).
//!
//! Without chromium and chromedriver the test says SKIPPED — except under `CI=true`, where
//! `.ci/run` installs them and their absence is a failure.

use super::helpers::{PLAYERS, spawn_app};
use crate::db::test_db;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use stationmaster::service::{self, Review};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A phone's width (CSS pixels); tall, so a screenshot holds most of the page.
const WIDTH: u32 = 390;
const HEIGHT: u32 = 2200;

/// Whether the browser is there; absent, the test is skipped with a message, but never under CI.
pub(crate) fn browser_present() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{CHROMIUM} or {CHROMEDRIVER} is missing under CI=true: .ci/run installs chromium and chromium-driver"
        );
        eprintln!(
            "SKIPPED: the browser tests need {CHROMIUM} and {CHROMEDRIVER} (Debian: apt-get install chromium chromium-driver)"
        );
    }
    present
}

/// A chromedriver process of this test, stopped when dropped.
pub(crate) struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts chromedriver on a free loopback port and opens a headless chromium session at a
/// phone's width.
pub(crate) async fn browser(profile: &Path) -> (Driver, Client) {
    browser_at(profile, WIDTH).await
}

/// Starts chromedriver on a free loopback port and opens a headless chromium session whose
/// window is `width` CSS pixels wide.
pub(crate) async fn browser_at(profile: &Path, width: u32) -> (Driver, Client) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver(child);
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--hide-scrollbars", format!("--window-size={width},{HEIGHT}"),
                     format!("--user-data-dir={}", profile.display())],
        }),
    );
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector).capabilities(caps.clone()).connect(&url).await {
            Ok(client) => return (driver, client),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("chromedriver did not answer on {url}");
}

/// Where the screenshots go, made empty.
fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) async fn shot(c: &Client, dir: &Path, name: &str) {
    let png = c.screenshot().await.unwrap();
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    eprintln!("screenshot: {}", path.display());
}

/// The text of the first element `css` selects, waiting for it (a click's navigation may still be
/// under way).
pub(crate) async fn text_of(c: &Client, css: &str) -> String {
    for _ in 0..20 {
        let found = c.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css(css)).await;
        match found.unwrap_or_else(|e| panic!("no {css}: {e}")).text().await {
            Ok(text) => return text,
            // Found on the page a click was leaving: look again on the new one.
            Err(fantoccini::error::CmdError::Standard(e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference =>
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the text of {css}: {e}"),
        }
    }
    panic!("{css} kept going stale: the page never settled")
}

/// The text of `css` once it contains `needle` (a click's page may take a moment to replace the
/// one it was made on), or the last text seen after ten seconds.
pub(crate) async fn text_once(c: &Client, css: &str, needle: &str) -> String {
    let mut last = String::new();
    for _ in 0..100 {
        last = text_of(c, css).await;
        if last.contains(needle) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    last
}

/// The page is no wider than the phone: nothing scrolls sideways but a drawing inside its box.
pub(crate) async fn fits_the_phone(c: &Client, what: &str) {
    let widths =
        c.execute("return [document.documentElement.scrollWidth, window.innerWidth];", vec![]).await.unwrap();
    let (page, window) = (widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap());
    assert!(page <= window, "{what}: the page is {page}px wide in a {window}px window");
}

/// Issue 36: every part of the picture lies whole inside the window — its bounding box measured
/// against the viewport, nothing to scroll sideways for — and the whole picture is linked.
pub(crate) async fn the_pictures_fit(c: &Client, what: &str) {
    let boxes = c
        .execute(
            "return [...document.querySelectorAll('.drawing svg')].map(s => { const r = s.getBoundingClientRect(); \
             return [r.left, r.right, r.width, r.height, window.innerWidth]; });",
            vec![],
        )
        .await
        .unwrap();
    let boxes = boxes.as_array().expect("a list").clone();
    for b in &boxes {
        let n = |i: usize| b[i].as_f64().unwrap();
        assert!(n(2) > 100.0 && n(3) > 50.0, "{what}: a picture is drawn at a size one can see: {b}");
        assert!(n(0) >= 0.0 && n(1) <= n(4), "{what}: a picture runs past the {}px window: {b}", n(4));
    }
    if !boxes.is_empty() {
        assert!(c.find(Locator::Css("a#full-picture")).await.is_ok(), "{what}: the whole picture is linked");
    }
}

/// The table is on the page: the drawing when the engine draws, else the text view.
async fn the_table_is_shown(c: &Client) {
    if let Ok(svg) = c.find(Locator::Css(".drawing svg")).await {
        assert!(svg.is_displayed().await.unwrap(), "the drawing is visible");
        let text = c.find(Locator::Css("details pre.table")).await.unwrap();
        assert!(!text.html(true).await.unwrap().trim().is_empty(), "the text view is kept below");
    } else {
        let table = c.find(Locator::Css("pre.table")).await.expect("the table as text");
        assert!(table.is_displayed().await.unwrap());
        assert!(
            table.text().await.unwrap().contains("Hand of seat 1"),
            "the seat's own hand is on its table"
        );
    }
}

#[tokio::test]
async fn a_player_works_a_turn_from_the_seat_page_in_a_real_browser() {
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let claims: Vec<String> = app.claim_orders(&g).await.into_iter().map(|c| c.unwrap()).collect();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = shots_dir();
    let (_driver, c) = browser(&dir.join("profile")).await;
    let seat_page = format!("{base}/play/{}", g.seats[0].token.reveal());

    // 1. The player opens the seat page: the table, the game's own example, when the turn closes.
    c.goto(&seat_page).await.unwrap();
    the_table_is_shown(&c).await;
    let example = text_of(&c, "pre.example").await;
    assert!(example.contains("CLAIM 7H NORTH"), "Railroaded's own example, for its claim round");
    assert!(!example.contains("PLAY"), "no order of a later phase (issue 36): {example}");
    let guide =
        c.find(Locator::Css("a[href='/guides/railroaded']")).await.expect("a link to the order guide");
    assert!(guide.is_displayed().await.unwrap());
    assert!(text_of(&c, "#closing").await.contains("closes at the deadline"));
    fits_the_phone(&c, "the seat page").await;
    the_pictures_fit(&c, "the seat page").await;
    shot(&c, &dir, "1-seat-page").await;

    // 2. Orders with a mistake: stored all the same (HR 16), the page warns at the top, the line
    // is marked in the version shown, and the text is in the box to correct.
    let mistaken = format!("{}\nCLAIM THE MOON", claims[0]);
    let text = c.find(Locator::Css("#order-text")).await.unwrap();
    text.send_keys(&mistaken).await.unwrap();
    c.find(Locator::Css("form[action$='/orders'] button")).await.unwrap().click().await.unwrap();
    assert!(text_once(&c, ".alert", "not understood").await.contains("not understood"));
    let marked = text_of(&c, "table.lines").await;
    assert!(marked.contains("CLAIM THE MOON") && marked.contains("not understood"), "{marked}");
    let kept = c.find(Locator::Css("#order-text")).await.unwrap().prop("value").await.unwrap();
    assert_eq!(kept.as_deref().map(|t| t.replace("\r\n", "\n")), Some(mistaken.clone()), "the text is kept");
    fits_the_phone(&c, "the stored sheet with a line not understood").await;
    shot(&c, &dir, "2-stored-with-a-line-not-understood").await;

    // 3. Corrected in the same box and marked final.
    let text = c.find(Locator::Css("#order-text")).await.unwrap();
    text.clear().await.unwrap();
    text.send_keys(&claims[0]).await.unwrap();
    c.find(Locator::Css("input[name=final]")).await.unwrap().click().await.unwrap();
    c.find(Locator::Css("form[action$='/orders'] button")).await.unwrap().click().await.unwrap();
    assert!(text_once(&c, "#latest", "(final)").await.contains("(final)"), "version 2 is final");
    assert!(c.find(Locator::Css(".alert")).await.is_err(), "no warning any more");
    for (i, claim) in claims.iter().enumerate().skip(1) {
        app.submit(&g, i, claim, true).await;
    }
    c.refresh().await.unwrap();
    let closing = text_of(&c, "#closing").await;
    assert!(closing.contains("final, so it closes early") && closing.contains("30m"), "{closing}");
    shot(&c, &dir, "3-final-and-closing-early").await;

    // 4. The GM signs in, adjudicates and publishes on the dashboard.
    let gm = stationmaster::domain::EmailAddress::parse("gm@example.org").unwrap();
    service::gm_auth::set_password(&app.ctx, &gm, "a long enough secret").await.unwrap();
    c.goto(&format!("{base}/gm/login")).await.unwrap();
    c.find(Locator::Css("input[name=email]")).await.unwrap().send_keys("gm@example.org").await.unwrap();
    c.find(Locator::Css("input[name=password]"))
        .await
        .unwrap()
        .send_keys("a long enough secret")
        .await
        .unwrap();
    c.find(Locator::Css("form[action='/gm/login'] button")).await.unwrap().click().await.unwrap();
    // Wait until the sign-in has landed on the GM's games (its cookie set) before going on.
    c.wait().for_url(&url::Url::parse(&format!("{base}/gm")).unwrap()).await.unwrap();
    c.goto(&format!("{base}/gm/games/{}", g.id)).await.unwrap();
    c.find(Locator::Css("form[action$='/close'] button")).await.unwrap().click().await.unwrap();
    let publish = c.wait().for_element(Locator::Css("form[action$='/publish'] button")).await.unwrap();
    shot(&c, &dir, "4-gm-draft").await;
    publish.click().await.unwrap();
    for _ in 0..50 {
        if app.turn(g.id, 1).await.status.as_str() == "published" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");

    // 5. The player sees the report on the page, and the report history.
    c.goto(&seat_page).await.unwrap();
    let report = text_of(&c, "#report").await;
    assert!(report.contains("Turn 1: what happened") && report.contains("WHAT HAPPENED"), "{report}");
    assert!(report.contains(&format!("Report for {}", PLAYERS[0].split(" <").next().unwrap())), "{report}");
    the_table_is_shown(&c).await;
    fits_the_phone(&c, "the seat page with a report").await;
    shot(&c, &dir, "5-report-on-the-seat-page").await;
    c.find(Locator::Css("ul.history a")).await.unwrap().click().await.unwrap();
    assert!(text_of(&c, "#report-text").await.contains("turn 1 result"));
    shot(&c, &dir, "6-report-history-turn-1").await;

    // The public page and the order guide read at phone width too.
    c.goto(&format!("{base}/games/{}", g.id)).await.unwrap();
    the_public_table_is_shown(&c).await;
    fits_the_phone(&c, "the public game page").await;
    the_pictures_fit(&c, "the public game page").await;
    shot(&c, &dir, "7-public-game-page").await;
    c.goto(&format!("{base}/guides/railroaded")).await.unwrap();
    assert!(text_of(&c, "article.guide h1").await.contains("Railroaded"));
    fits_the_phone(&c, "the order guide").await;
    shot(&c, &dir, "8-order-guide").await;

    c.close().await.unwrap();
    server.abort();
}

/// The public table: a drawing when the engine draws (text kept below), else the text.
async fn the_public_table_is_shown(c: &Client) {
    if c.find(Locator::Css(".drawing svg")).await.is_ok() {
        assert!(c.find(Locator::Css("details pre.table")).await.is_ok(), "the text view is kept below");
    } else {
        let table = text_of(c, "pre.table").await;
        assert!(!table.contains("Hand of"), "no hand on the public page: {table}");
    }
}

#[tokio::test]
async fn the_order_builder_adds_a_line_to_the_box_and_the_server_accepts_it() {
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-builder");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (_driver, c) = browser(&dir.join("profile")).await;
    c.goto(&format!("{base}/play/{}", g.seats[0].token.reveal())).await.unwrap();

    assert!(text_of(&c, "#builder").await.contains("Claim a suit"));
    let first = c.find(Locator::Css("#builder button.add")).await.expect("a choice to add");
    let line = first.attr("value").await.unwrap().expect("the line it adds");
    first.click().await.unwrap();
    let mut boxed = String::new();
    for _ in 0..50 {
        // The page is being replaced: an element found on the old one goes stale; look again.
        if let Ok(el) = c.find(Locator::Css("#order-text")).await
            && let Ok(Some(value)) = el.prop("value").await
        {
            boxed = value;
            if boxed.contains(&line) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(boxed.trim(), line, "the line is in the box");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let stored =
        stationmaster::store::orders::count_of_seat(&mut conn, g.id, 1, stationmaster::engine::Seat(1));
    assert_eq!(stored.await.unwrap(), 0, "adding a line stores nothing");
    fits_the_phone(&c, "the seat page with its order builder").await;
    shot(&c, &dir, "builder-line-added").await;

    c.find(Locator::Css("form[action$='/orders'] button")).await.unwrap().click().await.unwrap();
    assert!(text_once(&c, "#latest", "Version 1").await.contains("Version 1"));
    let marked = text_of(&c, "table.lines").await;
    assert!(marked.contains(&line) && !marked.contains("not understood"), "the server read it: {marked}");
    server.abort();
}
