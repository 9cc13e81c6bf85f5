//! `spawn_app`: the application over a fresh database, with a fixed clock and no SMTP (mail
//! stays in the outbox, where tests read it), driven in-process through the router.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use chrono::{TimeZone, Utc};
use http_body_util::BodyExt;
use serde_json::Value;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::config::Settings;
use stationmaster::domain::{EmailAddress, GameId, Mailbox, TurnLength};
use stationmaster::service::{self, CreateGame, CreatedGame, Ctx, GameClock, Review};
use stationmaster::store::outbox::OutboxRow;
use tower::ServiceExt;

pub struct TestApp {
    pub ctx: Ctx,
    pub router: Router,
}

pub fn settings() -> Settings {
    Settings {
        database_url: String::new(),
        bind: "127.0.0.1:0".into(),
        base_url: "http://sm.test".into(),
        smtp_url: None,
        mail_from: "Stationmaster <gm-robot@sm.test>".into(),
        secret_key_file: None,
        secret_key: Some("test-key".into()),
        tick_secs: 1,
        reply_domain: Some("play.sm.test".into()),
        authserv_id: Some("mx.sm.test".into()),
        // The corpus has no Authentication-Results; the policy's own tests turn it on.
        mail_auth: Some(stationmaster::config::MailAuth::Record),
        imap_url: None,
        imap_poll_secs: 60,
        ingest_socket: String::new(),
        // Tests jump the fixed clock by days between passes; the outage guard would (rightly)
        // extend every deadline. Its own tests turn it on.
        outage_secs: 0,
        web: Default::default(),
        mail_tell_after_secs: 900,
        mail_keep_days: 14,
        webhooks_allow_private: true,
        log_format: Default::default(),
        creation: Default::default(),
    }
}

pub async fn spawn_app(pool: PgPool) -> TestApp {
    spawn_app_with(pool, Clock::fixed(Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap())).await
}

/// The app with a given clock (the system clock for tests that run other processes).
pub async fn spawn_app_with(pool: PgPool, clock: Clock) -> TestApp {
    spawn_app_with_settings(pool, clock, settings()).await
}

/// The app with given settings and clock.
pub async fn spawn_app_with_settings(pool: PgPool, clock: Clock, settings: Settings) -> TestApp {
    let ctx = Ctx::new(pool, settings, clock).await.unwrap();
    let router = stationmaster::web::router(ctx.clone());
    TestApp { ctx, router }
}

pub const PLAYERS: [&str; 4] = [
    "Anna <anna@example.org>",
    "Bert <bert@example.org>",
    "Cleo <cleo@example.org>",
    "Dan <dan@example.org>",
];

/// A game of `engine` for the four [`PLAYERS`] (seed 7, 48h turns) in any context.
pub async fn create_game_on(
    ctx: &Ctx,
    engine: &str,
    options: Value,
    review: Review,
    clock: GameClock,
) -> CreatedGame {
    service::create_game(
        ctx,
        CreateGame {
            engine: engine.into(),
            name: "Test Line".into(),
            gm: EmailAddress::parse("gm@example.org").unwrap(),
            players: PLAYERS.iter().map(|p| Mailbox::parse(p).unwrap()).collect(),
            seed: Some(7),
            turn_length: "48h".parse::<TurnLength>().unwrap(),
            review,
            options,
            clock,
        },
    )
    .await
    .unwrap()
}

/// A response, read whole.
pub struct Resp {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl TestApp {
    pub async fn create_game(&self, review: Review) -> CreatedGame {
        self.create_game_with(review, GameClock::default()).await
    }

    /// A Railroaded game (seed 7, 48h turns) with the given clock and policies.
    pub async fn create_game_with(&self, review: Review, clock: GameClock) -> CreatedGame {
        create_game_on(&self.ctx, "railroaded", serde_json::json!({}), review, clock).await
    }

    /// Runs one scheduler pass.
    pub async fn tick(&self) -> usize {
        stationmaster::scheduler::tick(&self.ctx).await.unwrap()
    }

