//! Issue 37: who may create games and run them — invited GMs, open creation, the operator, co-GMs
//! (RULING W42) — and games created, filled and started from the web.

use crate::db::test_db;
use crate::helpers::{TestApp, settings, spawn_app, spawn_app_with_settings};
use axum::http::StatusCode;
use chrono::{TimeZone, Utc};
use stationmaster::clock::Clock;
use stationmaster::domain::EmailAddress;
use stationmaster::service::{Review, gm_access};

fn clock() -> Clock {
    Clock::fixed(Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap())
}

/// Asks for a sign-in link; whether one was mailed.
async fn link_mailed(app: &TestApp, email: &str) -> bool {
    let before = app.outbox().await.iter().filter(|m| m.kind == "gm-login").count();
    let r = app.post_form("/gm/login", &format!("email={}", email.replace('@', "%40")), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("sign-in link is on its way"), "the same answer for every address");
    app.outbox().await.iter().filter(|m| m.kind == "gm-login").count() > before
}

#[tokio::test]
async fn a_gm_cannot_see_or_change_another_gms_game_until_made_its_co_gm() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let other = app.gm_cookie("other-gm@example.org").await;
    let list = app.get_with("/gm", "cookie", &other).await;
    assert!(!list.body.contains(&g.id.to_string()), "another GM's game is not listed: {}", list.body);
    let dash = format!("/gm/games/{}", g.id);
    assert_eq!(app.get_with(&dash, "cookie", &other).await.status, StatusCode::FORBIDDEN);
    let add = format!("/gm/games/{}/co-gm", g.id);
    let r = app.post_form(&add, "email=other-gm%40example.org", Some(&other)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "nobody makes himself a co-GM");
    assert_eq!(
        app.post_form(&format!("/gm/games/{}/pause", g.id), "", Some(&other)).await.status,
        StatusCode::FORBIDDEN
    );

    let gm = app.gm_cookie("gm@example.org").await;
    let r = app.post_form(&add, "email=other-gm%40example.org", Some(&gm)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(app.get_with(&dash, "cookie", &other).await.status, StatusCode::OK);
    assert!(app.get_with("/gm", "cookie", &other).await.body.contains(&g.id.to_string()));
    let audit = app.get_with(&format!("/gm/games/{}/audit", g.id), "cookie", &other).await;
    assert!(audit.body.contains("co-GM added"), "{}", audit.body);
}

#[tokio::test]
async fn the_operator_sees_and_changes_every_game() {
    let (pool, _db) = test_db().await;
    let mut s = settings();
    s.creation.operator = Some("Operator@Example.org".into());
    let app = spawn_app_with_settings(pool, clock(), s).await;
    let g = app.create_game(Review::Gm).await;
    let op = app.gm_cookie("operator@example.org").await;
    assert!(app.get_with("/gm", "cookie", &op).await.body.contains(&g.id.to_string()));
    assert_eq!(app.get_with(&format!("/gm/games/{}", g.id), "cookie", &op).await.status, StatusCode::OK);
    let r = app.post_form(&format!("/gm/games/{}/pause", g.id), "", Some(&op)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
}

#[tokio::test]
async fn an_uninvited_address_gets_no_sign_in_link_and_may_not_create_games() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    assert!(!link_mailed(&app, "newgm@example.org").await);
    let cookie = app.gm_cookie("newgm@example.org").await;
    assert!(!app.get_with("/gm", "cookie", &cookie).await.body.contains("New game"));

    let address = EmailAddress::parse("newgm@example.org").unwrap();
    gm_access::invite_creator(&app.ctx, &address).await.unwrap();
    assert!(link_mailed(&app, "newgm@example.org").await, "an invited GM signs in before running a game");
    assert!(app.get_with("/gm", "cookie", &cookie).await.body.contains("New game"));

    assert!(gm_access::revoke_creator(&app.ctx, &address).await.unwrap());
    // Past the sign-in links' window, so that no limit holds the next one back.
    app.ctx.clock.advance(chrono::Duration::minutes(16));
    assert!(!link_mailed(&app, "newgm@example.org").await);
    assert!(!app.get_with("/gm", "cookie", &cookie).await.body.contains("New game"));
}

