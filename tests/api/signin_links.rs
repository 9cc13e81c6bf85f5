//! Issue 32's last sign-in findings: a GM sign-in mail is stored without its link (the database
//! holds a placeholder, a nonce and the token's hash; the link is derived from the server key when
//! the mail is sent, also after a restart — RULING P8), and strangers who fill the account's share
//! of link requests cannot leave a GM on a new device and address without a working link: the
//! request held back gives the newest link mailed a full lifetime again (RULING W3).

use crate::helpers::{TestApp, settings};
use crate::signin_limits::{from_client, gm_with_password, links_mailed, sign_in_from};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::Duration;
use stationmaster::clock::Clock;
use stationmaster::service::{Ctx, mail_secrets};
use stationmaster::store::outbox::OutboxRow;

const LINK: &str = "email=gm%40example.org";

/// The sign-in link in a mail as sent, as a path.
fn link_path(mail: &OutboxRow) -> String {
    let link = mail.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/gm/magic/"));
    link.expect("the mail as sent carries a sign-in link").trim_start_matches("http://sm.test").to_string()
}

/// Follows a sign-in link from the client at `ip`: the answer's status.
async fn follow(app: &TestApp, ip: &str, path: &str) -> StatusCode {
    from_client(app, ip, Request::get(path).body(Body::empty()).unwrap(), None).await.status
}

#[tokio::test]
async fn a_stored_sign_in_mail_holds_no_link_and_its_link_is_filled_in_when_sent_even_after_a_restart() {
    let (app, _db) = gm_with_password().await;
    assert_eq!(sign_in_from(&app, "192.0.2.10", LINK).await.status, StatusCode::OK);
    let stored = app.stored_outbox().await.into_iter().find(|m| m.kind == "gm-login").unwrap();
    let html = stored.body_html.clone().unwrap_or_default();
    assert!(!stored.body_text.contains("/gm/magic/") && !html.contains("/gm/magic/"), "{}", stored.body_text);
    assert!(
        stored.body_text.contains(mail_secrets::SIGN_IN_LINK) && html.contains(mail_secrets::SIGN_IN_LINK)
    );

    // A process started again over the same database and key fills in the same, working link.
    let restarted = Ctx::new(app.ctx.pool.clone(), settings(), Clock::system()).await.unwrap();
    let sent = mail_secrets::as_sent(&restarted, &stored);
    let path = link_path(&sent);
    assert!(sent.body_html.unwrap_or_default().contains(&path), "the HTML part has the link too");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let token = path.rsplit('/').next().unwrap();
    let stored_anywhere: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM outbox WHERE strpos(outbox::text, $1) > 0) \
         OR EXISTS (SELECT 1 FROM gm_login_tokens WHERE strpos(gm_login_tokens::text, $1) > 0)",
    )
    .bind(token)
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    assert!(!stored_anywhere, "the sign-in token is stored in the database");
    assert_eq!(follow(&app, "192.0.2.10", &path).await, StatusCode::SEE_OTHER, "the link signs the GM in");
}

#[tokio::test]
async fn a_gm_held_back_by_strangers_requests_still_has_a_working_link_and_no_more_are_mailed() {
    let (app, _db) = gm_with_password().await;
    for ip in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
        assert_eq!(sign_in_from(&app, ip, LINK).await.status, StatusCode::OK);
    }
    assert_eq!(links_mailed(&app).await, 3);
    // 14 minutes on, the GM asks from a device and an address never signed in from: held back.
    app.ctx.clock.advance(Duration::minutes(14));
    let page = sign_in_from(&app, "198.51.100.99", LINK).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(links_mailed(&app).await, 3, "nothing more is mailed");
    // 10 minutes later the newest link, 24 minutes old, still works; the older ones do not.
    app.ctx.clock.advance(Duration::minutes(10));
    let mails: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "gm-login").collect();
    assert_eq!(follow(&app, "198.51.100.99", &link_path(&mails[0])).await, StatusCode::FORBIDDEN);
    assert_eq!(follow(&app, "198.51.100.99", &link_path(&mails[2])).await, StatusCode::SEE_OTHER);
    assert!(page.body.contains("the newest sign-in link sent to it in the last 15"), "the page says so");
}

#[tokio::test]
async fn a_request_held_back_for_an_address_that_runs_no_game_answers_the_same_and_stores_nothing() {
    let (app, _db) = gm_with_password().await;
    let nobody = "email=nobody%40example.org";
    for ip in ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"] {
        let (gm, other) = (sign_in_from(&app, ip, LINK).await, sign_in_from(&app, ip, nobody).await);
        assert_eq!((gm.status, gm.body.replace("gm@", "nobody@")), (other.status, other.body));
    }
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let rows: i64 =
        sqlx::query_scalar("SELECT count(*) FROM gm_login_tokens WHERE email = 'nobody@example.org'")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    assert_eq!((rows, links_mailed(&app).await), (0, 3));
}
