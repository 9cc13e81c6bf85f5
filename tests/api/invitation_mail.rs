//! Issue 37: an invitation answered by replying to its mail (RULINGS M23–M25), and its signed
//! `place+<id>.<tag>@…` reply address sealed in the stored message (RULINGS M11, M23).

use crate::db::test_db;
use crate::game_creation::{FOUR, invited_gm, new_1835_form, open_from_form};
use crate::helpers::{TestApp, spawn_app};
use crate::inbound::{replace_bytes, stored};
use stationmaster::domain::SealedSecrets;
use stationmaster::service::inbound;
use stationmaster::service::mail_secrets::parse_place_address;
use stationmaster::store::outbox::OutboxRow;

/// The invitation mailed to `to`, as sent (its reply address filled in).
pub(crate) async fn invitation(app: &TestApp, to: &str) -> OutboxRow {
    let mail = app.outbox().await.into_iter().find(|m| m.to_addr == to && m.kind == "invitation");
    mail.unwrap_or_else(|| panic!("an invitation to {to}"))
}

/// A reply from `from` to `to` whose own text is `word`, the invitation quoted below it.
pub(crate) fn reply(from: &str, to: &str, word: &str) -> String {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: Re: An invitation\r\nMessage-ID: <reply-{word}@x>\r\n\r\n\
         {word}\r\n\r\n> Or reply to this mail with ACCEPT or DECLINE.\r\n"
    )
}

/// Stores and processes a raw mail; its stored row's id, status and outcome.
pub(crate) async fn deliver(app: &TestApp, raw: &str) -> (i64, String, String) {
    let s = stored(app, raw.as_bytes(), "test", None).await;
    inbound::process_inbound(&app.ctx, s.id).await.unwrap().expect("processed");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let row = stationmaster::store::inbound::get(&mut conn, s.id).await.unwrap().unwrap();
    (s.id, row.status.to_string(), row.outcome.unwrap_or_default())
}

/// The status of the place invited at `email` in game `id`.
pub(crate) async fn place_status(app: &TestApp, id: &str, email: &str) -> String {
    sqlx::query_scalar("SELECT status FROM seat_places WHERE game_id = $1::uuid AND email = $2")
        .bind(id)
        .bind(email)
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn replying_accept_to_an_invitation_takes_the_seat_and_tells_the_player() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    let mail = invitation(&app, "anna@example.org").await;
    let to = mail.reply_to.clone().expect("an invitation has a reply address");
    assert!(parse_place_address(&to).is_some(), "the reply address is the place's own: {to}");

    let (_, status, outcome) = deliver(&app, &reply("Mallory <mallory@example.org>", &to, "ACCEPT")).await;
    assert_eq!(status, "rejected", "only the invited address answers (RULING M25): {outcome}");
    assert_eq!(place_status(&app, &id, "anna@example.org").await, "pending");

    let (_, status, outcome) = deliver(&app, &reply("Anna <anna@example.org>", &to, "accept")).await;
    assert_eq!(status, "accepted", "{outcome}");
    assert_eq!(place_status(&app, &id, "anna@example.org").await, "accepted");
    let told = app.outbox().await.into_iter().filter(|m| m.kind == "place-answer").collect::<Vec<_>>();
    assert!(
        told.iter().any(|m| m.to_addr == "anna@example.org" && m.body_text.contains("You have a seat")),
        "Anna is told she has a seat: {told:?}"
    );
    assert!(
        told.iter().all(|m| m.to_addr != "mallory@example.org"),
        "a stranger is answered at the invited address only"
    );

    let (_, status, _) = deliver(&app, &reply("Anna <anna@example.org>", &to, "DECLINE")).await;
    assert_eq!(status, "rejected", "an invitation is answered once");
    assert_eq!(place_status(&app, &id, "anna@example.org").await, "accepted");
}

