//! Mail in any quoting style, end to end (issue 36): a reply below the quoted report is read
//! (RULING M20), and a mail in which nothing was read is answered with the lines taken for
//! quote, forwarded message or signature — from the player's own mail only (RULING M22).

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use crate::inbound::{deliver, latest_body, replace_bytes, reply_address};
use stationmaster::service::{CreatedGame, Review};

/// The address every corpus reply is written to, and the senders the corpus writes from.
const CORPUS_TO: &str = "seat.1.1.7f3k2q9x@reply.sm.test";
const CORPUS_FROM: &[&str] = &[
    "anna.example@gmail.com",
    "anna@contoso.example",
    "anna.example@outlook.example",
    "anna.example@icloud.example",
];

/// A mail of tests/mail_corpus/ sent to seat 1's reply address from its player's address.
async fn corpus_mail(app: &TestApp, g: &CreatedGame, file: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail_corpus").join(file);
    let mut raw = std::fs::read(&path).unwrap();
    raw = replace_bytes(&raw, CORPUS_TO.as_bytes(), reply_address(app, g, 1).await.as_bytes());
    for from in CORPUS_FROM {
        raw = replace_bytes(&raw, from.as_bytes(), b"anna@example.org");
    }
    raw
}

#[tokio::test]
async fn ruling_m20_a_reply_below_the_quoted_report_is_read_and_the_quote_is_not_replayed() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    for file in
        ["gmail_bottom_post.eml", "apple_mail_html_only_bottom_post.eml", "thunderbird_bottom_post.eml"]
    {
        let (status, outcome, answer) = deliver(&app, &corpus_mail(&app, &g, file).await).await;
        assert_eq!(status, "accepted", "{file}: {outcome}");
        assert!(outcome.contains("orders stored"), "{file}: {outcome}");
        assert_eq!(
            latest_body(&app, &g, 1).await,
            "PLAY 9S WEST ELSE DRAW",
            "{file}: only the player's line"
        );
        let answer = answer.unwrap().body_text;
        assert!(!answer.contains("HOW TO SEND ORDERS BY MAIL"), "{file}: no generic help\n{answer}");
    }
}

#[tokio::test]
async fn ruling_m22_a_mail_with_nothing_but_a_quote_is_told_which_lines_were_taken_for_quote() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    // Typed under Outlook's unmarked quote: nothing can be read (RULING M21).
    let raw = corpus_mail(&app, &g, "outlook_desktop_bottom_post.eml").await;
    let (status, outcome, answer) = deliver(&app, &raw).await;
    assert_eq!(status, "rejected");
    assert!(
        outcome.contains("no orders or commands found") && outcome.contains("line(s) taken for quote"),
        "{outcome}"
    );
    let text = answer.unwrap().body_text;
    assert!(text.contains("TAKEN FOR QUOTE OR SIGNATURE"), "{text}");
    assert!(
        text.contains("lines 2–32: taken for a quote of an earlier mail, beginning \"From: Stationmaster <gm-robot@sm.test>\""),
        "{text}"
    );
    assert!(text.contains("HOW TO SEND ORDERS BY MAIL"), "the help still follows:\n{text}");
    // Hidden information: the answer names lines, it does not replay them; the record the GM
    // reads holds counts only.
    for secret in ["Hand of seat 1", "2D 5D 9S 4H 7S", "Zk3v9QpL2xWm7RtBq4Yc", "PLAY 9S WEST"] {
        assert!(!text.contains(secret), "{secret} in the answer:\n{text}");
    }
    assert!(!outcome.contains("Stationmaster") && !outcome.contains("From:"), "{outcome}");
    assert_eq!(latest_body(&app, &g, 1).await, "", "no orders stored");

    // A forward with nothing above it.
    let (status, _, answer) = deliver(&app, &corpus_mail(&app, &g, "gmail_forward_only.eml").await).await;
    assert_eq!(status, "rejected");
    let text = answer.unwrap().body_text;
    assert!(
        text.contains(
            "lines 1–9: taken for a forwarded message, beginning \"---------- Forwarded message ---------\""
        ),
        "{text}"
    );
}
