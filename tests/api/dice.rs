//! Dice players can check (issue 17, docs/DICE.md): a game that rolls dice publishes the
//! commitment of a turn's dice when the turn opens and reveals the keys in its report; the reveal
//! matches the commitment. A game without dice says nothing of them.

use crate::db::test_db;
use crate::helpers::{create_game_on, spawn_app};
use chrono::Duration;
use stationmaster::engine::dice;
use stationmaster::service::{GameClock, Review};

fn commitment_in(text: &str, turn: i32) -> String {
    let tag = format!("Dice commitment for turn {turn}: ");
    let at =
        text.find(&tag).unwrap_or_else(|| panic!("no commitment for turn {turn} in:\n{text}")) + tag.len();
    text[at..at + 64].to_string()
}

#[tokio::test]
async fn a_dice_games_report_reveals_keys_that_match_the_commitment_made_when_the_turn_opened() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create_game_on(
        &app.ctx,
        "confederate-rails",
        serde_json::json!({}),
        Review::Auto,
        GameClock::default(),
    )
    .await;
    let welcome = app.outbox().await.into_iter().find(|m| m.kind == "welcome").unwrap();
    let committed = commitment_in(&welcome.body_text, 1);

    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let report = app.outbox().await.into_iter().find(|m| m.kind == "report").expect("turn 1 published");
    let text = report.body_text;
    let head = text.lines().find(|l| l.contains("Dice of turn 1 (commitment")).expect("the reveal");
    assert!(head.contains(&committed), "the reveal names the commitment made at the opening");
    let rest = head.rsplit("rest ").next().unwrap().trim().to_string();
    let keys: Vec<String> = text
        .lines()
        .filter_map(|l| {
            l.trim().strip_prefix("action ").and_then(|l| l.split_once(": ")).map(|(_, k)| k.to_string())
        })
        .collect();
    assert!(!keys.is_empty(), "one key per action played");
    let reveal = dice::Reveal { first_seq: 0, keys: keys.clone(), rest };
    assert!(dice::verify(&committed, &reveal), "the revealed keys and rest hash to the commitment");
    let next = commitment_in(&text, 2);
    assert_eq!(next, dice::commitment(g.seed, keys.len() as u64), "the next turn's commitment follows on");
}

#[tokio::test]
async fn a_game_without_dice_mentions_none() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    assert!(app.outbox().await.iter().all(|m| !m.body_text.contains("Dice")));
}
