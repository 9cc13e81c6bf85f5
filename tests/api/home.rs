//! A player's home (issue 37): sign-in by a mailed link (once, 15 minutes; the same answer and no
//! mail for an address without a seat; limited per address and client), the home page listing
//! every seat of the address and nothing of anyone else's, and `GAMES` by mail answered to the
//! sender alone once authenticated (RULINGS W50–W54, M26, M27).

use crate::db::{TestDb, test_db};
use crate::helpers::{PLAYERS, TestApp, spawn_app};
use crate::inbound_floods::app_with_default_policy;
use crate::signin_limits::from_client;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use chrono::Duration;
use stationmaster::domain::{EmailAddress, Mailbox, TurnLength};
use stationmaster::service::inbound;
use stationmaster::service::{self, CreateGame, CreatedGame, GameClock, Review};
use stationmaster::store::outbox::OutboxRow;

/// Four players who share no game with [`PLAYERS`].
const OTHERS: [&str; 4] = [
    "Xena <xena@example.org>",
    "Yann <yann@example.org>",
    "Zoe <zoe@example.org>",
    "Walt <walt@example.org>",
];

/// A Railroaded game called `name` for `players`.
pub(crate) async fn game_named(app: &TestApp, name: &str, players: [&str; 4]) -> CreatedGame {
    let req = CreateGame {
        engine: "railroaded".into(),
        name: name.into(),
        gm: EmailAddress::parse("gm@example.org").unwrap(),
        players: players.iter().map(|p| Mailbox::parse(p).unwrap()).collect(),
        seed: Some(7),
        turn_length: "48h".parse::<TurnLength>().unwrap(),
        review: Review::Gm,
        options: serde_json::json!({}),
        clock: GameClock::default(),
    };
    service::create_game(&app.ctx, req).await.unwrap()
}

/// Anna's two games ("North Line", "South Line") and a third she has no seat in ("Other Line").
pub(crate) async fn three_games(app: &TestApp) -> [CreatedGame; 3] {
    [
        game_named(app, "North Line", PLAYERS).await,
        game_named(app, "South Line", PLAYERS).await,
        game_named(app, "Other Line", OTHERS).await,
    ]
}

/// Asks for a home sign-in link for `email` from the client at `ip`.
async fn ask(app: &TestApp, ip: &str, email: &str) -> crate::helpers::Resp {
    let req = Request::post("/home")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(format!("email={}", email.replace('@', "%40"))))
        .unwrap();
    from_client(app, ip, req, None).await
}

/// The home sign-in mails (and `GAMES` answers), as sent.
async fn home_mails(app: &TestApp) -> Vec<OutboxRow> {
    app.outbox().await.into_iter().filter(|m| m.kind == "home-login").collect()
}

/// The home sign-in link in a mail as sent, as a path.
pub(crate) fn home_link(mail: &OutboxRow) -> String {
    let link = mail.body_text.split_whitespace().find(|w| w.starts_with("http://sm.test/home/magic/"));
    link.expect("the mail as sent carries a home sign-in link")
        .trim_start_matches("http://sm.test")
        .to_string()
}

/// Follows a sign-in link: its status and the home session cookie it set, if any.
async fn follow(app: &TestApp, path: &str) -> (StatusCode, Option<String>) {
    let r = from_client(app, "192.0.2.50", Request::get(path).body(Body::empty()).unwrap(), None).await;
    let cookie = r
        .headers
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("sm_home="))
        .map(|c| c.split(';').next().unwrap().to_string());
    (r.status, cookie)
}

/// Anna signs in through a mailed link: her home session cookie.
async fn anna_signed_in(app: &TestApp) -> String {
    assert_eq!(ask(app, "192.0.2.50", "anna@example.org").await.status, StatusCode::OK);
    let mail = home_mails(app).await.pop().expect("a sign-in mail to Anna");
    let (status, cookie) = follow(app, &home_link(&mail)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    cookie.expect("a home session cookie")
}

async fn app() -> (TestApp, TestDb) {
    let (pool, db) = test_db().await;
    (spawn_app(pool).await, db)
}

#[tokio::test]
async fn a_home_sign_in_link_works_once_and_expires() {
    let (app, _db) = app().await;
    three_games(&app).await;
    let first = ask(&app, "192.0.2.50", "anna@example.org").await;
    assert!(first.body.contains("sign-in link is on its way"), "{}", first.body);
    let mails = home_mails(&app).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0].to_addr, "anna@example.org");
    let link = home_link(&mails[0]);

    let (status, cookie) = follow(&app, &link).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let cookie_line = cookie.expect("a session cookie");
    assert!(cookie_line.starts_with("sm_home="));
    assert_eq!(follow(&app, &link).await.0, StatusCode::FORBIDDEN, "a link works once");

    ask(&app, "192.0.2.50", "anna@example.org").await;
    let second = home_link(&home_mails(&app).await[1]);
    app.ctx.clock.advance(Duration::minutes(16));
    assert_eq!(follow(&app, &second).await.0, StatusCode::FORBIDDEN, "a link expires after 15 minutes");
}