#[tokio::test]
async fn a_reply_to_a_place_address_is_stored_with_its_tag_sealed() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    let to = invitation(&app, "bert@example.org").await.reply_to.unwrap();
    let (_, tag) = parse_place_address(&to).unwrap();
    let raw = reply("Bert <bert@example.org>", &to, "ACCEPT");

    let (id, status, outcome) = deliver(&app, &raw).await;
    assert_eq!(status, "accepted", "the sealed address still opens the place: {outcome}");
    let kept: Vec<u8> = sqlx::query_scalar("SELECT raw FROM inbound_messages WHERE id = $1")
        .bind(id)
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap();
    let sealed =
        replace_bytes(raw.as_bytes(), tag.as_bytes(), SealedSecrets::default().seal(&tag).as_bytes());
    assert_ne!(sealed, raw.as_bytes(), "the tag stood in the mail");
    assert_eq!(
        String::from_utf8_lossy(&kept),
        String::from_utf8_lossy(&sealed),
        "the tag is replaced by its placeholder and nothing else changed"
    );
}

/// The reply address of the newest mail of `kind` to `to`, as sent.
async fn reply_address_of(app: &TestApp, kind: &str, to: &str) -> String {
    let mail = app.outbox().await.into_iter().rev().find(|m| m.to_addr == to && m.kind == kind);
    mail.and_then(|m| m.reply_to).unwrap_or_else(|| panic!("a {kind} mail to {to} with a reply address"))
}

/// `who` asks to join the game `id` on its public page.
async fn ask_to_join(app: &TestApp, id: &str, who: &str) {
    let form = format!("name={who}&email={}%40example.org", who.to_lowercase());
    let r = app.post_form(&format!("/open/{id}"), &form, None).await;
    assert_eq!(r.status, axum::http::StatusCode::OK, "{}", r.body);
}

/// The newest `place-answer` mail to `to`.
async fn told(app: &TestApp, to: &str) -> String {
    let mail = app.outbox().await.into_iter().rev().find(|m| m.kind == "place-answer" && m.to_addr == to);
    mail.map(|m| m.body_text).unwrap_or_else(|| panic!("{to} is told the outcome"))
}

#[tokio::test]
async fn replying_join_to_a_confirmation_takes_a_free_seat_and_then_a_place_on_the_waiting_list() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    // Three invited, one seat open.
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..3], "")).await;
    for (who, status, words) in
        [("Eve", "accepted", "You have a seat"), ("Fay", "waitlisted", "waiting list")]
    {
        ask_to_join(&app, &id, who).await;
        let email = format!("{}@example.org", who.to_lowercase());
        let to = reply_address_of(&app, "join-confirmation", &email).await;
        assert!(parse_place_address(&to).is_some(), "the confirmation replies to its place: {to}");
        let (_, got, outcome) = deliver(&app, &reply(&format!("{who} <{email}>"), &to, "JOIN")).await;
        assert_eq!(got, "accepted", "{who}: {outcome}");
        assert_eq!(place_status(&app, &id, &email).await, status, "{who}");
        let said = told(&app, &email).await;
        assert!(said.contains(words), "{who} is told: {said}");
    }
    let audit = crate::replacement_offer::audit(&app, &id).await;
    assert!(audit.iter().any(|a| a == "joined") && audit.iter().any(|a| a == "waiting list"), "{audit:?}");
}

#[tokio::test]
async fn replying_decline_to_an_invitation_frees_the_seat_for_the_waiting_list_and_tells_the_gm() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..3], "")).await;
    for who in ["Eve", "Fay"] {
        ask_to_join(&app, &id, who).await;
        let email = format!("{}@example.org", who.to_lowercase());
        let to = reply_address_of(&app, "join-confirmation", &email).await;
        deliver(&app, &reply(&format!("{who} <{email}>"), &to, "JOIN")).await;
    }
    assert_eq!(place_status(&app, &id, "fay@example.org").await, "waitlisted");

    let to = invitation(&app, "bert@example.org").await.reply_to.unwrap();
    let (_, status, outcome) = deliver(&app, &reply("Bert <bert@example.org>", &to, "Decline")).await;
    assert_eq!(status, "accepted", "{outcome}");
    assert_eq!(place_status(&app, &id, "bert@example.org").await, "declined");
    assert!(told(&app, "bert@example.org").await.contains("You declined"));
    let gm_told = app.outbox().await.into_iter().any(|m| {
        m.to_addr == "gm@example.org"
            && m.kind == "waiting-gm"
            && m.body_text.contains("bert@example.org declined")
    });
    assert!(gm_told, "the GM is told the seat is free again");
    assert_eq!(place_status(&app, &id, "fay@example.org").await, "accepted", "Fay takes the freed seat");
    assert!(app.outbox().await.iter().any(|m| m.to_addr == "fay@example.org" && m.kind == "seat-taken"));
}
