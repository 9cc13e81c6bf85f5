//! The seat page as a workplace (issue 16), in-process: the refused form shown again, the game's
//! own example and order guide, when the turn closes, the last report and the report history.

use super::helpers::{create_game_on, spawn_app};
use crate::db::test_db;
use axum::http::StatusCode;
use serde_json::json;
use stationmaster::service::{self, GameClock, Review};

#[tokio::test]
async fn a_refused_web_submission_shows_the_form_again_with_the_text_and_each_error_at_its_line() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    // No line of it is readable (HR 16 stores a sheet with one readable order).
    let form = "orders=FLY+AWAY%0AHELLO+%3Cb%3EWORLD&final=1";
    let r = app.post_form(&format!("/play/{t}/orders"), form, None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.body);
    assert!(r.body.contains("<textarea id=\"order-text\""), "the page is the form: {}", r.body);
    assert!(r.body.contains("FLY AWAY\nHELLO &#60;b&#62;WORLD</textarea>"), "the text is kept, escaped");
    let bad = r.body.split("<li class=\"bad\">").nth(2).expect("the bad lines are marked");
    assert!(bad.starts_with("<span class=\"ln\">line 2</span>") && bad.contains("not understood"), "{bad}");
    assert!(r.body.contains("name=\"final\" value=\"1\" checked"), "the final box stays ticked");
    assert!(r.body.contains("not stored"));
    let page = app.get(&format!("/play/{t}")).await;
    assert!(!page.body.contains("Version 1"), "nothing was stored");
}

#[tokio::test]
async fn house_rule_16_the_web_form_stores_a_sheet_with_a_line_not_understood_and_warns_about_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let claims = app.claim_orders(&g).await;
    let claim = claims[0].clone().unwrap();
    let form = format!("orders={}%0AHELLO+%3Cb%3EWORLD%0Athanks", claim.replace(' ', "+"));
    let r = app.post_form(&format!("/play/{t}/orders"), &form, None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "stored: {}", r.body);
    let page = app.get(&format!("/play/{t}")).await;
    assert!(page.body.contains("Version 1"), "stored");
    assert!(
        page.body.contains("id=\"unread\"") && page.body.contains("1 line(s) were not understood"),
        "{}",
        page.body
    );
    assert!(page.body.contains("HELLO &#60;b&#62;WORLD"), "the line is shown, escaped");
    assert!(page.body.contains("ignored: a courtesy"), "the courtesy line is noted");
}

#[tokio::test]
async fn the_order_box_shows_the_games_own_example_and_links_its_order_guide() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(&app.ctx, "1833", json!({}), Review::Gm, GameClock::default()).await;
    let page = app.get(&format!("/play/{}", g.seats[0].token.reveal())).await;
    assert_eq!(page.status, StatusCode::OK);
    // Issue 36: the game is in its set-up selection, so the example is a selection's.
    assert!(page.body.contains("SELECT Philadelphia, New York"), "1833's example: {}", page.body);
    assert!(!page.body.contains("DRAW POOL"), "no order of a later phase: {}", page.body);
    assert!(!page.body.contains("7H NORTH"), "not Railroaded's");
    assert!(page.body.contains("href=\"/guides/1833\""));
    let t = g.seats[0].token.reveal();
    assert!(page.body.contains(&format!("id=\"webhook\" method=\"post\" action=\"/play/{t}/webhook\"")));
    assert!(page.body.contains(&format!("href=\"/play/{t}/feed.atom\"")), "the seat's private feed");
    let guide = app.get("/guides/1833").await;
    assert_eq!(guide.status, StatusCode::OK);
    assert!(
        guide.body.contains("<h1>1833 orders by mail</h1>") && guide.body.contains("<pre><code"),
        "{}",
        guide.body
    );
    assert_eq!(app.get("/guides/nothing").await.status, StatusCode::NOT_FOUND);
    let welcome = app.outbox().await.into_iter().find(|m| m.kind == "welcome").unwrap();
    assert!(welcome.body_text.contains("http://sm.test/guides/1833"), "the welcome mail links the guide");
}

#[tokio::test]
async fn the_seat_page_says_the_turn_closes_after_the_cooling_off_once_every_order_is_final() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[0].token.reveal();
    let page = app.get(&format!("/play/{t}")).await;
    assert!(page.body.contains("Turn 1 closes at the deadline, Tue 3 Mar 2026, 12:00 UTC."), "{}", page.body);
    assert!(page.body.contains("30m after the last one is marked final"));
    app.claim_all_final(&g).await;
    let page = app.get(&format!("/play/{t}")).await;
    assert!(
        page.body.contains("so it closes early: at Sun 1 Mar 2026, 12:30 UTC, after the cooling-off of 30m"),
        "the clock stands at 12:00: {}",
        page.body
    );
}

