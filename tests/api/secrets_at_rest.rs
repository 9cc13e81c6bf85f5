//! No live secret at rest (issue 32, RULINGS P8, O9, O14): what a database dump or a game export
//! holds of a game that played turns — its mail (queued and sent), its reports and its rollback
//! archives — opens no seat page and signs no reply; the mail that reaches the player still does.

use crate::db::test_db;
use crate::helpers::{TestApp, create_game_on, smtp_server, spawn_app};
use chrono::{Duration, TimeDelta, Utc};
use serde_json::json;
use sqlx::PgPool;
use stationmaster::domain::{NmrPolicy, ReplyAddress};
use stationmaster::engine::Seat;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::{self, CreatedGame, Ctx, GameClock, Review};
use stationmaster::store::outbox::{self, FailureKind, NewMail};

/// Every text and JSON column of the tables that hold mail and reports, as `pg_dump` writes them.
pub(crate) async fn dump(pool: &PgPool) -> String {
    let mut all = Vec::new();
    for sql in
        ["SELECT t::text FROM outbox t", "SELECT t::text FROM reports t", "SELECT t::text FROM rollbacks t"]
    {
        let rows: Vec<String> = sqlx::query_scalar(sql).fetch_all(pool).await.unwrap();
        all.extend(rows);
    }
    all.join("\n")
}

/// The secrets of a game's seats (for token generation `generation`) and of its GM: each seat's
/// token and its reply address's tag, the GM reply address's tag.
pub(crate) fn secrets(ctx: &Ctx, g: &CreatedGame, generation: i32) -> Vec<String> {
    let tag = |address: &str| ReplyAddress::parse(address).map(|a| a.tag).unwrap();
    let mut out = Vec::new();
    for s in &g.seats {
        out.push(ctx.seat_token(g.id, Seat(s.seat), generation).reveal().to_string());
        out.push(tag(&ctx.reply_address(g.id, Seat(s.seat), generation)));
    }
    let gm = service::turn::gm_address::gm_reply_address(ctx, g.id, "gm@example.org");
    out.push(gm.split_once('.').and_then(|(_, rest)| rest.split_once('@')).unwrap().0.to_string());
    out
}

/// The order links (`/play/` and a 52-character token) in `text`.
pub(crate) fn links(text: &str) -> Vec<String> {
    let token = |rest: &str| {
        let t: String =
            rest.chars().take_while(|c| c.is_ascii_lowercase() || ('2'..='7').contains(c)).collect();
        (t.len() == 52).then_some(t)
    };
    text.match_indices("/play/").filter_map(|(i, _)| token(&text[i + 6..])).collect()
}

/// Asserts that `text` holds none of `secrets` and no order link at all.
pub(crate) fn assert_clean(text: &str, secrets: &[String], what: &str) {
    for s in secrets {
        assert!(!text.contains(s.as_str()), "{what} holds the secret {s}");
    }
    assert_eq!(links(text), Vec::<String>::new(), "{what} holds order links");
}

/// A Railroaded game played two turns on defaults, then rolled back to turn 2 (turn 1's reports
/// stay, turn 2's are archived).
pub(crate) async fn played_and_rolled_back(app: &TestApp) -> CreatedGame {
    let g = app.create_game(Review::Auto).await;
    for _ in 0..2 {
        app.ctx.clock.advance(Duration::hours(48));
        app.tick().await;
    }
    service::turn::rollback::rollback(&app.ctx, g.id, "gm@example.org", 2, true).await.unwrap();
    g
}

/// A game whose GM is asked a question by mail (the mail carries the GM's reply address).
pub(crate) async fn asking_the_gm(app: &TestApp) -> CreatedGame {
    let clock = GameClock { nmr_policy: NmrPolicy::GM_DECIDES, ..GameClock::default() };
    let g = app.create_game_with(Review::Gm, clock).await;
    let orders = app.claim_orders(&g).await;
    app.submit(&g, 0, orders[0].as_deref().unwrap(), false).await;
    app.ctx.clock.advance(Duration::hours(49));
    app.tick().await;
    assert!(app.stored_outbox().await.iter().any(|m| m.game_id == Some(g.id) && m.kind == "gm-alert"));
    g
}

