//! HR 12 end to end (RULING S24): a stated intention lasts from turn to turn until withdrawn — it
//! is shown on its own seat's page only, stands in for a silent seat (still an NMR under the HR
//! 1835 policy) and ends with `INTENT … NONE`.

use crate::db::test_db;
use crate::e2e_1835_mail::close_at_deadline;
use crate::helpers::{TestApp, create_game_on, spawn_app};
use axum::http::StatusCode;
use stationmaster::engine::Seat;
use stationmaster::service::turn::questions;
use stationmaster::service::{CreatedGame, GameClock, Review};

async fn post(app: &TestApp, g: &CreatedGame, seat: usize, text: &str) {
    let r = app.post_orders(&g.id, g.seats[seat].token.reveal(), text.to_string()).await;
    assert_eq!(r.status, StatusCode::CREATED, "seat {}: {}", seat + 1, r.body);
}

/// The section of a seat's page that lists its stated intentions, if it has one.
async fn intentions_shown(app: &TestApp, g: &CreatedGame, seat: usize) -> Option<String> {
    let page = app.get(&format!("/play/{}", g.seats[seat].token.reveal())).await.body;
    let at = page.find("id=\"intentions\"")?;
    Some(page[at..at + page[at..].find("</section>").unwrap_or(0)].to_string())
}

#[tokio::test]
async fn house_rule_12_an_intention_lasts_across_turns_stands_in_for_a_silent_seat_and_ends_when_withdrawn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(&app.ctx, "1835", serde_json::json!({}), Review::Auto, GameClock::default()).await;
    // HR 17 B's referrals are played by their best candidate, so the turns run through (S18).
    questions::set_referrals(&app.ctx, g.id, "gm@example.org", false).await.unwrap();
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
    let shown = intentions_shown(&app, &g, 0).await.unwrap_or_default();
    assert!(shown.contains(SHOWN), "shown as the orders on file leave it: {shown}");
    close_at_deadline(&app, &g, 1).await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");

    // Turn 2: kept from turn 1's sheet, on seat 1's page and no other.
    let shown = intentions_shown(&app, &g, 0).await.unwrap_or_default();
    assert!(shown.contains(SHOWN), "it lasts into turn 2: {shown}");
    assert_eq!(intentions_shown(&app, &g, 1).await, None, "another seat never sees it");
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
    assert_eq!(intentions_shown(&app, &g, 0).await, None, "withdrawn");
}
