//! Co-GMs of games still waiting for their seats (issue 37, RULING W62): added by the GM, they
//! see the waiting game on their GM page and act on it as its GM does.

use crate::db::test_db;
use crate::game_creation::{FOUR, answer, invited_gm, new_1835_form, open_from_form, place_link};
use crate::helpers::spawn_app;
use axum::http::StatusCode;
use stationmaster::domain::{EmailAddress, GameId};
use stationmaster::service::gm_access;

#[tokio::test]
async fn a_co_gm_sees_a_waiting_game_on_the_gm_page_and_acts_on_it_as_its_gm() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR, "")).await;
    let co = app.gm_cookie("co@example.org").await;
    let page = format!("/gm/waiting/{id}");
    assert!(!app.get_with("/gm", "cookie", &co).await.body.contains(&id), "not yet a co-GM");
    assert_eq!(app.get_with(&page, "cookie", &co).await.status, StatusCode::FORBIDDEN);
    let add = format!("/gm/waiting/{id}/co-gm");
    let r = app.post_form(&add, "email=co%40example.org", Some(&co)).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "nobody makes himself a co-GM");

    let r = app.post_form(&add, "email=co%40example.org", Some(&cookie)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    assert!(app.get_with("/gm", "cookie", &co).await.body.contains(&id), "the co-GM's page lists it");
    let seen = app.get_with(&page, "cookie", &co).await;
    assert_eq!(seen.status, StatusCode::OK);
    assert!(seen.body.contains("anna@example.org") && seen.body.contains("co@example.org"), "{}", seen.body);

    for who in ["anna", "bert", "cleo"] {
        answer(&app, &place_link(&app, &format!("{who}@example.org")).await, "accept").await;
    }
    let r = app.post_form(&format!("/gm/waiting/{id}/start"), "", Some(&co)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "the co-GM starts it early: {}", r.body);
    let game: GameId = id.parse().unwrap();
    assert_eq!(app.seats(game).await.len(), 3);
    let dash = app.get_with(&format!("/gm/games/{id}"), "cookie", &co).await;
    assert_eq!(dash.status, StatusCode::OK, "and runs the game it became: {}", dash.body);
}

#[tokio::test]
async fn the_console_adds_a_co_gm_to_a_waiting_game_who_may_then_cancel_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let cookie = invited_gm(&app).await;
    let id = open_from_form(&app, &cookie, &new_1835_form(&FOUR[..2], "")).await;
    let game: GameId = id.parse().unwrap();
    let co = EmailAddress::parse("co@example.org").unwrap();
    gm_access::add_co_gm(&app.ctx, game, None, &co).await.unwrap();
    let co = app.gm_cookie("co@example.org").await;
    let r = app.post_form(&format!("/gm/waiting/{id}/cancel"), "", Some(&co)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
    let audit = crate::replacement_offer::audit(&app, &id).await;
    assert!(
        audit.iter().any(|a| a == "co-GM added") && audit.iter().any(|a| a == "game cancelled"),
        "{audit:?}"
    );
}