#[tokio::test]
async fn with_creation_open_any_confirmed_address_may_create_games() {
    let (pool, _db) = test_db().await;
    let mut s = settings();
    s.creation.open_creation = true;
    let app = spawn_app_with_settings(pool, clock(), s).await;
    assert!(link_mailed(&app, "anyone@example.org").await);
    let cookie = app.gm_cookie("anyone@example.org").await;
    assert!(app.get_with("/gm", "cookie", &cookie).await.body.contains("New game"));
}

/// The form of a 1835 game for four seats: `invited` by address, the rest open.
pub(crate) fn new_1835_form(invited: &[&str], extra: &str) -> String {
    let invited: Vec<String> = invited.iter().map(|a| a.replace('@', "%40").replace(' ', "+")).collect();
    format!(
        "engine=1835&name=Web+Line&seats=4&invited={}&seating=given&opt.preset=pbem&opt.variant=snake\
         &opt.ld_income=30&deadline=48h&reminders=48h%2C12h&cooling_off=30m&nmr_policy=hr1835\
         &review=gm{extra}",
        invited.join("%0A")
    )
}

/// Opens a game from the form as `gm` (a session cookie); returns its id.
pub(crate) async fn open_from_form(app: &TestApp, cookie: &str, form: &str) -> String {
    let r = app.post_form("/gm/new", form, Some(cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let at = r.headers["location"].to_str().unwrap().to_string();
    at.trim_start_matches("/gm/waiting/").to_string()
}

/// The path of the newest place link mailed to `to` (without its `?answer=`).
pub(crate) async fn place_link(app: &TestApp, to: &str) -> String {
    let mail = app
        .outbox()
        .await
        .into_iter()
        .rev()
        .find(|m| m.to_addr == to && m.body_text.contains("/places/"))
        .unwrap_or_else(|| panic!("a mail with a link to {to}"));
    let word = mail.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/places/")).unwrap();
    word.trim_start_matches("http://sm.test").split('?').next().unwrap().to_string()
}

pub(crate) async fn answer(app: &TestApp, path: &str, answer: &str) -> crate::helpers::Resp {
    app.post_form(path, &format!("answer={answer}"), None).await
}

pub(crate) async fn invited_gm(app: &TestApp) -> String {
    gm_access::invite_creator(&app.ctx, &EmailAddress::parse("gm@example.org").unwrap()).await.unwrap();
    app.gm_cookie("gm@example.org").await
}

pub(crate) const FOUR: [&str; 4] = [
    "Anna <anna@example.org>",
    "Bert <bert@example.org>",
    "Cleo <cleo@example.org>",
    "Dan <dan@example.org>",
];

#[tokio::test]
async fn a_gm_creates_a_1835_game_with_options_from_the_form_and_it_starts_when_the_invited_accept() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let cookie = invited_gm(&app).await;
    let form = app.get_with("/gm/new?engine=1835", "cookie", &cookie).await;
    assert_eq!(form.status, StatusCode::OK);
    for option in ["opt.variant", "opt.ld_income", "opt.rounds_per_turn", "3–7 players"] {
        assert!(form.body.contains(option), "the form has {option}: {}", form.body);
    }
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    let page = app.get_with(&format!("/gm/waiting/{id}"), "cookie", &cookie).await;
    assert!(page.body.contains("anna@example.org") && page.body.contains("pending"), "{}", page.body);
    for (i, p) in FOUR.iter().enumerate() {
        let email = p.split('<').nth(1).unwrap().trim_end_matches('>');
        let link = place_link(&app, email).await;
        let r = answer(&app, &link, "accept").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        let started = r.body.contains("the game has started");
        assert_eq!(started, i == 3, "the game starts with its last seat: {}", r.body);
    }
    let setup: serde_json::Value = sqlx::query_scalar("SELECT setup FROM games WHERE id = $1::uuid")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(
        setup["options"],
        serde_json::json!({ "preset": "pbem", "variant": "snake", "ld_income": 30 })
    );
    assert_eq!(setup["seats"], 4);
    let welcomes = app.outbox().await.into_iter().filter(|m| m.kind == "welcome").count();
    assert_eq!(welcomes, 4);
    let dash = app.get_with(&format!("/gm/games/{id}"), "cookie", &cookie).await;
    assert_eq!(dash.status, StatusCode::OK, "{}", dash.body);
    let audit = app.get_with(&format!("/gm/games/{id}/audit"), "cookie", &cookie).await;
    for step in
        ["game opened for seats", "seat offered", "invitation accepted", "players seated", "game created"]
    {
        assert!(audit.body.contains(step), "the audit log has {step}: {}", audit.body);
    }
}

#[tokio::test]
async fn a_bad_option_is_named_next_to_its_field_and_nothing_is_created() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let cookie = invited_gm(&app).await;
    let form = new_1835_form(&FOUR, "").replace("opt.ld_income=30", "opt.ld_income=25");
    let r = app.post_form("/gm/new", &form, Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let field = r.body.find("name=\"opt.ld_income\"").expect("the field is shown again");
    let next = &r.body[field..field + 600];
    assert!(next.contains("ld_income must be 20 or 30"), "the error stands by its field: {next}");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM waiting_games").fetch_one(&pool).await.unwrap();
    assert_eq!(n, 0);
    assert!(app.outbox().await.iter().all(|m| m.kind != "invitation"));
}

#[tokio::test]
async fn an_uninvited_gm_cannot_create_games() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let cookie = app.gm_cookie("newgm@example.org").await;
    assert_eq!(app.get_with("/gm/new", "cookie", &cookie).await.status, StatusCode::FORBIDDEN);
    let r = app.post_form("/gm/new", &new_1835_form(&FOUR, ""), Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM waiting_games").fetch_one(&pool).await.unwrap();
    assert_eq!(n, 0);
}

#[tokio::test]
async fn an_invitation_link_works_once() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    let link = place_link(&app, "anna@example.org").await;
    assert_eq!(app.get(&link).await.status, StatusCode::OK, "opening the link changes nothing");
    assert_eq!(app.get(&link).await.status, StatusCode::OK);
    assert_eq!(answer(&app, &link, "accept").await.status, StatusCode::OK);
    assert_eq!(answer(&app, &link, "decline").await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get(&link).await.status, StatusCode::FORBIDDEN);
    assert_eq!(app.get("/places/AAAABBBBCCCCDDDD").await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_declined_invitation_frees_the_seat_for_the_waiting_list_and_tells_the_gm() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    // Three invited, one seat open.
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..3], "")).await;
    for who in ["eve", "fay"] {
        let r = app
            .post_form(&format!("/open/{id}"), &format!("name={who}&email={who}%40example.org"), None)
            .await;
        assert_eq!(r.status, StatusCode::OK);
        let link = place_link(&app, &format!("{who}@example.org")).await;
        let r = answer(&app, &link, "accept").await;
        let expected = if who == "eve" { "You have a seat" } else { "waiting list" };
        assert!(r.body.contains(expected), "{who}: {}", r.body);
    }
    let link = place_link(&app, "bert@example.org").await;
    assert!(answer(&app, &link, "decline").await.body.contains("declined"));
    let to_gm =
        app.outbox().await.into_iter().filter(|m| m.to_addr == "gm@example.org" && m.kind == "waiting-gm");
    assert!(to_gm.into_iter().any(|m| m.body_text.contains("bert@example.org declined")));
    let told =
        app.outbox().await.into_iter().any(|m| m.to_addr == "fay@example.org" && m.kind == "seat-taken");
    assert!(told, "the first on the waiting list takes the freed seat and is told");
    for who in ["anna", "cleo"] {
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    let names: Vec<String> =
        sqlx::query_scalar("SELECT player_name FROM seats WHERE game_id = $1::uuid ORDER BY seat")
            .bind(&id)
            .fetch_all(&app.ctx.pool)
            .await
            .unwrap();
    assert_eq!(names, ["Anna", "Cleo", "eve", "fay"], "the invited in order given, then who joined");
}

