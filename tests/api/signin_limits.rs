//! GM sign-in under attack: password guesses are limited per account and client and per client
//! address, an unknown address costs a password check too, the link limit reveals nothing and
//! locks no GM out, and a used link voids the others (rulings W2, W3; the lock-out attacks of
//! issue 32 are in `signin_lockout`).

use crate::db::{TestDb, test_db};
use crate::helpers::{Resp, TestApp, spawn_app};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use stationmaster::domain::EmailAddress;
use stationmaster::service::{Review, gm_auth};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Sends `req` to `/gm/login` or a sign-in link as if from the client at `ip`, with a cookie.
pub(crate) async fn from_client(
    app: &TestApp,
    ip: &str,
    mut req: Request<Body>,
    cookie: Option<&str>,
) -> Resp {
    let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    if let Some(c) = cookie {
        req.headers_mut().insert(header::COOKIE, c.parse().unwrap());
    }
    app.send(req).await
}

/// Posts the sign-in form as if from the client at `ip`, with a cookie (a device's).
pub(crate) async fn sign_in_with(app: &TestApp, ip: &str, form: &str, cookie: Option<&str>) -> Resp {
    let req = Request::post("/gm/login")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(form.to_string()))
        .unwrap();
    from_client(app, ip, req, cookie).await
}

/// Posts the sign-in form as if from the client at `ip`.
pub(crate) async fn sign_in_from(app: &TestApp, ip: &str, form: &str) -> Resp {
    sign_in_with(app, ip, form, None).await
}

/// An app with a game run by gm@example.org, who has a password; keep the database guard.
pub(crate) async fn gm_with_password() -> (TestApp, TestDb) {
    let (pool, db) = test_db().await;
    let app = spawn_app(pool).await;
    app.create_game(Review::Gm).await;
    let email = EmailAddress::parse("gm@example.org").unwrap();
    gm_auth::set_password(&app.ctx, &email, "a long enough secret").await.unwrap();
    (app, db)
}

pub(crate) async fn links_mailed(app: &TestApp) -> usize {
    app.outbox().await.iter().filter(|m| m.kind == "gm-login").count()
}

#[tokio::test]
async fn ten_wrong_passwords_from_one_client_stop_even_its_right_one_for_a_while() {
    let (app, _db) = gm_with_password().await;
    for _ in 0..10 {
        let r = sign_in_from(&app, "10.0.0.1", "email=gm%40example.org&password=guess").await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    }
    let right = sign_in_from(&app, "10.0.0.1", "email=gm%40example.org&password=a+long+enough+secret").await;
    assert_eq!(right.status, StatusCode::TOO_MANY_REQUESTS, "{}", right.body);
    assert!(right.body.contains("sign-in link"), "the GM is told the way that still works");

    app.ctx.clock.advance(chrono::Duration::minutes(16));
    let later = sign_in_from(&app, "10.0.0.1", "email=gm%40example.org&password=a+long+enough+secret").await;
    assert_eq!(later.status, StatusCode::SEE_OTHER, "{}", later.body);
}

#[tokio::test]
async fn one_client_guessing_across_many_accounts_is_stopped() {
    let (app, _db) = gm_with_password().await;
    for i in 0..30 {
        let r = sign_in_from(&app, "192.0.2.7", &format!("email=gm{i}%40example.org&password=guess")).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    }
    let blocked =
        sign_in_from(&app, "192.0.2.7", "email=gm%40example.org&password=a+long+enough+secret").await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS);
    let other = sign_in_from(&app, "192.0.2.8", "email=gm%40example.org&password=a+long+enough+secret").await;
    assert_eq!(other.status, StatusCode::SEE_OTHER, "another client is not blocked: {}", other.body);
}

#[tokio::test]
async fn an_address_without_a_password_costs_as_much_time_as_a_wrong_password() {
    let (app, _db) = gm_with_password().await;
    let mut known = Duration::ZERO;
    let mut unknown = Duration::ZERO;
    for i in 0..3 {
        let start = Instant::now();
        let r = sign_in_from(&app, "10.1.0.1", &format!("email=gm%40example.org&password=guess{i}")).await;
        known += start.elapsed();
        assert_eq!(r.status, StatusCode::FORBIDDEN);
        let start = Instant::now();
        let r =
            sign_in_from(&app, "10.1.0.1", &format!("email=nobody{i}%40example.org&password=guess")).await;
        unknown += start.elapsed();
        assert_eq!(r.status, StatusCode::FORBIDDEN);
        assert!(r.body.contains("wrong address or password"));
    }
    assert!(unknown * 2 > known, "unknown {unknown:?} vs known {known:?}: the difference reveals accounts");
}

#[tokio::test]
async fn the_link_limit_answers_like_any_request_and_does_not_lock_the_gm_out() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    app.create_game(Review::Gm).await;
    for _ in 0..8 {
        let r = sign_in_from(&app, "198.51.100.9", "email=gm%40example.org").await;
        assert_eq!(r.status, StatusCode::OK, "over the limit the answer is the same: {}", r.body);
        assert!(r.body.contains("sign-in link is on its way"));
        let s = sign_in_from(&app, "198.51.100.9", "email=stranger%40example.org").await;
        assert_eq!((s.status, s.body.contains("on its way")), (r.status, true));
    }
    let flooded = links_mailed(&app).await;
    assert!(flooded <= 3, "a client cannot flood a GM's mailbox ({flooded} links)");
    app.ctx.clock.advance(chrono::Duration::minutes(16));
    let own = sign_in_from(&app, "203.0.113.5", "email=gm%40example.org").await;
    assert_eq!(own.status, StatusCode::OK);
    assert_eq!(links_mailed(&app).await, flooded + 1, "the GM's own request is mailed within minutes");
}

#[tokio::test]
async fn using_one_sign_in_link_voids_the_gms_other_links() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    app.create_game(Review::Gm).await;
    for _ in 0..2 {
        app.post_form("/gm/login", "email=gm%40example.org", None).await;
    }
    let links: Vec<String> = app
        .outbox()
        .await
        .iter()
        .filter(|m| m.kind == "gm-login")
        .map(|m| {
            let link =
                m.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/gm/magic/")).unwrap();
            link.trim_start_matches("http://sm.test").to_string()
        })
        .collect();
    assert_eq!(links.len(), 2);
    assert_eq!(app.get(&links[1]).await.status, StatusCode::SEE_OTHER);
    assert_eq!(app.get(&links[0]).await.status, StatusCode::FORBIDDEN, "the older link died with the use");
}

#[tokio::test]
async fn twenty_guesses_at_once_get_no_more_than_ten_password_checks() {
    let (app, _db) = gm_with_password().await;
    let app = std::sync::Arc::new(app);
    let mut guesses = tokio::task::JoinSet::new();
    for i in 0..20 {
        let app = app.clone();
        guesses.spawn(async move {
            sign_in_from(&app, "10.2.0.1", &format!("email=gm%40example.org&password=guess{i}")).await.status
        });
    }
    let mut checked = 0;
    while let Some(status) = guesses.join_next().await {
        match status.unwrap() {
            StatusCode::FORBIDDEN => checked += 1,
            StatusCode::TOO_MANY_REQUESTS => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(checked, 10, "concurrent guesses slipped past the limit");
}
