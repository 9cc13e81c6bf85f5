//! What `game import` checks beyond orders, reports and the audit chain (issue 32, RULING O19):
//! drafts' event texts and line notes are played again from the log, and standing orders,
//! absences, timers and rollback archives are checked against the game, its log and its audit
//! chain. Each tampered document is refused naming the row, with nothing written.

use crate::db::test_db;
use crate::helpers::{PLAYERS, TestApp, spawn_app};
use crate::import_checks::{exported, import, refused, refused_as, rows};
use chrono::{DateTime, Duration, NaiveDate};
use serde_json::{Value, json};
use stationmaster::domain::{EmailAddress, Fallback, Mailbox, NmrPolicy};
use stationmaster::engine::Seat;
use stationmaster::orders::OrderText;
use stationmaster::service::audit::Actor;
use stationmaster::service::export::{GameDocument, ReportSource, export_document};
use stationmaster::service::{self, CloseOutcome, CreateGame, GameClock, Review, lifecycle};

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// A Railroaded game that used what the lifecycle offers: seat 2's standing orders played turn 1
/// for it, the GM recorded an absence for seat 3, and turn 1 was rolled back and played again —
/// exported while turn 2 is open (its reminders pending).
async fn lived(app: &TestApp) -> GameDocument {
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    let standing = OrderText::from_bytes(orders[1].as_deref().unwrap().as_bytes()).unwrap();
    lifecycle::set_standing_orders(&app.ctx, g.id, Seat(2), &standing).await.unwrap();
    lifecycle::add_absence(&app.ctx, g.id, Actor::Gm("gm@example.org"), 3, day(20), day(22)).await.unwrap();
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published");
    service::rollback::rollback(&app.ctx, g.id, "gm@example.org", 1, true).await.unwrap();
    service::close_turn(&app.ctx, g.id).await.unwrap();
    assert_eq!(app.turn(g.id, 1).await.status.as_str(), "published", "played again");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    export_document(&mut conn, g.id).await.unwrap()
}

/// A fresh server's lived game, tampered with by `tamper`, then imported: the refusal.
async fn lived_refused(tamper: impl FnOnce(&mut GameDocument)) -> String {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let mut doc = lived(&app).await;
    tamper(&mut doc);
    refused(&app, &doc).await
}

/// A fresh server's exported game with its turn 1 draft tampered with, imported with this
/// server's reports (so no report of the document shows the change): the refusal.
async fn draft_refused(tamper: impl FnOnce(&mut Value)) -> String {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (_, mut doc) = exported(&app).await;
    tamper(&mut rows(&mut doc, "turns")[0]["draft"]);
    // With the document's reports (the default) a draft's words are checked against the replay;
    // with `--rerender-reports` they are replaced by this server's (RULING O20, amended), which
    // `import_rerender` tests.
    refused_as(&app, &doc, ReportSource::Document).await
}

const PHISH: &str = " Claim your prize: http://evil.example/win";

/// Asserts that a refusal says `what`.
fn says(err: &str, what: &str) {
    assert!(err.contains(what), "{err}");
}

fn append(text: &mut Value, more: &str) {
    *text = json!(format!("{}{more}", text.as_str().unwrap()));
}

#[tokio::test]
async fn a_game_with_standing_orders_an_absence_timers_and_a_rollback_imports() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let doc = lived(&app).await;
    for table in ["standing_orders", "absences", "timers", "rollbacks"] {
        assert!(!doc.tables[table].is_empty(), "the game has {table}");
    }
    let notes = &doc.tables["turns"][0]["draft"]["notes"]["2"][0]["note"];
    assert!(notes.as_str().unwrap().contains("standing orders were used"), "{notes}");
    import(&app, &doc).await.expect("an untampered document imports");
}

/// An 1835 game (the whole-game fixture's seed) whose every move is the GM's answer (NMR
/// fallback "ask the GM"), each the fixture's next action, for `turns` turns — exported.
async fn answered_1835(app: &TestApp, turns: usize) -> GameDocument {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/1835/whole_game.jsonl");
    let text = std::fs::read_to_string(fixture).unwrap();
    let log: Vec<Value> =
        text.lines().filter(|l| l.starts_with('{')).map(|l| serde_json::from_str(l).unwrap()).collect();
    let nmr_policy = NmrPolicy { fallback: Fallback::AskGm, ..NmrPolicy::default() };
    let new = CreateGame {
        engine: "1835".into(),
        name: "Long Line".into(),
        gm: EmailAddress::parse("gm@example.org").unwrap(),
        players: PLAYERS.iter().map(|p| Mailbox::parse(p).unwrap()).collect(),
        seed: Some(14),
        turn_length: "48h".parse().unwrap(),
        review: Review::Auto,
        options: json!({}),
        clock: GameClock { nmr_policy, ..GameClock::default() },
    };
    let g = service::create_game(&app.ctx, new).await.unwrap();
    let mut next = log.iter();
    for _ in 0..turns {
        let mut out = service::close_turn(&app.ctx, g.id).await.unwrap();
        while let CloseOutcome::Asked { question, .. } = out {
            let want = &next.next().unwrap()["action"];
            let i = question.candidates.iter().position(|c| c.action == *want).expect("a legal move");
            out = service::questions::answer_question(&app.ctx, g.id, "gm@example.org", i + 1).await.unwrap();
        }
        assert!(matches!(out, CloseOutcome::Published { .. }), "{out:?}");
    }
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    export_document(&mut conn, g.id).await.unwrap()
}

