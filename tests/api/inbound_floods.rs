//! Inbound mail under attack: what forged, refused and unrouted mail may cost a player (issue 11):
//! nobody can lock a seat out, a flood brings its player one notice an hour, authentication
//! results are enforced, mail for no seat is kept only up to a bound, and the per-turn limit holds
//! under concurrent ingest.

use crate::db::test_db;
use crate::helpers::{TestApp, settings, spawn_app};
use crate::inbound::{corpus, deliver, latest_body, replace_bytes, reply_address};
use chrono::{Duration, TimeZone, Utc};
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::config::MailAuth;
use stationmaster::service::inbound::{self, ORDER_MAILS_PER_TURN};
use stationmaster::service::{Ctx, Review};

/// The order-echo notices queued to an address so far.
async fn notices_to(app: &TestApp, to: &str) -> Vec<String> {
    app.outbox()
        .await
        .into_iter()
        .filter(|m| m.kind == "order-echo" && m.to_addr == to)
        .map(|m| m.body_text)
        .collect()
}

/// A token-line mail for seat 2 (Bert) from `from` with a wrong token.
fn forged_token_mail(g: &stationmaster::service::CreatedGame, from: &str) -> Vec<u8> {
    let raw = corpus("token_line.eml", "", from, g);
    replace_bytes(&raw, g.seats[1].token.reveal().as_bytes(), b"wrongtoken")
}

#[tokio::test]
async fn a_mail_to_a_signed_reply_address_is_judged_on_its_own() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    // A stranger forges the victim's From on a dozen mails with a wrong token.
    for _ in 0..12 {
        let (status, why, _) = deliver(&app, &forged_token_mail(&g, "bert@example.org")).await;
        assert_eq!(status, "rejected", "{why}");
    }
    // The victim's own mail to his signed reply address still gets in.
    let to = reply_address(&app, &g, 2).await;
    let raw = format!(
        "From: Bert <bert@example.org>\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <own@x>\r\n\r\nCLAIM 9D EAST\r\n"
    );
    let (status, why, answer) = deliver(&app, raw.as_bytes()).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(answer.unwrap().body_text.contains("CLAIM 9D EAST"));
    assert_eq!(latest_body(&app, &g, 2).await.trim(), "CLAIM 9D EAST");
}

#[tokio::test]
async fn a_flood_naming_a_seat_brings_its_player_one_notice_an_hour_then_a_count() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    for i in 0..40 {
        let (status, _, _) = deliver(&app, &forged_token_mail(&g, &format!("m{i}@evil.example"))).await;
        assert_eq!(status, "rejected");
    }
    let told = notices_to(&app, "bert@example.org").await;
    assert_eq!(told.len(), 1, "one notice for 40 forged mails");
    assert!(told[0].contains("wrong token") && told[0].contains("Nothing was changed"), "{}", told[0]);
    // Within the hour: still one. An hour on, the next refusal is answered with the count.
    app.ctx.clock.advance(Duration::minutes(59));
    deliver(&app, &forged_token_mail(&g, "late@evil.example")).await;
    assert_eq!(notices_to(&app, "bert@example.org").await.len(), 1);
    app.ctx.clock.advance(Duration::minutes(2));
    deliver(&app, &forged_token_mail(&g, "later@evil.example")).await;
    let told = notices_to(&app, "bert@example.org").await;
    assert_eq!(told.len(), 2);
    assert!(told[1].contains("40 more mails naming your seat were refused since"), "{}", told[1]);
    // Other seats' players are not affected: a wrong sender on Anna's address is answered.
    let to = reply_address(&app, &g, 1).await;
    let (_, _, answer) = deliver(&app, &corpus("plain.eml", &to, "mallory@evil.example", &g)).await;
    assert_eq!(answer.map(|a| a.to_addr).as_deref(), Some("anna@example.org"));
}

/// The app with the mail authentication policy left to its default (an authserv-id is set).
pub(crate) async fn app_with_default_policy(pool: PgPool) -> TestApp {
    let mut s = settings();
    s.mail_auth = None;
    assert_eq!(s.mail_auth(), MailAuth::Require, "require is the default with an authserv-id");
    let ctx =
        Ctx::new(pool, s, Clock::fixed(Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap())).await.unwrap();
    let router = stationmaster::web::router(ctx.clone());
    TestApp { ctx, router }
}

