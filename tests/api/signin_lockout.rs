//! Issue 32, "Anyone can lock the GM out of sign-in": 10 wrong passwords from one client made
//! the GM's right password from another client 429, and 3 link requests from a stranger held the
//! GM's own link back — 13 requests every 15 minutes kept both blocked. Now failures count per
//! account and client, a client that has not failed is not refused, and the clients and devices
//! the GM signed in from keep their own allowance (rulings W2, W2b, W3).

use crate::helpers::{Resp, TestApp};
use crate::signin_limits::{from_client, gm_with_password, links_mailed, sign_in_from, sign_in_with};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::signin_limits::PASSWORD_LIMITS;
use stationmaster::store::gm::{self, Attempt};

const LINK: &str = "email=gm%40example.org";
const RIGHT: &str = "email=gm%40example.org&password=a+long+enough+secret";
const WRONG: &str = "email=gm%40example.org&password=guess";
const ATTACKER: &str = "203.0.113.66";
const HOME: &str = "198.51.100.20";

/// The value (`name=token`) of the cookie `name` an answer sets.
fn set_cookie(r: &Resp, name: &str) -> String {
    r.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap().to_string())
        .find(|v| v.starts_with(&format!("{name}=")))
        .unwrap_or_else(|| panic!("no {name} cookie in {:?}", r.headers))
}

/// The GM signs in by password from `ip` (with a device cookie, if any); the session and device
/// cookies it is given.
async fn gm_signs_in(app: &TestApp, ip: &str, device: Option<&str>) -> (String, String) {
    let r = sign_in_with(app, ip, RIGHT, device).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "the GM signs in from {ip}: {}", r.body);
    (set_cookie(&r, "sm_gm"), set_cookie(&r, "sm_device"))
}

/// The attack of the issue, from one client: 10 wrong passwords and 3 link requests for the
/// GM's address.
async fn attack(app: &TestApp) {
    for _ in 0..10 {
        assert_eq!(sign_in_from(app, ATTACKER, WRONG).await.status, StatusCode::FORBIDDEN);
    }
    for _ in 0..3 {
        assert_eq!(sign_in_from(app, ATTACKER, LINK).await.status, StatusCode::OK);
    }
}

#[tokio::test]
async fn a_correct_password_from_a_fresh_client_is_not_refused_after_another_clients_ten_failures() {
    let (app, _db) = gm_with_password().await;
    for _ in 0..10 {
        assert_eq!(sign_in_from(&app, ATTACKER, WRONG).await.status, StatusCode::FORBIDDEN);
    }
    let fresh = sign_in_from(&app, "192.0.2.77", RIGHT).await;
    assert_eq!(fresh.status, StatusCode::SEE_OTHER, "a client that has not failed: {}", fresh.body);
    let attacker = sign_in_from(&app, ATTACKER, RIGHT).await;
    assert_eq!(attacker.status, StatusCode::TOO_MANY_REQUESTS, "the attacking client stays limited");
}

#[tokio::test]
async fn the_gm_signing_in_gives_the_attacking_client_no_new_guesses() {
    let (app, _db) = gm_with_password().await;
    for _ in 0..10 {
        sign_in_from(&app, ATTACKER, WRONG).await;
    }
    gm_signs_in(&app, HOME, None).await;
    let r = sign_in_from(&app, ATTACKER, WRONG).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "the GM's success forgot only its own failures");
}

