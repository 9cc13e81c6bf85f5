//! A running game's seat offered as a replacement (issue 37, RULING W61): the GM opens the seat on
//! the dashboard; the first player on the game's waiting list takes it, else whoever opens the
//! link first; the seat's history is mailed to the new player, the old link stops working, and
//! the audit log records every step.

use crate::db::test_db;
use crate::game_creation::{FOUR, answer, invited_gm, new_1835_form, open_from_form, place_link};
use crate::helpers::{TestApp, spawn_app};
use axum::http::StatusCode;
use stationmaster::domain::GameId;
use stationmaster::service::{Review, waiting};

/// The GM offers `seat` of `game` on the dashboard: the page shown.
async fn offer(app: &TestApp, cookie: &str, game: &str, seat: u8) -> String {
    let r = app.post_form(&format!("/gm/games/{game}/offer"), &format!("seat={seat}"), Some(cookie)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.body
}

/// The offer link shown on the page, as a path.
fn offer_link(page: &str) -> String {
    let at = page.split("<code id=\"offer-link\">").nth(1).expect("the page shows the link");
    at.split('<').next().unwrap().trim_start_matches("http://sm.test").to_string()
}

/// The actions in a game's audit log, in order.
pub(crate) async fn audit(app: &TestApp, game: &str) -> Vec<String> {
    sqlx::query_scalar("SELECT action FROM audit_log WHERE game_id = $1::uuid ORDER BY seq")
        .bind(game)
        .fetch_all(&app.ctx.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_seat_offered_by_link_is_taken_by_whoever_opens_it_once_and_the_old_link_stops_working() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let cookie = app.gm_cookie("gm@example.org").await;
    let other = app.gm_cookie("other@example.org").await;
    let id = g.id.to_string();
    let r = app.post_form(&format!("/gm/games/{id}/offer"), "seat=2", Some(&other)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "only the game's GM offers its seats");

    let link = offer_link(&offer(&app, &cookie, &id, 2).await);
    let page = app.get(&link).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Take the seat") && page.body.contains("Seat 2"), "{}", page.body);
    let old = format!("/play/{}", g.seats[1].token.reveal());
    assert_eq!(app.get(&old).await.status, StatusCode::OK, "Bert plays on until someone takes the seat");

    let r = app.post_form(&link, "answer=take&name=Zoe&email=zoe%40example.org", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("Seat 2 is yours"), "{}", r.body);
    assert_ne!(app.get(&old).await.status, StatusCode::OK, "the old seat link stops working");
    let again = app.post_form(&link, "answer=take&name=Max&email=max%40example.org", None).await;
    assert_eq!(again.status, StatusCode::FORBIDDEN, "the offer is taken once");
    let seat = app.seats(g.id).await.into_iter().find(|s| s.seat.0 == 2).unwrap();
    assert_eq!((seat.player_name.as_str(), seat.email.as_str()), ("Zoe", "zoe@example.org"));
    let welcome =
        app.outbox().await.into_iter().find(|m| m.to_addr == "zoe@example.org" && m.kind == "welcome");
    let welcome = welcome.expect("Zoe is mailed the seat, as a replacement is");
    assert!(welcome.subject.contains("You take over seat 2"), "{}", welcome.subject);
    assert!(welcome.body_text.contains("/play/"), "with her own link");
    let log = audit(&app, &id).await;
    for step in ["seat offered as a replacement", "replacement seat taken by its link", "player replaced"] {
        assert!(log.iter().any(|a| a == step), "the audit log has {step}: {log:?}");
    }
}

#[tokio::test]
async fn an_offered_seat_goes_to_the_first_player_on_the_waiting_list() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    // Three invited and one open seat: Eve takes it, Fay waits; the game starts when all accept.
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..3], "")).await;
    for who in ["eve", "fay"] {
        let form = format!("name={who}&email={who}%40example.org");
        app.post_form(&format!("/open/{id}"), &form, None).await;
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    for who in ["anna", "bert", "cleo"] {
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    let game: GameId = id.parse().unwrap();
    let anna = app.seats(game).await.into_iter().find(|s| s.email == "anna@example.org").expect("started");
    let told =
        app.outbox().await.into_iter().find(|m| m.to_addr == "fay@example.org" && m.kind == "waiting-list");
    assert!(told.expect("Fay is told").body_text.contains("You stay on its waiting list"));

    let dash = app.get_with(&format!("/gm/games/{id}"), "cookie", &cookie).await;
    assert!(dash.body.contains("the first of the 1 on the waiting list takes it"), "{}", dash.body);
    let page = offer(&app, &cookie, &id, anna.seat.0).await;
    assert!(page.contains("fay, the first on the game's waiting list, has taken seat"), "{page}");
    let seat = app.seats(game).await.into_iter().find(|s| s.seat == anna.seat).unwrap();
    assert_eq!(seat.email, "fay@example.org");
    let welcome =
        app.outbox().await.into_iter().find(|m| m.to_addr == "fay@example.org" && m.kind == "welcome");
    assert!(welcome.expect("Fay is mailed the seat").subject.contains("You take over seat"));
    let log = audit(&app, &id).await;
    assert!(log.iter().any(|a| a == "replacement taken from the waiting list"), "{log:?}");
    // The console offers the next seat the same way; nobody waits now, so it gives a link.
    let offered = waiting::open_seat(&app.ctx, game, "console", 2).await.unwrap();
    assert!(matches!(offered, waiting::Offered::Link(ref l) if l.contains("/places/")), "{offered:?}");
}

#[tokio::test]
async fn the_console_offers_a_seat_and_prints_the_link_that_takes_it() {
    let (pool, _db) = test_db().await;
    let db = crate::helpers::database_url(&pool);
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let out =
        crate::console::run(&db, &["seat", "open", "--json", "--game", &g.id.to_string(), "--seat", "3"]);
    let printed = crate::console::json(&out);
    let link = printed["link"].as_str().expect("the link is printed").trim_start_matches("http://sm.test");
    let r = app.post_form(link, "answer=take&name=Zoe&email=zoe%40example.org", None).await;
    assert!(r.status == StatusCode::OK && r.body.contains("Seat 3 is yours"), "{}", r.body);
    let seat = app.seats(g.id).await.into_iter().find(|s| s.seat.0 == 3).unwrap();
    assert_eq!(seat.email, "zoe@example.org");
    assert!(audit(&app, &g.id.to_string()).await.iter().any(|a| a == "seat offered as a replacement"));
}