#[tokio::test]
async fn with_a_trusted_authserv_id_a_seats_mail_must_pass_authentication() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let mail = |results: &str, n: usize| {
        let header = if results.is_empty() {
            String::new()
        } else {
            format!("Authentication-Results: mx.sm.test; {results}\r\n")
        };
        format!(
            "{header}From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <auth{n}@x>\r\n\r\nCLAIM 7H NORTH\r\n"
        )
    };
    let cases = [
        (
            "dkim=pass header.d=example.org; spf=pass smtp.mailfrom=example.org; dmarc=fail",
            "rejected",
            "DMARC failed",
        ),
        ("dkim=fail; spf=fail smtp.mailfrom=example.org", "rejected", "could not verify"),
        ("", "rejected", "no authentication results"),
        (
            "dkim=pass header.d=example.org; spf=fail; dmarc=pass header.from=example.org",
            "accepted",
            "orders stored",
        ),
        ("dkim=none; spf=pass smtp.mailfrom=example.org; dmarc=none", "accepted", "orders stored"),
    ];
    for (n, (results, status, words)) in cases.iter().enumerate() {
        let (got, why, _) = deliver(&app, mail(results, n).as_bytes()).await;
        assert_eq!((got.as_str(), why.contains(words)), (*status, true), "{results:?}: {why}");
    }
    // Results written by anyone but our MTA (another authserv-id) count as none.
    let forged = mail("dmarc=pass", 9).replace("mx.sm.test", "mx.evil.example");
    let (got, why, _) = deliver(&app, forged.as_bytes()).await;
    assert_eq!(got, "rejected", "{why}");
}

/// A mail to `to` with our MTA's `results` and the given From header lines (each ending in CRLF).
fn mail_with_froms(to: &str, froms: &str, results: &str, id: &str) -> String {
    format!(
        "Authentication-Results: mx.sm.test; {results}\r\n{froms}To: {to}\r\nSubject: x\r\nMessage-ID: <{id}@x>\r\n\r\nCLAIM 7H NORTH\r\n"
    )
}

/// Delivers a mail the attacker wrote in Anna's name and checks it was refused for `words`,
/// changed nothing, and told Anna.
async fn refused_for(app: &TestApp, g: &stationmaster::service::CreatedGame, raw: &str, words: &str) {
    let before = notices_to(app, "anna@example.org").await.len();
    let (status, why, answer) = deliver(app, raw.as_bytes()).await;
    assert_eq!((status.as_str(), why.contains(words)), ("rejected", true), "{why}");
    assert_eq!(latest_body(app, g, 1).await, "", "nothing changed");
    if let Some(answer) = answer {
        assert_eq!(answer.to_addr, "anna@example.org", "only the seat's player is told");
        assert!(answer.body_text.contains(words) && answer.body_text.contains("Nothing was changed"));
    } else {
        assert_eq!(notices_to(app, "anna@example.org").await.len(), before, "told within the hour already");
    }
}

#[tokio::test]
async fn a_mail_with_two_from_addresses_is_refused() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let evil =
        "dkim=pass header.d=evil.test; spf=pass smtp.mailfrom=evil.test; dmarc=pass header.from=evil.test";
    let froms = "From: A4 <anna@example.org>, Eve <eve@evil.test>\r\n";
    refused_for(&app, &g, &mail_with_froms(&to, froms, evil, "two"), "From header names 2 addresses").await;
    // Group syntax is no mailbox list either, even with the player alone in it.
    let group = "From: Players: anna@example.org, eve@evil.test;\r\n";
    refused_for(&app, &g, &mail_with_froms(&to, group, evil, "group"), "From header is a group").await;
    // Under `record` the From is judged just the same.
    let app = spawn_app(app.ctx.pool.clone()).await;
    let (status, why, _) = deliver(&app, mail_with_froms(&to, froms, evil, "rec").as_bytes()).await;
    assert_eq!(status, "rejected", "{why}");
    assert_eq!(latest_body(&app, &g, 1).await, "");
}

#[tokio::test]
async fn a_mail_with_two_from_headers_is_refused() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let evil = "dkim=pass header.d=evil.test; dmarc=pass header.from=evil.test";
    for (n, froms) in [
        "From: Eve <eve@evil.test>\r\nFrom: A4 <anna@example.org>\r\n",
        "From: A4 <anna@example.org>\r\nFrom: Eve <eve@evil.test>\r\n",
    ]
    .iter()
    .enumerate()
    {
        let raw = mail_with_froms(&to, froms, evil, &format!("hdr{n}"));
        refused_for(&app, &g, &raw, "it has 2 From headers").await;
    }
}

