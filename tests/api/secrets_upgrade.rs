//! Upgrading a database written before RULING P8: its outbox, reports and rollback archives hold
//! live links and signed reply addresses. Migration 0014 rewrites them to placeholders — the
//! dump holds none afterwards — and gives each queued mail back the seat it is for, so it still
//! goes out with a working link; a replaced player's old mail never gets the new player's link.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use crate::secrets_at_rest::{asking_the_gm, assert_clean, dump, links, played_and_rolled_back, secrets};
use stationmaster::domain::Mailbox;
use stationmaster::engine::Seat;
use stationmaster::service::mail_secrets::{GM_REPLY_TO, SEAT_LINK, SEAT_REPLY_TO, as_sent};
use stationmaster::service::{Ctx, lifecycle, turn::gm_address::gm_reply_address};
use stationmaster::store::outbox::OutboxRow;

/// Writes every stored mail, report and archive back the way the server wrote them before: the
/// seat's live link where the placeholder is, the signed address as Reply-To, no seat named.
async fn write_the_old_way(app: &TestApp) {
    let ctx: &Ctx = &app.ctx;
    let link = |game, seat, generation| ctx.seat_link(&ctx.seat_token(game, seat, generation));
    for m in app.stored_outbox().await {
        let (text, reply_to) = match (m.game_id, m.seat, m.token_generation) {
            (Some(game), Some(seat), Some(generation)) => {
                (link(game, seat, generation), Some(ctx.reply_address(game, seat, generation)))
            }
            (Some(game), _, _) if m.reply_to.as_deref() == Some(GM_REPLY_TO) => {
                (SEAT_LINK.to_string(), Some(gm_reply_address(ctx, game, &m.to_addr)))
            }
            _ => (SEAT_LINK.to_string(), m.reply_to.clone()),
        };
        sqlx::query(
            "UPDATE outbox SET body_text = replace(body_text, $2, $3), body_html = replace(body_html, $2, $3), \
             reply_to = $4, seat = NULL, token_generation = NULL WHERE id = $1",
        )
        .bind(m.id)
        .bind(SEAT_LINK)
        .bind(text)
        .bind(reply_to)
        .execute(&ctx.pool)
        .await
        .unwrap();
    }
    let seats: Vec<(stationmaster::domain::GameId, Seat)> =
        sqlx::query_as("SELECT game_id, seat FROM reports").fetch_all(&ctx.pool).await.unwrap();
    for (game, seat) in seats {
        sqlx::query(
            "UPDATE reports SET body_text = replace(body_text, $3, $4), body_html = replace(body_html, $3, $4) \
             WHERE game_id = $1 AND seat = $2",
        )
        .bind(game)
        .bind(seat)
        .bind(SEAT_LINK)
        .bind(link(game, seat, 1))
        .execute(&ctx.pool)
        .await
        .unwrap();
        sqlx::query(
            "UPDATE rollbacks SET archive = replace(archive::text, $2, $3)::jsonb WHERE game_id = $1",
        )
        .bind(game)
        .bind(SEAT_LINK)
        .bind(link(game, seat, 1))
        .execute(&ctx.pool)
        .await
        .unwrap();
    }
}

/// The stored mail to `to` with `subject` in it.
async fn mail_to(app: &TestApp, to: &str, subject: &str) -> OutboxRow {
    let rows = app.stored_outbox().await;
    rows.into_iter().find(|m| m.to_addr == to && m.subject.contains(subject)).unwrap()
}

#[tokio::test]
async fn the_upgrade_leaves_no_live_link_in_a_dump_and_queued_mail_still_carries_a_working_one() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = played_and_rolled_back(&app).await;
    let asked = asking_the_gm(&app).await;
    let eve = Mailbox::parse("Eve <eve@example.org>").unwrap();
    lifecycle::replace_player(&app.ctx, g.id, "gm@example.org", 4, &eve).await.unwrap();
    write_the_old_way(&app).await;
    let mut all = secrets(&app.ctx, &g, 1);
    all.extend(secrets(&app.ctx, &g, 2));
    all.extend(secrets(&app.ctx, &asked, 1));
    let before = dump(&pool).await;
    assert!(links(&before).len() > 20, "the old way stored live links");
    assert!(before.contains(&app.ctx.reply_address(g.id, Seat(1), 1)));

    sqlx::raw_sql(include_str!("../../migrations/0014_stored_secrets.sql")).execute(&pool).await.unwrap();
    assert_clean(&dump(&pool).await, &all, "the dump after the upgrade");

    // Anna's queued report is hers again: filled when sent, with her live link and address.
    let report = mail_to(&app, "anna@example.org", "Turn 1 result").await;
    assert_eq!((report.seat, report.token_generation), (Some(Seat(1)), Some(1)));
    assert_eq!(report.reply_to.as_deref(), Some(SEAT_REPLY_TO));
    let sent = as_sent(&app.ctx, &report);
    assert_eq!(links(&sent.body_text), vec![g.seats[0].token.reveal().to_string()]);
    assert_eq!(sent.reply_to, Some(app.ctx.reply_address(g.id, Seat(1), 1)));
    assert_eq!(app.get(&format!("/play/{}", g.seats[0].token.reveal())).await.status, 200);
    // Eve's welcome (generation 2) is hers; Dan's old mail gets neither her link nor an address.
    let welcome = mail_to(&app, "eve@example.org", "You take over seat 4").await;
    assert_eq!((welcome.seat, welcome.token_generation), (Some(Seat(4)), Some(2)));
    let eve_link = app.ctx.seat_token(g.id, Seat(4), 2).reveal().to_string();
    assert!(links(&as_sent(&app.ctx, &welcome).body_text).contains(&eve_link));
    let dans = mail_to(&app, "dan@example.org", "Turn 1 result").await;
    assert_eq!((dans.seat, dans.reply_to.as_deref()), (None, None), "Dan's link was dead: it stays so");
    assert!(!as_sent(&app.ctx, &dans).body_text.contains(&eve_link));
    // The GM's question keeps a reply address, derived again when it is sent.
    let question = mail_to(&app, "gm@example.org", "a decision for you").await;
    assert_eq!(question.reply_to.as_deref(), Some(GM_REPLY_TO));
    assert_eq!(
        as_sent(&app.ctx, &question).reply_to,
        Some(gm_reply_address(&app.ctx, asked.id, "gm@example.org"))
    );
}
