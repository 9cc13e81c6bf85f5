//! Published orders keep hidden hands hidden (issue 11): once a turn is published everyone sees
//! each sheet's receipt digest, the hash of every line, and the text and salt of the lines the
//! engine calls public (the lines carried out); unplayed alternatives, superseded versions and
//! 1833 standing pick-up orders show only their hashes. A seat (and only that seat) sees its own
//! whole sheet with every salt, and can check its receipt from it.

use crate::db::test_db;
use crate::helpers::{TestApp, create_game_on, spawn_app};
use axum::http::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};
use stationmaster::service::{self, CreatedGame, GameClock, Review};

fn sha_hex(text: &str) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(text.as_bytes()))
}

async fn create(app: &TestApp, engine: &str, options: Value) -> CreatedGame {
    create_game_on(&app.ctx, engine, options, Review::Auto, GameClock::default()).await
}

/// A Railroaded game, every seat's claim order, and the cards of seat 1 it does not claim with.
async fn railroaded_claims(app: &TestApp) -> (CreatedGame, Vec<Option<String>>, Vec<String>) {
    let g = create(app, "railroaded", serde_json::json!({})).await;
    let claims = app.claim_orders(&g).await;
    let hand = app.hand(&g.id, g.seats[0].token.reveal(), 1).await;
    let claimed = claims[0].as_deref().unwrap().split(' ').nth(1).unwrap().to_string();
    let spares = hand.into_iter().filter(|c| *c != claimed).collect();
    (g, claims, spares)
}