#[tokio::test]
async fn a_dump_after_turns_mail_and_a_rollback_holds_no_live_link_yet_the_mail_sent_still_opens_the_seat() {
    let (pool, _db) = test_db().await;
    let (port, mut server) = smtp_server().await;
    let app = spawn_app(pool.clone()).await;
    let g = played_and_rolled_back(&app).await;
    let asked = asking_the_gm(&app).await;
    let transport = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    while deliver_due(&app.ctx, &transport, Utc::now()).await.unwrap().claimed > 0 {}

    let stored = dump(&pool).await;
    assert!(stored.contains("[your private order link]"), "the reports are there, with the placeholder");
    let rollbacks: i64 = sqlx::query_scalar("SELECT count(*) FROM rollbacks").fetch_one(&pool).await.unwrap();
    assert_eq!(rollbacks, 1);
    let mut all = secrets(&app.ctx, &g, 1);
    all.extend(secrets(&app.ctx, &asked, 1));
    assert_clean(&stored, &all, "the dump of outbox, reports and rollbacks");

    // What reached the SMTP server carries the seat's own working link and reply address.
    let mut received = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_millis(1500), server.rx.recv()).await
    {
        received.push(m.raw_bytes().unwrap());
    }
    let anna = g.seats[0].player.email.to_string();
    let report = received
        .iter()
        .filter_map(|raw| mail_parser::MessageParser::default().parse(raw.as_slice()))
        .find(|m| {
            m.subject().is_some_and(|s| s.starts_with("[Test Line] Turn 1 result"))
                && m.to().and_then(|a| a.first()).and_then(|a| a.address()) == Some(anna.as_str())
        })
        .expect("Anna's report of turn 1 arrived");
    let text = report.body_text(0).unwrap().into_owned();
    assert_eq!(links(&text), vec![g.seats[0].token.reveal().to_string()], "{text}");
    let page = app.get(&format!("/play/{}", links(&text)[0])).await;
    assert_eq!(page.status, 200, "the mailed link opens the seat page");
    assert!(page.body.contains("Anna"), "{}", page.body);
    let reply_to = report.reply_to().and_then(|a| a.first()).and_then(|a| a.address()).unwrap();
    assert_eq!(reply_to, app.ctx.reply_address(g.id, Seat(1), 1), "the mailed reply address is the seat's");
    let question = received
        .iter()
        .filter_map(|raw| mail_parser::MessageParser::default().parse(raw.as_slice()))
        .find(|m| m.subject().is_some_and(|s| s.contains("a decision for you")))
        .expect("the GM's question arrived");
    let gm = question.reply_to().and_then(|a| a.first()).and_then(|a| a.address()).unwrap().to_string();
    assert_eq!(gm, service::turn::gm_address::gm_reply_address(&app.ctx, asked.id, "gm@example.org"));
    server.stop();
}

#[tokio::test]
async fn the_seat_page_and_feed_show_a_stored_report_with_the_readers_own_link() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    app.tick().await;
    let t = g.seats[1].token.reveal();
    for path in [format!("/play/{t}/reports/1"), format!("/play/{t}/feed.atom"), format!("/play/{t}")] {
        let page = app.get(&path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(!page.body.contains("[your private order link]"), "{path}: {}", page.body);
        assert!(page.body.contains(&g.seats[1].link), "{path} shows Bert his own link: {}", page.body);
    }
}

#[tokio::test]
async fn an_export_of_every_engine_holds_no_seat_token_and_no_reply_address() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    for engine in stationmaster::registry::engines() {
        let g = create_game_on(&app.ctx, engine.slug(), json!({}), Review::Auto, GameClock::default()).await;
        app.ctx.clock.advance(Duration::hours(48));
        app.tick().await;
        let mut conn = app.ctx.pool.acquire().await.unwrap();
        let doc = service::export::export_document(&mut conn, g.id).await.unwrap();
        let text = serde_json::to_string(&doc).unwrap();
        assert!(!doc.tables["reports"].is_empty(), "{}: a turn was published", engine.slug());
        assert_clean(&text, &secrets(&app.ctx, &g, 1), &format!("the export of a {} game", engine.slug()));
        assert!(!text.contains("orders+"), "{}: no reply address", engine.slug());
    }
}

/// A mail for the purge test, sent at `sent` if given.
async fn mail_sent(app: &TestApp, key: &str, sent: Option<TimeDelta>) -> i64 {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let m = NewMail {
        idempotency_key: key.into(),
        game_id: None,
        kind: "report".into(),
        to_addr: "anna@example.org".into(),
        to_name: None,
        subject: key.into(),
        body_text: "Anna's hand: 7H 9C".into(),
        body_html: Some("<p>Anna's hand</p>".into()),
        message_id: format!("{key}@sm.test"),
        in_reply_to: None,
        reply_to: None,
        seat: None,
        token_generation: None,
        calendar: Some("BEGIN:VCALENDAR".into()),
    };
    assert!(outbox::enqueue(&mut conn, &m).await.unwrap());
    let id = outbox::list_recent(&mut conn, 1).await.unwrap()[0].id;
    if let Some(ago) = sent {
        assert!(outbox::mark_sent(&mut conn, id, app.ctx.now() - ago).await.unwrap());
    }
    id
}

#[tokio::test]
async fn the_retention_purge_empties_sent_bodies_older_than_the_setting_and_keeps_the_rest() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    assert_eq!(app.ctx.settings.mail_keep_days, 14);
    let old = mail_sent(&app, "old", Some(TimeDelta::days(15))).await;
    let recent = mail_sent(&app, "recent", Some(TimeDelta::days(13))).await;
    let waiting = mail_sent(&app, "waiting", None).await;
    let given_up = mail_sent(&app, "given-up", None).await;
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let at = app.ctx.now() - TimeDelta::days(20);
    outbox::mark_failed(&mut conn, given_up, at, "550 no such user", FailureKind::Refused, None)
        .await
        .unwrap();

    assert_eq!(stationmaster::mail::retention::purge_sent(&app.ctx).await.unwrap(), 1);
    let row = |id| {
        let pool = app.ctx.pool.clone();
        async move { outbox::get(&mut pool.acquire().await.unwrap(), id).await.unwrap().unwrap() }
    };
    let purged = row(old).await;
    assert_eq!((purged.body_text.as_str(), &purged.body_html, &purged.calendar), ("", &None, &None));
    assert_eq!(purged.body_purged_at, Some(app.ctx.now()));
    assert_eq!(purged.subject, "old", "the row stays, only its body goes");
    for id in [recent, waiting, given_up] {
        let kept = row(id).await;
        assert_eq!(kept.body_text, "Anna's hand: 7H 9C", "{}", kept.subject);
        assert!(kept.body_html.is_some() && kept.calendar.is_some() && kept.body_purged_at.is_none());
    }
    assert_eq!(stationmaster::mail::retention::purge_sent(&app.ctx).await.unwrap(), 0, "once only");
}
