//! What `game import` could not verify is said plainly (issue 32, RULING O22): a game with a
//! rollback archive and timers that already ran is imported, and the answer names those rows
//! instead of accepting them in silence.

use crate::db::test_db;
use crate::helpers::spawn_app;
use crate::import_checks::import;
use crate::secrets_at_rest::played_and_rolled_back;
use stationmaster::service::export::export_document;

#[tokio::test]
async fn an_import_names_the_rows_it_kept_without_verifying_them() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = played_and_rolled_back(&app).await;
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let doc = export_document(&mut conn, g.id).await.unwrap();
    let archives = doc.tables["rollbacks"].len();
    assert!(archives > 0, "the game has a rollback archive");
    let done = doc.tables["timers"].iter().filter(|t| !t["done_at"].is_null()).count();

    let imported = import(&app, &doc).await.unwrap();
    let said = imported.not_verified.join("\n");
    for row in 1..=archives {
        assert!(said.contains(&format!("rollbacks row {row}: its archived turns' events")), "{said}");
    }
    assert_eq!(said.matches(": it already ran;").count(), done, "{said}");
    assert!(!said.contains("audit_log:"), "the chain tells this game's whole story: {said}");
}