    /// The rows of a game's current turn and the game itself.
    pub async fn turn(&self, game: GameId, n: i32) -> stationmaster::store::turns::TurnRow {
        let mut conn = self.ctx.pool.acquire().await.unwrap();
        stationmaster::store::turns::get_turn(&mut conn, game, n).await.unwrap().unwrap()
    }

    pub async fn seats(&self, game: GameId) -> Vec<stationmaster::store::games::SeatRow> {
        let mut conn = self.ctx.pool.acquire().await.unwrap();
        stationmaster::store::games::seats(&mut conn, game).await.unwrap()
    }

    /// Submits orders for a seat through the API (optionally final); asserts they were stored.
    pub async fn submit(&self, g: &CreatedGame, seat: usize, orders: &str, final_: bool) {
        let q = if final_ { "?final=true" } else { "" };
        let req = Request::post(format!("/api/v1/games/{}/orders{q}", g.id))
            .header(header::AUTHORIZATION, format!("Bearer {}", g.seats[seat].token.reveal()))
            .body(Body::from(orders.to_string()))
            .unwrap();
        let r = self.send(req).await;
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }

    pub async fn send(&self, req: Request<Body>) -> Resp {
        let resp = self.router.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        Resp { status, headers, body: String::from_utf8_lossy(&bytes).into_owned() }
    }

    pub async fn get(&self, uri: &str) -> Resp {
        self.send(Request::get(uri).body(Body::empty()).unwrap()).await
    }

    pub async fn get_with(&self, uri: &str, name: &str, value: &str) -> Resp {
        self.send(Request::get(uri).header(name, value).body(Body::empty()).unwrap()).await
    }

    /// POSTs orders to the API as a seat.
    pub async fn post_orders(
        &self,
        game: &impl std::fmt::Display,
        token: &str,
        body: impl Into<Body>,
    ) -> Resp {
        let req = Request::post(format!("/api/v1/games/{game}/orders"))
            .header(header::AUTHORIZATION, format!("Bearer {token}"))
            .header(header::CONTENT_TYPE, "text/plain")
            .body(body.into())
            .unwrap();
        self.send(req).await
    }

    pub async fn post_form(&self, uri: &str, form: &str, cookie: Option<&str>) -> Resp {
        let mut req = Request::post(uri).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
        if let Some(c) = cookie {
            req = req.header(header::COOKIE, c);
        }
        self.send(req.body(Body::from(form.to_string())).unwrap()).await
    }

    /// Signs `email` in as a GM by password (set here); returns the session cookie.
    pub async fn gm_cookie(&self, email: &str) -> String {
        let address = EmailAddress::parse(email).unwrap();
        service::gm_auth::set_password(&self.ctx, &address, "a long enough secret").await.unwrap();
        let form = format!("email={}&password=a+long+enough+secret", email.replace('@', "%40"));
        let r = self.post_form("/gm/login", &form, None).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.body);
        r.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string()
    }

    /// The outbox, oldest first, each mail as it is sent: its link and reply address filled in
    /// from the server key (RULING P8; the stored rows hold placeholders, [`TestApp::stored_outbox`]).
    pub async fn outbox(&self) -> Vec<OutboxRow> {
        let rows = self.stored_outbox().await;
        rows.iter().map(|m| service::mail_secrets::as_sent(&self.ctx, m)).collect()
    }

    /// The outbox rows as stored, oldest first.
    pub async fn stored_outbox(&self) -> Vec<OutboxRow> {
        let mut conn = self.ctx.pool.acquire().await.unwrap();
        let mut rows = stationmaster::store::outbox::list_recent(&mut conn, 1000).await.unwrap();
        rows.reverse();
        rows
    }

