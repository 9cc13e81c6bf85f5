//! Orders by mail: a corpus of real-world-shaped messages (tests/mail_corpus/) with the expected
//! outcome of each, and the rules of who may send what.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use chrono::Duration;
use stationmaster::engine::Seat;
use stationmaster::schedule::DeadlineChange;
use stationmaster::service::inbound::{self, MAX_MAIL_BYTES};
use stationmaster::service::{CreatedGame, Review, lifecycle};
use stationmaster::store::outbox::OutboxRow;
use std::sync::atomic::{AtomicUsize, Ordering};

static N: AtomicUsize = AtomicUsize::new(0);

/// A corpus file with its placeholders filled in (works on bytes: some files are not UTF-8).
pub(crate) fn corpus(file: &str, to: &str, from: &str, g: &CreatedGame) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mail_corpus").join(file);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let n = N.fetch_add(1, Ordering::SeqCst).to_string();
    let subs = [
        ("{{TO}}", to.to_string()),
        ("{{FROM}}", from.to_string()),
        ("{{N}}", n),
        ("{{GAME}}", g.id.to_string()),
        ("{{TOKEN}}", g.seats[1].token.reveal().to_string()),
    ];
    let mut out = raw;
    for (k, v) in subs {
        out = replace_bytes(&out, k.as_bytes(), v.as_bytes());
    }
    out
}

