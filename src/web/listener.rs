//! The listener: HTTP/1.1 connections served by hyper under the limits of
//! [`WebSettings`](crate::config::WebSettings) (RULINGS W6, W18). A client must send a request's
//! headers within the header timeout (a silent or partial connection is closed); a connection
//! with no request under way and nothing received for the keep-alive time is closed. A request's
//! body must arrive at the minimum rate once its grace period is spent (counting only time the
//! server waits for the client): a body that falls behind is cut off, its request answered 408
//! and its connection closed. At most a few bodies still arriving (slow bodies) per client address:
//! one more closes that address's slow body furthest behind. At the connection cap the connection
//! quiet longest (for a second at least) with no request under way is closed to make room, else
//! the slow body furthest behind, else the quietest of those just accepted or just answered; only
//! when every connection has a handler running is the newcomer refused — so a flood
//! of idle, partial or slow-body connections never locks real clients out. Body bytes are copied
//! out of hyper's read buffer into one buffer per body, so a body trickling in a byte at a time
//! does not pin a read buffer per byte, and after a burst of connections the memory freed is
//! handed back to the operating system (glibc keeps it otherwise). Each request carries the peer
//! address (`ConnectInfo<SocketAddr>`) for the sign-in limits.

use crate::config::WebSettings;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, Response, StatusCode, header};
use hyper::body::{Body as _, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// One open connection as the cap and the idle timer see it.
struct Conn {
    /// The client address it counts against: an IPv4 address or an IPv6 /64.
    client: IpAddr,
    /// Requests under way (a handler running).
    in_flight: AtomicUsize,
    /// When a byte last arrived or a request last finished (ms since the listener started).
    last_active_ms: AtomicU64,
    /// Its request's body is still arriving (a slow body until it is complete).
    body_pending: AtomicBool,
    /// When that body is cut off unless more of it arrives (ms since the listener started; as of
    /// the last time the server waited for it). The smallest is the slow body furthest behind.
    body_deadline_ms: AtomicU64,
    /// Its request's body fell behind the minimum rate: the request is answered 408.
    body_cut: AtomicBool,
    /// Told to close at once (evicted to make room).
    evict: Notify,
}

/// The address a connection counts against: IPv4 as it is, IPv6 by its /64 (one host's share).
fn client_of(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        v4 => v4,
    }
}

/// A connection quiet for less than this (ms) is closed at the cap only after the slow bodies.
const SETTLED_MS: u64 = 1000;

/// The open connections.
struct Registry {
    started: Instant,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
}

impl Registry {
    fn now_ms(&self) -> u64 {
        self.ms_at(Instant::now())
    }