#[tokio::test]
async fn an_address_without_a_seat_gets_the_same_page_and_no_mail() {
    let (app, _db) = app().await;
    three_games(&app).await;
    let known = ask(&app, "192.0.2.51", "anna@example.org").await;
    let unknown = ask(&app, "192.0.2.52", "nobody@example.org").await;
    assert_eq!((known.status, unknown.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!(
        known.body.replace("anna@example.org", "ADDRESS"),
        unknown.body.replace("nobody@example.org", "ADDRESS"),
        "the same page for an address with a seat and one without"
    );
    let to: Vec<String> = home_mails(&app).await.into_iter().map(|m| m.to_addr).collect();
    assert_eq!(to, ["anna@example.org"], "no mail to an address without a seat (RULING W50)");
}

#[tokio::test]
async fn the_home_lists_both_games_of_a_player_with_two_seats_and_not_a_third_players_game() {
    let (app, _db) = app().await;
    let [north, south, other] = three_games(&app).await;
    let cookie = anna_signed_in(&app).await;
    let home = app.get_with("/home", "cookie", &cookie).await;
    assert_eq!(home.status, StatusCode::OK);
    assert_eq!(home.headers["cache-control"], "no-store", "the home is private");
    for g in [&north, &south] {
        let link = format!("/play/{}", g.seats[0].token.reveal());
        assert!(home.body.contains(&link), "Anna's seat page in {} is linked: {}", g.id, home.body);
        for seat in &g.seats[1..] {
            assert!(!home.body.contains(seat.token.reveal()), "another seat's link is on Anna's home");
        }
    }
    assert!(home.body.contains("North Line") && home.body.contains("South Line"), "{}", home.body);
    assert!(home.body.contains("Railroaded") && home.body.contains("Turn 1"), "{}", home.body);
    assert!(home.body.contains("No orders yet"), "whether orders are in: {}", home.body);
    assert!(!home.body.contains("Other Line"), "a game Anna has no seat in");
    assert!(other.seats.iter().all(|s| !home.body.contains(s.token.reveal())));

    // Orders in, then final: the home says so.
    let claims = app.claim_orders(&north).await;
    app.submit(&north, 0, claims[0].as_deref().unwrap(), false).await;
    let home = app.get_with("/home", "cookie", &cookie).await;
    assert!(home.body.contains("Orders in (version 1), not final"), "{}", home.body);
    app.claim_all_final(&north).await;
    let home = app.get_with("/home", "cookie", &cookie).await;
    assert!(home.body.contains("Orders in and final (version 2)"), "{}", home.body);
    // Once the turn is published, its report is the last one, linked on the seat page.
    service::close_turn(&app.ctx, north.id).await.unwrap();
    service::publish_turn(&app.ctx, north.id, "gm@example.org").await.unwrap();
    let home = app.get_with("/home", "cookie", &cookie).await;
    let report = format!("/play/{}/reports/1", north.seats[0].token.reveal());
    assert!(home.body.contains("Last report") && home.body.contains(&report), "{}", home.body);
    assert!(home.body.contains("Turn 2"), "{}", home.body);
    // The seat link works without signing in.
    let seat = app.get(&format!("/play/{}", north.seats[0].token.reveal())).await;
    assert_eq!(seat.status, StatusCode::OK);
}

#[tokio::test]
async fn a_replaced_seats_old_address_no_longer_lists_it() {
    let (app, _db) = app().await;
    let [north, _south, _] = three_games(&app).await;
    let cookie = anna_signed_in(&app).await;
    let newcomer = Mailbox::parse("Nina <nina@example.org>").unwrap();
    service::lifecycle::replace_player(&app.ctx, north.id, "gm@example.org", 1, &newcomer).await.unwrap();
    let home = app.get_with("/home", "cookie", &cookie).await;
    assert!(!home.body.contains("North Line"), "the replaced seat is gone from Anna's home: {}", home.body);
    assert!(home.body.contains("South Line"));
}

#[tokio::test]
async fn a_home_session_opens_no_gm_page_and_a_gm_session_opens_no_home() {
    let (app, _db) = app().await;
    three_games(&app).await;
    let home = anna_signed_in(&app).await;
    let token = home.trim_start_matches("sm_home=");
    let gm_page = app.get_with("/gm", "cookie", &format!("sm_gm={token}")).await;
    assert_eq!(gm_page.status, StatusCode::SEE_OTHER, "a home session is no GM session");
    let gm = app.gm_cookie("gm@example.org").await;
    let gm_token = gm.trim_start_matches("sm_gm=");
    let page = app.get_with("/home", "cookie", &format!("sm_home={gm_token}")).await;
    assert!(
        page.body.contains("Mail me a sign-in link") && !page.body.contains("North Line"),
        "{}",
        page.body
    );
}

#[tokio::test]
async fn home_link_requests_are_limited_per_address_and_per_client() {
    let (app, _db) = app().await;
    three_games(&app).await;
    for _ in 0..4 {
        let r = ask(&app, "198.51.100.1", "anna@example.org").await;
        assert!(r.body.contains("on its way"), "over the limit the answer is the same");
    }
    assert_eq!(home_mails(&app).await.len(), 3, "three links per address and client in 15 minutes");
    // One client asking for many addresses is held back too.
    for i in 0..10 {
        ask(&app, "198.51.100.2", &format!("guess{i}@example.org")).await;
    }
    let r = ask(&app, "198.51.100.2", "bert@example.org").await;
    assert!(r.body.contains("on its way"));
    assert!(home_mails(&app).await.iter().all(|m| m.to_addr != "bert@example.org"), "held back per client");
    // A quarter of an hour later the player asks again, and gets a link.
    app.ctx.clock.advance(Duration::minutes(16));
    ask(&app, "198.51.100.1", "anna@example.org").await;
    assert_eq!(home_mails(&app).await.len(), 4);
}

/// A `GAMES` mail from `from` with our MTA's `results` (none when empty), to the server.
fn games_mail(from: &str, results: &str, n: usize) -> String {
    let header = if results.is_empty() {
        String::new()
    } else {
        format!("Authentication-Results: mx.sm.test; {results}\r\n")
    };
    format!(
        "{header}From: {from}\r\nTo: gm-robot@sm.test\r\nSubject: my games\r\nMessage-ID: <games{n}@x>\r\n\r\nGAMES\r\n"
    )
}

/// Delivers a mail; returns its recorded status and outcome, and the mails it queued.
async fn deliver(app: &TestApp, raw: &str) -> (String, String, Vec<OutboxRow>) {
    let before = app.outbox().await.len();
    let stored = crate::inbound::stored(app, raw.as_bytes(), "test", None).await;
    inbound::process_inbound(&app.ctx, stored.id).await.unwrap().expect("processed");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let row = stationmaster::store::inbound::get(&mut conn, stored.id).await.unwrap().unwrap();
    let queued = app.outbox().await.into_iter().skip(before).collect();
    (row.status.to_string(), row.outcome.unwrap_or_default(), queued)
}

#[tokio::test]
async fn games_by_mail_answers_the_senders_games_to_the_sender_only() {
    let (app, _db) = app().await;
    let [north, _, _] = three_games(&app).await;
    let (status, outcome, queued) = deliver(&app, &games_mail("Anna <anna@example.org>", "", 1)).await;
    assert_eq!(status, "accepted", "{outcome}");
    assert_eq!(queued.len(), 1, "one answer: {queued:?}");
    let answer = &queued[0];
    assert_eq!(answer.to_addr, "anna@example.org");
    assert!(answer.body_text.contains("North Line") && answer.body_text.contains("South Line"));
    assert!(!answer.body_text.contains("Other Line"));
    assert!(
        north.seats.iter().all(|s| !answer.body_text.contains(s.token.reveal())),
        "no seat link is mailed"
    );
    // Its sign-in link opens Anna's home, once.
    let (status, cookie) = follow(&app, &home_link(answer)).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let home = app.get_with("/home", "cookie", &cookie.unwrap()).await;
    assert!(home.body.contains(&format!("/play/{}", north.seats[0].token.reveal())));
}

#[tokio::test]
async fn a_games_mail_from_an_unknown_or_unauthenticated_sender_gets_nothing() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    three_games(&app).await;
    let pass = "dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org; dmarc=pass header.from=example.org";
    let cases = [
        (games_mail("anna@example.org", "", 1), "no authentication results"),
        (
            games_mail("anna@example.org", "dkim=fail; spf=fail smtp.mailfrom=example.org; dmarc=fail", 2),
            "authentication",
        ),
        (
            games_mail("anna@example.org", "dmarc=pass", 3).replace("mx.sm.test", "mx.evil.example"),
            "authentication",
        ),
        (games_mail("nobody@example.org", pass, 4), "no seat"),
        (games_mail("anna@example.org, bert@example.org", pass, 5), "From"),
    ];
    for (raw, words) in cases {
        let (status, outcome, queued) = deliver(&app, &raw).await;
        assert!(
            outcome.contains("GAMES not answered") || outcome.contains("GAMES from an address with no seat")
        );
        assert!(outcome.contains(words), "{status}: {outcome}");
        assert!(queued.iter().all(|m| m.kind != "home-login"), "nothing revealing is sent: {queued:?}");
    }
    let (status, outcome, queued) = deliver(&app, &games_mail("anna@example.org", pass, 6)).await;
    assert_eq!((status.as_str(), queued.len()), ("accepted", 1), "{outcome}");
}

#[tokio::test]
async fn games_answers_are_limited_per_address() {
    let (app, _db) = app().await;
    three_games(&app).await;
    let mut answered = 0;
    for n in 0..5 {
        let (_, _, queued) = deliver(&app, &games_mail("anna@example.org", "", 10 + n)).await;
        answered += queued.iter().filter(|m| m.kind == "home-login").count();
    }
    assert_eq!(answered, 3, "three GAMES answers per address in 15 minutes (RULING M27)");
    app.ctx.clock.advance(Duration::minutes(16));
    let (_, _, queued) = deliver(&app, &games_mail("anna@example.org", "", 20)).await;
    assert_eq!(queued.len(), 1);
}
