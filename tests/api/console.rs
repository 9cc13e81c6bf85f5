//! The GM console: the same binary's subcommands against a real database.

use crate::helpers::database_url;
use serde_json::Value;
use sqlx::PgPool;
use std::io::Write;
use std::process::{Command, Output};

fn run(db: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stationmaster"))
        .args(args)
        .env("DATABASE_URL", db)
        .env("STATIONMASTER_BASE_URL", "http://sm.test")
        // The test's own key: without one the binary would make (or read) the user's key file.
        .env("STATIONMASTER_SECRET_KEY", "test-key")
        .env("RUST_LOG", "warn")
        .output()
        .expect("the binary runs")
}

fn json(out: &Output) -> Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[sqlx::test(migrations = "./migrations")]
async fn the_console_creates_a_game_takes_orders_closes_publishes_shows_exports_and_replays(pool: PgPool) {
    let db = database_url(&pool);
    let mut args = vec![
        "game",
        "create",
        "--json",
        "--engine",
        "railroaded",
        "--name",
        "Console Line",
        "--gm",
        "gm@example.org",
        "--seed",
        "11",
        "--deadline",
        "2d",
    ];
    for p in crate::helpers::PLAYERS {
        args.extend(["--player", p]);
    }
    let created = json(&run(&db, &args));
    let game = created["game"].as_str().unwrap().to_string();
    assert_eq!(created["seats"].as_array().unwrap().len(), 4);
    assert!(created["seats"][0]["link"].as_str().unwrap().starts_with("http://sm.test/play/"));

    let mut file = tempfile_with("DRAW\n");
    let refused = run(&db, &["orders", "submit", "--game", &game, "--seat", "1", "--file", file.path()]);
    assert!(refused.status.success(), "DRAW parses; whether it is legal is the adjudication's business");
    file = tempfile_with("NONSENSE\n");
    let bad = run(&db, &["orders", "submit", "--game", &game, "--seat", "1", "--file", file.path()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("could not be understood"));

    let closed = json(&run(&db, &["turn", "close", "--game", &game, "--json"]));
    assert_eq!(closed["outcome"], "drafted");
    let published = json(&run(&db, &["turn", "publish", "--game", &game, "--json"]));
    assert_eq!(published["published"], 1);

    let public = json(&run(&db, &["game", "show", "--game", &game, "--json"]));
    assert_eq!(public["turn"], 2);
    assert!(public["view"]["seats"][0].get("hand").is_none());
    let private = json(&run(&db, &["game", "show", "--game", &game, "--seat", "2", "--json"]));
    assert!(private["view"]["seats"][1]["hand"].is_array());
    assert!(private["view"]["seats"][0].get("hand").is_none());

    let export = run(&db, &["game", "export", "--game", &game]);
    let log = tempfile_with(&String::from_utf8(export.stdout).unwrap());
    let replayed = json(&run(&db, &["replay", "--engine", "railroaded", "--log", log.path(), "--json"]));
    let mut conn = pool.acquire().await.unwrap();
    let id: uuid::Uuid = game.parse().unwrap();
    let stored = stationmaster::store::games::get_game(&mut conn, id).await.unwrap().unwrap();
    assert_eq!(replayed, stored.state);

    let unknown = run(&db, &["game", "show", "--game", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("not a game id"));
}

struct TempFile(std::path::PathBuf);

impl TempFile {
    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn tempfile_with(text: &str) -> TempFile {
    let path = std::env::temp_dir().join(format!("sm-test-{}.txt", uuid::Uuid::new_v4()));
    std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
    TempFile(path)
}
