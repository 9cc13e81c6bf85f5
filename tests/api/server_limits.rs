//! The real listener under abuse: partial and idle connections are closed after their timeouts,
//! slow requests are answered 408, a body arriving below the minimum rate is cut off, slow bodies
//! are capped per client address, and a full connection cap (idle connections or slow bodies)
//! still leaves room for /healthz.

use crate::db::test_db;
use crate::helpers::settings;
use sqlx::PgPool;
use stationmaster::clock::Clock;
use stationmaster::config::WebSettings;
use stationmaster::service::Ctx;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

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
async fn read_to_close(stream: &mut (impl AsyncRead + Unpin), within: Duration) -> Option<String> {
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

/// The head of a sign-in form post announcing a `len`-byte body, and the body's first bytes.
fn slow_login(len: usize) -> Vec<u8> {
    format!(
        "POST /gm/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Content-Length: {len}\r\n\r\nemail="
    )
    .into_bytes()
}

/// Opens `n` connections, the i-th from the loopback address `from(i)` (127.0.0.x), one every
/// `gap`, each starting a sign-in post whose body never finishes.
async fn slow_bodies(addr: SocketAddr, n: u8, from: impl Fn(u8) -> [u8; 4], gap: Duration) -> Vec<TcpStream> {
    let mut opened = Vec::new();
    for i in 0..n {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::from((from(i), 0))).unwrap();
        let mut s = socket.connect(addr).await.unwrap();
        s.write_all(&slow_login(1000)).await.unwrap();
        opened.push(s);
        tokio::time::sleep(gap).await;
    }
    opened
}

/// Sends a `len`-byte sign-in body `every` byte by byte (or until the server closes) and returns
/// the answer, or None when none came within `within`.
async fn trickle(addr: SocketAddr, len: usize, every: Duration, within: Duration) -> Option<String> {
    let s = TcpStream::connect(addr).await.unwrap();
    let (mut read, mut write) = s.into_split();
    write.write_all(&slow_login(len)).await.unwrap();
    let writer = tokio::spawn(async move {
        for _ in 6..len {
            tokio::time::sleep(every).await;
            if write.write_all(b"a").await.is_err() {
                break;
            }
        }
        write
    });
    let answer = read_to_close(&mut read, within).await;
    writer.abort();
    answer
}

#[sqlx::test(migrations = "./migrations")]
async fn a_body_arriving_slower_than_the_minimum_rate_is_cut_off(pool: PgPool) {
    let addr = serve_with(pool, |w| (w.body_grace_secs, w.body_min_rate) = (1, 100)).await;
    // 4 bytes a second against 100: cut off about a second after the head, long before the 30 s
    // request timeout; a body at 200 bytes a second is served.
    let (slow, fast) = tokio::join!(
        trickle(addr, 1000, Duration::from_millis(250), Duration::from_secs(5)),
        trickle(addr, 306, Duration::from_millis(5), Duration::from_secs(10)),
    );
    let slow = slow.expect("the slow body was cut off within 5 s");
    assert!(slow.starts_with("HTTP/1.1 408"), "{slow}");
    let fast = fast.expect("the fast body was answered");
    assert!(fast.starts_with("HTTP/1.1 ") && !fast.starts_with("HTTP/1.1 408"), "{fast}");
}

#[sqlx::test(migrations = "./migrations")]
async fn slow_body_connections_from_one_address_are_capped(pool: PgPool) {
    let addr = serve_with(pool, |w| (w.max_slow_bodies_per_address, w.body_grace_secs) = (4, 30)).await;
    let mut first = slow_bodies(addr, 8, |_| [127, 0, 0, 1], Duration::from_millis(50)).await;
    let mut other = slow_bodies(addr, 4, |_| [127, 0, 0, 2], Duration::ZERO).await;
    // The four furthest behind (the oldest) from 127.0.0.1 are closed; the newest four and the
    // other address's four stay.
    for s in &mut first[..4] {
        assert!(read_to_close(s, Duration::from_secs(3)).await.is_some(), "an old slow body is still open");
    }
    for s in first[4..].iter_mut().chain(other.iter_mut()) {
        assert!(
            read_to_close(s, Duration::from_millis(300)).await.is_none(),
            "a slow body within the cap was closed"
        );
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_slow_body_connection_is_evicted_at_the_cap(pool: PgPool) {
    let addr = serve_with(pool, |w| (w.max_connections, w.body_grace_secs) = (8, 30)).await;
    // Eight addresses, one slow body each: the per-address cap does not come into it.
    let mut slow = slow_bodies(addr, 8, |i| [127, 0, 0, 10 + i], Duration::from_millis(25)).await;
    let answer = healthz(addr).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "every slow body has a request under way: {answer:?}");
    assert!(
        read_to_close(&mut slow[0], Duration::from_secs(3)).await.is_some(),
        "the oldest slow body is still open"
    );
}
