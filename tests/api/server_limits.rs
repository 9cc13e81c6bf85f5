//! The real listener under abuse: partial and idle connections are closed after their timeouts,
//! slow requests are answered 408, and a full connection cap still leaves room for /healthz.

use crate::db::test_db;
use crate::helpers::settings;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::config::WebSettings;
use stationmaster::service::Ctx;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Serves the app on a free loopback port with every timeout `secs` long and a cap of `max`
/// connections.
async fn serve(pool: PgPool, max: usize, secs: u64) -> SocketAddr {
    serve_with(pool, |w| {
        w.header_timeout_secs = secs;
        w.keepalive_secs = secs;
        w.request_timeout_secs = secs;
        w.max_connections = max;
    })
    .await
}

/// Serves the app on a free loopback port with the web settings changed by `set`.
async fn serve_with(pool: PgPool, set: impl FnOnce(&mut WebSettings)) -> SocketAddr {
    let mut s = settings();
    set(&mut s.web);
    let ctx = Ctx::new(pool, s, Clock::system()).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(stationmaster::web::serve(ctx, listener));
    addr
}

/// Reads until the server closes the connection (or `within` passes: then None).
async fn read_to_close(stream: &mut TcpStream, within: Duration) -> Option<String> {
    let mut out = Vec::new();
    let read = tokio::time::timeout(within, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok().map(|()| String::from_utf8_lossy(&out).into_owned())
}

async fn healthz(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await.unwrap();
    read_to_close(&mut s, Duration::from_secs(5)).await.expect("healthz answered within 5 s")
}

#[tokio::test]
async fn a_partial_request_is_closed_after_the_header_timeout() {
    let (pool, _db) = test_db().await;
    let addr = serve(pool, 64, 1).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n").await.unwrap();
    assert!(read_to_close(&mut s, Duration::from_secs(4)).await.is_some(), "still open after 4 s");
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let (pool, _db) = test_db().await;
    let addr = serve_with(pool, |w| {
        w.header_timeout_secs = 30;
        w.keepalive_secs = 1;
    })
    .await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n").await.unwrap();
    let answer = read_to_close(&mut s, Duration::from_secs(4)).await.expect("closed within 4 s");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn a_request_whose_body_never_arrives_is_answered_408() {
    let (pool, _db) = test_db().await;
    let addr = serve(pool, 64, 1).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"POST /gm/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nemail=").await.unwrap();
    let answer = read_to_close(&mut s, Duration::from_secs(4)).await.expect("answered within 4 s");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
}

#[tokio::test]
async fn healthz_answers_while_idle_connections_fill_the_cap() {
    let (pool, _db) = test_db().await;
    let addr = serve(pool, 16, 30).await;
    let mut idle = Vec::new();
    for _ in 0..32 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let answer = healthz(addr).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // A closed connection answers at once; the wait only covers a server slowed by a busy machine
    // (it may not have accepted every connection yet), so the test waits for a condition.
    let mut closed = 0;
    for s in &mut idle[..17] {
        if read_to_close(s, Duration::from_secs(3)).await.is_some() {
            closed += 1;
        }
    }
    assert!(closed >= 16, "the cap holds: only {closed} of the oldest idle connections were closed");
}