#[tokio::test]
async fn a_dmarc_pass_for_another_domain_than_the_from_is_not_trusted() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let from = "From: A4 <anna@example.org>\r\n";
    let evil =
        "dkim=pass header.d=evil.test; spf=pass smtp.mailfrom=evil.test; dmarc=pass header.from=evil.test";
    refused_for(&app, &g, &mail_with_froms(&to, from, evil, "d1"), "DMARC check was not for the domain")
        .await;
    // The player's own domain, in any case, passes.
    let own = "dmarc=pass header.from=EXAMPLE.org";
    let (status, why, _) = deliver(&app, mail_with_froms(&to, from, own, "d2").as_bytes()).await;
    assert_eq!(status, "accepted", "{why}");
}

#[tokio::test]
async fn a_forged_mail_cannot_squat_the_message_id_of_the_players_next_mail() {
    let (pool, _db) = test_db().await;
    let app = app_with_default_policy(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let anna = "From: A4 <anna@example.org>\r\n";
    let good = "dmarc=pass header.from=example.org";
    // In Anna's name without passing authentication, and from another sender: both refused.
    let forged = mail_with_froms(&to, anna, "dmarc=fail header.from=example.org", "squat");
    assert_eq!(deliver(&app, forged.as_bytes()).await.0, "rejected");
    let stranger =
        mail_with_froms(&to, "From: eve@evil.test\r\n", good, "squat").replace("CLAIM", "PASS CLAIM");
    assert_eq!(deliver(&app, stranger.as_bytes()).await.0, "rejected");
    // Anna's genuine mail with that Message-ID is hers: taken and answered.
    let genuine = mail_with_froms(&to, anna, good, "squat");
    let (status, why, answer) = deliver(&app, genuine.as_bytes()).await;
    assert_eq!(status, "accepted", "{why}");
    assert!(answer.is_some(), "the player gets the echo");
    assert_eq!(latest_body(&app, &g, 1).await, "CLAIM 7H NORTH");
    // Her own mail again (other bytes, the same Message-ID) is the duplicate.
    let again = format!("Received: from relay2\r\n{genuine}");
    let (status, _, answer) = deliver(&app, again.as_bytes()).await;
    assert_eq!((status.as_str(), answer.is_none()), ("duplicate", true));
}

#[tokio::test]
async fn a_delivered_to_header_does_not_route_mail_the_mta_delivered_elsewhere() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let signed = reply_address(&app, &g, 1).await;
    let raw = format!(
        "Delivered-To: {signed}\r\nFrom: anna@example.org\r\nTo: {signed}\r\nSubject: x\r\nMessage-ID: <dt@x>\r\n\r\nCLAIM 7H NORTH\r\n"
    );
    let stored = crate::inbound::stored(&app, raw.as_bytes(), "pipe", Some("gm@play.sm.test")).await;
    let done = inbound::process_inbound(&app.ctx, stored.id).await.unwrap().unwrap();
    assert_eq!((done.status.as_str(), done.seat), ("ignored", None), "{}", done.outcome);
    assert_eq!(latest_body(&app, &g, 1).await, "");
    // Delivered to the signed address itself, the same mail is the seat's.
    let raw = raw.replace("<dt@x>", "<dt2@x>");
    let stored = crate::inbound::stored(&app, raw.as_bytes(), "pipe", Some(&signed)).await;
    let done = inbound::process_inbound(&app.ctx, stored.id).await.unwrap().unwrap();
    assert_eq!(done.status.as_str(), "accepted", "{}", done.outcome);
    // An envelope of another domain (an alias piping to `mail ingest`) says nothing about the
    // seat: the headers are read, and the signature decides.
    let raw = raw.replace("<dt2@x>", "<dt3@x>");
    let stored = crate::inbound::stored(&app, raw.as_bytes(), "pipe", Some("orders@alias.example")).await;
    let done = inbound::process_inbound(&app.ctx, stored.id).await.unwrap().unwrap();
    assert_eq!(done.status.as_str(), "accepted", "{}", done.outcome);
}

