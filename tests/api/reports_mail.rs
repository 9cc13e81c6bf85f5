//! Report mails: each seat gets its own report — public result plus its own hand — delivered
//! over real SMTP (the in-process test server, `support/smtp.rs`), exactly once.

use crate::db::test_db;
use crate::helpers::spawn_app;
use chrono::Duration;
use stationmaster::mail::{Transport, deliver_due};
use stationmaster::service::Review;

#[tokio::test]
async fn each_report_shows_its_own_seat_its_hand_and_no_other_hand() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    assert_eq!(reports.len(), 4);
    for (i, s) in g.seats.iter().enumerate() {
        let mine: Vec<_> = reports.iter().filter(|m| m.to_addr == s.player.email.as_str()).collect();
        assert_eq!(mine.len(), 1, "exactly one report for seat {}", s.seat);
        let body = &mine[0].body_text;
        assert!(body.contains(&format!("Report for {} (seat {})", s.player.name, s.seat)));
        assert!(body.contains(&format!("Hand of seat {}", s.seat)), "own hand shown:\n{body}");
        for other in 1..=4u8 {
            if usize::from(other) != i + 1 {
                assert!(
                    !body.contains(&format!("Hand of seat {other}")),
                    "hand of seat {other} leaked to seat {}",
                    s.seat
                );
            }
        }
        assert!(body.contains("http://sm.test/play/"), "the report links to the seat's order page");
        assert!(mine[0].body_html.as_deref().unwrap().contains("<h2>"));
    }
}

#[tokio::test]
async fn each_player_receives_exactly_their_own_report_over_smtp() {
    let (pool, _db) = test_db().await;
    let (port, mut server) = crate::helpers::smtp_server().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    app.ctx.clock.advance(Duration::hours(48));
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    let transport = Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    // Welcome mails (4) and reports (4); delivered once however often the worker runs.
    for _ in 0..3 {
        deliver_due(&app.ctx, &transport, chrono::Utc::now()).await.unwrap();
    }
    let mut got = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_millis(1500), server.rx.recv()).await
    {
        got.push(String::from_utf8(m.raw_bytes().unwrap()).unwrap());
    }
    assert_eq!(got.len(), 8, "4 welcome mails and 4 reports, none twice");
    for s in &g.seats {
        let to = s.player.email.as_str();
        let reports: Vec<_> = got
            .iter()
            .filter(|raw| {
                raw.contains(&format!("To: {} <{to}>", s.player.name)) && raw.contains("Turn 1 result")
            })
            .collect();
        assert_eq!(reports.len(), 1, "one report to {to}");
        assert!(reports[0].contains(&format!("seat {}", s.seat)));
    }
}
