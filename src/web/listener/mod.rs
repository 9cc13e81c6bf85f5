//! The listener: HTTP/1.1 connections served by hyper under the limits of
//! [`WebSettings`](crate::config::WebSettings) (RULINGS W6, W18, W18b). A client must send a request's
//! headers within the header timeout (a silent or partial connection is closed); a connection
//! with no request under way and nothing received for the keep-alive time is closed. A request's
//! body must arrive at the minimum rate once its grace period is spent (counting only time the
//! server waits for the client): a body that falls behind is cut off, its request answered 408
//! and its connection closed. An answer must be taken by the client in the same way (a stall at
//! most the grace, then a minimum rate; [`stream`]): one that falls behind is dropped with its
//! connection. At most a few slow connections (bodies still arriving, answers stalled) per client
//! address: one more closes that address's slow connection furthest behind. At the connection cap
//! the connection quiet longest (for a second at least) with no request under way is closed to make
//! room, else the slow connection furthest behind, else the quietest of those just accepted or just answered; only
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
use body::{MeteredBody, too_slow};
use hyper::body::{Body as _, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use stream::{AnswerLimits, Watched};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

mod body;
mod budget;
mod stream;

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
    /// Its answer is waiting for the client to read (the socket takes no more): a stalled answer
    /// until the client takes some of it (RULING W18b).
    answer_stalled: AtomicBool,
    /// When its slow body or stalled answer is cut off unless the client catches up (ms since the
    /// listener started; as of the last time the server waited for it). The smallest is the slow
    /// connection furthest behind.
    cutoff_ms: AtomicU64,
    /// Its request's body fell behind the minimum rate: the request is answered 408.
    body_cut: AtomicBool,
    /// Bytes of its current answer the client has not taken yet (RULING W20).
    unsent: AtomicU64,
    /// Told to close at once (evicted to make room).
    evict: Notify,
}

impl Conn {
    /// A body still arriving or an answer stalled: counted against the client address's cap of
    /// slow connections, and closed at the connection cap by how far behind it is.
    fn slow(&self) -> bool {
        self.body_pending.load(Ordering::Relaxed) || self.answer_stalled.load(Ordering::Relaxed)
    }
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
    /// Bytes of answers not yet taken, over all connections (the sum of their `unsent`).
    unsent: AtomicU64,
    /// The most `unsent` may be before stalled answers are dropped; 0: no budget (RULING W20).
    budget: u64,
}

impl Registry {
    fn new(budget: u64) -> Self {
        Registry {
            started: Instant::now(),
            conns: Mutex::new(HashMap::new()),
            unsent: AtomicU64::new(0),
            budget,
        }
    }

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
            answer_stalled: AtomicBool::new(false),
            cutoff_ms: AtomicU64::new(u64::MAX),
            body_cut: AtomicBool::new(false),
            unsent: AtomicU64::new(0),
            evict: Notify::new(),
        });
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).insert(id, conn.clone());
        conn
    }

    /// Connection `id` (`conn`) has ended: its answer's bytes are held no longer.
    fn remove(&self, id: u64, conn: &Conn) {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
        self.forget(conn);
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
    /// at the per-address cap, that address's slow connection furthest behind is closed first.
    fn start_body(&self, id: u64, conn: &Conn, limits: &WebSettings) {
        let cutoff = self.ms_at(Instant::now() + body_grace(limits));
        self.start_slow(id, conn, limits.max_slow_bodies_per_address, cutoff, &conn.body_pending);
    }

    /// Counts `conn`'s answer as stalled (the client reads none of it; cut off at `cutoff_ms`)
    /// against its client address, like a slow body (RULING W18b).
    fn stall_answer(&self, id: u64, conn: &Conn, cap: usize, cutoff_ms: u64) {
        self.start_slow(id, conn, cap, cutoff_ms, &conn.answer_stalled);
        self.shed();
    }

    /// Makes `conn` (connection `id`) a slow connection of its client address by setting `flag`,
    /// cut off at `cutoff_ms`: at the address's cap of `cap`, its slow connection furthest behind
    /// is closed first.
    fn start_slow(&self, id: u64, conn: &Conn, cap: usize, cutoff_ms: u64, flag: &AtomicBool) {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        let same = |c: &Conn| c.client == conn.client;
        loop {
            let count = conns.iter().filter(|(other, c)| **other != id && same(c) && c.slow()).count();
            if count < cap.max(1) {
                break;
            }
            let victim = furthest_behind(&conns, |other, c| other != id && same(c));
            if !evict(&mut conns, victim) {
                break;
            }
        }
        conn.cutoff_ms.store(cutoff_ms, Ordering::Relaxed);
        flag.store(true, Ordering::Relaxed);
    }
}

/// A body's grace period (at most a day: longer is as good as none).
fn body_grace(limits: &WebSettings) -> Duration {
    Duration::from_secs(limits.body_grace_secs.min(86_400))
}

/// The slow connection (a body still arriving or an answer stalled) furthest behind its minimum
/// rate (the earliest cut-off; of equal ones the oldest) among those `which` picks.
fn furthest_behind(conns: &HashMap<u64, Arc<Conn>>, which: impl Fn(u64, &Conn) -> bool) -> Option<u64> {
    conns
        .iter()
        .filter(|(id, c)| c.slow() && which(**id, c))
        .min_by_key(|(id, c)| (c.cutoff_ms.load(Ordering::Relaxed), **id))
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

/// Waits until `at` on the timer kept in `slot` (made, or moved to `at`, as needed): Ready once
/// `at` has passed; otherwise `cx` is woken then.
fn poll_until(slot: &mut Option<Pin<Box<Sleep>>>, at: Instant, cx: &mut Context<'_>) -> Poll<()> {
    match slot {
        Some(sleep) if sleep.deadline() != at => sleep.as_mut().reset(at),
        Some(_) => {}
        None => *slot = Some(Box::pin(tokio::time::sleep_until(at))),
    }
    match slot {
        Some(sleep) => sleep.as_mut().poll(cx),
        None => Poll::Pending,
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
    let registry = Arc::new(Registry::new(limits.max_unsent_answer_bytes));
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
    let io =
        TokioIo::new(Watched::new(stream, id, registry.clone(), conn.clone(), AnswerLimits::of(&limits)));
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
        let req =
            req.map(|body| Body::new(MeteredBody::new(body, registry.clone(), conn.clone(), grace, rate)));
        let app = app.clone();
        async move {
            let _guard = guard;
            let answer = app.oneshot(req).await;
            let answer = match answer {
                Ok(answer) if conn.body_cut.load(Ordering::Relaxed) => too_slow(answer),
                Ok(answer) => answer,
                Err(never) => match never {},
            };
            // RULING W20: the answer's bytes are held until the client takes them.
            let size = answer.body().size_hint();
            registry.hold(&conn, size.exact().unwrap_or(size.lower()));
            Ok::<_, std::convert::Infallible>(answer)
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
    registry.remove(id, &conn);
}
