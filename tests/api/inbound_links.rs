//! Seat links quoted in inbound mail (issue 32, RULING P8): a player who replies to a report quotes
//! its `/play/<token>` link; the message is stored with the placeholder in its place — every other
//! byte as it came — its orders are read as they were sent, and the same message again is still
//! recognised as the one stored.

use crate::db::test_db;
use crate::helpers::spawn_app;
use crate::inbound::{corpus, deliver, latest_body, replace_bytes, reply_address, sealed_to, stored};
use stationmaster::service::Review;
use stationmaster::service::mail_secrets::SEAT_LINK;

#[tokio::test]
async fn a_reply_quoting_its_seat_link_is_stored_without_it_and_its_orders_are_read_unchanged() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let to = reply_address(&app, &g, 1).await;
    let link = format!("http://sm.test/play/{}", g.seats[0].token.reveal());
    let mut raw = corpus("plain.eml", &to, "anna@example.org", &g);
    raw.extend_from_slice(format!("\r\n> Your order page: {link}\r\n> <{link}>\r\n").as_bytes());

    let (status, why, _) = deliver(&app, &raw).await;
    assert_eq!(status, "accepted", "{why}");
    assert_eq!(latest_body(&app, &g, 1).await.trim(), "CLAIM 7H NORTH");

    let rows: Vec<Vec<u8>> =
        sqlx::query_scalar("SELECT raw FROM inbound_messages").fetch_all(&app.ctx.pool).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        String::from_utf8_lossy(&rows[0]),
        String::from_utf8_lossy(&sealed_to(&replace_bytes(&raw, link.as_bytes(), SEAT_LINK.as_bytes()), &to)),
        "the link is replaced by the placeholder, the reply address's tag sealed, and nothing else changed"
    );

    let again = stored(&app, &raw, "pipe", None).await;
    assert!(!again.new, "the same message again is recognised as the one stored");
}
