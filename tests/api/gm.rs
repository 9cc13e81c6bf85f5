//! The GM dashboard: only the game's GM, signed in by mailed link or password, opens it.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use stationmaster::domain::EmailAddress;
use stationmaster::service::{Review, gm_auth};

/// Signs in through the mailed link; returns the session cookie.
async fn sign_in_by_link(app: &TestApp, email: &str) -> String {
    let r = app.post_form("/gm/login", &format!("email={email}"), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("sign-in link is on its way"));
    let mail = app.outbox().await.into_iter().rev().find(|m| m.kind == "gm-login").expect("a login mail");
    assert_eq!(mail.to_addr, email);
    let link = mail.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/gm/magic/")).unwrap();
    let path = link.trim_start_matches("http://sm.test");
    let r = app.get(path).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let cookie = r.headers["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let again = app.get(path).await;
    assert_eq!(again.status, StatusCode::FORBIDDEN, "a link works once");
    cookie.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn the_dashboard_needs_the_gm_to_sign_in() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let r = app.get(&format!("/gm/games/{}", g.id)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(r.headers["location"], "/gm/login");
    // A seat token is no GM credential, as cookie or bearer.
    let cookie = format!("sm_gm={}", g.seats[0].token.reveal());
    assert_eq!(
        app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await.status,
        StatusCode::SEE_OTHER
    );
    let bearer = format!("Bearer {}", g.seats[0].token.reveal());
    assert_eq!(
        app.get_with(&format!("/gm/games/{}", g.id), "authorization", &bearer).await.status,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn a_mailed_link_signs_the_gm_in_and_the_gm_runs_the_turn_from_the_dashboard() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let cookie = sign_in_by_link(&app, "gm@example.org").await;
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert_eq!(dash.status, StatusCode::OK);
    assert!(dash.body.contains("Anna") && dash.body.contains("none yet"), "{}", dash.body);

    let close = app.post_form(&format!("/gm/games/{}/close", g.id), "", Some(&cookie)).await;
    assert_eq!(close.status, StatusCode::SEE_OTHER, "{}", close.body);
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert!(
        dash.body.contains("Draft: what happened") && dash.body.contains("+1 this turn"),
        "{}",
        dash.body
    );
    // Issue 36: the GM reviews the picture of the table after the draft, beside its text.
    let after = dash.body.find("after the draft (GM view").expect("the table after the draft");
    assert!(dash.body[after..].contains("<div class=\"drawing\"><svg"), "{}", &dash.body[after..]);

    let publish = app.post_form(&format!("/gm/games/{}/publish", g.id), "", Some(&cookie)).await;
    assert_eq!(publish.status, StatusCode::SEE_OTHER, "{}", publish.body);
    let reports = app.outbox().await.into_iter().filter(|m| m.kind == "report").count();
    assert_eq!(reports, 4);
}

#[tokio::test]
async fn another_gm_cannot_open_the_dashboard() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let email = EmailAddress::parse("other-gm@example.org").unwrap();
    gm_auth::set_password(&app.ctx, &email, "correct horse battery").await.unwrap();
    let r =
        app.post_form("/gm/login", "email=other-gm%40example.org&password=correct+horse+battery", None).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let cookie = r.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert_eq!(dash.status, StatusCode::FORBIDDEN);
    let close = app.post_form(&format!("/gm/games/{}/close", g.id), "", Some(&cookie)).await;
    assert_eq!(close.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_password_signs_the_gm_in_and_a_wrong_one_does_not() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let email = EmailAddress::parse("gm@example.org").unwrap();
    gm_auth::set_password(&app.ctx, &email, "a long enough secret").await.unwrap();
    let wrong = app.post_form("/gm/login", "email=gm%40example.org&password=nope", None).await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN);
    let ok = app.post_form("/gm/login", "email=gm%40example.org&password=a+long+enough+secret", None).await;
    let cookie = ok.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    assert_eq!(app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_login_link_is_only_mailed_to_gms() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    app.create_game(Review::Gm).await;
    let r = app.post_form("/gm/login", "email=stranger%40example.org", None).await;
    assert_eq!(r.status, StatusCode::OK, "the answer does not reveal who runs games");
    assert!(!app.outbox().await.iter().any(|m| m.kind == "gm-login"));
}

#[tokio::test]
async fn the_dashboard_lists_inbound_mail_with_its_outcome_and_the_raw_message() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = app.ctx.reply_address(g.id, stationmaster::engine::Seat(1), 1);
    let raw = format!(
        "From: mallory@evil.example\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <m@x>\r\n\r\nCLAIM 7H NORTH\r\n"
    );
    let stored = crate::inbound::stored(&app, raw.as_bytes(), "test", None).await;
    stationmaster::service::inbound::process_inbound(&app.ctx, stored.id).await.unwrap();
    let cookie = sign_in_by_link(&app, "gm@example.org").await;
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert!(dash.body.contains("mallory@evil.example") && dash.body.contains("rejected"), "{}", dash.body);
    let r = app.get_with(&format!("/gm/games/{}/inbound/{}", g.id, stored.id), "cookie", &cookie).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["content-type"], "text/plain; charset=utf-8");
    // As stored: the reply address's tag sealed (RULING M11).
    assert_eq!(r.body.as_bytes(), crate::inbound::sealed_to(raw.as_bytes(), &to));
    let anonymous = app.get(&format!("/gm/games/{}/inbound/{}", g.id, stored.id)).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
}

/// Signs in the game's GM by password; returns the session cookie.
async fn gm_cookie(app: &TestApp) -> String {
    let email = EmailAddress::parse("gm@example.org").unwrap();
    gm_auth::set_password(&app.ctx, &email, "correct horse battery").await.unwrap();
    let r = app.post_form("/gm/login", "email=gm%40example.org&password=correct+horse+battery", None).await;
    r.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn the_gm_extends_pauses_and_rolls_back_from_the_dashboard_and_reads_the_audit_log() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let cookie = gm_cookie(&app).await;
    let at = |what: &str| format!("/gm/games/{}/{what}", g.id);
    let bad = app.post_form(&at("extend"), "by=soon", Some(&cookie)).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline, "a bad form changes nothing");
    assert!(app.post_form(&at("extend"), "by=24h", Some(&cookie)).await.status.is_redirection());
    assert_eq!(app.turn(g.id, 1).await.deadline, g.deadline + chrono::Duration::hours(24));
    assert!(app.post_form(&at("pause"), "", Some(&cookie)).await.status.is_redirection());
    let dash = app.get_with(&format!("/gm/games/{}", g.id), "cookie", &cookie).await;
    assert!(
        dash.body.contains("The game is paused") && dash.body.contains("Resume the game"),
        "{}",
        dash.body
    );
    assert!(app.post_form(&at("resume"), "", Some(&cookie)).await.status.is_redirection());
    assert!(app.post_form(&at("close"), "", Some(&cookie)).await.status.is_redirection());
    assert!(app.post_form(&at("rollback"), "to=1", Some(&cookie)).await.status.is_redirection());
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "open");
    let audit = app.get_with(&at("audit"), "cookie", &cookie).await;
    assert_eq!(audit.status, StatusCode::OK);
    for action in ["deadline changed", "game paused", "game resumed", "turn closed", "rolled back"] {
        assert!(audit.body.contains(action), "{action} in {}", audit.body);
    }
    assert!(audit.body.contains("hash chain is intact"));
    let seat_token = g.seats[0].token.reveal();
    let as_seat = app.get_with(&at("audit"), "cookie", &format!("sm_gm={seat_token}")).await;
    assert!(as_seat.status.is_redirection(), "a seat token is no GM session");
}