pub(crate) fn replace_bytes(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

/// `raw` as it is stored when it was sent to the signed reply address `to`: the address's tag
/// replaced by its placeholder (RULING M11).
pub(crate) fn sealed_to(raw: &[u8], to: &str) -> Vec<u8> {
    let tag = stationmaster::domain::ReplyAddress::parse(to).unwrap().tag;
    let placeholder = stationmaster::domain::SealedSecrets::default().seal(&tag);
    replace_bytes(raw, tag.as_bytes(), placeholder.as_bytes())
}

/// Stores one message the way every source does (`inbound::ingest`, a batch of one).
pub(crate) async fn stored(
    app: &TestApp,
    raw: &[u8],
    source: &str,
    envelope_to: Option<&str>,
) -> inbound::Ingested {
    let arrived = inbound::Arrived { envelope_to, ..inbound::Arrived::new(raw, source) };
    let stored = inbound::ingest(&app.ctx.pool, &[arrived], app.ctx.now()).await.unwrap();
    assert_eq!(stored.len(), 1, "one message, one row");
    stored[0]
}

/// Ingests and processes a message; returns (status, outcome, the answer mail if any).
pub(crate) async fn deliver(app: &TestApp, raw: &[u8]) -> (String, String, Option<OutboxRow>) {
    let before = app.outbox().await.len();
    let stored = crate::inbound::stored(app, raw, "test", None).await;
    assert!(stored.new, "a new message");
    inbound::process_inbound(&app.ctx, stored.id).await.unwrap().expect("processed");
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let row = stationmaster::store::inbound::get(&mut conn, stored.id).await.unwrap().unwrap();
    let answer = app.outbox().await.into_iter().skip(before).find(|m| m.kind == "order-echo");
    (row.status.to_string(), row.outcome.unwrap_or_default(), answer)
}

pub(crate) async fn reply_address(app: &TestApp, g: &CreatedGame, seat: u8) -> String {
    app.ctx.reply_address(g.id, Seat(seat), 1)
}

/// The order text stored as the seat's latest version.
pub(crate) async fn latest_body(app: &TestApp, g: &CreatedGame, seat: u8) -> String {
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let v = stationmaster::store::orders::versions_of_seat(&mut conn, g.id, 1, Seat(seat)).await.unwrap();
    v.last().map(|v| v.body.clone()).unwrap_or_default()
}

#[tokio::test]
async fn every_message_of_the_corpus_gets_its_expected_outcome() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    // (file, status, words in the outcome, words in the stored orders)
    let cases: &[(&str, &str, &str, &str)] = &[
        ("plain.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("multipart_alternative.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("html_only.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("quoted_printable.eml", "accepted", "orders stored", "Grüße aus München"),
        ("base64.eml", "accepted", "orders stored", "# base64 body"),
        ("iso_8859_1.eml", "accepted", "orders stored", "Grüße, Jürgen"),
        ("gmail_quote.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("outlook_quote.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("forwarded.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("no_message_id.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("binary_attachment.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("malformed_mime.eml", "rejected", "no readable text", ""),
        ("attachment_only.eml", "rejected", "no readable text", ""),
        // HR 16: one unreadable line does not bounce the mail; it is marked in the echo.
        ("malformed_orders.eml", "accepted", "1 line(s) not understood", "CLAIM 7H NORTH"),
        ("commands.eml", "accepted", "status sent", ""),
        ("html_blockquote.eml", "accepted", "orders stored", "CLAIM 7H NORTH"),
        ("help.eml", "accepted", "help sent", ""),
    ];
    for (file, status, outcome, stored) in cases {
        let raw = corpus(file, &to, "anna@example.org", &g);
        let (got, why, answer) = deliver(&app, &raw).await;
        assert_eq!((got.as_str(), why.contains(outcome)), (*status, true), "{file}: {got} / {why}");
        let answer = answer.unwrap_or_else(|| panic!("{file}: the player is answered"));
        assert_eq!(answer.to_addr, "anna@example.org", "{file}: answered to the registered address");
        if !stored.is_empty() {
            assert!(
                latest_body(&app, &g, 1).await.contains(stored),
                "{file}: stored orders contain {stored:?}"
            );
        }
    }
}

#[tokio::test]
async fn an_accepted_mail_is_answered_at_once_with_the_echo_threaded_to_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let (status, _, answer) = deliver(&app, &corpus("plain.eml", &to, "Anna@Example.org", &g)).await;
    assert_eq!(status, "accepted");
    let a = answer.unwrap();
    assert!(a.in_reply_to.as_deref().unwrap().starts_with("plain-"), "threaded: {:?}", a.in_reply_to);
    assert_eq!(a.reply_to.as_deref(), Some(to.as_str()), "the answer can be replied to again");
    assert_eq!(a.subject, "Re: Orders turn 1");
    assert!(
        a.body_text.contains("line 1: CLAIM 7H NORTH") && a.body_text.contains("Receipt:"),
        "{}",
        a.body_text
    );
}

#[tokio::test]
async fn every_answer_carries_the_open_turns_calendar_entry_at_its_latest_deadline() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let sequence = |a: &OutboxRow| {
        let ics = a.calendar.clone().expect("the answer states the deadline, so it carries the entry");
        assert!(ics.contains("UID:") && ics.contains("turn-1@"), "{ics}");
        ics.lines().find_map(|l| l.strip_prefix("SEQUENCE:").map(str::to_string)).expect("a SEQUENCE line")
    };
    // Orders accepted: the entry of the turn they were stored for.
    let (status, _, answer) = deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
    assert_eq!(status, "accepted");
    let first = sequence(&answer.unwrap());
    // The GM moves the deadline; a mail with commands only, and a refused one, carry the new entry.
    lifecycle::change_deadline(&app.ctx, g.id, "gm@example.org", DeadlineChange::Extend(Duration::hours(24)))
        .await
        .unwrap();
    let (_, _, answer) = deliver(&app, &corpus("commands.eml", &to, "anna@example.org", &g)).await;
    let moved = sequence(&answer.unwrap());
    assert_ne!(first, moved, "a moved deadline is a new version of the calendar entry");
    let (status, _, answer) = deliver(&app, &corpus("plain.eml", &to, "mallory@evil.example", &g)).await;
    assert_eq!(status, "rejected");
    assert_eq!(sequence(&answer.unwrap()), moved);
    // New orders after the move: the stored turn's entry is the moved one too.
    let (status, _, answer) = deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
    assert_eq!(status, "accepted");
    assert_eq!(sequence(&answer.unwrap()), moved);
}

#[tokio::test]
async fn mail_from_another_address_is_refused_and_the_registered_player_told() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let (status, why, answer) = deliver(&app, &corpus("plain.eml", &to, "mallory@evil.example", &g)).await;
    assert_eq!(status, "rejected");
    assert!(why.contains("mallory@evil.example"), "{why}");
    let a = answer.unwrap();
    assert_eq!(a.to_addr, "anna@example.org", "told to the registered address, not the sender");
    assert!(a.body_text.contains("Nothing was changed"));
    assert_eq!(latest_body(&app, &g, 1).await, "", "no orders stored");
}

#[tokio::test]
async fn a_reply_address_with_a_wrong_signature_is_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let good = reply_address(&app, &g, 1).await;
    let (local, domain) = good.split_once('@').unwrap();
    let last = local.chars().last().unwrap();
    let forged = format!("{}{}@{domain}", &local[..local.len() - 1], if last == 'a' { 'b' } else { 'a' });
    let (status, why, answer) = deliver(&app, &corpus("plain.eml", &forged, "anna@example.org", &g)).await;
    assert_eq!(status, "rejected");
    assert!(why.contains("signature is not valid"), "{why}");
    assert_eq!(answer.unwrap().to_addr, "anna@example.org");
    // The same address in capitals is fine: MTAs may change the case of local parts.
    let (status, _, _) =
        deliver(&app, &corpus("plain.eml", &good.to_uppercase(), "anna@example.org", &g)).await;
    assert_eq!(status, "accepted");
}

#[tokio::test]
async fn an_orders_line_with_the_seat_token_works_without_the_reply_address() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let (status, why, answer) = deliver(&app, &corpus("token_line.eml", "", "bert@example.org", &g)).await;
    assert_eq!(status, "accepted", "{why}");
    assert_eq!(answer.unwrap().to_addr, "bert@example.org");
    assert_eq!(latest_body(&app, &g, 2).await.trim(), "CLAIM 9D EAST");
    // A wrong token: refused, and the seat's player is told.
    let raw = corpus("token_line.eml", "", "bert@example.org", &g);
    let raw = replace_bytes(&raw, g.seats[1].token.reveal().as_bytes(), b"wrongtoken");
    let (status, why, _) = deliver(&app, &raw).await;
    assert_eq!((status.as_str(), why.contains("wrong token")), ("rejected", true), "{why}");
}

