//! What counts as an NMR, end to end (HR 12–13, HR 16, RULINGS S2): the count stored on each seat
//! and the replacement flag after publication agree with the game's NMR policy for a seat with
//! no orders, one played from standing orders, and one whose orders could not be carried out.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use chrono::Duration;
use stationmaster::engine::Seat;
use stationmaster::orders::OrderText;
use stationmaster::registry::TurnOutcome;
use stationmaster::service::policy::NmrPolicy;
use stationmaster::service::{CreatedGame, GameClock, Review, lifecycle};

/// Turn 1 of a game where seat 1 orders, seat 2 sends nothing, seat 3 sends a claim of a card it
/// does not hold (stored with a warning, not carried out at the close), and seat 4 has only
/// standing orders. Returns the published draft of turn 1.
async fn first_turn_with_every_kind_of_seat(app: &TestApp, g: &CreatedGame) -> TurnOutcome {
    let orders = app.claim_orders(g).await;
    let own = orders[0].as_deref().expect("seat 1 has a claim");
    let card = own.split_whitespace().nth(1).expect("CLAIM <card> <dir>");
    app.submit(g, 0, own, false).await;
    app.submit(g, 2, &format!("CLAIM {card} SOUTH"), false).await;
    let standing =
        OrderText::from_bytes(orders[3].as_deref().expect("seat 4 has a claim").as_bytes()).unwrap();
    lifecycle::set_standing_orders(&app.ctx, g.id, Seat(4), &standing).await.unwrap();
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t = app.turn(g.id, 1).await;
    assert_eq!(t.status.as_str(), "published");
    t.draft.unwrap().0
}

async fn counts(app: &TestApp, g: &CreatedGame) -> Vec<(i32, bool)> {
    app.seats(g.id).await.iter().map(|s| (s.nmr_count, s.flagged_at.is_some())).collect()
}

#[tokio::test]
async fn the_nmr_counts_and_flags_follow_the_house_rules_for_silent_standing_and_unusable_seats() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let draft = first_turn_with_every_kind_of_seat(&app, &g).await;
    // HR 16 / S2: seat 3 wrote orders, so the default played for it is no NMR; HR 12: seat 4's
    // standing orders still count.
    assert!(draft.defaulted.contains(&Seat(3)), "seat 3's claim could not be carried out: {:?}", draft.notes);
    assert_eq!(draft.nmr, [Seat(2), Seat(4)].into());
    assert_eq!(counts(&app, &g).await, [(0, false), (1, false), (0, false), (1, false)]);
    // Turn 2: nobody orders; seat 4's standing orders are used again and count again.
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    let t2: TurnOutcome = app.turn(g.id, 2).await.draft.unwrap().0;
    assert_eq!(t2.nmr, [Seat(1), Seat(2), Seat(3), Seat(4)].into());
    // HR 13: the second NMR flags, the first does not.
    assert_eq!(counts(&app, &g).await, [(1, false), (2, true), (1, false), (2, true)]);
}

#[tokio::test]
async fn under_the_lenient_policy_standing_orders_are_no_nmr_and_nobody_is_flagged() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let clock = GameClock { nmr_policy: NmrPolicy::LENIENT, ..GameClock::default() };
    let g = app.create_game_with(Review::Auto, clock).await;
    let draft = first_turn_with_every_kind_of_seat(&app, &g).await;
    assert_eq!(draft.nmr, [Seat(2)].into());
    assert_eq!(counts(&app, &g).await, [(0, false), (1, false), (0, false), (0, false)]);
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    assert_eq!(counts(&app, &g).await, [(1, false), (2, false), (1, false), (0, false)]);
}
