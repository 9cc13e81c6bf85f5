//! Report mails: each seat gets its own report — public result plus its own hand — delivered
//! over real SMTP (the in-process test server, `support/smtp.rs`), exactly once.

use crate::db::test_db;
use crate::helpers::spawn_app;
use chrono::Duration;
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
    // Welcome mails (4) and reports (4); delivered once however often the worker runs.
    let got = crate::helpers::deliver_over_smtp(&app, port, &mut server).await;
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

#[tokio::test]
async fn house_rule_16_a_seats_report_lists_its_own_lines_not_understood_and_no_one_elses() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    let muddled = "and pick up some Bay if it gets cheap, thanks";
    for (i, (s, o)) in g.seats.iter().zip(&orders).enumerate() {
        let mut text = o.clone().unwrap();
        if i == 0 {
            text = format!("{text}\n{muddled}\nDRAWW");
        }
        let r = app.post_orders(&g.id, s.token.reveal(), text).await;
        assert!(r.status.is_success(), "{}", r.body);
    }
    app.ctx.clock.advance(Duration::hours(48));
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    let reports: Vec<_> = app.outbox().await.into_iter().filter(|m| m.kind == "report").collect();
    let of = |addr: &str| reports.iter().find(|m| m.to_addr == addr).unwrap();
    let anna = of("anna@example.org");
    let text = &anna.body_text;
    let (_, section) = text.split_once("LINES NOT UNDERSTOOD").expect("its own section");
    assert!(section.contains(&format!("line 2: \"{muddled}\" — unknown order 'AND'")), "{text}");
    assert!(section.contains("line 3: \"DRAWW\"") && section.contains("did you mean `DRAW`?"), "{text}");
    let html = anna.body_html.as_deref().unwrap();
    assert!(html.contains("Lines not understood") && html.contains("DRAWW"), "{html}");
    for other in ["bert@example.org", "cleo@example.org", "dan@example.org"] {
        let m = of(other);
        assert!(!m.body_text.contains("NOT UNDERSTOOD"), "{other}: {}", m.body_text);
        for secret in ["pick up some Bay", "DRAWW"] {
            assert!(!m.body_text.contains(secret), "{other} reads seat 1's line: {}", m.body_text);
            assert!(!m.body_html.as_deref().unwrap().contains(secret), "{other}'s HTML part");
        }
        assert!(m.body_text.contains("line 2: (hidden)"), "published as a hash: {}", m.body_text);
    }
}