/// Stored rows of mail for no seat: (rows, rows that kept their bytes).
async fn unrouted_rows(app: &TestApp) -> (i64, i64) {
    sqlx::query_as("SELECT count(*), count(*) FILTER (WHERE octet_length(raw) > 0) FROM inbound_messages WHERE game_id IS NULL")
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn mail_for_no_seat_is_kept_only_up_to_its_bound_and_refusals_are_answered_once() {
    let (pool, _db) = test_db().await;
    use stationmaster::service::inbound::{UNROUTED_BYTES_PER_SENDER, UNROUTED_PER_SENDER};
    let app = spawn_app(pool).await;
    let stranger = |n: usize, pad: usize| {
        format!(
            "From: spam@junk.example\r\nTo: gm@play.sm.test\r\nSubject: hi\r\nMessage-ID: <s{n}@junk>\r\n\r\nbuy{}\r\n",
            "x".repeat(pad)
        )
    };
    let per_sender = usize::try_from(UNROUTED_PER_SENDER).unwrap();
    for n in 0..per_sender + 5 {
        let (status, _, _) = deliver_unrouted(&app, stranger(n, 100).as_bytes()).await;
        assert_eq!(status, "ignored");
    }
    assert_eq!(
        unrouted_rows(&app).await,
        (UNROUTED_PER_SENDER + 1, UNROUTED_PER_SENDER),
        "the bound, and one record of the refusal"
    );
    let told: Vec<_> = app.outbox().await.into_iter().filter(|m| m.to_addr == "spam@junk.example").collect();
    assert_eq!(told.len(), 1, "answered once this hour");
    assert!(!told[0].body_text.contains("buy"), "the notice repeats nothing of the mail");
    // Bytes count too: another sender's big mails stop at the byte bound.
    let big = |n: usize| stranger(n, 1_500_000).replace("spam@junk", "big@junk");
    let mut kept = 0;
    for n in 100..104 {
        deliver_unrouted(&app, big(n).as_bytes()).await;
        let bytes: i64 = sqlx::query_scalar("SELECT coalesce(sum(octet_length(raw)), 0)::int8 FROM inbound_messages WHERE from_addr = 'big@junk.example'")
            .fetch_one(&app.ctx.pool)
            .await
            .unwrap();
        assert!(bytes <= UNROUTED_BYTES_PER_SENDER, "{bytes}");
        kept = bytes;
    }
    assert!(kept > 0);
    // An hour later the sender's mail is kept again.
    app.ctx.clock.advance(Duration::minutes(61));
    deliver_unrouted(&app, stranger(999, 10).as_bytes()).await;
    let kept: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM inbound_messages WHERE message_id = 's999@junk' AND octet_length(raw) > 0",
    )
    .fetch_one(&app.ctx.pool)
    .await
    .unwrap();
    assert_eq!(kept, 1);
}

/// Like `deliver`, for mail that may be forgotten: (status, outcome, answered).
async fn deliver_unrouted(app: &TestApp, raw: &[u8]) -> (String, String, bool) {
    let before = app.outbox().await.len();
    let stored = crate::inbound::stored(app, raw, "test", None).await;
    let done = inbound::process_inbound(&app.ctx, stored.id).await.unwrap().expect("processed");
    (done.status.to_string(), done.outcome, app.outbox().await.len() > before)
}

#[tokio::test]
async fn concurrent_order_mails_never_pass_the_per_turn_limit() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let extra = 6;
    let mut ids = Vec::new();
    for n in 0..ORDER_MAILS_PER_TURN + extra {
        let raw = format!(
            "From: anna@example.org\r\nTo: {to}\r\nSubject: x\r\nMessage-ID: <c{n}@x>\r\n\r\nCLAIM 7H NORTH\r\n"
        );
        ids.push(crate::inbound::stored(&app, raw.as_bytes(), "test", None).await.id);
    }
    let mut all = tokio::task::JoinSet::new();
    for id in ids {
        let ctx = app.ctx.clone();
        all.spawn(async move { inbound::process_inbound(&ctx, id).await });
    }
    while let Some(done) = all.join_next().await {
        done.unwrap().expect("every mail is processed").expect("by this task");
    }
    let (accepted, refused): (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status = 'accepted'), count(*) FILTER (WHERE outcome = 'refused: per-turn mail limit') FROM inbound_messages",
    )
    .fetch_one(&app.ctx.pool)
    .await
    .unwrap();
    assert_eq!((accepted, refused), (ORDER_MAILS_PER_TURN, extra));
}
