//! A game created, filled and started from the web in a real browser (issue 37): headless
//! chromium, as in `browser`. A GM signs in by a mailed link and creates a 1835 game for five
//! from the "New game" form with options, inviting four addresses and leaving a seat open; two of
//! the invited accept by link, one by replying `ACCEPT` to the invitation (through the inbound
//! path every mail takes), one declines; of two players who ask to join on the public page, the
//! first takes the open seat and the second goes on the waiting list, and then takes the seat the
//! decline freed; the game starts and its first turn opens; a player signs in to her home page and
//! sees both of her games.

use super::browser::{browser, browser_present, fits_the_phone, shot, text_of};
use super::helpers::{PLAYERS, TestApp, spawn_app};
use super::home::game_named;
use crate::db::test_db;
use crate::inbound::stored;
use fantoccini::{Client, Locator};
use stationmaster::domain::EmailAddress;
use stationmaster::service::{gm_access, inbound};
use std::path::PathBuf;
use std::time::Duration;

/// The newest link under `prefix` (e.g. `/places/`) mailed to `to`, as a path on the test server.
async fn mailed_link(app: &TestApp, to: &str, prefix: &str) -> String {
    let needle = format!("http://sm.test{prefix}");
    let mail =
        app.outbox().await.into_iter().rev().find(|m| m.to_addr == to && m.body_text.contains(&needle));
    let mail = mail.unwrap_or_else(|| panic!("a mail to {to} with a link under {prefix}"));
    let word = mail.body_text.split_whitespace().find(|w| w.starts_with(&needle)).unwrap();
    word.trim_start_matches("http://sm.test").to_string()
}

/// Types `text` into the field `css` (emptied first).
async fn fill(c: &Client, css: &str, text: &str) {
    let field = c.find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("no {css}: {e}"));
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// Chooses the option `value` of the select `name`.
async fn choose(c: &Client, name: &str, value: &str) {
    let css = format!("select[name='{name}'] option[value='{value}']");
    c.find(Locator::Css(&css)).await.unwrap_or_else(|e| panic!("no {css}: {e}")).click().await.unwrap();
}

