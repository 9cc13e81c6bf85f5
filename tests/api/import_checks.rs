//! What `game import` checks row by row (issue 32): a document tampered with after its export —
//! an order's text with its digest kept, an audit entry, an NMR count, a report with a link
//! added, the GM's or a seat's address — is refused naming the row and leaves nothing behind,
//! and no address is mailed until whoever imports has confirmed it (RULINGS O19–O21).

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use chrono::Duration;
use serde_json::{Value, json};
use stationmaster::domain::{GameId, Mailbox};
use stationmaster::registry;
use stationmaster::schedule::DeadlineChange;
use stationmaster::service::export::{
    GameDocument, ImportOptions, ReportSource, addresses, export_document, import_document, verify,
};
use stationmaster::service::mail_secrets::SEAT_LINK;
use stationmaster::service::{self, CreatedGame, Review, ServiceError, lifecycle};

/// A Railroaded game as games are moved: turn 1 played from every seat's claim, turn 2 by
/// default (an NMR for every seat), then seat 2 handed to Erin and the open turn's deadline
/// extended — exported.
pub(crate) async fn exported(app: &TestApp) -> (CreatedGame, GameDocument) {
    let g = app.create_game(Review::Auto).await;
    app.claim_all_final(&g).await;
    service::close_turn(&app.ctx, g.id).await.unwrap();
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert_eq!(app.turn(g.id, 2).await.status.as_str(), "published", "turn 2 went by default");
    let erin = Mailbox::parse("Erin <erin@example.org>").unwrap();
    lifecycle::replace_player(&app.ctx, g.id, "gm@example.org", 2, &erin).await.unwrap();
    let later = DeadlineChange::Extend(Duration::hours(24));
    lifecycle::change_deadline(&app.ctx, g.id, "gm@example.org", later).await.unwrap();
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let doc = export_document(&mut conn, g.id).await.unwrap();
    (g, doc)
}

/// Imports under a new id with the document's own addresses confirmed.
pub(crate) async fn import(
    app: &TestApp,
    doc: &GameDocument,
) -> Result<service::export::Imported, ServiceError> {
    import_as(app, doc, ReportSource::Document).await
}

/// [`import`], storing the reports `reports` says.
pub(crate) async fn import_as(
    app: &TestApp,
    doc: &GameDocument,
    reports: ReportSource,
) -> Result<service::export::Imported, ServiceError> {
    let options = ImportOptions { new_id: true, confirmed: Some(addresses(doc).code), reports };
    import_document(&app.ctx, doc, &options).await
}

/// The tables an import writes, whose rows a refused import must leave as they were.
const GAME_TABLES: [&str; 13] = [
    "games",
    "seats",
    "turns",
    "order_versions",
    "final_marks",
    "actions",
    "reports",
    "absences",
    "standing_orders",
    "timers",
    "rollbacks",
    "audit_log",
    "outbox",
];

async fn count(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&app.ctx.pool).await.unwrap()
}

/// Imports a tampered document, which must be refused with nothing written; the refusal.
pub(crate) async fn refused(app: &TestApp, doc: &GameDocument) -> String {
    refused_as(app, doc, ReportSource::Document).await
}

/// [`refused`], importing with `reports` (RULING O20's way out reads no report of the document).
pub(crate) async fn refused_as(app: &TestApp, doc: &GameDocument, reports: ReportSource) -> String {
    let mut before = Vec::new();
    for t in GAME_TABLES {
        before.push(count(app, &format!("SELECT count(*) FROM {t}")).await);
    }
    let err = import_as(app, doc, reports).await.expect_err("a tampered document is refused").to_string();
    for (t, n) in GAME_TABLES.iter().zip(before) {
        let now = count(app, &format!("SELECT count(*) FROM {t}")).await;
        assert_eq!(now, n, "a refused import writes no {t} row: {err}");
    }
    err
}

/// A fresh server's exported game, tampered with by `tamper`, then imported: the refusal.
async fn refused_after(tamper: impl FnOnce(&mut GameDocument)) -> String {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, mut doc) = exported(&app).await;
    tamper(&mut doc);
    refused(&app, &doc).await
}

pub(crate) fn rows<'a>(doc: &'a mut GameDocument, table: &str) -> &'a mut Vec<Value> {
    doc.tables.get_mut(table).unwrap()
}

/// The position (from 1) of the report of `turn` for `seat` among the document's reports.
fn report_row(doc: &GameDocument, turn: i64, seat: i64) -> usize {
    let at = doc.tables["reports"].iter().position(|r| r["turn"] == json!(turn) && r["seat"] == json!(seat));
    at.unwrap() + 1
}

async fn report_of(app: &TestApp, game: GameId, turn: i32, seat: i16) -> (String, String) {
    sqlx::query_as("SELECT body_text, body_html FROM reports WHERE game_id = $1 AND turn = $2 AND seat = $3")
        .bind(game)
        .bind(turn)
        .bind(seat)
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn an_untampered_export_imports_replays_and_its_reports_carry_the_new_links() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (g, doc) = exported(&app).await;
    let imported = import(&app, &doc).await.unwrap();
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let copy = export_document(&mut conn, imported.game_id).await.unwrap();
    let engine = registry::find("railroaded").unwrap();
    verify(engine, &copy).expect("the copy replays and checks as the original did");
    let audit = service::audit::audit_log(&app.ctx, imported.game_id).await.unwrap();
    assert!(audit.intact, "the chain goes on intact");
    let (text, html) = report_of(&app, imported.game_id, 2, 1).await;
    // RULING P8: a stored report holds the link's placeholder, filled with the reader's own link
    // when shown or mailed; neither server's link is stored.
    assert!(text.contains(SEAT_LINK) && html.contains(SEAT_LINK), "{text}");
    assert!(!text.contains(&g.seats[0].link) && !html.contains(&g.seats[0].link), "the old link is gone");
    assert!(!text.contains(&imported.seats[0].link) && !html.contains("/play/"), "no live link is stored");
    let (bert, _) = report_of(&app, imported.game_id, 1, 2).await;
    assert!(bert.contains("Report for Bert (seat 2)"), "a report keeps the player it went to: {bert}");
}

