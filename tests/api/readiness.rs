//! Readiness apart from liveness (issue 19, RULING S22).

use crate::db::test_db;
use crate::helpers::spawn_app;
use axum::http::StatusCode;
use chrono::Duration;

#[tokio::test]
async fn the_server_is_ready_only_while_the_scheduler_beats() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    assert_eq!(app.get("/healthz").await.status, StatusCode::OK, "alive from the start");
    let r = app.get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.body, "the scheduler has not run yet");

    app.tick().await;
    let r = app.get("/readyz").await;
    assert_eq!((r.status, r.body.as_str()), (StatusCode::OK, "ready"));

    app.ctx.clock.advance(Duration::minutes(10));
    let r = app.get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.body, "the scheduler's last pass was 600 s ago");
}

#[tokio::test]
async fn a_database_missing_a_migration_is_not_ready() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    app.tick().await;
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = (SELECT max(version) FROM _sqlx_migrations)")
        .execute(&pool)
        .await
        .unwrap();
    let r = app.get("/readyz").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.body, "1 database migration(s) not applied");
}