/// Waits until the browser's path starts with `prefix`.
async fn landed(c: &Client, prefix: &str) -> String {
    for _ in 0..100 {
        let path = c.current_url().await.unwrap().path().to_string();
        if path.starts_with(prefix) {
            return path;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the browser did not reach {prefix}");
}

/// Opens a place link and presses the button answering `answer`; the page's notice.
async fn answer_by_link(c: &Client, base: &str, link: &str, answer: &str) -> String {
    c.goto(&format!("{base}{link}")).await.unwrap();
    let css = format!("button[name=answer][value={answer}]");
    c.find(Locator::Css(&css)).await.unwrap_or_else(|e| panic!("no {css}: {e}")).click().await.unwrap();
    text_of(c, "p.notice").await
}

/// A player asks to join the game `id` on its public page and confirms by the mailed link.
async fn join_on_the_web(app: &TestApp, c: &Client, base: &str, id: &str, name: &str) -> String {
    let email = format!("{}@example.org", name.to_lowercase());
    c.goto(&format!("{base}/open")).await.unwrap();
    c.find(Locator::Css(&format!("a[href='/open/{id}']"))).await.unwrap().click().await.unwrap();
    landed(c, &format!("/open/{id}")).await;
    fill(c, "input[name=name]", name).await;
    fill(c, "input[name=email]", &email).await;
    c.find(Locator::Css(&format!("form[action='/open/{id}'] button"))).await.unwrap().click().await.unwrap();
    assert!(text_of(c, "p.notice").await.contains("confirmation link is on its way"));
    let link = mailed_link(app, &email, "/places/").await;
    answer_by_link(c, base, &link, "accept").await
}

#[tokio::test]
async fn a_gm_creates_a_1835_game_on_the_web_the_players_fill_it_and_a_player_sees_both_games_at_home() {
    let (pool, _db) = test_db().await;
    if !browser_present() {
        return;
    }
    let app = spawn_app(pool.clone()).await;
    gm_access::invite_creator(&app.ctx, &EmailAddress::parse("gm@example.org").unwrap()).await.unwrap();
    // Anna's other game, for her home page at the end.
    game_named(&app, "North Line", PLAYERS).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(axum::serve(listener, app.router.clone()).into_future());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-creation");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (_driver, c) = browser(&dir.join("profile")).await;

    // 1. The GM signs in by a mailed link.
    c.goto(&format!("{base}/gm/login")).await.unwrap();
    fill(&c, "input[name=email]", "gm@example.org").await;
    c.find(Locator::Css("form[action='/gm/login'] button")).await.unwrap().click().await.unwrap();
    assert!(text_of(&c, "p.ok").await.contains("sign-in link is on its way"));
    let link = mailed_link(&app, "gm@example.org", "/gm/magic/").await;
    c.goto(&format!("{base}{link}")).await.unwrap();
    landed(&c, "/gm").await;

    // 2. "New game": 1835 for five, options from the form, four invited, one seat open.
    c.find(Locator::LinkText("New game")).await.unwrap().click().await.unwrap();
    landed(&c, "/gm/new").await;
    choose(&c, "engine", "1835").await;
    c.find(Locator::Css("form[action='/gm/new'][method=get] button")).await.unwrap().click().await.unwrap();
    c.wait().for_element(Locator::Css("select[name='opt.variant']")).await.unwrap();
    fill(&c, "input[name=name]", "Web Line").await;
    fill(&c, "input[name=seats]", "5").await;
    let invited = PLAYERS.join("\n");
    fill(&c, "textarea[name=invited]", &invited).await;
    choose(&c, "opt.variant", "snake").await;
    choose(&c, "opt.preset", "pbem").await;
    fill(&c, "input[name=deadline]", "48h").await;
    fits_the_phone(&c, "the New game form").await;
    shot(&c, &dir, "1-new-game").await;
    c.find(Locator::Css("form[action='/gm/new'][method=post] button")).await.unwrap().click().await.unwrap();
    let path = landed(&c, "/gm/waiting/").await;
    let id = path.trim_start_matches("/gm/waiting/").to_string();
    let page = text_of(&c, "table").await;
    assert!(page.contains("anna@example.org") && page.contains("pending"), "{page}");
    shot(&c, &dir, "2-waiting").await;
    let setup: serde_json::Value =
        sqlx::query_scalar("SELECT options FROM waiting_games WHERE id = $1::uuid")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(setup["variant"], "snake", "the form's option is the game's: {setup}");

    // 3. Anna and Bert accept by their links.
    for who in ["anna", "bert"] {
        let link = mailed_link(&app, &format!("{who}@example.org"), "/places/").await;
        let done = answer_by_link(&c, &base, &link, "accept").await;
        assert!(done.contains("You have a seat"), "{who}: {done}");
    }
    shot(&c, &dir, "3-accepted").await;

    // 4. Cleo replies ACCEPT to her invitation's mail.
    let invitation =
        app.outbox().await.into_iter().find(|m| m.to_addr == "cleo@example.org" && m.kind == "invitation");
    let to = invitation.and_then(|m| m.reply_to).expect("Cleo's invitation has a reply address");
    let raw = format!(
        "From: Cleo <cleo@example.org>\r\nTo: {to}\r\nSubject: Re: invitation\r\nMessage-ID: <cleo@x>\r\n\r\n\
         ACCEPT\r\n\r\n> Or reply to this mail with ACCEPT or DECLINE.\r\n"
    );
    let s = stored(&app, raw.as_bytes(), "test", None).await;
    inbound::process_inbound(&app.ctx, s.id).await.unwrap().expect("processed");
    let status: String =
        sqlx::query_scalar("SELECT status FROM seat_places WHERE email = 'cleo@example.org'")
            .fetch_one(&pool)
            .await
            .unwrap();
    let outcome: Option<String> = sqlx::query_scalar("SELECT outcome FROM inbound_messages WHERE id = $1")
        .bind(s.id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(status, "accepted", "Cleo's reply takes her seat: {outcome:?}");

    // 5. Eve asks to join and takes the open seat; Fay, later, goes on the waiting list.
    assert!(join_on_the_web(&app, &c, &base, &id, "Eve").await.contains("You have a seat"));
    let fay = join_on_the_web(&app, &c, &base, &id, "Fay").await;
    assert!(fay.contains("waiting list"), "{fay}");
    shot(&c, &dir, "4-waiting-list").await;

    // 6. Dan declines; Fay takes the freed seat, and with it the game starts.
    let link = mailed_link(&app, "dan@example.org", "/places/").await;
    let done = answer_by_link(&c, &base, &format!("{link}?answer=decline"), "decline").await;
    assert!(done.contains("declined"), "{done}");
    assert!(
        app.outbox().await.iter().any(|m| m.to_addr == "fay@example.org" && m.kind == "seat-taken"),
        "Fay is told she has the freed seat"
    );
    let game: stationmaster::domain::GameId = id.parse().unwrap();
    let names: Vec<String> = app.seats(game).await.into_iter().map(|s| s.player_name).collect();
    assert_eq!(names, ["Anna", "Bert", "Cleo", "Eve", "Fay"], "the game started with its five seats");
    assert_eq!(app.turn(game, 1).await.status.as_str(), "open", "its first turn is open");
    c.goto(&format!("{base}/gm/games/{id}")).await.unwrap();
    let dash = text_of(&c, "h1").await;
    assert!(dash.contains("Web Line"), "{dash}");
    let body = text_of(&c, "body").await;
    assert!(body.contains("turn 1 is open"), "the dashboard shows the first turn open: {body}");
    shot(&c, &dir, "5-started").await;

    // 7. Anna signs in to her home and sees both of her games.
    c.goto(&format!("{base}/home")).await.unwrap();
    fill(&c, "input[name=email]", "anna@example.org").await;
    c.find(Locator::Css("form[action='/home'] button")).await.unwrap().click().await.unwrap();
    assert!(text_of(&c, "#notice").await.contains("sign-in link is on its way"));
    let link = mailed_link(&app, "anna@example.org", "/home/magic/").await;
    c.goto(&format!("{base}{link}")).await.unwrap();
    let games = text_of(&c, "#games").await;
    assert!(games.contains("Web Line") && games.contains("North Line"), "{games}");
    assert_eq!(c.find_all(Locator::Css("a.seat-link")).await.unwrap().len(), 2);
    fits_the_phone(&c, "the home page with both games").await;
    shot(&c, &dir, "6-home").await;

    c.close().await.unwrap();
    server.abort();
}
