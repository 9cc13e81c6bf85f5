//! The server key never lives in the database (issue 11): it is kept in a key file (0600),
//! moved there out of an old database without losing it, checked against the database's
//! fingerprint, and rotated with new links for every seat.

use crate::db::test_db;
use crate::helpers::{create_game_on, settings};
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::domain::{GameId, SecretToken};
use stationmaster::engine::Seat;
use stationmaster::service::signin_limits::{Client, Origin};
use stationmaster::service::{self, CreatedGame, Ctx, GameClock, Review};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// A fresh directory for one test's key files.
pub(crate) fn key_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sm-key-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

pub(crate) fn file_settings(path: &std::path::Path) -> stationmaster::config::Settings {
    stationmaster::config::Settings {
        secret_key: None,
        secret_key_file: Some(path.to_path_buf()),
        ..settings()
    }
}

pub(crate) async fn start(pool: &PgPool, path: &std::path::Path) -> anyhow::Result<Ctx> {
    Ctx::new(pool.clone(), file_settings(path), Clock::system()).await
}

async fn create(ctx: &Ctx) -> CreatedGame {
    create_game_on(ctx, "railroaded", serde_json::json!({}), Review::Gm, GameClock::default()).await
}

/// A server started with a key file of its own, and a game made under its key.
async fn started_with_a_game(pool: &PgPool, name: &str) -> (PathBuf, Ctx, CreatedGame) {
    let path = key_dir(name).join("secret.key");
    let ctx = start(pool, &path).await.unwrap();
    let g = create(&ctx).await;
    (path, ctx, g)
}

/// Puts a key where databases from before issue 11 kept it.
async fn keep_in_database(pool: &PgPool, key: &str) {
    sqlx::query("INSERT INTO server_secrets (name, value) VALUES ('server-key', $1)")
        .bind(key)
        .execute(pool)
        .await
        .unwrap();
}

/// Every row of every table, as text.
async fn dump(pool: &PgPool) -> String {
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public' \
         AND table_type = 'BASE TABLE'",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    let mut out = String::new();
    for t in tables {
        let q = format!("SELECT coalesce(string_agg(to_jsonb(x)::text, '\n'), '') FROM \"{t}\" x");
        out.push_str(&sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(q)).fetch_one(pool).await.unwrap());
    }
    out
}

fn key_in(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap().trim().to_string()
}

async fn authenticates(ctx: &Ctx, game: GameId, token: &SecretToken) -> bool {
    let mut conn = ctx.pool.acquire().await.unwrap();
    service::authenticate_seat(&mut conn, Some(game), token).await.is_ok()
}

#[tokio::test]
async fn with_no_configuration_the_key_is_created_in_a_0600_file_and_no_table_holds_it() {
    let (pool, _db) = test_db().await;
    let (path, _ctx, g) = started_with_a_game(&pool, "fresh").await;
    let key = key_in(&path);
    assert_eq!(key.len(), 64);
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    let db = dump(&pool).await;
    assert!(!db.contains(&key), "the key is in the database");
    assert!(db.contains(g.seats[0].token.hash().as_str()), "the dump holds the seat data it should");
    // A restart reads the same key: every link keeps working.
    let again = start(&pool, &path).await.unwrap();
    assert!(authenticates(&again, g.id, &g.seats[0].token).await);
    assert_eq!(again.seat_token(g.id, Seat(1), 1).reveal(), g.seats[0].token.reveal());
}

#[tokio::test]
async fn a_key_kept_by_an_old_database_moves_to_the_key_file_and_every_link_keeps_working() {
    let (pool, _db) = test_db().await;
    let old = "8c1f6a0e9b2d4c7f8e1a3b5d7f9e2c4a6b8d0f1e3a5c7e9b1d3f5a7c9e1b3d5f";
    keep_in_database(&pool, old).await;
    let path = key_dir("moved").join("secret.key");
    let ctx = start(&pool, &path).await.unwrap();
    assert_eq!(key_in(&path), old, "the file holds the database's key");
    assert!(!dump(&pool).await.contains(old), "the row was deleted once the file was written");
    // The links made with the database's key are the links made now.
    let configured = stationmaster::config::Settings { secret_key: Some(old.into()), ..settings() };
    let same = Ctx::new(pool.clone(), configured, Clock::system()).await.unwrap();
    let game = GameId(uuid::Uuid::nil());
    assert_eq!(ctx.seat_token(game, Seat(1), 1).reveal(), same.seat_token(game, Seat(1), 1).reveal());
}

#[tokio::test]
async fn a_key_file_that_differs_from_the_database_key_is_refused_and_nothing_changes() {
    let (pool, _db) = test_db().await;
    let old = "1111111111111111111111111111111111111111111111111111111111111111";
    keep_in_database(&pool, old).await;
    let dir = key_dir("differs");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("secret.key");
    std::fs::write(&path, "2222\n").unwrap();
    let err = start(&pool, &path).await.err().expect("refused");
    assert!(format!("{err:#}").contains("differs from the key file"), "{err:#}");
    assert_eq!(key_in(&path), "2222");
    assert!(dump(&pool).await.contains(old), "the database's key is kept");
}

#[tokio::test]
async fn a_process_with_another_key_file_refuses_to_start_instead_of_making_a_second_key() {
    let (pool, _db) = test_db().await;
    let server = key_dir("server").join("secret.key");
    start(&pool, &server).await.unwrap();
    let console = key_dir("console").join("secret.key");
    let err = start(&pool, &console).await.err().expect("refused");
    assert!(format!("{err:#}").contains("not at"), "{err:#}");
    assert!(!console.exists(), "no second key was made");
    // `mail ingest` run as a user who cannot read the key stores only; it creates nothing.
    assert!(Ctx::reading_key(pool.clone(), file_settings(&console), Clock::system()).await.is_none());
    assert!(!console.exists());
    assert!(Ctx::reading_key(pool.clone(), file_settings(&server), Clock::system()).await.is_some());
}

