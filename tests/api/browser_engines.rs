//! Every engine's seat page in a real browser (issue 36), at a desktop's width (1280 px) and a
//! phone's (390 px): the "your move" sentence is there, every part of the picture lies whole in
//! the window (each drawing's bounding box measured against the viewport, nothing to scroll
//! sideways for), and the order builder's first line, added to the box and sent, is stored and
//! understood by the server. The dev mailbox's HTML part is shown in its sandboxed frame with
//! nothing run. Screenshots go under `target/tmp/browser-engines/` (each path is printed).
//! Skipped like `browser` without chromium and chromedriver (never under `CI=true`).

use super::browser::{
    browser_at, browser_present, fits_the_phone, shot, text_of, text_once, the_pictures_fit,
};
use super::helpers::{create_game_on, spawn_app};
use crate::db::test_db;
use fantoccini::{Client, Locator};
use serde_json::json;
use stationmaster::service::{GameClock, Review};
use std::path::PathBuf;
use std::time::Duration;

/// Every engine, by slug.
const ENGINES: [&str; 5] = ["railroaded", "1835", "1833", "confederate-rails", "1800"];
/// A desktop's and a phone's window width (CSS pixels).
const WIDTHS: [u32; 2] = [1280, 390];

/// Where this file's screenshots go, made empty.
fn shots_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The value of the order box once it contains `line` (the page a builder button posts is
/// being replaced: an element of the old one goes stale), or the last value seen.
async fn box_once(c: &Client, line: &str) -> String {
    let mut boxed = String::new();
    for _ in 0..100 {
        if let Ok(el) = c.find(Locator::Css("#order-text")).await
            && let Ok(Some(value)) = el.prop("value").await
        {
            boxed = value;
            if boxed.contains(line) {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    boxed
}

#[tokio::test]
async fn every_engines_seat_page_fits_a_desktop_and_a_phone_and_its_order_builder_adds_a_line_the_server_accepts()
 {
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = spawn_app(pool).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = shots_dir("browser-engines");
    for width in WIDTHS {
        let (_driver, c) = browser_at(&dir.join(format!("profile-{width}")), width).await;
        for slug in ENGINES {
            let g = create_game_on(&app.ctx, slug, json!({}), Review::Gm, GameClock::default()).await;
            // Each seat's page fits and says what the seat has to decide; the first seat with
            // something to order now tries the builder.
            let mut builder = None;
            for (i, seat) in g.seats.iter().enumerate() {
                let what = format!("{slug} at {width} px, seat {}", i + 1);
                c.goto(&format!("{base}/play/{}", seat.token.reveal())).await.unwrap();
                let sentence = c.find(Locator::Css("#your-move")).await.expect("the your-move sentence");
                assert!(sentence.is_displayed().await.unwrap(), "{what}: the sentence is shown");
                let said = sentence.text().await.unwrap();
                assert!(said.trim().len() > 10, "{what}: the sentence says something: {said:?}");
                fits_the_phone(&c, &what).await;
                the_pictures_fit(&c, &what).await;
                if builder.is_none() && c.find(Locator::Css("#builder button.add")).await.is_ok() {
                    builder = Some((i, seat.token.reveal().to_string()));
                    shot(&c, &dir, &format!("{slug}-{width}-seat-{}", i + 1)).await;
                }
            }
            let (i, token) = builder.unwrap_or_else(|| panic!("{slug}: no seat's page lists a choice"));
            let what = format!("{slug} at {width} px, seat {}", i + 1);
            c.goto(&format!("{base}/play/{token}")).await.unwrap();
            let first = c.find(Locator::Css("#builder button.add")).await.unwrap();
            let line = first.attr("value").await.unwrap().expect("the line it adds");
            first.click().await.unwrap();
            let boxed = box_once(&c, &line).await;
            assert_eq!(boxed.trim(), line, "{what}: the line is in the box");
            c.find(Locator::Css("form[action$='/orders'] button")).await.unwrap().click().await.unwrap();
            let latest = text_once(&c, "#latest", "Version 1").await;
            assert!(latest.contains("Version 1"), "{what}: stored: {latest}");
            let marked = text_of(&c, "table.lines").await;
            assert!(
                marked.contains(&line) && !marked.contains("not understood"),
                "{what}: the server read {line:?}: {marked}"
            );
            fits_the_phone(&c, &format!("{what}, orders stored")).await;
            shot(&c, &dir, &format!("{slug}-{width}-builder-line-stored")).await;
        }
        c.close().await.unwrap();
    }
    server.abort();
}

#[tokio::test]
async fn the_dev_mailbox_shows_a_mails_html_part_in_a_sandboxed_frame_where_no_script_runs() {
    // RULING S17 (amended, issue 36): a mail's HTML with a script and an `onerror` handler.
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = crate::web_headers::app_with(pool, true, "127.0.0.1:8080").await;
    app.create_game(Review::Gm).await;
    let mail = app.outbox().await.into_iter().find(|m| m.body_html.is_some()).expect("a mail with HTML");
    super::dev_mailbox::set_html(&app, mail.id, super::dev_mailbox::SCRIPTED).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = shots_dir("browser-mailbox");
    let (_driver, c) = browser_at(&dir.join("profile"), 1280).await;
    c.goto(&format!("{base}/dev/mailbox/{}", mail.id)).await.unwrap();
    let frame = c.find(Locator::Css("iframe.mail-html")).await.expect("the HTML part's frame");
    assert!(frame.is_displayed().await.unwrap());
    tokio::time::sleep(Duration::from_millis(500)).await;
    shot(&c, &dir, "mail-html-part").await;
    frame.enter_frame().await.unwrap();
    let probe = text_of(&c, "#probe").await;
    assert_eq!(probe, "not run", "the mail's HTML is shown, and nothing in it ran");
    c.enter_parent_frame().await.unwrap();
    c.close().await.unwrap();
    server.abort();
}