#[tokio::test]
async fn mail_for_no_seat_is_kept_but_never_answered() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let (status, _, answer) = deliver(&app, &corpus("stranger.eml", "", "", &g)).await;
    assert_eq!(status, "ignored");
    assert!(answer.is_none(), "no backscatter to unknown senders");
}

#[tokio::test]
async fn only_our_own_authentication_results_are_recorded() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    for (file, expect) in
        [("our_authentication_results.eml", true), ("forged_authentication_results.eml", false)]
    {
        let raw = corpus(file, &to, "anna@example.org", &g);
        let stored = crate::inbound::stored(&app, &raw, "test", None).await;
        inbound::process_inbound(&app.ctx, stored.id).await.unwrap();
        let auth: Option<serde_json::Value> =
            sqlx::query_scalar("SELECT auth_results FROM inbound_messages WHERE id = $1")
                .bind(stored.id)
                .fetch_one(&app.ctx.pool)
                .await
                .unwrap();
        assert_eq!(auth.is_some(), expect, "{file}: {auth:?}");
        if expect {
            assert_eq!(auth.unwrap()["dkim"], "pass");
        }
    }
}

#[tokio::test]
async fn the_same_message_twice_is_stored_and_applied_once() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let raw = corpus("plain.eml", &to, "anna@example.org", &g);
    let first = crate::inbound::stored(&app, &raw, "pipe", None).await;
    let again = crate::inbound::stored(&app, &raw, "pipe", None).await;
    assert_eq!((first.new, again.new, again.id), (true, false, first.id), "an MTA retry is recognised");
    inbound::process_pending(&app.ctx, 10).await.unwrap();
    // The same Message-ID with other bytes (e.g. another Received: line) is a duplicate too.
    let mut other = b"Received: from relay2\r\n".to_vec();
    other.extend_from_slice(&raw);
    let (status, _, answer) = deliver(&app, &other).await;
    assert_eq!(status, "duplicate");
    assert!(answer.is_none());
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let versions = stationmaster::store::orders::versions_of_seat(&mut conn, g.id, 1, Seat(1)).await.unwrap();
    assert_eq!(versions.len(), 1);
}