#[tokio::test]
async fn nothing_is_imported_or_mailed_until_the_addresses_are_confirmed() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, mut doc) = exported(&app).await;
    rows(&mut doc, "seats")[0]["email"] = json!("mallory@evil.example");
    let games = count(&app, "SELECT count(*) FROM games").await;
    let to_mallory = "SELECT count(*) FROM outbox WHERE to_addr = 'mallory@evil.example'";
    let unconfirmed = ImportOptions { new_id: true, ..Default::default() };
    let err = import_document(&app.ctx, &doc, &unconfirmed).await.unwrap_err().to_string();
    let code = addresses(&doc).code;
    assert!(err.contains("seat 1: \"Anna\" <mallory@evil.example>") && err.contains(&code), "{err}");
    let wrong = ImportOptions { confirmed: Some("00000000".into()), ..unconfirmed };
    assert!(import_document(&app.ctx, &doc, &wrong).await.is_err(), "another list's code confirms nothing");
    assert_eq!(count(&app, "SELECT count(*) FROM games").await, games, "nothing was written");
    assert_eq!(count(&app, to_mallory).await, 0, "no seat link went to an unconfirmed address");
    import(&app, &doc).await.expect("a human confirmed the list");
    assert_eq!(count(&app, to_mallory).await, 1, "the confirmed address gets the seat's new link");
}

#[tokio::test]
async fn a_replaced_seats_address_changed_in_the_document_is_refused_naming_the_seat() {
    let err = refused_after(|doc| {
        rows(doc, "seats")[1]["email"] = json!("mallory@evil.example");
    })
    .await;
    assert!(err.contains("seats row 2 (seat 2): its address is not the one the seat was handed to"), "{err}");
}

#[tokio::test]
async fn a_gm_address_changed_in_the_document_is_refused_naming_the_game_row() {
    let err = refused_after(|doc| {
        rows(doc, "games")[0]["gm_email"] = json!("mallory@evil.example");
    })
    .await;
    assert!(
        err.contains("games row 1 (the game): its GM address is not the one that created the game"),
        "{err}"
    );
}

#[tokio::test]
async fn a_report_with_an_added_link_is_refused_naming_its_turn_and_seat() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, doc) = exported(&app).await;
    let row = report_row(&doc, 2, 1);
    let phish = "\nYour account needs checking: http://evil.example/login\n";
    for column in ["body_text", "body_html"] {
        let mut doc = doc.clone();
        let report = &mut rows(&mut doc, "reports")[row - 1][column];
        *report = json!(format!("{}{phish}", report.as_str().unwrap()));
        let err = refused(&app, &doc).await;
        assert!(err.contains(&format!("reports row {row} (turn 2, seat 1): its ")), "{column}: {err}");
        assert!(err.contains("evil.example"), "the refusal shows the line that differs: {err}");
    }
}

#[tokio::test]
async fn a_report_rendered_otherwise_is_replaced_by_this_servers_rendering_when_asked() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, mut doc) = exported(&app).await;
    let row = report_row(&doc, 1, 3);
    let report = &mut rows(&mut doc, "reports")[row - 1]["body_text"];
    *report = json!(report.as_str().unwrap().replace("WHAT HAPPENED", "What happened"));
    refused(&app, &doc).await;
    let options = ImportOptions {
        new_id: true,
        confirmed: Some(addresses(&doc).code),
        reports: ReportSource::Rendered,
    };
    let imported = import_document(&app.ctx, &doc, &options).await.unwrap();
    let (text, _) = report_of(&app, imported.game_id, 1, 3).await;
    assert!(text.contains("WHAT HAPPENED") && text.contains(SEAT_LINK), "{text}");
    assert!(!text.contains(&imported.seats[2].link), "no live link is stored: {text}");
}

#[tokio::test]
async fn order_text_changed_with_its_digest_kept_is_refused_naming_the_row() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, doc) = exported(&app).await;
    let mut changed = doc.clone();
    let body = &mut rows(&mut changed, "order_versions")[0]["body"];
    *body = json!(body.as_str().unwrap().replace("NORTH", "SOUTH"));
    let err = refused(&app, &changed).await;
    assert!(
        err.contains("order_versions row 1 (turn 1, seat 1, version 1): its text does not match its digest"),
        "{err}"
    );
    let mut salted = doc.clone();
    rows(&mut salted, "order_versions")[0]["line_salts"][0] = json!("00");
    let err = refused(&app, &salted).await;
    assert!(err.contains("order_versions row 1 (turn 1, seat 1, version 1): its digest is not"), "{err}");
}

#[tokio::test]
async fn an_altered_audit_entry_is_refused_naming_the_entry() {
    let err = refused_after(|doc| {
        rows(doc, "audit_log")[1]["detail"]["tampered"] = json!(true);
    })
    .await;
    assert!(err.contains("audit_log row 2 (entry 2): its content does not match its hash"), "{err}");
}

#[tokio::test]
async fn a_changed_nmr_count_is_refused_naming_the_seat() {
    let err = refused_after(|doc| {
        assert_eq!(doc.tables["seats"][0]["nmr_count"], json!(1), "turn 2 went by default");
        rows(doc, "seats")[0]["nmr_count"] = json!(0);
    })
    .await;
    assert!(
        err.contains("seats row 1 (seat 1): its NMR count 0 is not the 1 its published turns count"),
        "{err}"
    );
}
