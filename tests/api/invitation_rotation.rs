//! Invitations across a rotation of the server key (RULING P9): an invitation still to be
//! answered keeps working — the link already mailed, the reply address the player has, and the
//! link in a mail that was still to be sent when the key changed.

use crate::db::test_db;
use crate::game_creation::{FOUR, answer, invited_gm, new_1835_form, open_from_form, place_link};
use crate::helpers::{TestApp, spawn_app_with_settings};
use crate::invitation_mail::{deliver, invitation, place_status, reply};
use crate::server_key::{file_settings, key_dir, start};
use axum::http::StatusCode;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::service;

/// A server with a key file of its own and a game waiting for the four invited: the app and the
/// game's id.
async fn waiting_game(pool: &PgPool, name: &str) -> (std::path::PathBuf, TestApp, String) {
    let path = key_dir(name).join("secret.key");
    let app = spawn_app_with_settings(pool.clone(), Clock::system(), file_settings(&path)).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    (path, app, id)
}

/// The key is rotated by the console, and the running server takes up the new key.
async fn rotate(pool: &PgPool, path: &std::path::Path, app: &TestApp) -> usize {
    let console = start(pool, path).await.unwrap();
    let done = service::rotate_key(&console).await.unwrap();
    assert!(app.ctx.follow_rotation().await.unwrap(), "the server takes up the new key");
    done.places
}

#[tokio::test]
async fn an_invitation_mailed_before_a_key_rotation_is_answered_by_its_link_and_by_a_reply_after_it() {
    let (pool, _db) = test_db().await;
    let (path, app, id) = waiting_game(&pool, "rotate-invitation-sent").await;
    let anna_reply_to = invitation(&app, "anna@example.org").await.reply_to.unwrap();
    let bert_link = place_link(&app, "bert@example.org").await;
    let mut conn = pool.acquire().await.unwrap();
    for m in app.stored_outbox().await.iter().filter(|m| m.kind == "invitation") {
        stationmaster::store::outbox::mark_sent(&mut conn, m.id, chrono::Utc::now()).await.unwrap();
    }
    assert_eq!(rotate(&pool, &path, &app).await, 4, "four invitations still to be answered");

    let (_, status, outcome) =
        deliver(&app, &reply("Anna <anna@example.org>", &anna_reply_to, "ACCEPT")).await;
    assert_eq!(status, "accepted", "the reply address Anna has still answers: {outcome}");
    assert_eq!(place_status(&app, &id, "anna@example.org").await, "accepted");
    let r = answer(&app, &bert_link, "accept").await;
    assert_eq!(r.status, StatusCode::OK, "the link Bert has still answers: {}", r.body);
    assert_eq!(place_status(&app, &id, "bert@example.org").await, "accepted");
}

#[tokio::test]
async fn an_invitation_queued_before_a_key_rotation_and_sent_after_it_carries_a_working_link() {
    let (pool, _db) = test_db().await;
    let (path, app, id) = waiting_game(&pool, "rotate-invitation-queued").await;
    let old_link = place_link(&app, "cleo@example.org").await;
    rotate(&pool, &path, &app).await;

    // Sent now: the link and reply address made under the new key.
    let new_link = place_link(&app, "cleo@example.org").await;
    assert_ne!(new_link, old_link, "the mail goes out with the new key's link");
    assert_eq!(app.get(&new_link).await.status, StatusCode::OK, "the link the mail carries opens the place");
    let r = answer(&app, &new_link, "accept").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(place_status(&app, &id, "cleo@example.org").await, "accepted");
    assert_eq!(answer(&app, &old_link, "decline").await.status, StatusCode::FORBIDDEN, "answered once");

    let to = invitation(&app, "dan@example.org").await.reply_to.unwrap();
    let (_, status, outcome) = deliver(&app, &reply("Dan <dan@example.org>", &to, "ACCEPT")).await;
    assert_eq!(status, "accepted", "the new reply address answers: {outcome}");
}
