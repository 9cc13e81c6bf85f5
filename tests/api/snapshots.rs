//! Snapshot tests of the mails players get: the rendered text is compared with a golden file in
//! `tests/snapshots/`. Random parts (game id, seat tokens, salts, digests) are redacted. To accept
//! a deliberate change, run with `UPDATE_SNAPSHOTS=1` and review the diff in git.

use crate::db::test_db;
use crate::helpers::spawn_app;
use chrono::Duration;
use stationmaster::service::{CreatedGame, Review};

fn redact(text: &str, g: &CreatedGame, secrets: &[(String, &str)]) -> String {
    let mut out = text.replace(&g.id.to_string(), "<game-id>");
    for s in &g.seats {
        out = out.replace(s.token.reveal(), &format!("<token-seat-{}>", s.seat));
    }
    for (secret, label) in secrets {
        out = out.replace(secret, label);
    }
    out
}

fn assert_snapshot(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!("missing snapshot {}; run with UPDATE_SNAPSHOTS=1 to create it", path.display())
    });
    if expected != actual {
        panic!("mail {name} differs from its snapshot:\n--- expected\n{expected}\n--- actual\n{actual}");
    }
}

#[tokio::test]
async fn the_welcome_mail_reads_as_recorded() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let welcome = app.outbox().await.into_iter().find(|m| m.kind == "welcome").unwrap();
    assert_snapshot(
        "welcome_seat1.txt",
        &redact(&format!("Subject: {}\n\n{}", welcome.subject, welcome.body_text), &g, &[]),
    );
}

#[tokio::test]
async fn the_turn_report_reads_as_recorded() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Auto).await;
    let orders = app.claim_orders(&g).await;
    for (s, o) in g.seats.iter().zip(&orders).take(3) {
        app.post_orders(&g.id, s.token.reveal(), o.clone().unwrap()).await;
    }
    app.ctx.clock.advance(Duration::hours(48));
    stationmaster::scheduler::tick(&app.ctx).await.unwrap();
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let versions = stationmaster::store::orders::latest_of_turn(&mut conn, g.id, 1).await.unwrap();
    let mut secrets: Vec<(String, &str)> = versions.iter().map(|v| (v.digest.clone(), "<digest>")).collect();
    for v in &versions {
        for (salt, line) in v.line_salts.iter().flatten().zip(v.canonical.split('\n')) {
            secrets.push((stationmaster::orders::line_hash(salt, line), "<hash>"));
            secrets.push((salt.clone(), "<salt>"));
        }
    }
    let report = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.kind == "report" && m.to_addr == "anna@example.org")
        .unwrap();
    assert_snapshot(
        "report_turn1_seat1.txt",
        &redact(&format!("Subject: {}\n\n{}", report.subject, report.body_text), &g, &secrets),
    );
    let nmr_report = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.kind == "report" && m.to_addr == "dan@example.org")
        .unwrap();
    assert_snapshot("report_turn1_seat4_nmr.txt", &redact(&nmr_report.body_text, &g, &secrets));

    // The HTML part, its picture cut out (issue 16: the table as an inline PNG with a text
    // alternative; kept as a drawing named by its SHA-256, rendered to PNG when sent, issue 38),
    // and the shape of the mail as sent: alternative → related → HTML + PNG.
    let html = report.body_html.clone().expect("an HTML part");
    let (before, after) = html.split_once("src=\"drawing:").expect("the drawing named in the HTML");
    let after = &after[after.find('"').expect("the end of the picture")..];
    assert_snapshot(
        "report_turn1_seat1.html",
        &redact(&format!("{before}src=\"drawing:<sha256>{after}"), &g, &secrets),
    );
    let drawn = stationmaster::service::pictures::pngs_in(&app.ctx, &html).await.unwrap();
    let sent =
        stationmaster::mail::message::build_message(&report, "Stationmaster <gm-robot@sm.test>", &drawn)
            .unwrap();
    let sent = String::from_utf8_lossy(&sent.formatted()).replace("\r\n", "\n");
    assert_snapshot("report_turn1_seat1.mime", &mime_shape(&sent));
}

/// The MIME structure of a sent mail: its parts' content headers in order (folded headers
/// joined, boundaries and Content-ID hosts made stable).
fn mime_shape(mail: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    for l in mail.lines() {
        match (l.starts_with([' ', '\t']), lines.last_mut()) {
            (true, Some(last)) => last.push_str(l),
            _ => lines.push(l.to_string()),
        }
    }
    lines
        .into_iter()
        .filter(|l| {
            ["Content-Type:", "Content-ID:", "Content-Disposition:", "Content-Transfer-Encoding:"]
                .iter()
                .any(|h| l.starts_with(h))
        })
        .map(|l| match l.find("boundary=") {
            Some(at) => format!("{}boundary=<b>", &l[..at]),
            None => l,
        })
        .map(|l| match l.strip_prefix("Content-ID: <") {
            // The id's tail comes from the mail's Message-ID (random per game).
            Some(id) => format!("Content-ID: <{}.…>", id.split('.').next().unwrap_or("")),
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

#[tokio::test]
async fn the_reminder_and_its_calendar_entry_read_as_recorded() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    app.ctx.clock.advance(Duration::hours(46)); // the 2h reminder
    app.tick().await;
    let reminder = app
        .outbox()
        .await
        .into_iter()
        .find(|m| m.kind == "reminder" && m.to_addr == "anna@example.org" && m.subject.contains("Reminder"))
        .unwrap();
    let ics = reminder.calendar.clone().unwrap();
    assert_snapshot(
        "reminder_seat1.txt",
        &redact(
            &format!("Subject: {}\n\n{}\n--- deadline.ics\n{ics}", reminder.subject, reminder.body_text),
            &g,
            &[],
        ),
    );
}