#[tokio::test]
async fn rotation_mails_every_seat_a_new_link_and_the_old_links_stop_working() {
    let (pool, _db) = test_db().await;
    let (path, server, g) = started_with_a_game(&pool, "rotate").await;
    let old_key = key_in(&path);
    // The console rotates while the server runs.
    let console = start(&pool, &path).await.unwrap();
    let done = service::rotate_key(&console).await.unwrap();
    assert_eq!((done.seats, done.mailed), (4, 4));
    let new_key = key_in(&path);
    assert_ne!(new_key, old_key);
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(!path.with_file_name("secret.key.next").exists(), "no .next file left");

    // The running server takes up the new key on its next pass.
    let new_token = console.seat_token(g.id, Seat(1), 1);
    assert_ne!(server.seat_token(g.id, Seat(1), 1).reveal(), new_token.reveal());
    stationmaster::scheduler::tick(&server).await.unwrap();
    assert_eq!(server.seat_token(g.id, Seat(1), 1).reveal(), new_token.reveal());
    assert!(!server.follow_rotation().await.unwrap(), "nothing more to follow");
    let restarted = start(&pool, &path).await.unwrap();
    assert!(!authenticates(&restarted, g.id, &g.seats[0].token).await, "the old link stops working");
    assert!(authenticates(&restarted, g.id, &new_token).await, "the new link works");
    let mut conn = pool.acquire().await.unwrap();
    let stored = stationmaster::store::outbox::list_recent(&mut conn, 100).await.unwrap();
    let mails: Vec<_> =
        stored.iter().map(|m| stationmaster::service::mail_secrets::as_sent(&restarted, m)).collect();
    let notice =
        mails.iter().find(|m| m.subject.contains("Your new order link") && m.to_addr == "anna@example.org");
    let notice = notice.expect("Anna is told her new link");
    assert!(notice.body_text.contains(&restarted.seat_link(&new_token)), "{}", notice.body_text);
    assert!(!dump(&pool).await.contains(&new_key));
}

/// The sign-in token in a sign-in mail as `ctx` would send it.
fn sign_in_token_sent(ctx: &Ctx, mail: &stationmaster::store::outbox::OutboxRow) -> SecretToken {
    let sent = service::mail_secrets::as_sent(ctx, mail);
    let link = sent.body_text.split_whitespace().find(|w| w.contains("/gm/magic/")).expect("a sign-in link");
    SecretToken::presented(link.rsplit('/').next().unwrap())
}

/// The GM of a game on a server with a key file asks for a sign-in link: the server, where the
/// request came from, and the one sign-in mail queued (not sent yet).
async fn sign_in_mail_queued(
    pool: &PgPool,
    name: &str,
) -> (PathBuf, Ctx, Origin, stationmaster::store::outbox::OutboxRow) {
    let (path, server, _g) = started_with_a_game(pool, name).await;
    let origin = Origin { client: Client::from_ip(Some("192.0.2.7".parse().unwrap())), device: None };
    let gm = stationmaster::domain::EmailAddress::parse("gm@example.org").unwrap();
    service::gm_auth::request_login_link(&server, &gm, &origin).await.unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let mut pending = stationmaster::store::outbox::unsent_of_kind(&mut conn, "gm-login").await.unwrap();
    assert_eq!(pending.len(), 1, "one sign-in mail: {pending:?}");
    (path, server, origin, pending.remove(0))
}

#[tokio::test]
async fn a_sign_in_mail_pending_across_a_rotation_carries_a_working_link() {
    let (pool, _db) = test_db().await;
    let (path, server, origin, mail) = sign_in_mail_queued(&pool, "rotate-sign-in").await;
    // A mail on its way when the key changes carries the old key's link.
    let on_its_way = sign_in_token_sent(&server, &mail);

    let console = start(&pool, &path).await.unwrap();
    let done = service::rotate_key(&console).await.unwrap();
    assert_eq!(done.sign_in_links, 1);
    let restarted = start(&pool, &path).await.unwrap();
    let sent_now = sign_in_token_sent(&restarted, &mail);
    assert_ne!(sent_now.reveal(), on_its_way.reveal(), "the mail goes out with the new key's link");
    let signed_in = service::gm_auth::login_with_link(&restarted, &sent_now, &origin).await;
    assert!(signed_in.is_ok(), "the link the mail carries signs the GM in: {signed_in:?}");
    // Using one voids the other, as for any two links (RULING W3).
    assert!(service::gm_auth::login_with_link(&restarted, &on_its_way, &origin).await.is_err());
}

#[tokio::test]
async fn a_sign_in_link_mailed_before_a_rotation_works_for_its_lifetime_after_it() {
    let (pool, _db) = test_db().await;
    let (path, server, origin, mail) = sign_in_mail_queued(&pool, "rotate-sent-sign-in").await;
    let mailed = sign_in_token_sent(&server, &mail);
    let mut conn = pool.acquire().await.unwrap();
    stationmaster::store::outbox::mark_sent(&mut conn, mail.id, chrono::Utc::now()).await.unwrap();

    let console = start(&pool, &path).await.unwrap();
    assert_eq!(service::rotate_key(&console).await.unwrap().sign_in_links, 0, "nothing was pending");
    let restarted = start(&pool, &path).await.unwrap();
    assert!(service::gm_auth::login_with_link(&restarted, &mailed, &origin).await.is_ok());
}