/// Everything anyone can read about a published turn's orders: the API answer, the web page and
/// the report mails of the seats other than `except`.
async fn public_texts(app: &TestApp, g: &CreatedGame, turn: i32, except: u8) -> Vec<(String, String)> {
    let api = app.get(&format!("/api/v1/games/{}/turns/{turn}/orders", g.id)).await;
    assert_eq!(api.status, StatusCode::OK, "{}", api.body);
    let page = app.get(&format!("/games/{}/turns/{turn}/orders", g.id)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let mut out = vec![("API".to_string(), api.body), ("web page".to_string(), page.body)];
    for m in app.outbox().await.into_iter().filter(|m| m.kind == "report") {
        let seat = g.seats.iter().find(|s| s.player.email.as_str() == m.to_addr).map(|s| s.seat);
        if seat != Some(except) {
            out.push((
                format!("report to {}", m.to_addr),
                format!("{}\n{}", m.body_text, without_inline_images(&m.body_html.unwrap_or_default())),
            ));
        }
    }
    out
}

/// An HTML part with its inline pictures (base64 drawings, whose letters can spell anything, and
/// kept drawings' hex names) cut out; what a seat's picture shows is checked by each engine's
/// drawing tests.
fn without_inline_images(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = [rest.find("data:image/"), rest.find("drawing:")].into_iter().flatten().min() {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = rest.find('"').map_or("", |end| &rest[end..]);
    }
    out.push_str(rest);
    out
}

fn assert_absent(texts: &[(String, String)], secret: &str) {
    for (what, text) in texts {
        assert!(!text.contains(secret), "{what} reveals {secret:?}:\n{text}");
    }
}

/// Checks a published sheet against the documented scheme: every public line's hash from its
/// salt and text, and the digest from the line hashes.
fn assert_verifiable(sheet: &Value) {
    let lines = sheet["lines"].as_array().unwrap();
    for l in lines {
        if let (Some(salt), Some(text)) = (l["salt"].as_str(), l["text"].as_str()) {
            assert_eq!(l["hash"].as_str().unwrap(), sha_hex(&format!("{salt}\n{text}")), "{l}");
        }
    }
    let hashes: Vec<&str> = lines.iter().map(|l| l["hash"].as_str().unwrap()).collect();
    assert_eq!(sheet["digest"].as_str().unwrap(), sha_hex(&hashes.join("\n")), "{sheet}");
}

fn sheets_of(app_body: &str, seat: u8) -> Vec<Value> {
    let v: Value = serde_json::from_str(app_body).unwrap();
    v["versions"].as_array().unwrap().iter().filter(|s| s["seat"] == seat).cloned().collect()
}

#[tokio::test]
async fn railroaded_published_orders_show_the_claim_made_and_never_the_unplayed_alternatives() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (g, claims, spares) = railroaded_claims(&app).await;
    let t1 = g.seats[0].token.reveal();
    let claim = claims[0].clone().unwrap();
    // Spare cards nobody else holds (the game may use two decks), so no report names them.
    let mut others = Vec::new();
    for s in &g.seats[1..] {
        others.extend(app.hand(&g.id, s.token.reveal(), s.seat).await);
    }
    let spare: Vec<&String> = spares.iter().filter(|c| !others.contains(c)).take(2).collect();
    assert_eq!(spare.len(), 2, "seed 7 deals seat 1 two cards nobody else holds: {spares:?} {others:?}");
    // Line 1 is carried out by its first alternative; its ELSE and line 2 are never played.
    let sheet = format!("{claim} ELSE CLAIM {} NORTH\nCLAIM {} EAST", spare[0], spare[1]);
    let r = app.post_orders(&g.id, t1, sheet).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let receipt = r.json()["digest"].as_str().unwrap().to_string();
    // Before publication the seat can check its receipt from its own versions.
    let own = app
        .get_with(&format!("/api/v1/games/{}/orders", g.id), "authorization", &format!("Bearer {t1}"))
        .await
        .json();
    let v = &own["versions"][0];
    let salts = v["line_salts"].as_array().unwrap();
    let hashes: Vec<String> = salts
        .iter()
        .zip(v["canonical"].as_str().unwrap().split('\n'))
        .map(|(s, l)| sha_hex(&format!("{}\n{l}", s.as_str().unwrap())))
        .collect();
    assert_eq!(sha_hex(&hashes.join("\n")), receipt);
    for (s, o) in g.seats.iter().zip(&claims).skip(1) {
        app.post_orders(&g.id, s.token.reveal(), o.clone().unwrap()).await;
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();

    let texts = public_texts(&app, &g, 1, 1).await;
    assert_absent(&texts, spare[0]);
    assert_absent(&texts, spare[1]);

    let public = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    let mine = sheets_of(&public, 1);
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0]["digest"], receipt, "the receipt is the published digest");
    assert_eq!(mine[0]["lines"].as_array().unwrap().len(), 2, "a hash per line, counts are public");
    assert!(mine[0]["lines"].as_array().unwrap().iter().all(|l| l["text"].is_null() && l["salt"].is_null()));
    // Issue 36: the line carried out says what it did (the event says it anyway); its ELSE stays
    // hashed, and a line never played says nothing.
    let played = mine[0]["lines"][0]["played"].as_str().unwrap_or_default().to_string();
    assert!(played.starts_with("claim ") && !played.contains(spare[0].as_str()), "{public}");
    assert!(mine[0]["lines"][1]["played"].is_null(), "{public}");
    let page = app.get(&format!("/games/{}/turns/1/orders", g.id)).await.body;
    assert!(page.contains(&format!("carried out: {}", crate::helpers::askama_escape(&played))), "{page}");
    assert_verifiable(&mine[0]);
    // A plain claim carried out is public, text and salt.
    let bert = sheets_of(&public, 2);
    assert_eq!(bert[0]["lines"][0]["text"], claims[1].clone().unwrap());
    assert_verifiable(&bert[0]);

    // The seat itself sees its whole sheet with every salt, and can check its receipt.
    let own = app
        .get_with(&format!("/api/v1/games/{}/turns/1/orders", g.id), "authorization", &format!("Bearer {t1}"))
        .await;
    let own = sheets_of(&own.body, 1);
    let lines = own[0]["lines"].as_array().unwrap();
    assert!(lines.iter().all(|l| l["salt"].is_string() && l["text"].is_string()), "{own:?}");
    assert_eq!(lines[1]["text"], format!("CLAIM {} EAST", spare[1]));
    assert_verifiable(&own[0]);
    assert_eq!(own[0]["digest"], receipt);
}

#[tokio::test]
async fn r1833_published_orders_never_show_standing_pick_up_orders() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create(&app, "1833", serde_json::json!({"turn_size": "player"})).await;
    for s in &g.seats {
        let display = app.seat_view(&g.id, s.token.reveal()).await["view"]["display"].clone();
        let first = display[0].as_str().unwrap().to_string();
        let body = if s.seat == 1 {
            format!("SELECT {first}\nTAKE DISCARD: any Level 3, any city")
        } else {
            format!("SELECT {first}")
        };
        let r = app.post_orders(&g.id, s.token.reveal(), body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();

    let texts = public_texts(&app, &g, 1, 1).await;
    assert_absent(&texts, "TAKE DISCARD");
    assert_absent(&texts, "any city");
    let public = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    let anna = sheets_of(&public, 1);
    assert_eq!(anna[0]["lines"].as_array().unwrap().len(), 2);
    assert!(anna[0]["lines"][0]["text"].as_str().unwrap().starts_with("SELECT "), "{anna:?}");
    assert!(anna[0]["lines"][1]["text"].is_null());
    assert_verifiable(&anna[0]);
}

#[tokio::test]
async fn r1835_published_orders_show_the_lines_carried_out_and_nothing_of_superseded_versions() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = create(&app, "1835", serde_json::json!({})).await;
    let t1 = g.seats[0].token.reveal();
    let r = app.post_orders(&g.id, t1, "NATIONALISE BY FROM 3").await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    let r = app.post_orders(&g.id, t1, "BUY M2 ELSE PASS\nSELL 1 SX").await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    service::close_turn(&app.ctx, g.id).await.unwrap();

    let texts = public_texts(&app, &g, 1, 1).await;
    assert_absent(&texts, "NATIONALISE");
    let public = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    let anna = sheets_of(&public, 1);
    assert_eq!(anna.len(), 2, "both versions, each with its digest");
    assert!(anna[0]["lines"][0]["text"].is_null(), "the superseded version is hashes only");
    // RULINGS P2, K74: the lines of the version played that were carried out are public; a line
    // not carried out (she holds no SX to sell) goes to her alone, as its digest here.
    assert_eq!(anna[1]["lines"][0]["text"], "BUY M2 ELSE PASS");
    assert!(anna[1]["lines"][1]["text"].is_null(), "the line not carried out is a digest: {public}");
    assert_absent(&texts, "SELL 1 SX");
    for s in &anna {
        assert_verifiable(s);
    }
}

