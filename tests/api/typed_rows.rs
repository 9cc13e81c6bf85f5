//! Typed rows (issue 12): a stored value that is not what its column means is reported as an
//! error naming the column, never read as some default (least of all the GM's seat 0).

use crate::db::test_db;
use crate::helpers::*;
use stationmaster::service::{self, CreatedGame, Review};

/// Runs `sql` (with `$1` = the game's id) on a new game's rows, as a bad migration or a hand edit
/// might.
async fn corrupt(app: &TestApp, g: &CreatedGame, sql: &'static str) {
    sqlx::query(sql).bind(g.id).execute(&app.ctx.pool).await.unwrap();
}

#[tokio::test]
async fn a_seat_column_out_of_range_is_an_error_not_the_gm_seat() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    corrupt(&app, &g, "UPDATE seats SET seat = 300 WHERE game_id = $1 AND seat = 2").await;
    let mut conn = pool.acquire().await.unwrap();
    let err = service::authenticate_seat(&mut conn, Some(g.id), &g.seats[1].token)
        .await
        .expect_err("seat 300 is no seat, and surely not the GM's");
    assert!(err.is_internal(), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("seat") && text.contains("300"),
        "the error names the column and the value: {text}"
    );
    // Every reader of the seats fails the same way instead of showing a seat 0.
    assert!(
        service::dashboard(&mut conn, g.id, &service::gm_access::Gm::plain("gm@example.org")).await.is_err()
    );
}

#[tokio::test]
async fn a_stored_rhythm_that_does_not_parse_is_reported_not_replaced_by_the_turn_length() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    let mut conn = pool.acquire().await.unwrap();
    assert!(
        service::dashboard(&mut conn, g.id, &service::gm_access::Gm::plain("gm@example.org")).await.is_ok()
    );
    corrupt(&app, &g, "UPDATE games SET rhythm = '{\"length\": \"banana\"}' WHERE id = $1").await;
    let Err(err) =
        service::dashboard(&mut conn, g.id, &service::gm_access::Gm::plain("gm@example.org")).await
    else {
        panic!("a bad rhythm is an error")
    };
    assert!(err.to_string().contains("rhythm"), "the error names the column: {err}");
}

#[tokio::test]
async fn a_stored_nmr_policy_of_the_wrong_shape_stops_the_close_instead_of_using_the_defaults() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    corrupt(&app, &g, "UPDATE games SET nmr_policy = '{\"fallback\": \"shrug\"}' WHERE id = $1").await;
    let err = service::close_turn(&app.ctx, g.id).await.expect_err("an unreadable policy is an error");
    let text = err.to_string();
    assert!(text.contains("nmr_policy"), "the error names the column: {text}");
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "open", "nothing was adjudicated");
}
