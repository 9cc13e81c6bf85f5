//! `game import --rerender-reports` (issue 32, RULING O20 amended): a document from a server that
//! words its events otherwise is imported with this server's words in its drafts too — a drafted
//! turn, which the GM reviews, and the published ones its reports are made from — while its
//! actions, state, NMRs and standings must still be the replay's.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use crate::import_checks::{import_as, refused, refused_as, rows};
use serde_json::{Value, json};
use stationmaster::service::export::{GameDocument, ReportSource, export_document};
use stationmaster::service::{self, Review};

/// The first event of turn `number`'s draft in the document, for changing its words.
fn first_event(doc: &mut GameDocument, number: i64) -> &mut Value {
    let turn = rows(doc, "turns").iter_mut().find(|t| t["number"] == json!(number)).unwrap();
    &mut turn["draft"]["events"][0]["public"]
}

/// A game whose turn 1 was played and is drafted for the GM's review, exported.
async fn drafted_and_exported(app: &TestApp) -> GameDocument {
    let g = app.create_game(Review::Gm).await;
    app.claim_all_final(&g).await;
    service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "draft", "the GM reviews turn 1");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    export_document(&mut conn, g.id).await.unwrap()
}

#[tokio::test]
async fn a_drafted_turn_worded_otherwise_is_stored_in_this_servers_words_when_reports_are_rerendered() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let mut doc = drafted_and_exported(&app).await;
    let ours = first_event(&mut doc, 1).as_str().unwrap().to_string();
    *first_event(&mut doc, 1) = json!(format!("{ours} (as an older server put it)"));

    let err = refused(&app, &doc).await;
    assert!(err.contains("turns row 1 (turn 1): its event 1 reads"), "{err}");
    let imported = import_as(&app, &doc, ReportSource::Rendered).await.unwrap();
    let stored: Value = sqlx::query_scalar("SELECT draft FROM turns WHERE game_id = $1 AND number = 1")
        .bind(imported.game_id)
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap();
    assert_eq!(stored["events"][0]["public"], json!(ours), "the GM reviews this server's words");
}

#[tokio::test]
async fn a_rerendered_draft_must_still_play_the_documents_results() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let mut doc = drafted_and_exported(&app).await;
    let turn = rows(&mut doc, "turns").iter_mut().find(|t| t["number"] == json!(1)).unwrap();
    turn["draft"]["nmr"] = json!([2]);
    let err = refused_as(&app, &doc, ReportSource::Rendered).await;
    assert!(err.contains("its NMRs, defaults or standings are not the replay's"), "{err}");
}
