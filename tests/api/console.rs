//! The GM console: the same binary's subcommands against a real database.

use crate::db::test_db;
use crate::helpers::database_url;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output};

pub(crate) fn run(db: &str, args: &[&str]) -> Output {
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

/// `replay --engine 1835 --ledger` of a JSONL log.
fn ledger_1835(db: &str, players: &str, options: &str, seed: &str, log: &str) -> Output {
    let args = ["--players", players, "--options", options, "--seed", seed, "--log", log, "--ledger"];
    run(db, &[&["replay", "--engine", "1835"][..], &args[..]].concat())
}

pub(crate) fn json(out: &Output) -> Value {
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[tokio::test]
async fn the_console_creates_a_game_takes_orders_closes_publishes_shows_exports_and_replays() {
    let (pool, _db) = test_db().await;
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
    let referrals = json(&run(&db, &["game", "referrals", "--game", &game, "first", "--json"]));
    assert_eq!(referrals["referrals"], "first", "RULINGS S18: the GM chose not to be asked");
    let bad = run(&db, &["game", "referrals", "--game", &game, "maybe"]);
    assert_eq!(bad.status.code(), Some(2), "only ask or first");

    let mut file = tempfile_with("DRAW\n");
    let refused = run(&db, &["orders", "submit", "--game", &game, "--seat", "1", "--file", file.path()]);
    assert!(refused.status.success(), "DRAW parses; whether it is legal is the adjudication's business");
    file = tempfile_with("NONSENSE\n");
    let bad = run(&db, &["orders", "submit", "--game", &game, "--seat", "1", "--file", file.path()]);
    assert_eq!(bad.status.code(), Some(2), "no line of it is readable (RULING S1)");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("none of their lines could be understood"));
    // HR 16: a line not understood beside a readable order is stored and marked.
    file = tempfile_with("DRAW\nNONSENSE\n");
    let partial = run(&db, &["orders", "submit", "--game", &game, "--seat", "1", "--file", file.path()]);
    assert!(partial.status.success(), "{}", String::from_utf8_lossy(&partial.stderr));
    let said = String::from_utf8_lossy(&partial.stdout);
    assert!(said.contains("1 line(s) not understood") && said.contains("NOT UNDERSTOOD"), "{said}");

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
    let id: stationmaster::domain::GameId = game.parse().unwrap();
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

#[tokio::test]
async fn every_console_command_about_a_game_that_does_not_exist_says_so() {
    let (pool, _db) = test_db().await;
    let db = database_url(&pool);
    let game = uuid::Uuid::new_v4().to_string();
    let file = tempfile_with("DRAW\n");
    let g = game.as_str();
    let commands: Vec<Vec<&str>> = vec![
        vec!["game", "show", "--game", g],
        vec!["game", "show", "--game", g, "--seat", "1"],
        vec!["game", "export", "--game", g],
        vec!["game", "pause", "--game", g],
        vec!["game", "resume", "--game", g],
        vec!["game", "correct", "--game", g, "--patch", "{}", "--note", "typo"],
        vec!["game", "audit", "--game", g],
        vec!["game", "referrals", "--game", g, "first"],
        vec!["orders", "submit", "--game", g, "--seat", "1", "--file", file.path()],
        vec!["turn", "close", "--game", g],
        vec!["turn", "publish", "--game", g],
        vec!["turn", "answer", "--game", g, "--choice", "1"],
        vec!["turn", "extend", "--game", g, "--by", "1h"],
        vec!["turn", "rollback", "--game", g, "--to", "1"],
        vec!["turn", "deadline", "--game", g, "--at", "2030-01-01T20:00:00Z"],
        vec!["seat", "replace", "--game", g, "--seat", "1", "--player", "Ann <ann@example.org>"],
        vec!["seat", "open", "--game", g, "--seat", "1"],
        vec!["seat", "away", "--game", g, "--seat", "1", "--from", "2030-01-01", "--to", "2030-01-02"],
        vec!["seat", "approve", "--game", g, "--seat", "1"],
        vec!["seat", "decline", "--game", g, "--seat", "1"],
        vec!["seat", "zone", "--game", g, "--seat", "1", "--zone", "Europe/Berlin"],
        vec!["seat", "standing", "--game", g, "--seat", "1", "--file", file.path()],
        vec!["mail", "undelivered", "--game", g],
        vec!["mail", "resend", "--game", g, "--all"],
    ];
    let mut wrong = Vec::new();
    for args in &commands {
        let out = run(&db, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(2) || !stderr.contains(&format!("there is no game {game}")) {
            wrong.push(format!("{}: {:?} {}", args[..2].join(" "), out.status.code(), stderr.trim()));
        }
    }
    assert!(wrong.is_empty(), "commands that did not say the game does not exist:\n{}", wrong.join("\n"));
}

/// Who the audit log says published turn 1 of a game.
async fn publisher(ctx: &stationmaster::service::Ctx, game: stationmaster::domain::GameId) -> String {
    let log = stationmaster::service::audit::audit_log(ctx, game).await.unwrap();
    let entry = log.entries.iter().find(|e| e.action == "turn published").expect("turn 1 is published");
    entry.actor.clone()
}

#[tokio::test]
async fn a_turn_the_gm_publishes_is_logged_as_the_gms_act_and_one_the_server_publishes_as_the_servers() {
    let (pool, _db) = test_db().await;
    use stationmaster::service::{self, Review};
    let db = database_url(&pool);
    let app = crate::helpers::spawn_app(pool).await;

    let on_web = app.create_game(Review::Gm).await;
    let email = stationmaster::domain::EmailAddress::parse("gm@example.org").unwrap();
    service::gm_auth::set_password(&app.ctx, &email, "correct horse battery").await.unwrap();
    let r = app.post_form("/gm/login", "email=gm%40example.org&password=correct+horse+battery", None).await;
    let cookie = r.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    for step in ["close", "publish"] {
        let r = app.post_form(&format!("/gm/games/{}/{step}", on_web.id), "", Some(&cookie)).await;
        assert_eq!(r.status, axum::http::StatusCode::SEE_OTHER, "{step}: {}", r.body);
    }
    assert_eq!(publisher(&app.ctx, on_web.id).await, "gm:gm@example.org");

    let on_console = app.create_game(Review::Gm).await;
    let id = on_console.id.to_string();
    for step in ["close", "publish"] {
        let out = run(&db, &["turn", step, "--game", &id]);
        assert!(out.status.success(), "{step}: {}", String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(publisher(&app.ctx, on_console.id).await, "gm:console");

    let automatic = app.create_game(Review::Auto).await;
    service::close_turn(&app.ctx, automatic.id).await.unwrap();
    assert_eq!(publisher(&app.ctx, automatic.id).await, "server");
}

#[tokio::test]
async fn a_refused_ledger_line_prints_the_completed_rounds_then_the_error_and_fails() {
    let (pool, _db) = test_db().await;
    let db = database_url(&pool);
    let log = tempfile_with(concat!(
        "{\"seat\":1,\"action\":{\"type\":\"buy_item\",\"item\":\"NF\"}}\n",
        "{\"seat\":2,\"action\":{\"type\":\"buy_item\",\"item\":\"M1\"}}\n",
        "{\"seat\":3,\"action\":{\"type\":\"pass\"}}\n",
        "{\"seat\":4,\"action\":{\"type\":\"pass\"}}\n",
        "{\"seat\":1,\"action\":{\"type\":\"pass\"}}\n",
        "{\"seat\":2,\"action\":{\"type\":\"pass\"}}\n",
        "{\"seat\":1,\"action\":{\"type\":\"buy_item\",\"item\":\"Z9\"}}\n",
    ));
    let options = r#"{"variant": "standard", "empty_operating_rounds": true}"#;
    let out = ledger_1835(&db, "A,B,C,D", options, "0", log.path());
    assert_eq!(out.status.code(), Some(2), "a refused line fails the replay");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("round,entity,cash\n"), "{stdout}");
    assert!(stdout.contains("SR1,A,375\n") && stdout.contains("OR1.1,A,380\n"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 7: "), "{stderr}");
}

#[tokio::test]
async fn the_whole_1835_fixture_game_replayed_twice_prints_identical_ledgers_to_the_final_ranking() {
    let (pool, _db) = test_db().await;
    let db = database_url(&pool);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/1835/");
    let game: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}whole_game.json")).unwrap()).unwrap();
    let players: Vec<&str> =
        game["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    let (players, options, seed) = (players.join(","), game["options"].to_string(), game["seed"].to_string());
    let log = format!("{dir}whole_game.jsonl");
    let ledger = || {
        let out = ledger_1835(&db, &players, &options, &seed, &log);
        assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let (first, second) = (ledger(), ledger());
    assert_eq!(first, second, "the same log gives the same ledger");
    assert!(first.starts_with("round,entity,cash\nSR1,"), "{}", &first[..200.min(first.len())]);
    let finals = first.lines().filter(|l| l.starts_with("final,")).count();
    assert_eq!(finals, players.split(',').count(), "one final line per player:\n{first}");
}

#[test]
fn game_create_help_names_every_engine_and_its_player_counts() {
    let out = run("postgres://unused", &["game", "create", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{help}");
    for engine in stationmaster::registry::engines() {
        let (lo, hi) = (engine.seat_counts().start().to_string(), engine.seat_counts().end().to_string());
        let counts = if lo == hi {
            format!("{} ({lo} players)", engine.slug())
        } else {
            format!("{} ({lo} to {hi})", engine.slug())
        };
        assert!(help.contains(&counts), "`game create --help` should say \"{counts}\":\n{help}");
    }
}
