//! Sealed secrets in stored inbound mail (issue 32, RULING M11): a mail sent to a seat's signed
//! reply address (To and envelope), an `ORDERS <game> <seat> <token>` mail and a mail to the GM's
//! reply address are stored with placeholders instead of the tags and the token; a dump of the
//! inbound table holds none of them, and the stored rows alone still route each mail — while a
//! placeholder copied out of the dump into a new mail opens nothing.

use crate::db::test_db;
use crate::helpers::{TestApp, spawn_app};
use crate::inbound::{corpus, latest_body, reply_address, stored};
use crate::secrets_at_rest::{assert_clean, secrets};
use stationmaster::service::inbound;
use stationmaster::service::{CreatedGame, Review};

/// Every column of every inbound row as `pg_dump` writes it (bytea as hex), and each row's bytes
/// as text.
async fn inbound_dump(app: &TestApp) -> String {
    let rows: Vec<(String, Vec<u8>)> = sqlx::query_as("SELECT t::text, t.raw FROM inbound_messages t")
        .fetch_all(&app.ctx.pool)
        .await
        .unwrap();
    rows.iter()
        .map(|(row, raw)| format!("{row}\n{}", String::from_utf8_lossy(raw)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts the dump holds no secret of the game, as text or as a bytea's hex.
async fn assert_inbound_clean(app: &TestApp, g: &CreatedGame) {
    let dump = inbound_dump(app).await;
    let secrets = secrets(&app.ctx, g, 1);
    assert_clean(&dump, &secrets, "the inbound table");
    for s in &secrets {
        let hex = data_encoding::HEXLOWER.encode(s.as_bytes());
        assert!(!dump.contains(&hex), "the inbound table holds the secret {s} as hex");
    }
}

/// Ingests `raw` (with `envelope_to`) and processes it from its stored row: (status, outcome).
async fn ingest_and_process(app: &TestApp, raw: &[u8], envelope_to: Option<&str>) -> (String, String) {
    let id = stored(app, raw, "pipe", envelope_to).await.id;
    let done = inbound::process_inbound(&app.ctx, id).await.unwrap().expect("processed");
    (done.status.to_string(), done.outcome)
}

/// A game in which Anna's orders came to her signed reply address (To and envelope) and Bert's by
/// an `ORDERS` line, each stored and then processed from its row: the game, Anna's reply address
/// and Bert's mail.
async fn orders_by_both_ways(app: &TestApp) -> (CreatedGame, String, Vec<u8>) {
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(app, &g, 1).await;
    let (status, why) =
        ingest_and_process(app, &corpus("plain.eml", &to, "anna@example.org", &g), Some(&to)).await;
    assert_eq!(status, "accepted", "{why}");
    assert_eq!(latest_body(app, &g, 1).await.trim(), "CLAIM 7H NORTH");
    let token_mail = corpus("token_line.eml", "", "bert@example.org", &g);
    let (status, why) = ingest_and_process(app, &token_mail, None).await;
    assert_eq!(status, "accepted", "{why}");
    assert_eq!(latest_body(app, &g, 2).await.trim(), "CLAIM 9D EAST");
    (g, to, token_mail)
}

#[tokio::test]
async fn stored_inbound_mail_holds_no_reply_address_or_token_and_its_rows_still_route_it() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (g, to, _) = orders_by_both_ways(&app).await;

    let gm_to = stationmaster::service::turn::gm_address::gm_reply_address(&app.ctx, g.id, "gm@example.org");
    let (_, why) = ingest_and_process(&app, &corpus("plain.eml", &gm_to, "gm@example.org", &g), None).await;
    assert!(!why.contains("signature is not valid"), "the GM's sealed address still holds: {why}");

    assert_inbound_clean(&app, &g).await;
    let dump = inbound_dump(&app).await;
    assert!(!dump.contains(&to), "the signed reply address is in the dump");
}

#[tokio::test]
async fn a_placeholder_copied_from_a_dump_into_a_new_mail_opens_no_seat() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (g, to, token_mail) = orders_by_both_ways(&app).await;

    // What a dump shows: the sealed envelope recipient and the sealed ORDERS line.
    let sealed_to: String =
        sqlx::query_scalar("SELECT envelope_to FROM inbound_messages WHERE envelope_to IS NOT NULL")
            .fetch_one(&app.ctx.pool)
            .await
            .unwrap();
    assert_ne!(sealed_to, to);
    let raw: Vec<u8> = sqlx::query_scalar("SELECT raw FROM inbound_messages WHERE raw_sha256 = $1")
        .bind(data_encoding::HEXLOWER.encode(&<sha2::Sha256 as sha2::Digest>::digest(&token_mail)))
        .fetch_one(&app.ctx.pool)
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let line = text.lines().find(|l| l.starts_with("ORDERS ")).unwrap();
    let sealed_token = line.split_whitespace().nth(3).unwrap().to_string();
    assert_ne!(sealed_token, g.seats[1].token.reveal());

    let mut forged = corpus("plain.eml", &sealed_to, "anna@example.org", &g);
    forged.extend_from_slice(b"\r\n");
    let (status, why) = ingest_and_process(&app, &forged, Some(&sealed_to)).await;
    assert_eq!((status.as_str(), why.contains("signature is not valid")), ("rejected", true), "{why}");

    let forged = crate::inbound::replace_bytes(
        &corpus("token_line.eml", "", "bert@example.org", &g),
        g.seats[1].token.reveal().as_bytes(),
        sealed_token.as_bytes(),
    );
    let (status, why) = ingest_and_process(&app, &forged, None).await;
    assert_eq!((status.as_str(), why.contains("wrong token")), ("rejected", true), "{why}");
}

#[tokio::test]
async fn a_message_stored_before_sealing_is_sealed_on_the_next_pass_and_still_routed() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let raw = corpus("plain.eml", &to, "anna@example.org", &g);
    // As a server before sealing stored it: the secrets as they came, `sealed` NULL.
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO inbound_messages (raw, raw_sha256, source, envelope_to) VALUES ($1, 'legacy', 'pipe', $2) RETURNING id",
    )
    .bind(&raw)
    .bind(&to)
    .fetch_one(&app.ctx.pool)
    .await
    .unwrap();

    assert_eq!(inbound::process_pending(&app.ctx, 10).await.unwrap(), 1);
    let mut conn = app.ctx.pool.acquire().await.unwrap();
    let row = stationmaster::store::inbound::get(&mut conn, id).await.unwrap().unwrap();
    assert_eq!(row.status.to_string(), "accepted", "{:?}", row.outcome);
    assert_eq!(latest_body(&app, &g, 1).await.trim(), "CLAIM 7H NORTH");
    assert_inbound_clean(&app, &g).await;
}