    /// The seat's view of the game through the API (with its own hand).
    pub async fn seat_view(&self, game: &impl std::fmt::Display, token: &str) -> Value {
        let r = self
            .get_with(&format!("/api/v1/games/{game}"), "authorization", &format!("Bearer {token}"))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.body);
        r.json()
    }

    /// The cards in a seat's hand, as its own view shows them.
    pub async fn hand(&self, game: &impl std::fmt::Display, token: &str, seat: u8) -> Vec<String> {
        let v = self.seat_view(game, token).await;
        v["view"]["seats"][usize::from(seat - 1)]["hand"]
            .as_array()
            .unwrap_or_else(|| panic!("no hand in {v}"))
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    }

    /// Claim orders for the first turn: the seats claim four different suits, each with a card
    /// from its own hand, at its own compass point (the first assignment of suits to seats, in
    /// a fixed order, where every seat holds a card of its suit). None for a seat that cannot.
    /// Every seat sends its claim (from [`TestApp::claim_orders`]) marked final.
    pub async fn claim_all_final(&self, g: &CreatedGame) {
        let claims = self.claim_orders(g).await;
        for (i, claim) in claims.iter().enumerate() {
            self.submit(g, i, claim.as_deref().unwrap(), true).await;
        }
    }

    pub async fn claim_orders(&self, g: &CreatedGame) -> Vec<Option<String>> {
        let dirs = ["NORTH", "EAST", "SOUTH", "WEST"];
        let mut hands = Vec::new();
        for s in &g.seats {
            hands.push(self.hand(&g.id, s.token.reveal(), s.seat).await);
        }
        let card_of = |seat: usize, suit: char| hands[seat].iter().find(|c| c.ends_with(suit)).cloned();
        let suits = ['H', 'D', 'C', 'S'];
        let mut best: Vec<Option<String>> = vec![None; 4];
        for perm in permutations(&suits) {
            let picks: Vec<Option<String>> = (0..4).map(|i| card_of(i, perm[i])).collect();
            if picks.iter().filter(|p| p.is_some()).count() > best.iter().filter(|p| p.is_some()).count() {
                best = picks;
            }
        }
        best.into_iter().enumerate().map(|(i, c)| c.map(|c| format!("CLAIM {c} {}", dirs[i]))).collect()
    }
}

fn permutations(items: &[char]) -> Vec<Vec<char>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// A real SMTP server (`support/smtp.rs`) on a free port of 127.0.0.1, listening; its port.
pub async fn smtp_server() -> (u16, crate::smtp::MailServer) {
    let server = crate::smtp::start(0).await;
    (server.port, server)
}

/// Runs the mail worker over SMTP to the test server on `port` (three times: each mail goes
/// once) and returns every raw message the server received.
pub async fn deliver_over_smtp(
    app: &TestApp,
    port: u16,
    server: &mut crate::smtp::MailServer,
) -> Vec<String> {
    let transport = stationmaster::mail::Transport::from_url(&format!("smtp://127.0.0.1:{port}")).unwrap();
    // Each pass claims one batch of the outbox: pass until nothing is due.
    for _ in 0..100 {
        let stats = stationmaster::mail::deliver_due(&app.ctx, &transport, chrono::Utc::now()).await.unwrap();
        if stats.claimed == 0 {
            break;
        }
    }
    let mut got = Vec::new();
    while let Ok(Ok(m)) = tokio::time::timeout(std::time::Duration::from_millis(1500), server.rx.recv()).await
    {
        got.push(String::from_utf8(m.raw_bytes().unwrap()).unwrap());
    }
    got
}

/// The database URL of a test's own database (for running the binary against it).
pub fn database_url(pool: &PgPool) -> String {
    let db = pool.connect_options().get_database().unwrap_or("postgres").to_string();
    format!("postgres://postgres@127.0.0.1:5432/{db}")
}

/// Whether a test that needs a system service (Postfix, Dovecot, root) is skipped on this
/// machine: it says so, loudly. Under CI (`CI=true`, where `.ci/run` installs the services) it
/// never is: a missing service fails the test instead of letting it pass unrun.
pub fn skip_without(needs: &str, available: bool) -> bool {
    if available {
        return false;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{needs} is missing under CI, where .ci/run installs it"
    );
    eprintln!("SKIPPED: this test needs {needs} (bash .ci/run installs it)");
    true
}

/// `s` as the templates escape it (askama's HTML escaping), to find a text in a page.
pub fn askama_escape(s: &str) -> String {
    s.replace('&', "&#38;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
}
