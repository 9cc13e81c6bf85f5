//! The GM's answer to a player's absence (RULINGS S9, S16): approved or declined, on the
//! dashboard or the console, and the player is mailed either way with the deadline that stands.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use chrono::NaiveDate;
use stationmaster::service::audit::Actor;
use stationmaster::service::{self, CreatedGame, Review, lifecycle};
use stationmaster::store::outbox::OutboxRow;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// A game (deadline Tue 3 Mar 2026, 12:00 UTC; approval by default) whose seat 2 asked to be away
/// from 3 to 5 March.
async fn game_with_a_request(app: &TestApp) -> CreatedGame {
    let g = app.create_game(Review::Gm).await;
    lifecycle::add_absence(&app.ctx, g.id, Actor::Seat(2), 2, day(3), day(5)).await.unwrap();
    g
}

/// The mails to seat 2's player about their absence.
async fn absence_mails(app: &TestApp, g: &CreatedGame) -> Vec<OutboxRow> {
    let player = g.seats[1].player.email.to_string();
    app.outbox()
        .await
        .into_iter()
        .filter(|m| m.to_addr == player && m.subject.contains("Your absence"))
        .collect()
}

#[tokio::test]
async fn a_declined_absence_moves_nothing_is_removed_and_the_player_is_told_the_deadline_that_stands() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = game_with_a_request(&app).await;
    let declined = lifecycle::decline_absences(&app.ctx, g.id, "gm@example.org", 2).await.unwrap();
    assert_eq!(declined, 1);
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline, "the deadline stays");
    assert!(app.outbox().await.iter().all(|m| m.kind != "deadline"), "the table is told nothing");
    let mails = absence_mails(&app, &g).await;
    assert_eq!(mails.len(), 1, "one mail to the player");
    let m = &mails[0];
    assert!(m.subject.contains("was declined"), "{}", m.subject);
    assert!(m.body_text.contains("declined your absence from 2026-03-03 to 2026-03-05"), "{}", m.body_text);
    assert!(m.body_text.contains("Turn 1 closes on Tue 3 Mar 2026, 12:00 UTC."), "{}", m.body_text);
    assert!(
        m.calendar.as_deref().is_some_and(|c| c.contains("BEGIN:VEVENT")),
        "the deadline's calendar entry"
    );
    assert!(m.reply_to.is_some(), "a reply goes to the seat's signed address");
    let log = service::audit::audit_log(&app.ctx, g.id).await.unwrap();
    let entry = log.entries.iter().find(|e| e.action == "absence declined").expect("logged");
    assert_eq!(entry.actor, "gm:gm@example.org");
    let again = lifecycle::approve_absences(&app.ctx, g.id, "gm@example.org", 2).await.unwrap_err();
    assert!(again.to_string().contains("no absence waiting"), "a declined request is gone: {again}");
}

#[tokio::test]
async fn an_approved_absence_is_mailed_to_the_player_with_the_deadline_it_moved_to() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = game_with_a_request(&app).await;
    let moved = lifecycle::approve_absences(&app.ctx, g.id, "gm@example.org", 2).await.unwrap();
    let moved = moved.expect("the deadline fell on an absent day");
    let mails = absence_mails(&app, &g).await;
    assert_eq!(mails.len(), 1, "one mail to the player");
    let m = &mails[0];
    assert!(m.subject.contains("was approved"), "{}", m.subject);
    assert!(m.body_text.contains("approved your absence from 2026-03-03 to 2026-03-05"), "{}", m.body_text);
    let when = moved.format("%a %-d %b %Y, %H:%M UTC").to_string();
    assert!(m.body_text.contains(&format!("Turn 1 closes on {when}.")), "{when}: {}", m.body_text);
    assert!(m.calendar.is_some(), "the deadline's calendar entry");
    let about: Vec<_> =
        app.outbox().await.into_iter().filter(|m| m.subject.contains("Your absence")).collect();
    assert_eq!(about.len(), 1, "to no one else");
}

#[tokio::test]
async fn the_gm_declines_an_absence_request_on_the_dashboard() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = game_with_a_request(&app).await;
    let cookie = app.gm_cookie("gm@example.org").await;
    let dashboard = format!("/gm/games/{}", g.id);
    let page = app.get_with(&dashboard, "cookie", &cookie).await;
    assert!(page.body.contains("Decline seat 2"), "{}", page.body);
    let decline = format!("/gm/games/{}/absences/decline", g.id);
    let stranger = app.gm_cookie("other@example.org").await;
    let r = app.post_form(&decline, "seat=2", Some(&stranger)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "only the game's GM declines");
    assert!(absence_mails(&app, &g).await.is_empty());
    let r = app.post_form(&decline, "seat=2", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline);
    assert_eq!(absence_mails(&app, &g).await.len(), 1, "the player is told");
    let page = app.get_with(&dashboard, "cookie", &cookie).await;
    assert!(!page.body.contains("Absences waiting for your approval"), "{}", page.body);
    let r = app.post_form(&decline, "seat=2", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "nothing waits any more: {}", r.body);
}