#[tokio::test]
async fn a_version_sealed_before_line_receipts_publishes_only_its_digest() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool.clone()).await;
    let (g, claims, spares) = railroaded_claims(&app).await;
    let t1 = g.seats[0].token.reveal();
    let claim = claims[0].clone().unwrap();
    let other = &spares[0];
    let body = format!("{claim} ELSE CLAIM {other} NORTH");
    app.post_orders(&g.id, t1, body.clone()).await;
    // As an older version stored it: one salt over the whole canonical text.
    let digest = stationmaster::orders::receipt_digest("ab", &body);
    sqlx::query("UPDATE order_versions SET line_salts = NULL, salt = 'ab', digest = $1 WHERE seat = 1")
        .bind(&digest)
        .execute(&pool)
        .await
        .unwrap();
    service::close_turn(&app.ctx, g.id).await.unwrap();

    let public = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    assert!(!public.contains(&format!("CLAIM {other}")), "{public}");
    let anna = sheets_of(&public, 1);
    assert_eq!(
        (anna[0]["sealed"].as_str(), anna[0]["digest"].as_str()),
        (Some("whole"), Some(digest.as_str()))
    );
    assert!(anna[0]["salt"].is_null() && anna[0]["canonical"].is_null());
    let own = app
        .get_with(&format!("/api/v1/games/{}/turns/1/orders", g.id), "authorization", &format!("Bearer {t1}"))
        .await;
    let own = sheets_of(&own.body, 1);
    assert_eq!(own[0]["salt"], "ab", "the seat itself can still check its receipt");
}

#[tokio::test]
async fn house_rule_16_a_line_not_understood_is_played_around_published_as_its_hash_and_no_nmr() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let (g, claims, _) = railroaded_claims(&app).await;
    let t1 = g.seats[0].token.reveal();
    let claim = claims[0].clone().unwrap();
    let sheet = format!("{claim}\nand keep my Zanzibar plan quiet, thanks\nCheers");
    let r = app.post_orders(&g.id, t1, sheet).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    assert_eq!(r.json()["echo"]["errors"], 1);
    for (s, o) in g.seats.iter().zip(&claims).skip(1) {
        app.post_orders(&g.id, s.token.reveal(), o.clone().unwrap()).await;
    }
    service::close_turn(&app.ctx, g.id).await.unwrap();
    let draft = app.turn(g.id, 1).await.draft.unwrap().0;
    assert!(!draft.nmr.contains(&stationmaster::engine::Seat(1)), "HR 16: no NMR: {:?}", draft.nmr);
    assert!(!draft.defaulted.contains(&stationmaster::engine::Seat(1)), "its claim was played");

    assert_absent(&public_texts(&app, &g, 1, 1).await, "Zanzibar");
    let public = app.get(&format!("/api/v1/games/{}/turns/1/orders", g.id)).await.body;
    let mine = sheets_of(&public, 1);
    let lines = mine[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "every line is sealed, the courtesy too");
    assert_eq!(lines[0]["text"], claim, "the claim carried out is public");
    assert!(
        lines[1]["text"].is_null() && lines[1]["salt"].is_null(),
        "the unread line is a hash: {}",
        lines[1]
    );
    assert_verifiable(&mine[0]);
    let own = app
        .get_with(&format!("/api/v1/games/{}/turns/1/orders", g.id), "authorization", &format!("Bearer {t1}"))
        .await;
    let own = sheets_of(&own.body, 1);
    let text = own[0]["lines"][1]["text"].as_str().unwrap();
    assert!(text.starts_with("? and keep my Zanzibar"), "sealed as `? text`: {text}");
}
