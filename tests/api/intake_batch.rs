//! Appends that arrive together share one statement (issue 32, RULING W60), each judged alone.
//! Each test holds the games' turns locked, as a close would, so the first appends wait in the
//! database while the rest queue behind them; then lets them go.

use crate::db::{TestDb, test_db};
use crate::helpers::{Resp, TestApp, spawn_app};
use axum::http::StatusCode;
use sqlx::{Connection, PgConnection};
use stationmaster::domain::{GameId, Mailbox};
use stationmaster::service::{CreatedGame, Review, lifecycle};
use std::time::Duration;

/// A connection of its own to the test's database.
async fn other_connection(app: &TestApp) -> PgConnection {
    let options = app.ctx.pool.connect_options();
    PgConnection::connect_with(&options).await.expect("a second connection")
}

/// Locks the current turns of `games` for update in a transaction of its own (as a close
/// does), until `release` is called on the connection.
async fn hold_turns(conn: &mut PgConnection, games: &[GameId]) {
    sqlx::query("BEGIN").execute(&mut *conn).await.unwrap();
    for g in games {
        sqlx::query("SELECT 1 FROM turns WHERE game_id = $1 AND status = 'open' FOR UPDATE")
            .bind(g)
            .execute(&mut *conn)
            .await
            .unwrap();
    }
}

/// Waits until `n` statements wait for a lock, lets the other submissions queue behind them,
/// then commits the holding transaction.
async fn release_when_waiting(conn: &mut PgConnection, probe: &mut PgConnection, n: i64) {
    for _ in 0..200 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&mut *probe)
        .await
        .unwrap();
        if waiting >= n {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    sqlx::query("COMMIT").execute(&mut *conn).await.unwrap();
}

/// Sends every one of `sends` at once while the turns of `games` are held: the first appends wait
/// in the database, the rest queue behind them, then all go on.
async fn send_while_held(app: &TestApp, games: &[GameId], sends: &[(GameId, String, String)]) -> Vec<Resp> {
    let (mut holder, mut probe) = (other_connection(app).await, other_connection(app).await);
    hold_turns(&mut holder, games).await;
    let posts = sends.iter().map(|(g, t, o)| app.post_orders(g, t, o.clone()));
    let (answers, ()) =
        tokio::join!(futures_util::future::join_all(posts), release_when_waiting(&mut holder, &mut probe, 4));
    answers
}

/// Two games whose eight seats have each sent orders once (so the short path remembers them),
/// and each seat's orders to send again.
async fn two_warmed_games() -> (TestApp, TestDb, CreatedGame, CreatedGame, Vec<(GameId, String, String)>) {
    let (pool, db) = test_db().await;
    let app = spawn_app(pool).await;
    let (a, b) = (app.create_game(Review::Gm).await, app.create_game(Review::Gm).await);
    let sends = warmed(&app, &[&a, &b]).await;
    (app, db, a, b, sends)
}

/// Each seat's claim orders, remembered by the short path (one submission each first).
async fn warmed(app: &TestApp, games: &[&CreatedGame]) -> Vec<(GameId, String, String)> {
    let mut sends = Vec::new();
    for g in games {
        let orders = app.claim_orders(g).await;
        for (s, o) in g.seats.iter().zip(orders) {
            let o = o.expect("orders");
            let first = app.post_orders(&g.id, s.token.reveal(), o.clone()).await;
            assert_eq!(first.status, StatusCode::CREATED, "{}", first.body);
            sends.push((g.id, s.token.reveal().to_string(), o));
        }
    }
    sends
}

#[tokio::test]
async fn appends_that_arrive_together_are_stored_by_one_statement_each_as_its_own_version() {
    let (app, _db, a, b, sends) = two_warmed_games().await;
    let (statements_before, appends_before) = app.ctx.intake_counts();

    let answers = send_while_held(&app, &[a.id, b.id], &sends).await;

    for r in &answers {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        assert_eq!(r.json()["version"], 2, "each seat's second version: {}", r.body);
    }
    let stored: i64 = sqlx::query_scalar("SELECT count(*) FROM order_versions WHERE version = 2")
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap();
    assert_eq!(stored, 8, "every append stored once");
    let (statements, appends) = app.ctx.intake_counts();
    assert_eq!(appends - appends_before, 8);
    assert!(
        statements - statements_before < 8,
        "the appends queued behind the held turns shared statements: {} statements for 8 appends",
        statements - statements_before
    );
}

#[tokio::test]
async fn a_refused_append_in_a_shared_statement_leaves_the_others_stored() {
    let (app, _db, a, b, sends) = two_warmed_games().await;
    // Seat 2 of game b is replaced: its old token, which the short path remembers, must be
    // refused in whatever statement it lands.
    let erin = Mailbox::parse("Erin <erin@example.org>").unwrap();
    lifecycle::replace_player(&app.ctx, b.id, "gm@example.org", 2, &erin).await.unwrap();
    let old = b.seats[1].token.reveal().to_string();

    let answers = send_while_held(&app, &[a.id, b.id], &sends).await;

    for ((_, token, _), r) in sends.iter().zip(&answers) {
        if *token == old {
            assert_eq!(r.status, StatusCode::FORBIDDEN, "the replaced seat's old token: {}", r.body);
        } else {
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
            assert_eq!(r.json()["version"], 2, "{}", r.body);
        }
    }
}

#[tokio::test]
async fn a_shared_statement_that_fails_is_retried_one_append_at_a_time() {
    let (app, _db, a, b, sends) = two_warmed_games().await;
    // A statement storing more than one version fails as a deadlock would; alone, each is stored.
    sqlx::raw_sql(
        "CREATE FUNCTION fail_shared() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
           IF (SELECT count(*) FROM new_rows) > 1 THEN \
             RAISE EXCEPTION 'two appends in one statement' USING ERRCODE = '40P01'; END IF; \
           RETURN NULL; END $$; \
         CREATE TRIGGER fail_shared AFTER INSERT ON order_versions REFERENCING NEW TABLE AS new_rows \
           FOR EACH STATEMENT EXECUTE FUNCTION fail_shared();",
    )
    .execute(&app.ctx.pool)
    .await
    .unwrap();
    let (statements_before, appends_before) = app.ctx.intake_counts();

    let answers = send_while_held(&app, &[a.id, b.id], &sends).await;

    for r in &answers {
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        assert_eq!(r.json()["version"], 2, "{}", r.body);
    }
    let (statements, appends) = app.ctx.intake_counts();
    assert!(
        appends - appends_before > 8,
        "a shared statement failed and its appends were offered again one by one ({} offered)",
        appends - appends_before
    );
    assert!(statements - statements_before > 4);
}
