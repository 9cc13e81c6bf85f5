//! A player's home in a real browser (issue 37): headless chromium, as in `browser`. A player with
//! seats in two games asks for a sign-in link on `/home`, opens the mailed link, sees both games
//! (and not a game of others), and follows a link to a seat page.

use super::browser::{browser, browser_present, fits_the_phone, shot, text_of};
use super::helpers::spawn_app;
use super::home::{home_link, three_games};
use crate::db::test_db;
use fantoccini::Locator;
use std::path::PathBuf;

#[tokio::test]
async fn a_player_signs_in_to_the_home_page_sees_both_games_and_opens_a_seat_page() {
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = spawn_app(pool).await;
    let [north, south, _other] = three_games(&app).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-home");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (_driver, c) = browser(&dir.join("profile")).await;

    // 1. The player asks for a sign-in link.
    c.goto(&format!("{base}/home")).await.unwrap();
    c.find(Locator::Css("input[name=email]")).await.unwrap().send_keys("anna@example.org").await.unwrap();
    c.find(Locator::Css("form[action='/home'] button")).await.unwrap().click().await.unwrap();
    assert!(text_of(&c, "#notice").await.contains("sign-in link is on its way"));
    fits_the_phone(&c, "the home sign-in page").await;
    shot(&c, &dir, "1-home-sign-in").await;

    // 2. The mailed link opens the home: both games, not the third.
    let mail = app.outbox().await.into_iter().rfind(|m| m.kind == "home-login").expect("a sign-in mail");
    assert_eq!(mail.to_addr, "anna@example.org");
    c.goto(&format!("{base}{}", home_link(&mail))).await.unwrap();
    let games = text_of(&c, "#games").await;
    assert!(games.contains("North Line") && games.contains("South Line"), "{games}");
    assert!(!games.contains("Other Line"), "{games}");
    fits_the_phone(&c, "the home page").await;
    shot(&c, &dir, "2-home").await;

    // 3. A game's link opens its seat page, as the player's own seat.
    let links = c.find_all(Locator::Css("a.seat-link")).await.unwrap();
    assert_eq!(links.len(), 2);
    let mut hrefs = Vec::new();
    for l in &links {
        hrefs.push(l.attr("href").await.unwrap().unwrap_or_default());
    }
    for g in [&north, &south] {
        assert!(
            hrefs.iter().any(|h| h.ends_with(&format!("/play/{}", g.seats[0].token.reveal()))),
            "{hrefs:?}"
        );
    }
    links[0].click().await.unwrap();
    for _ in 0..50 {
        if c.current_url().await.unwrap().path().starts_with("/play/") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(c.current_url().await.unwrap().path().starts_with("/play/"), "on a seat page");
    assert!(text_of(&c, "pre.example").await.contains("CLAIM"), "the seat page's order form");
    shot(&c, &dir, "3-seat-page-from-home").await;

    c.close().await.unwrap();
    server.abort();
}
