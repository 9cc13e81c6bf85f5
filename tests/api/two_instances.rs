//! Two server instances on one database (issue 19): two routers, each with its own pool,
//! scheduler and outbox worker, as two processes would run them, playing whole games whose
//! deadlines fall in the same minute, with orders coming in at once through both instances'
//! API and web form and by mail (which both schedulers race to process). Every turn is
//! adjudicated once, every mail — reports included — reaches the SMTP server once, and every
//! order that was answered as stored is kept (docs/OPERATIONS.md).

use crate::db::test_db;
use crate::helpers::{TestApp, create_game_on, settings};
use axum::http::StatusCode;
use chrono::{Duration, Utc};
use futures_util::future::join_all;
use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;
use stationmaster::clock::Clock;
use stationmaster::domain::GameId;
use stationmaster::service::{CreatedGame, Ctx, GameClock, Review, Shutdown, inbound};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

/// Games played side by side; their deadlines fall in the same minute.
const GAMES: usize = 3;
/// Turns played at most before the test gives up on the games ending.
const MAX_TURNS: i32 = 60;

/// One instance: its own pool on the shared database, its router, its scheduler and outbox
/// worker.
async fn instance(pool: PgPool, clock: &Clock, smtp: &str, shutdown: &Shutdown) -> TestApp {
    let settings = stationmaster::config::Settings { smtp_url: Some(smtp.to_string()), ..settings() };
    let ctx = Ctx::new(pool, settings, clock.clone()).await.unwrap();
    let every = std::time::Duration::from_millis(50);
    tokio::spawn(stationmaster::scheduler::run(ctx.clone(), every, shutdown.clone()));
    let transport = stationmaster::mail::Transport::from_settings(&ctx.settings).unwrap();
    tokio::spawn(stationmaster::mail::run_worker(ctx.clone(), transport, every, shutdown.clone()));
    TestApp { router: stationmaster::web::router(ctx.clone()), ctx }
}

/// The real SMTP sink: every message it accepted, as (Message-ID, recipient).
type Received = Arc<Mutex<Vec<(String, String)>>>;

async fn smtp_sink() -> (String, Received) {
    let (port, mut server) = crate::helpers::smtp_server().await;
    let got: Received = Arc::default();
    let sink = got.clone();
    tokio::spawn(async move {
        while let Ok(m) = server.rx.recv().await {
            let raw = String::from_utf8_lossy(&m.raw_bytes().unwrap()).into_owned();
            let id = header(&raw, "Message-ID").unwrap_or_default();
            let to = m.envelope_recipients.join(",");
            sink.lock().unwrap().push((id, to));
        }
    });
    (format!("smtp://127.0.0.1:{port}"), got)
}

/// A header's value (unfolded) from a raw message.
fn header(raw: &str, name: &str) -> Option<String> {
    let head = raw.split("\r\n\r\n").next()?;
    let prefix = format!("{}:", name.to_ascii_lowercase());
    head.split("\r\n")
        .find(|l| l.to_ascii_lowercase().starts_with(&prefix))
        .map(|l| l[prefix.len()..].trim().trim_matches(['<', '>']).to_string())
}

/// An order sent, and how: what must be kept.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Sent {
    game: GameId,
    turn: i32,
    seat: u8,
    body: String,
}

/// A seat's sheet for a turn of play: each card in hand on any chain, else draw.
fn play_sheet(hand: &[String]) -> String {
    let mut lines: Vec<String> = hand
        .iter()
        .take(5)
        .map(|c| ["NORTH", "EAST", "SOUTH", "WEST"].map(|d| format!("PLAY {c} {d}")).join(" ELSE "))
        .collect();
    lines.push("DRAW".into());
    lines.join("\n")
}