#[tokio::test]
async fn orders_after_the_deadline_are_kept_and_answered_too_late() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    app.ctx.clock.advance(Duration::hours(49));
    let (status, why, answer) = deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
    assert_eq!(status, "rejected");
    assert!(why.starts_with("too late"), "{why}");
    assert!(answer.unwrap().body_text.contains("TOO LATE"));
    let kept: i64 =
        sqlx::query_scalar("SELECT count(*) FROM inbound_messages").fetch_one(&app.ctx.pool).await.unwrap();
    assert_eq!(kept, 1, "the mail itself is kept");
}

#[tokio::test]
async fn an_oversized_mail_is_stored_cut_and_refused() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let mut raw = corpus("plain.eml", &to, "anna@example.org", &g);
    raw.extend(std::iter::repeat_n(b'#', MAX_MAIL_BYTES));
    let (status, why, answer) = deliver(&app, &raw).await;
    assert_eq!((status.as_str(), why.starts_with("refused: too large")), ("rejected", true));
    assert!(why.contains("was cut"), "{why}");
    assert!(answer.unwrap().body_text.contains("larger than 2 MiB and was cut"));
}

#[tokio::test]
async fn final_alone_marks_the_orders_on_file_final() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
    let raw =
        format!("From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <fin@x>\r\n\r\nFINAL\r\n");
    let (status, why, _) = deliver(&app, raw.as_bytes()).await;
    assert_eq!((status.as_str(), why.as_str()), ("accepted", "version 1 marked final"));
}

#[tokio::test]
async fn a_seat_may_send_at_most_thirty_order_mails_a_turn() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    for _ in 0..inbound::ORDER_MAILS_PER_TURN {
        let (status, _, _) = deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
        assert_eq!(status, "accepted");
    }
    let (status, why, answer) = deliver(&app, &corpus("plain.eml", &to, "anna@example.org", &g)).await;
    assert_eq!((status.as_str(), why.as_str()), ("rejected", "refused: per-turn mail limit"));
    assert!(answer.unwrap().body_text.contains("30 order mails this turn"));
}

#[tokio::test]
async fn an_html_only_mail_is_read_line_by_line_and_its_quote_is_not() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let (status, why, answer) = deliver(&app, &corpus("html_divs.eml", &to, "anna@example.org", &g)).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(why.contains("orders stored"), "{why}");
    let body = latest_body(&app, &g, 1).await;
    assert_eq!(body.trim(), "CLAIM 2H NORTH ELSE DRAW", "two divs are two lines; the quote is not read");
    assert!(answer.unwrap().body_text.contains("marked final"), "FINAL, the second div, was read");
}

#[tokio::test]
async fn a_name_under_the_orders_does_not_cost_them_and_the_echo_says_it_was_ignored() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let (status, why, answer) = deliver(&app, &corpus("signed_off.eml", &to, "anna@example.org", &g)).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(why.contains("2 trailing line(s) ignored as a sign-off"), "{why}");
    assert_eq!(latest_body(&app, &g, 1).await.trim(), "CLAIM 7H NORTH");
    let text = answer.unwrap().body_text;
    assert!(text.contains("line 4: \"Dan\"") && text.contains("ignored"), "{text}");
    // A mistyped order before the name is no sign-off: it is kept as not understood (HR 16),
    // and the name after it is still ignored as the sign-off.
    let raw = format!(
        "From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <typo@x>\r\n\r\nCLAIM 2H NORTH\r\nCLAIM 7H NROTH\r\nThanks,\r\nDan\r\n"
    );
    let (status, why, answer) = deliver(&app, raw.as_bytes()).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(why.contains("1 line(s) not understood") && why.contains("2 trailing line(s) ignored"), "{why}");
    assert_eq!(latest_body(&app, &g, 1).await.trim(), "CLAIM 2H NORTH\nCLAIM 7H NROTH");
    let text = answer.unwrap().body_text;
    assert!(text.contains("line 2: NOT UNDERSTOOD: CLAIM 7H NROTH"), "{text}");
    assert!(text.contains("will be ignored") && text.contains("line 4: \"Dan\""), "{text}");
}