#[tokio::test]
async fn a_known_clients_link_request_is_mailed_after_a_strangers_three() {
    let (port, mut smtp) = crate::helpers::smtp_server().await;
    let (app, _db) = gm_with_password().await;
    let (_, device) = gm_signs_in(&app, HOME, None).await;
    for _ in 0..4 {
        assert_eq!(sign_in_from(&app, ATTACKER, LINK).await.status, StatusCode::OK);
    }
    assert_eq!(links_mailed(&app).await, 3, "the stranger's fourth request is not mailed");

    // The GM's device, from an address never seen, and the GM's own address without the cookie.
    assert_eq!(sign_in_with(&app, "192.0.2.50", LINK, Some(&device)).await.status, StatusCode::OK);
    assert_eq!(sign_in_from(&app, HOME, LINK).await.status, StatusCode::OK);
    assert_eq!(links_mailed(&app).await, 5, "both of the GM's requests are mailed");
    sign_in_from(&app, ATTACKER, LINK).await;
    assert_eq!(links_mailed(&app).await, 5, "the attacking client stays limited");

    let transport = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    deliver_due(&app.ctx, &transport, chrono::Utc::now()).await.unwrap();
    let mut delivered = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_millis(1500), smtp.rx.recv()).await {
        let raw = m.raw_bytes().unwrap();
        let mail = mail_parser::MessageParser::default().parse(&raw).unwrap();
        if mail.subject() == Some("Your Stationmaster sign-in link") {
            delivered.push(mail.body_text(0).unwrap().into_owned());
        }
    }
    let newest = app.outbox().await.into_iter().rev().find(|m| m.kind == "gm-login").unwrap();
    let link =
        newest.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/gm/magic/")).unwrap();
    let token = link.rsplit('/').next().unwrap();
    assert_eq!(delivered.len(), 5, "five sign-in links went out over SMTP");
    assert!(delivered.iter().any(|text| text.contains(token)), "the GM's newest among them");
    let path = link.trim_start_matches("http://sm.test");
    let used = from_client(&app, HOME, Request::get(path).body(Body::empty()).unwrap(), None).await;
    assert_eq!(used.status, StatusCode::SEE_OTHER, "and it signs the GM in");
}

#[tokio::test]
async fn the_reported_attack_every_quarter_hour_neither_locks_the_gm_out_nor_ends_a_session() {
    let (app, _db) = gm_with_password().await;
    let (session, device) = gm_signs_in(&app, HOME, None).await;
    for round in 0..3 {
        attack(&app).await;
        let mailed = links_mailed(&app).await;
        let page = app.get_with("/gm", "cookie", &session).await;
        assert_eq!(page.status, StatusCode::OK, "round {round}: the GM's session stays valid");

        let fresh = sign_in_from(&app, &format!("192.0.2.{}", 100 + round), RIGHT).await;
        assert_eq!(fresh.status, StatusCode::SEE_OTHER, "round {round}: a fresh client signs in");
        gm_signs_in(&app, "192.0.2.200", Some(&device)).await;
        sign_in_with(&app, "192.0.2.201", LINK, Some(&device)).await;
        assert_eq!(links_mailed(&app).await, mailed + 1, "round {round}: the GM's device gets its link");

        let attacker = sign_in_from(&app, ATTACKER, RIGHT).await;
        assert_eq!(attacker.status, StatusCode::TOO_MANY_REQUESTS, "round {round}: the attacker is limited");
        sign_in_from(&app, ATTACKER, LINK).await;
        assert_eq!(links_mailed(&app).await, mailed + 1, "round {round}: no fourth link for the attacker");
        app.ctx.clock.advance(Duration::minutes(15));
    }
}

#[tokio::test]
async fn failures_from_many_strangers_stop_fresh_clients_but_not_the_gms_own_client_or_device() {
    let (app, _db) = gm_with_password().await;
    let (_, device) = gm_signs_in(&app, HOME, None).await;
    // All but the last client's failures are written straight to the store (90 Argon2 checks
    // would take this test 10 s); the last client's go through the sign-in form.
    let per_client = PASSWORD_LIMITS.per_source;
    let clients = PASSWORD_LIMITS.strangers_per_account / per_client;
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    for c in 1..clients {
        for _ in 0..per_client {
            let client = format!("203.0.113.{c}");
            gm::record_attempt(&mut conn, Attempt::Password, "gm@example.org", &client, true, app.ctx.now())
                .await
                .unwrap();
        }
    }
    for _ in 0..per_client {
        let r = sign_in_from(&app, "203.0.113.0", WRONG).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    }
    let fresh = sign_in_from(&app, "192.0.2.77", RIGHT).await;
    assert_eq!(fresh.status, StatusCode::TOO_MANY_REQUESTS, "the backstop holds strangers back");
    gm_signs_in(&app, HOME, None).await;
    gm_signs_in(&app, "192.0.2.78", Some(&device)).await;
}