#[tokio::test]
async fn an_1835_game_played_by_the_gms_answers_imports_its_drafts_played_again() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let doc = answered_1835(&app, 2).await;
    let answers = &doc.tables["turns"][0]["gm_answers"];
    assert!(answers.as_array().unwrap().len() > 10, "the GM answered turn 1's moves: {answers}");
    import(&app, &doc).await.expect("an untampered document imports");
}

#[tokio::test]
async fn a_draft_event_changed_in_the_document_is_refused_naming_the_turn_and_the_event() {
    let mut at = 0;
    let err = draft_refused(|draft| {
        let events = draft["events"].as_array_mut().unwrap();
        at = events.len();
        append(&mut events[at - 1]["public"], PHISH);
    })
    .await;
    says(&err, &format!("turns row 1 (turn 1): its event {at} reads "));
    says(&err, "evil.example"); // the refusal shows what differs
}

#[tokio::test]
async fn a_line_note_changed_in_the_document_is_refused_naming_the_turn_and_the_note() {
    let err = draft_refused(|draft| append(&mut draft["notes"]["1"][0]["note"], PHISH)).await;
    says(&err, "turns row 1 (turn 1): its note 1 for seat 1 (line ");
    says(&err, "evil.example");
}

#[tokio::test]
async fn a_standing_order_that_is_no_order_of_the_game_is_refused_naming_the_row() {
    let err = lived_refused(|doc| rows(doc, "standing_orders")[0]["body"] = json!("FLY TO THE MOON")).await;
    says(&err, "standing_orders row 1 (seat 2): its line 1 does not read as orders of this game");
}

#[tokio::test]
async fn a_standing_order_the_audit_log_does_not_record_is_refused_naming_the_row() {
    let err = lived_refused(|doc| {
        let mut added = doc.tables["standing_orders"][0].clone();
        added["seat"] = json!(3);
        rows(doc, "standing_orders").push(added);
    })
    .await;
    says(&err, "standing_orders row 2 (seat 3): the audit log does not record them being set");
}

#[tokio::test]
async fn an_absence_changed_in_the_document_is_refused_naming_the_row() {
    let err = lived_refused(|doc| rows(doc, "absences")[0]["last_day"] = json!("2026-03-29")).await;
    says(&err, "absences row 1 (seat 3): it is not the absence audit_log entry ");
}

#[tokio::test]
async fn an_absence_of_no_seat_is_refused_naming_the_row() {
    let err = lived_refused(|doc| rows(doc, "absences")[0]["seat"] = json!(9)).await;
    says(&err, "absences row 1 (seat 9): seat 9 is not a seat of the game");
}

/// The position (from 1) of a reminder still to run.
fn pending_reminder(doc: &GameDocument) -> usize {
    let at =
        doc.tables["timers"].iter().position(|t| t["kind"] == json!("reminder") && t["done_at"].is_null());
    at.expect("turn 2 has a reminder to come") + 1
}

#[tokio::test]
async fn a_reminder_moved_in_the_document_is_refused_naming_the_timer() {
    let mut row = 0;
    let err = lived_refused(|doc| {
        row = pending_reminder(doc);
        let due = &mut rows(doc, "timers")[row - 1]["due_at"];
        let moved = DateTime::parse_from_rfc3339(due.as_str().unwrap()).unwrap() - Duration::hours(30);
        *due = json!(moved.to_rfc3339());
    })
    .await;
    says(
        &err,
        &format!("timers row {row} (turn 2, reminder): it is not due its offset before its turn's deadline"),
    );
}

#[tokio::test]
async fn a_timer_of_no_turn_is_refused_naming_the_timer() {
    let mut row = 0;
    let err = lived_refused(|doc| {
        row = pending_reminder(doc);
        rows(doc, "timers")[row - 1]["turn"] = json!(7);
    })
    .await;
    says(&err, &format!("timers row {row} (turn 7, reminder): its turn is not a turn of the game"));
}

#[tokio::test]
async fn a_rollback_archive_with_a_changed_action_is_refused_naming_the_rollback() {
    let err = lived_refused(|doc| {
        let archive = &mut rows(doc, "rollbacks")[0]["archive"];
        let actions = archive["actions"].as_array_mut().unwrap();
        assert!(actions.len() > 1, "turn 1 played several actions");
        actions[0]["action"] = actions[1]["action"].clone();
    })
    .await;
    says(&err, "rollbacks row 1 (back to turn 1): its ");
}

#[tokio::test]
async fn a_rollback_archive_of_other_turns_than_the_audit_log_says_is_refused_naming_the_rollback() {
    let err = lived_refused(|doc| {
        let turns = rows(doc, "rollbacks")[0]["archive"]["turns"].as_array_mut().unwrap();
        turns.pop();
    })
    .await;
    says(&err, "rollbacks row 1 (back to turn 1): it archives turns [1], not the turns [1, 2] rolled back");
}