#[tokio::test]
async fn the_seat_page_shows_its_own_last_report_and_links_the_report_history() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    app.claim_all_final(&g).await;
    service::close_turn(&app.ctx, g.id).await.unwrap();
    service::publish_turn(&app.ctx, g.id, "gm@example.org").await.unwrap();
    let (t1, t2) = (g.seats[0].token.reveal(), g.seats[1].token.reveal());
    let page = app.get(&format!("/play/{t1}")).await;
    let report = page.body.split("id=\"report\"").nth(1).expect("the last report is on the page");
    assert!(report.contains("Test Line — turn 1 result") && report.contains("Report for Anna (seat 1)"));
    assert!(report.contains("Hand of seat 1") && !report.contains("Hand of seat 2"), "only its own hand");
    assert!(page.body.contains(&format!("href=\"/play/{t1}/reports/1\"")), "the history links turn 1");
    let one = app.get(&format!("/play/{t1}/reports/1")).await;
    assert_eq!(one.status, StatusCode::OK);
    assert!(one.body.contains("Report for Anna (seat 1)"));
    let other = app.get(&format!("/play/{t2}/reports/1")).await;
    assert!(other.body.contains("Report for Bert (seat 2)") && !other.body.contains("Hand of seat 1"));
    assert_eq!(app.get(&format!("/play/{t1}/reports/2")).await.status, StatusCode::NOT_FOUND);
    assert_eq!(app.get("/play/not-a-token/reports/1").await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_top_of_the_seat_page_says_in_one_sentence_what_the_seat_decides_and_by_when() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let turn = app.turn(g.id, 1).await;
    let deadline = turn.deadline.format("%Y").to_string();
    for s in &g.seats {
        let page = app.get(&format!("/play/{}", s.token.reveal())).await;
        assert_eq!(page.status, StatusCode::OK);
        let start = page.body.find("id=\"your-move\"").expect("the sentence is on the page");
        let sentence = &page.body[start..start + page.body[start..].find("</p>").unwrap()];
        assert!(
            sentence.contains("Your move: ") && sentence.contains(&deadline),
            "seat {}: {sentence}",
            s.seat
        );
        assert!(
            page.body.find("id=\"your-move\"") < page.body.find("The table, as you see it"),
            "it stands at the top"
        );
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();
    let page = app.get(&format!("/play/{}", g.seats[0].token.reveal())).await;
    assert!(page.body.contains("being adjudicated: nothing for you to decide"), "{}", page.body);
}

#[tokio::test]
async fn the_order_builder_lists_only_the_seats_own_choices_and_adding_one_stores_nothing() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let t = g.seats[1].token.reveal();
    let own = app.hand(&g.id, t, 2).await;
    let mut others = Vec::new();
    for s in g.seats.iter().filter(|s| s.seat != 2) {
        others.extend(app.hand(&g.id, s.token.reveal(), s.seat).await);
    }
    let page = app.get(&format!("/play/{t}")).await;
    let start = page.body.find("id=\"builder\"").expect("the order builder is on the page");
    let builder = &page.body[start..start + page.body[start..].find("</section>").unwrap()];
    let lines: Vec<&str> = builder.split("value=\"").skip(1).map(|l| &l[..l.find('"').unwrap()]).collect();
    assert!(!lines.is_empty(), "{builder}");
    for line in &lines {
        let card = line.split_whitespace().nth(1).unwrap();
        let suit_word = ["HEARTS", "DIAMONDS", "CLUBS", "SPADES"].contains(&card);
        assert!(suit_word || own.iter().any(|c| c == card), "{line} names a card seat 2 does not hold");
        assert!(suit_word || !others.iter().any(|c| c == card) || own.iter().any(|c| c == card));
    }

    let form = format!("orders=&add={}", lines[0].replace(' ', "+"));
    let added = app.post_form(&format!("/play/{t}/orders"), &form, None).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.body);
    assert!(added.body.contains(&format!(">{}</textarea>", lines[0])), "the line is in the box");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let stored =
        stationmaster::store::orders::count_of_seat(&mut conn, g.id, 1, stationmaster::engine::Seat(2));
    assert_eq!(stored.await.unwrap(), 0, "adding a line stores nothing");
    let sent = app.post_orders(&g.id, t, lines[0].to_string()).await;
    assert_eq!(sent.status, StatusCode::CREATED, "{}", sent.body);
    assert!(
        sent.json()["echo"]["lines"][0]["error"].is_null(),
        "the server reads the builder's line: {}",
        sent.body
    );
}
