//! `game export` / `game import` (issue 19): a game moves between servers whole, for every
//! registered engine; a document whose log does not reproduce its state is refused and nothing is
//! written (RULINGS O13–O17).

use crate::db::test_db;
use crate::helpers::{create_game_on, settings, spawn_app};
use chrono::Duration;
use serde_json::{Value, json};
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::domain::GameId;
use stationmaster::registry;
use stationmaster::service::export::{
    GameDocument, ImportOptions, ImportRefused, Imported, addresses, export_document, import_document,
    parse_document,
};
use stationmaster::service::{Ctx, GameClock, Review, ServiceError};
use stationmaster::store::export::Table;

/// A game of `engine` played for `turns` turns on defaults (nobody orders), exported as text.
async fn played(ctx: &Ctx, engine: &str, turns: usize) -> (GameId, String) {
    let g = create_game_on(ctx, engine, json!({}), Review::Auto, GameClock::default()).await;
    for _ in 0..turns {
        ctx.clock.advance(Duration::hours(48));
        stationmaster::scheduler::tick(ctx).await.unwrap();
    }
    let mut conn = ctx.pool.acquire().await.unwrap();
    let doc = export_document(&mut conn, g.id).await.unwrap();
    (g.id, serde_json::to_string_pretty(&doc).unwrap())
}

async fn document_of(ctx: &Ctx, game: GameId) -> GameDocument {
    let mut conn = ctx.pool.acquire().await.unwrap();
    export_document(&mut conn, game).await.unwrap()
}

/// Imports with the document's addresses confirmed (RULING O21).
async fn import(ctx: &Ctx, doc: &GameDocument, new_id: bool) -> Result<Imported, ServiceError> {
    let options = ImportOptions { new_id, confirmed: Some(addresses(doc).code), ..Default::default() };
    import_document(ctx, doc, &options).await
}

/// A report's text with every seat link cut to its path (an import re-issues them, RULING O20).
fn without_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("/play/") {
        out.push_str(&rest[..at + "/play/".len()]);
        rest = rest[at + "/play/".len()..].trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    }
    out + rest
}

async fn games(ctx: &Ctx) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&ctx.pool).await.unwrap()
}

/// The rows that must arrive unchanged (seats get new tokens, the audit chain one more entry).
fn moved(doc: &GameDocument) -> Value {
    let t = |table: Table| doc.tables.get(table.name()).cloned();
    json!([
        doc.game.actions,
        doc.game.setup,
        doc.game.seed,
        t(Table::Games),
        t(Table::Turns),
        t(Table::OrderVersions),
        t(Table::FinalMarks),
        t(Table::Reports).map(|rows| rows.iter().map(|r| without_links(&r.to_string())).collect::<Vec<_>>()),
        t(Table::Timers)
    ])
}

async fn round_trip(pool: PgPool, engine: &str) {
    let app = spawn_app(pool).await;
    let (old, text) = played(&app.ctx, engine, 3).await;
    let doc = parse_document(&text).unwrap();
    assert!(doc.game.actions.len() > 3, "{engine}: the game was played");
    let imported = import(&app.ctx, &doc, true).await.unwrap();
    assert_ne!(imported.game_id, old);
    let copy = document_of(&app.ctx, imported.game_id).await;
    assert_eq!(moved(&copy), moved(&doc), "{engine}: the game arrived whole");
    assert_eq!(copy.tables["audit_log"].len(), doc.tables["audit_log"].len() + 1);
    let chain = stationmaster::service::audit::audit_log(&app.ctx, imported.game_id).await.unwrap();
    assert!(chain.intact, "{engine}: the moved audit chain still verifies");
}

#[tokio::test]
async fn a_railroaded_game_survives_export_and_import() {
    let (pool, _db) = test_db().await;
    round_trip(pool, "railroaded").await;
}

#[tokio::test]
async fn an_1833_game_survives_export_and_import() {
    let (pool, _db) = test_db().await;
    round_trip(pool, "1833").await;
}

#[tokio::test]
async fn an_1835_game_survives_export_and_import() {
    let (pool, _db) = test_db().await;
    round_trip(pool, "1835").await;
}

#[tokio::test]
async fn a_confederate_rails_game_survives_export_and_import() {
    let (pool, _db) = test_db().await;
    round_trip(pool, "confederate-rails").await;
}

#[tokio::test]
async fn an_1800_game_survives_export_and_import() {
    let (pool, _db) = test_db().await;
    round_trip(pool, "1800").await;
}

#[test]
fn every_registered_engine_has_a_round_trip_test() {
    let tested = ["railroaded", "1833", "1835", "confederate-rails", "1800"];
    for engine in registry::engines() {
        assert!(tested.contains(&engine.slug()), "no export/import round trip for {}", engine.slug());
    }
}