#[tokio::test]
async fn an_expired_invitation_frees_the_seat_and_tells_the_gm() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..1], "")).await;
    let link = place_link(&app, "anna@example.org").await;
    app.ctx.clock.advance(chrono::Duration::days(7) + chrono::Duration::minutes(1));
    app.tick().await;
    assert_eq!(answer(&app, &link, "accept").await.status, StatusCode::FORBIDDEN);
    let page = app.get_with(&format!("/gm/waiting/{id}"), "cookie", &cookie).await;
    assert!(page.body.contains("expired") && page.body.contains("4 seat(s) free"), "{}", page.body);
    assert!(app.outbox().await.iter().any(|m| m.kind == "waiting-gm" && m.body_text.contains("expired")));
}

#[tokio::test]
async fn joining_answers_alike_for_every_address_and_shows_no_address_in_public() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..2], "&approval=1")).await;
    let list = app.get("/open").await;
    assert!(list.body.contains("Web Line") && list.body.contains("2 of 4"), "{}", list.body);
    assert!(!list.body.contains("anna") && !list.body.contains("example.org"), "{}", list.body);
    let page = app.get(&format!("/open/{id}")).await;
    assert!(!page.body.contains("anna") && !page.body.contains("gm@example.org"), "{}", page.body);
    // Anna, already invited, and a stranger get the same words; only the stranger gets a mail.
    let a = app.post_form(&format!("/open/{id}"), "name=Anna&email=anna%40example.org", None).await;
    let b = app.post_form(&format!("/open/{id}"), "name=Zed&email=zed%40example.org", None).await;
    assert_eq!(a.body.replace("anna@example.org", "X"), b.body.replace("zed@example.org", "X"));
    let link = place_link(&app, "zed@example.org").await;
    assert!(answer(&app, &link, "accept").await.body.contains("approval"));
    let p = app.get_with(&format!("/gm/waiting/{id}"), "cookie", &cookie).await;
    let place =
        p.body.split("name=\"place\" value=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
    let r = app
        .post_form(
            &format!("/gm/waiting/{id}/approve"),
            &format!("place={place}&answer=approve"),
            Some(&cookie),
        )
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(app.get_with(&format!("/gm/waiting/{id}"), "cookie", &cookie).await.body.contains("accepted"));
    // A different GM sees none of it.
    let other = app.gm_cookie("other@example.org").await;
    assert_eq!(
        app.get_with(&format!("/gm/waiting/{id}"), "cookie", &other).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_gm_starts_early_only_where_the_rules_allow_or_cancels() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    for who in ["anna", "bert"] {
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    let r = app.post_form(&format!("/gm/waiting/{id}/start"), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "1835 needs three: {}", r.body);
    answer(&app, &place_link(&app, "cleo@example.org").await, "accept").await;
    let dan = place_link(&app, "dan@example.org").await;
    let r = app.post_form(&format!("/gm/waiting/{id}/start"), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert_eq!(app.seats(id.parse().unwrap()).await.len(), 3);
    assert_eq!(answer(&app, &dan, "accept").await.status, StatusCode::FORBIDDEN, "withdrawn");

    let other = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..1], "")).await;
    let anna = place_link(&app, "anna@example.org").await;
    let r = app.post_form(&format!("/gm/waiting/{other}/cancel"), "", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(answer(&app, &anna, "accept").await.status, StatusCode::FORBIDDEN);
    assert!(app.outbox().await.iter().any(|m| m.kind == "game-cancelled" && m.to_addr == "anna@example.org"));
}

#[tokio::test]
async fn a_shuffled_seating_is_the_committed_key_applied_to_the_order_given() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let cookie = invited_gm(&app).await;
    let form = new_1835_form(&FOUR, "").replace("seating=given", "seating=shuffled");
    let id = open_from_form(&app, &cookie, &form).await;
    let page = app.get_with(&format!("/gm/waiting/{id}"), "cookie", &cookie).await;
    let commitment = page.body.split("commitment <code>").nth(1).unwrap()[..64].to_string();
    for who in ["anna", "bert", "cleo", "dan"] {
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    let detail: serde_json::Value = sqlx::query_scalar(
        "SELECT detail FROM audit_log WHERE game_id = $1::uuid AND action = 'players seated'",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .unwrap();
    let key = data_encoding::HEXLOWER.decode(detail["seating_key"].as_str().unwrap().as_bytes()).unwrap();
    use sha2::Digest;
    assert_eq!(data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(&key)), commitment);
    let mut order: Vec<String> =
        detail["order_given"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    stationmaster::engine::shuffle_seating(key.try_into().unwrap(), &mut order);
    let seated: Vec<String> =
        sqlx::query_scalar("SELECT player_name FROM seats WHERE game_id = $1::uuid ORDER BY seat")
            .bind(&id)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(seated, order);
}
