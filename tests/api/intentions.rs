//! HR 12 end to end (RULING S24): a stated intention lasts from turn to turn until withdrawn — it
//! is shown on its own seat's page only, stands in for a silent seat (still an NMR under the HR
//! 1835 policy) and ends with `INTENT … NONE`.

use crate::db::test_db;
use crate::e2e_1835_mail::close_at_deadline;
use crate::helpers::{TestApp, create_game_on, spawn_app};
use axum::http::StatusCode;
use stationmaster::engine::Seat;
use stationmaster::service::{CreatedGame, GameClock, Review};

async fn post(app: &TestApp, g: &CreatedGame, seat: usize, text: &str) {
    let r = app.post_orders(&g.id, g.seats[seat].token.reveal(), text).await;
    assert_eq!(r.status, StatusCode::CREATED, "seat {}: {}", seat + 1, r.body);
}

async fn seat_page(app: &TestApp, g: &CreatedGame, seat: usize) -> String {
    app.get(&format!("/play/{}", g.seats[seat].token.reveal())).await.body
}

#[tokio::test]
async fn house_rule_12_an_intention_lasts_across_turns_stands_in_for_a_silent_seat_and_ends_when_withdrawn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    let packet = [
        "BUY NF\nBUY BY\nBUY OBB",
        "BUY LD\nBUY M4\nBUY M5",
        "BUY M2\nBUY M3\nBUY PFB",
        "BUY M1\nBUY BB\nBUY HB\nBUY M6",
    ];
    for (i, orders) in packet.iter().enumerate() {
        let text = if i == 0 { format!("{orders}\nINTENT BY: TOWARD Berlin") } else { orders.to_string() };
        post(&app, &g, i, &text).await;
    }
    const SHOWN: &str = "INTENT BY: TOWARD E19";
    assert!(seat_page(&app, &g, 0).await.contains(SHOWN), "shown as the orders on file leave it");
    close_at_deadline(&app, &g, 1).await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");

    // Turn 2: kept from turn 1's sheet, on seat 1's page and no other.
    assert!(seat_page(&app, &g, 0).await.contains(SHOWN), "it lasts into turn 2");
    assert!(!seat_page(&app, &g, 1).await.contains("INTENT BY"), "another seat never sees it");
    let published = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    assert!(!published.contains("INTENT"), "not published with the orders played (K63)");

    // Seat 1 is silent: its intention stands in, and HR 12 still counts the NMR.
    for seat in 1..4 {
        post(&app, &g, seat, "PASS").await;
    }
    close_at_deadline(&app, &g, 2).await;
    let t2 = app.turn(g.id, 2).await.draft.unwrap().0;
    assert!(t2.nmr.contains(&Seat(1)), "HR 12: still an NMR: {:?}", t2.nmr);
    let notes: Vec<&str> = t2.notes[&Seat(1)].iter().map(|n| n.note.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("stated intentions")), "{notes:?}");

    // Turn 3: withdrawn by INTENT BY: NONE, the page no longer lists it.
    post(&app, &g, 0, "INTENT BY: NONE").await;
    let page = seat_page(&app, &g, 0).await;
    assert!(!page.contains(SHOWN) && !page.contains("Your stated intentions"), "withdrawn");
}