#[tokio::test]
async fn a_game_moves_to_another_server_under_its_own_id_with_new_links() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let (id, text) = played(&app.ctx, "railroaded", 2).await;
    let old_hashes: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM seats WHERE game_id = $1")
        .bind(id)
        .fetch_all(&pool)
        .await
        .unwrap();
    // Postgres cuts names at 63 bytes: a short name of our own, unique per test database.
    let db = pool.connect_options().get_database().unwrap().to_string();
    let other = format!("moved_{}", &db[db.len().saturating_sub(24)..]).to_lowercase();
    let url = format!("postgres://postgres@127.0.0.1:5432/{other}");
    let there = stationmaster::store::connect_and_migrate(&url, 4, stationmaster::store::SERVER_DB_WAIT)
        .await
        .unwrap();
    let mut s = settings();
    s.secret_key = Some("another-server-key".into());
    let ctx = Ctx::new(there.clone(), s, Clock::fixed(app.ctx.now())).await.unwrap();

    let imported = import(&ctx, &parse_document(&text).unwrap(), false).await.unwrap();
    assert_eq!(imported.game_id, id, "RULING O15: the game keeps its id");
    let mut conn = ctx.pool.acquire().await.unwrap();
    for (seat, old_hash) in imported.seats.iter().zip(&old_hashes) {
        let token = stationmaster::domain::SecretToken::presented(&seat.token);
        let row =
            stationmaster::store::games::seat_by_token(&mut conn, &token.hash()).await.unwrap().unwrap();
        assert_eq!((row.game_id, row.seat), (id, seat.seat));
        assert_ne!(&token.hash(), old_hash, "RULING O13: every token is re-issued");
    }
    let mails: Vec<String> =
        sqlx::query_scalar("SELECT to_addr FROM outbox WHERE kind = 'notice' ORDER BY to_addr")
            .fetch_all(&ctx.pool)
            .await
            .unwrap();
    assert_eq!(mails.len(), 4, "each player is mailed the new link");
    drop(conn);
    ctx.pool.close().await;
    there.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE \"{other}\" WITH (FORCE)")))
        .execute(&pool)
        .await
        .unwrap();
}

async fn refused(ctx: &Ctx, doc: &GameDocument) -> String {
    let before = games(ctx).await;
    let err = import(ctx, doc, true).await.unwrap_err().to_string();
    assert_eq!(games(ctx).await, before, "nothing is written: {err}");
    err
}

#[tokio::test]
async fn a_document_whose_state_was_changed_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, text) = played(&app.ctx, "railroaded", 2).await;
    let mut doc = parse_document(&text).unwrap();
    let game = &mut doc.tables.get_mut("games").unwrap()[0];
    let mut state = game["state"].clone();
    *state.as_object_mut().unwrap().values_mut().find(|v| v.is_number()).unwrap() = json!(424242);
    game["state"] = state;
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("does not reproduce the stored game state"), "{err}");
}

#[tokio::test]
async fn a_document_whose_log_was_changed_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, text) = played(&app.ctx, "1833", 2).await;
    let mut doc = parse_document(&text).unwrap();
    doc.game.actions.pop();
    doc.action_turns.pop();
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("actions, the log has"), "{err}");
    doc.tables.get_mut("games").unwrap()[0]["next_seq"] = json!(doc.game.actions.len());
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("does not reproduce"), "{err}");
}

#[tokio::test]
async fn a_document_whose_turn_history_was_changed_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, text) = played(&app.ctx, "railroaded", 2).await;
    let mut doc = parse_document(&text).unwrap();
    let start = doc.tables["turns"][2]["start_state"].clone();
    doc.tables.get_mut("turns").unwrap()[1]["start_state"] = start;
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("start of turn 2"), "{err}");
}

#[tokio::test]
async fn a_document_with_a_column_this_server_lacks_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, text) = played(&app.ctx, "railroaded", 1).await;
    let mut doc = parse_document(&text).unwrap();
    doc.tables.get_mut("reports").unwrap()[0]["colour"] = json!("red");
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("(colour)"), "{err}");
    let mut doc = parse_document(&text).unwrap();
    doc.tables.get_mut("seats").unwrap()[0]["token_hash"] = json!("00");
    let err = refused(&app.ctx, &doc).await;
    assert!(err.contains("must not carry token_hash"), "{err}");
}

#[tokio::test]
async fn a_game_already_on_the_server_is_not_imported_twice() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (id, text) = played(&app.ctx, "railroaded", 1).await;
    let err = import(&app.ctx, &parse_document(&text).unwrap(), false).await.unwrap_err();
    assert!(err.to_string().contains(&format!("game {id} is already on this server")), "{err}");
}

#[test]
fn a_document_of_another_format_or_version_is_not_read() {
    assert!(matches!(parse_document("{}"), Err(ImportRefused::NotADocument(_))));
    assert!(matches!(parse_document("[1]"), Err(ImportRefused::NotADocument(_))));
}

fn console(pool: &PgPool, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .args(args)
        .env("DATABASE_URL", crate::helpers::database_url(pool))
        .env("STATIONMASTER_BASE_URL", "http://sm.test")
        .env("STATIONMASTER_SECRET_KEY", "test-key")
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[tokio::test]
async fn the_console_exports_a_game_and_imports_it_from_standard_input() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let (id, _) = played(&app.ctx, "railroaded", 1).await;
    let exported = console(&pool, &["game", "export", &id.to_string()], b"");
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let again = console(&pool, &["game", "import", "-"], &exported.stdout);
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(!again.status.success() && err.contains("already on this server"), "{err}");
    let unconfirmed = console(&pool, &["game", "import", "--new-id", "-"], &exported.stdout);
    let err = String::from_utf8_lossy(&unconfirmed.stderr);
    assert!(!unconfirmed.status.success() && err.contains("anna@example.org"), "RULING O21: {err}");
    let code = addresses(&parse_document(&String::from_utf8_lossy(&exported.stdout)).unwrap()).code;
    let args = ["--json", "game", "import", "--new-id", "--confirm-addresses", &code, "-"];
    let copy = console(&pool, &args, &exported.stdout);
    assert!(copy.status.success(), "{}", String::from_utf8_lossy(&copy.stderr));
    let out: Value = serde_json::from_slice(&copy.stdout).unwrap();
    assert_eq!(out["seats"].as_array().unwrap().len(), 4);
    assert!(out["seats"][0]["link"].as_str().unwrap().starts_with("http://sm.test/play/"));
    assert_eq!(games(&app.ctx).await, 2);
}