    fn ms_at(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.started).as_millis()).unwrap_or(u64::MAX)
    }

    fn touch(&self, conn: &Conn) {
        conn.last_active_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    fn len(&self) -> usize {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    fn add(&self, id: u64, peer: SocketAddr) -> Arc<Conn> {
        let conn = Arc::new(Conn {
            client: client_of(peer.ip()),
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(self.now_ms()),
            body_pending: AtomicBool::new(false),
            body_deadline_ms: AtomicU64::new(u64::MAX),
            body_cut: AtomicBool::new(false),
            evict: Notify::new(),
        });
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).insert(id, conn.clone());
        conn
    }

    fn remove(&self, id: u64) {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    /// Makes room for one more connection: closes the connection quiet longest among those with
    /// no request under way (of those quiet since the same millisecond, the oldest) and quiet for
    /// at least [`SETTLED_MS`], else the slow body furthest behind, else the quietest of the
    /// connections with no request under way that are not settled yet (just accepted, or just
    /// answered: under a flood at the cap they would otherwise be closed before their request or
    /// while their answer is written); false when every connection has a handler running.
    fn make_room(&self) -> bool {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        let settled_before = self.now_ms().saturating_sub(SETTLED_MS);
        let quietest = |settled: bool| {
            conns
                .iter()
                .filter(|(_, c)| c.in_flight.load(Ordering::Relaxed) == 0)
                .filter(|(_, c)| (c.last_active_ms.load(Ordering::Relaxed) <= settled_before) == settled)
                .min_by_key(|(id, c)| (c.last_active_ms.load(Ordering::Relaxed), **id))
                .map(|(id, _)| *id)
        };
        let victim =
            quietest(true).or_else(|| furthest_behind(&conns, |_, _| true)).or_else(|| quietest(false));
        evict(&mut conns, victim)
    }

    /// Counts a body starting to arrive on `conn` (connection `id`) against its client address:
    /// at the per-address cap, that address's slow body furthest behind is closed first.
    fn start_body(&self, id: u64, conn: &Conn, limits: &WebSettings) {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        let same = |c: &Conn| c.client == conn.client;
        loop {
            let count = conns
                .iter()
                .filter(|(other, c)| **other != id && same(c) && c.body_pending.load(Ordering::Relaxed))
                .count();
            if count < limits.max_slow_bodies_per_address.max(1) {
                break;
            }
            let victim = furthest_behind(&conns, |other, c| other != id && same(c));
            if !evict(&mut conns, victim) {
                break;
            }
        }
        conn.body_deadline_ms.store(self.ms_at(Instant::now() + body_grace(limits)), Ordering::Relaxed);
        conn.body_pending.store(true, Ordering::Relaxed);
    }
}

/// A body's grace period (at most a day: longer is as good as none).
fn body_grace(limits: &WebSettings) -> Duration {
    Duration::from_secs(limits.body_grace_secs.min(86_400))
}

/// The connection whose body is furthest behind the minimum rate (the earliest cut-off; of equal
/// ones the oldest) among the slow bodies `which` picks.
fn furthest_behind(conns: &HashMap<u64, Arc<Conn>>, which: impl Fn(u64, &Conn) -> bool) -> Option<u64> {
    conns
        .iter()
        .filter(|(id, c)| c.body_pending.load(Ordering::Relaxed) && which(**id, c))
        .min_by_key(|(id, c)| (c.body_deadline_ms.load(Ordering::Relaxed), **id))
        .map(|(id, _)| *id)
}

/// Closes connection `victim` (if any): true when one was closed.
fn evict(conns: &mut HashMap<u64, Arc<Conn>>, victim: Option<u64>) -> bool {
    match victim.and_then(|id| conns.remove(&id)) {
        Some(conn) => {
            conn.evict.notify_one();
            true
        }
        None => false,
    }
}

/// Marks a request under way for as long as it lives.
struct InFlight(Arc<Registry>, Arc<Conn>);

impl InFlight {
    fn enter(registry: Arc<Registry>, conn: Arc<Conn>) -> Self {
        conn.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(registry, conn)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch(&self.1);
        self.1.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Body bytes are handed on in pieces of at least this size (or the whole rest at its end).
const BODY_PIECE: usize = 16 * 1024;

/// A request body that must arrive at the minimum rate (RULING W18), copied out of hyper's read
/// buffer: each piece hyper hands on is a view of its whole read buffer, so a body arriving a byte
/// at a time would otherwise keep one 8 KiB buffer alive per byte until the handler finishes.
struct MeteredBody<B = Incoming> {
    inner: B,
    registry: Arc<Registry>,
    conn: Arc<Conn>,
    grace: Duration,
    min_rate: u64,
    /// Bytes received so far.
    received: u64,
    /// Time spent waiting for the client before the current wait.
    waited: Duration,
    /// When the current wait for the client began.
    waiting_since: Option<Instant>,
    /// Fires when the current wait runs out.
    deadline: Option<Pin<Box<Sleep>>>,
    /// Bytes received and not handed on yet.
    piece: Vec<u8>,
    /// Trailers that came after bytes not handed on yet.
    trailers: Option<HeaderMap>,
    /// Finished: the whole body arrived, or it was cut off or failed.
    done: bool,
}

/// The error a body that fell behind the minimum rate ends with.
#[derive(Debug)]
struct TooSlow;

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body arrived below the minimum rate")
    }
}

impl std::error::Error for TooSlow {}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<B> MeteredBody<B> {
    /// `inner` metered for `conn`: `grace` before it must arrive at `min_rate` bytes a second.
    fn new(inner: B, registry: Arc<Registry>, conn: Arc<Conn>, grace: Duration, min_rate: u64) -> Self {
        MeteredBody {
            inner,
            registry,
            conn,
            grace,
            min_rate,
            received: 0,
            waited: Duration::ZERO,
            waiting_since: None,
            deadline: None,
            piece: Vec::new(),
            trailers: None,
            done: false,
        }
    }

    fn finish(&mut self) {
        self.done = true;
        self.deadline = None;
        self.conn.body_pending.store(false, Ordering::Relaxed);
    }

    /// The piece gathered so far, handed on whole (its buffer with it).
    fn take_piece(&mut self) -> Frame<Bytes> {
        Frame::data(Bytes::from(std::mem::take(&mut self.piece)))
    }

    /// Waits for the client: Ready when the wait has run past what the bytes received allow.
    fn poll_wait(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        if self.min_rate == 0 {
            return Poll::Pending;
        }
        let now = Instant::now();
        let since = *self.waiting_since.get_or_insert(now);
        let earned = Duration::from_millis(self.received.saturating_mul(1000) / self.min_rate);
        let left = self.grace.saturating_add(earned).saturating_sub(self.waited);
        let at = since + left.min(Duration::from_secs(86_400));
        self.conn.body_deadline_ms.store(self.registry.ms_at(at), Ordering::Relaxed);
        match &mut self.deadline {
            Some(sleep) if sleep.deadline() != at => sleep.as_mut().reset(at),
            Some(_) => {}
            None => self.deadline = Some(Box::pin(tokio::time::sleep_until(at))),
        }
        match &mut self.deadline {
            Some(sleep) => sleep.as_mut().poll(cx),
            None => Poll::Pending,
        }
    }
}

impl<B> hyper::body::Body for MeteredBody<B>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if let Some(trailers) = this.trailers.take() {
            return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
        }
        if this.done {
            return Poll::Ready(None);
        }
        loop {
            match Pin::new(&mut this.inner).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    if let Some(since) = this.waiting_since.take() {
                        this.waited += since.elapsed();
                    }
                    match frame.into_data() {
                        Ok(data) => {
                            this.received = this.received.saturating_add(data.len() as u64);
                            this.piece.extend_from_slice(&data);
                            if this.piece.len() >= BODY_PIECE {
                                return Poll::Ready(Some(Ok(this.take_piece())));
                            }
                        }
                        Err(frame) => {
                            let Ok(trailers) = frame.into_trailers() else { continue };
                            if this.piece.is_empty() {
                                return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
                            }
                            this.trailers = Some(trailers);
                            return Poll::Ready(Some(Ok(this.take_piece())));
                        }
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.finish();
                    return Poll::Ready(Some(Err(e.into())));
                }
                Poll::Ready(None) => {
                    this.finish();
                    if this.piece.is_empty() {
                        return Poll::Ready(None);
                    }
                    return Poll::Ready(Some(Ok(this.take_piece())));
                }
                Poll::Pending => {
                    if this.poll_wait(cx).is_ready() {
                        this.finish();
                        this.piece = Vec::new();
                        this.conn.body_cut.store(true, Ordering::Relaxed);
                        return Poll::Ready(Some(Err(TooSlow.into())));
                    }
                    return Poll::Pending;
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.trailers.is_none() && (self.done || (self.inner.is_end_stream() && self.piece.is_empty()))
    }

    fn size_hint(&self) -> SizeHint {
        if self.done {
            return SizeHint::with_exact(0);
        }
        let inner = self.inner.size_hint();
        let piece = self.piece.len() as u64;
        let mut hint = SizeHint::new();
        hint.set_lower(inner.lower().saturating_add(piece));
        if let Some(upper) = inner.upper() {
            hint.set_upper(upper.saturating_add(piece));
        }
        hint
    }
}

impl<B> Drop for MeteredBody<B> {
    fn drop(&mut self) {
        self.conn.body_pending.store(false, Ordering::Relaxed);
    }
}

/// The answer to a request whose body fell behind the minimum rate: 408, the connection closed
/// (the headers the application set, such as the security headers, kept).
fn too_slow(answer: Response<Body>) -> Response<Body> {
    let (mut parts, _) = answer.into_parts();
    parts.status = StatusCode::REQUEST_TIMEOUT;
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    parts.headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    Response::from_parts(parts, Body::from("the request body arrived too slowly\n"))
}

/// A TCP stream that notes when bytes arrive.
struct Watched {
    stream: TcpStream,
    registry: Arc<Registry>,
    conn: Arc<Conn>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.registry.touch(&self.conn);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, data)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// How often the listener looks whether a burst of connections has passed.
const TRIM_EVERY: Duration = Duration::from_secs(10);
/// A burst: at least this many connections open at once, and now at most a quarter of them.
const TRIM_AFTER_PEAK: usize = 256;

/// Hands memory freed after a burst of connections back to the operating system. glibc's malloc
/// keeps what is freed in its arenas for the next allocation: after a slow-body flood ~25 MB of a
/// 44 MB RSS stayed, free but held (RULING W18). It would serve the next burst, but it looks like
/// a leak and is taken from the rest of the machine; one trim after a burst costs a few ms.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_memory() {
    // SAFETY: malloc_trim has no preconditions; it takes the allocator's own locks and only
    // releases pages that hold no allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_memory() {}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n.max(1))
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves, then lets open requests
/// finish (for at most the request timeout).
pub async fn serve_until(
    app: Router,
    listener: TcpListener,
    limits: &WebSettings,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let registry = Arc::new(Registry { started: Instant::now(), conns: Mutex::new(HashMap::new()) });
    let (stop_tx, stop_rx) = watch::channel(false);
    let max = limits.max_connections.max(1);
    let mut tasks = tokio::task::JoinSet::new();
    let mut next_id = 0u64;
    let (mut trim, mut peak) = (tokio::time::interval(TRIM_EVERY), 0);
    trim.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            _ = trim.tick() => {
                let open = registry.len();
                if peak >= TRIM_AFTER_PEAK && open <= peak / 4 {
                    tokio::task::spawn_blocking(return_freed_memory);
                }
                peak = open;
                continue;
            }
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors or a connection reset before accept: pause briefly.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        while tasks.try_join_next().is_some() {}
        if registry.len() >= max && !registry.make_room() {
            tracing::debug!(%peer, "connection cap reached with every connection busy: refused");
            drop(stream);
            continue;
        }
        next_id += 1;
        let conn = registry.add(next_id, peer);
        peak = peak.max(registry.len());
        tasks.spawn(connection(
            next_id,
            stream,
            peer,
            conn,
            registry.clone(),
            app.clone(),
            limits.clone(),
            stop_rx.clone(),
        ));
    }
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(secs(limits.request_timeout_secs) + Duration::from_secs(1), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}

/// Serves one connection until it ends, is evicted, or goes idle.
#[allow(clippy::too_many_arguments)]
async fn connection(
    id: u64,
    stream: TcpStream,
    peer: SocketAddr,
    conn: Arc<Conn>,
    registry: Arc<Registry>,
    app: Router,
    limits: WebSettings,
    mut stop: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let io = TokioIo::new(Watched { stream, registry: registry.clone(), conn: conn.clone() });
    let (svc_registry, svc_conn, svc_limits) = (registry.clone(), conn.clone(), limits.clone());
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let (registry, conn) = (svc_registry.clone(), svc_conn.clone());
        let guard = InFlight::enter(registry.clone(), conn.clone());
        req.extensions_mut().insert(ConnectInfo(peer));
        conn.body_cut.store(false, Ordering::Relaxed);
        if !req.body().is_end_stream() {
            registry.start_body(id, &conn, &svc_limits);
        }
        let (grace, rate) = (body_grace(&svc_limits), svc_limits.body_min_rate);
        let req = req.map(|body| Body::new(MeteredBody::new(body, registry, conn.clone(), grace, rate)));
        let app = app.clone();
        async move {
            let _guard = guard;
            let answer = app.oneshot(req).await;
            Ok::<_, std::convert::Infallible>(match answer {
                Ok(answer) if conn.body_cut.load(Ordering::Relaxed) => too_slow(answer),
                Ok(answer) => answer,
                Err(never) => match never {},
            })
        }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(secs(limits.header_timeout_secs))
        .serve_connection(io, service);
    tokio::pin!(served);
    let keepalive = secs(limits.keepalive_secs);
    let mut closing = false;
    loop {
        let quiet_since =
            registry.started + Duration::from_millis(conn.last_active_ms.load(Ordering::Relaxed));
        let busy = conn.in_flight.load(Ordering::Relaxed) > 0;
        let idle_at = if busy { Instant::now() + keepalive } else { quiet_since + keepalive };
        tokio::select! {
            _ = served.as_mut() => break,
            () = conn.evict.notified() => break,
            () = tokio::time::sleep_until(idle_at), if !closing => {
                let quiet = registry.now_ms().saturating_sub(conn.last_active_ms.load(Ordering::Relaxed));
                if conn.in_flight.load(Ordering::Relaxed) == 0 && Duration::from_millis(quiet) >= keepalive {
                    served.as_mut().graceful_shutdown();
                    closing = true;
                }
            }
            _ = stop.wait_for(|stop| *stop), if !closing => {
                served.as_mut().graceful_shutdown();
                closing = true;
            }
        }
    }
    registry.remove(id);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// A body whose frames arrive one every `every`, like a client trickling it in.
    struct Trickle {
        frames: VecDeque<Bytes>,
        every: Duration,
        next: Pin<Box<Sleep>>,
    }

    impl hyper::body::Body for Trickle {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            std::task::ready!(self.next.as_mut().poll(cx));
            let at = Instant::now() + self.every;
            self.next.as_mut().reset(at);
            Poll::Ready(self.frames.pop_front().map(|data| Ok(Frame::data(data))))
        }
    }

    /// `body` (`n` one-byte frames cut from one 8 KiB buffer, as hyper hands them on, one every
    /// `every`) metered with `grace` and `min_rate`, read to its end; also the buffer.
    async fn meter(
        n: usize,
        every: Duration,
        grace: Duration,
        min_rate: u64,
    ) -> (Result<Bytes, BoxError>, Arc<Conn>, Bytes) {
        let registry = Arc::new(Registry { started: Instant::now(), conns: Mutex::new(HashMap::new()) });
        let conn = registry.add(1, SocketAddr::from(([127, 0, 0, 1], 1)));
        let buffer = Bytes::from(vec![b'a'; 8192]);
        let frames = (0..n).map(|i| buffer.slice(i..i + 1)).collect();
        let trickle = Trickle { frames, every, next: Box::pin(tokio::time::sleep(Duration::ZERO)) };
        let body = MeteredBody::new(trickle, registry, conn.clone(), grace, min_rate);
        let read = http_body_util::BodyExt::collect(body).await.map(|c| c.to_bytes());
        (read, conn, buffer)
    }

    #[tokio::test]
    async fn a_body_trickling_in_keeps_none_of_the_read_buffer() {
        let (read, conn, buffer) = meter(50, Duration::from_millis(1), Duration::from_secs(5), 1024).await;
        assert_eq!(read.expect("the body arrived").len(), 50);
        assert!(buffer.is_unique(), "a piece of the body still holds hyper's read buffer");
        assert!(!conn.body_pending.load(Ordering::Relaxed) && !conn.body_cut.load(Ordering::Relaxed));
    }

    #[tokio::test]
    async fn a_body_behind_the_minimum_rate_ends_with_an_error_after_its_grace() {
        let started = std::time::Instant::now();
        let (read, conn, _) = meter(50, Duration::from_millis(300), Duration::from_millis(100), 10).await;
        let error = read.expect_err("the body was cut off");
        assert!(error.is::<TooSlow>(), "{error}");
        assert!(conn.body_cut.load(Ordering::Relaxed) && !conn.body_pending.load(Ordering::Relaxed));
        // The first byte came at once and earned 100 ms (10 bytes a second): cut off at about
        // 200 ms, not after the 15 s the whole body would take.
        let took = started.elapsed();
        assert!(took >= Duration::from_millis(180) && took < Duration::from_secs(3), "{took:?}");
    }
}