/// Sends one seat's orders through one of the three channels, on one of the two instances, and
/// says what was stored (`None` for a mail: the schedulers process it later).
async fn send(apps: &[TestApp; 2], g: &CreatedGame, turn: i32, seat: usize, body: String, n: usize) -> Sent {
    let app = &apps[n % 2];
    let token = g.seats[seat].token.reveal();
    match n % 3 {
        0 => {
            let r = app.post_orders(&g.id, token, body.clone()).await;
            assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
        }
        1 => {
            let form = format!("orders={}&final=on", urlencode(&body));
            let r = app.post_form(&format!("/play/{token}/orders"), &form, None).await;
            assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        }
        _ => {
            let s = &g.seats[seat];
            let to = app.ctx.reply_address(g.id, stationmaster::engine::Seat(s.seat), 1);
            let raw = format!(
                "From: {} <{}>\r\nTo: {to}\r\nSubject: Orders\r\nMessage-ID: <t{turn}.s{seat}.{}@example.org>\r\n\r\n{}\r\n",
                s.player.name,
                s.player.email.as_str(),
                g.id,
                body.replace('\n', "\r\n")
            );
            let arrived = inbound::Arrived::new(raw.as_bytes(), "test");
            inbound::ingest(&app.ctx.pool, &[arrived], app.ctx.now()).await.unwrap();
        }
    }
    Sent { game: g.id, turn, seat: g.seats[seat].seat, body }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            b' ' => "+".into(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Waits (real time) until `done` holds, up to a minute.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut done: impl FnMut() -> F) {
    for _ in 0..1200 {
        if done().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("timed out waiting until {what}");
}

async fn count(pool: &PgPool, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(pool).await.unwrap()
}

#[tokio::test]
async fn two_instances_adjudicate_every_turn_once_send_every_mail_once_and_keep_every_order() {
    let (pool, _db) = test_db().await;
    let (smtp, received) = smtp_sink().await;
    // A fixed clock, moved by hand, that starts ahead of the database's: outbox rows are
    // stamped due by the database's clock.
    let clock = Clock::fixed(Utc::now() + Duration::minutes(10));
    let (switch, shutdown) = Shutdown::new();
    let other_pool = PgPoolOptions::new()
        .max_connections(10)
        .connect_with((*pool.connect_options()).clone())
        .await
        .unwrap();
    let apps = [
        instance(pool.clone(), &clock, &smtp, &shutdown).await,
        instance(other_pool, &clock, &smtp, &shutdown).await,
    ];
    let mut games = Vec::new();
    for i in 0..GAMES {
        let on = &apps[i % 2].ctx;
        games.push(
            create_game_on(on, "railroaded", serde_json::json!({}), Review::Auto, GameClock::default()).await,
        );
    }
    let db = &pool;
    let mut sent: Vec<Sent> = Vec::new();
    for turn in 1..=MAX_TURNS {
        let open: Vec<(GameId, Vec<i16>)> = sqlx::query_as(
            "SELECT g.id, t.acting_seats FROM games g JOIN turns t ON t.game_id = g.id AND t.number = g.current_turn \
             WHERE g.status = 'active' AND t.status = 'open'",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        if open.is_empty() {
            break;
        }
        let deadlines: BTreeSet<chrono::DateTime<Utc>> =
            sqlx::query_scalar("SELECT t.deadline FROM turns t WHERE t.status = 'open'")
                .fetch_all(&pool)
                .await
                .unwrap()
                .into_iter()
                .collect();
        assert_eq!(deadlines.len(), 1, "every open turn's deadline falls in the same minute: {deadlines:?}");
        // Each seat's orders, every seat of every game at once, over both instances.
        let mut sheets = Vec::new();
        for (id, acting) in &open {
            let gi = games.iter().position(|g| g.id == *id).unwrap();
            let g = &games[gi];
            let claims = if turn == 1 { apps[0].claim_orders(g).await } else { vec![None; 4] };
            for seat in acting.iter().map(|s| usize::try_from(*s).unwrap() - 1) {
                let body = match &claims[seat] {
                    Some(claim) => claim.clone(),
                    None if turn == 1 => continue,
                    None => play_sheet(
                        &apps[seat % 2].hand(&g.id, g.seats[seat].token.reveal(), g.seats[seat].seat).await,
                    ),
                };
                sheets.push((gi, seat, body));
            }
        }
        let sends = sheets.into_iter().enumerate().map(|(n, (gi, seat, body))| {
            let (apps, g) = (&apps, &games[gi]);
            async move { send(apps, g, turn, seat, body, n + gi + usize::try_from(turn).unwrap()).await }
        });
        sent.extend(join_all(sends).await);
        until("both schedulers processed the order mail", move || async move {
            count(db, "SELECT count(*) FROM inbound_messages WHERE status = 'new'").await == 0
        })
        .await;
        // Leases are taken on the instances' clocks (RULING O8: they must agree): a clock that
        // jumps two days while a mail is being sent would hand its row to the other instance.
        // Real clocks do not jump, so the test moves its clock only while no mail is in flight.
        until("the outbox is empty", move || async move {
            count(db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL").await == 0
        })
        .await;
        // The deadline passes for every game in the same minute; both schedulers wake.
        clock.advance(Duration::hours(48));
        for app in &apps {
            app.ctx.turn_wake.notify_one();
        }
        let now = clock.now();
        until("every due turn was closed", move || async move {
            let left: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM turns WHERE status <> 'published' AND NOT (status = 'open' AND deadline > $1)",
            )
            .bind(now)
            .fetch_one(db)
            .await
            .unwrap();
            left == 0
        })
        .await;
    }
    let finished = count(&pool, "SELECT count(*) FROM games WHERE status = 'finished'").await;
    assert_eq!(finished, GAMES as i64, "every game was played to its end");
    until("the outbox is empty", move || async move {
        count(db, "SELECT count(*) FROM outbox WHERE sent_at IS NULL").await == 0
    })
    .await;
    // Let a late double (if any) arrive before counting.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    switch.stop();

    // Every turn adjudicated once.
    let adjudicated: Vec<(GameId, i64)> = sqlx::query_as(
        "SELECT game_id, count(*) FROM audit_log WHERE action = 'turn adjudicated' GROUP BY game_id, (detail->>'turn')",
    )
    .fetch_all(&pool)
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let turns = count(&pool, "SELECT count(*) FROM turns WHERE status = 'published'").await;
    assert!(turns > 2 * GAMES as i64, "several turns per game: {turns}");
    assert_eq!(adjudicated.len() as i64, turns, "one adjudication per published turn");
    assert!(adjudicated.iter().all(|(_, n)| *n == 1), "a turn adjudicated twice: {adjudicated:?}");

    // Every mail (reports, welcome mails, answers to order mail, reminders) reached SMTP once.
    let outbox: Vec<(String, String)> =
        sqlx::query_as("SELECT message_id, kind FROM outbox").fetch_all(&pool).await.unwrap();
    let got = received.lock().unwrap().clone();
    let mut times: BTreeMap<&str, usize> = BTreeMap::new();
    for (id, _) in &got {
        *times.entry(id.as_str()).or_default() += 1;
    }
    let reports = outbox.iter().filter(|(_, kind)| kind == "report").count() as i64;
    assert_eq!(reports, turns * 4, "four reports per published turn");
    for (id, kind) in &outbox {
        assert_eq!(
            times.get(id.as_str()),
            Some(&1),
            "{kind} mail {id} reached the SMTP server {:?} times",
            times.get(id.as_str())
        );
    }
    assert_eq!(got.len(), outbox.len(), "nothing else was sent");

    // Every order kept: each one sent is a stored version, and nothing else is.
    let kept: Vec<(GameId, i32, i16, String)> =
        sqlx::query_as("SELECT game_id, turn, seat, body FROM order_versions")
            .fetch_all(&pool)
            .await
            .unwrap();
    let mut kept: Vec<Sent> = kept
        .into_iter()
        .map(|(game, turn, seat, body)| Sent {
            game,
            turn,
            seat: u8::try_from(seat).unwrap(),
            body: body.replace("\r\n", "\n").trim_end().to_string(),
        })
        .collect();
    kept.sort();
    let mut sent: Vec<Sent> =
        sent.into_iter().map(|s| Sent { body: s.body.trim_end().to_string(), ..s }).collect();
    sent.sort();
    assert_eq!(kept, sent);
}