#[tokio::test]
async fn house_rule_16_a_mail_of_which_no_line_is_readable_is_refused_and_one_round_please_is_read() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let raw = format!(
        "From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <prose@x>\r\n\r\nHi GM,\r\nand pick up some Bay if it gets cheap, thanks\r\n"
    );
    let (status, why, answer) = deliver(&app, raw.as_bytes()).await;
    assert_eq!(status, "rejected", "{why}");
    assert!(why.contains("none of 1 line(s) understood"), "{why}");
    assert!(answer.unwrap().body_text.contains("NOT UNDERSTOOD"), "the player is told which line");
    let raw = format!(
        "From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <please@x>\r\n\r\nPlease CLAIM 7H NORTH\r\nThanks!\r\n"
    );
    let (status, why, answer) = deliver(&app, raw.as_bytes()).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(!why.contains("not understood"), "{why}");
    let text = answer.unwrap().body_text;
    assert!(text.contains("line 1: CLAIM 7H NORTH") && text.contains("\"Please\" ignored"), "{text}");
}

#[tokio::test]
async fn a_mail_whose_processing_fails_holds_back_no_other_and_is_tried_again_shortly() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let g = app.create_game(Review::Gm).await;
    let orders = app.claim_orders(&g).await;
    let mail = |seat: usize, from: &str, to: &str| {
        let body = orders[seat].clone().expect("orders");
        format!(
            "From: {from}\r\nTo: {to}\r\nSubject: Orders\r\nMessage-ID: <fail.{seat}@example.org>\r\n\r\n{body}\r\n"
        )
    };
    let (to1, to2) = (reply_address(&app, &g, 1).await, reply_address(&app, &g, 2).await);
    let first =
        crate::inbound::stored(&app, mail(0, "anna@example.org", &to1).as_bytes(), "test", None).await;
    let second =
        crate::inbound::stored(&app, mail(1, "bert@example.org", &to2).as_bytes(), "test", None).await;
    // The database refuses seat 1's orders for a moment (as a lost connection or a full disk would).
    sqlx::query(
        "CREATE FUNCTION refuse_seat_1() RETURNS trigger LANGUAGE plpgsql AS \
         $$ BEGIN IF NEW.seat = 1 THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "CREATE TRIGGER refuse BEFORE INSERT ON order_versions FOR EACH ROW EXECUTE FUNCTION refuse_seat_1()",
    )
    .execute(&pool)
    .await
    .unwrap();

    assert_eq!(inbound::process_pending(&app.ctx, 10).await.unwrap(), 1, "the second mail was processed");
    let mut conn = pool.acquire().await.unwrap();
    let failed = stationmaster::store::inbound::get(&mut conn, first.id).await.unwrap().unwrap();
    let done = stationmaster::store::inbound::get(&mut conn, second.id).await.unwrap().unwrap();
    assert_eq!((failed.status.to_string(), done.status.to_string()), ("new".into(), "accepted".into()));
    let again: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("SELECT locked_until FROM inbound_messages WHERE id = $1")
            .bind(first.id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(
        again <= app.ctx.now() + Duration::seconds(15),
        "tried again shortly, not after the lease: {again}"
    );

    sqlx::query("DROP TRIGGER refuse ON order_versions").execute(&pool).await.unwrap();
    assert_eq!(inbound::process_pending(&app.ctx, 10).await.unwrap(), 0, "not before its pause is over");
    app.ctx.clock.advance(Duration::seconds(16));
    assert_eq!(inbound::process_pending(&app.ctx, 10).await.unwrap(), 1);
    assert_eq!(
        latest_body(&app, &g, 1).await.trim(),
        orders[0].clone().unwrap().trim(),
        "the mail's orders stand"
    );
}
