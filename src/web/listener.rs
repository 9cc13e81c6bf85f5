//! The listener: HTTP/1.1 connections served by hyper under the limits of
//! [`WebSettings`](crate::config::WebSettings) (RULING W6). A client must send a request's
//! headers within the header timeout (a silent or partial connection is closed); a connection
//! with no request under way and nothing received for the keep-alive time is closed; at the
//! connection cap the connection that has been quiet longest (no request under way) is closed to
//! make room, so a flood of idle connections never locks real clients out. Each request carries
//! the peer address (`ConnectInfo<SocketAddr>`) for the sign-in limits.

use crate::config::WebSettings;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::Instant;
use tower::ServiceExt;

/// One open connection as the cap and the idle timer see it.
struct Conn {
    /// Requests under way (a handler running).
    in_flight: AtomicUsize,
    /// When a byte last arrived or a request last finished (ms since the listener started).
    last_active_ms: AtomicU64,
    /// Told to close at once (evicted to make room).
    evict: Notify,
}

/// The open connections.
struct Registry {
    started: Instant,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
}

impl Registry {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn touch(&self, conn: &Conn) {
        conn.last_active_ms.store(self.now_ms(), Ordering::Relaxed);
    }

    fn len(&self) -> usize {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    fn add(&self, id: u64) -> Arc<Conn> {
        let conn = Arc::new(Conn {
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(self.now_ms()),
            evict: Notify::new(),
        });
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).insert(id, conn.clone());
        conn
    }

    fn remove(&self, id: u64) {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    /// Closes the connection quiet longest among those with no request under way (of those quiet
    /// since the same millisecond, the oldest); false when every connection has a request under
    /// way.
    fn evict_quietest(&self) -> bool {
        let mut conns = self.conns.lock().unwrap_or_else(PoisonError::into_inner);
        let quietest = conns
            .iter()
            .filter(|(_, c)| c.in_flight.load(Ordering::Relaxed) == 0)
            .min_by_key(|(id, c)| (c.last_active_ms.load(Ordering::Relaxed), **id))
            .map(|(id, _)| *id);
        match quietest.and_then(|id| conns.remove(&id)) {
            Some(conn) => {
                conn.evict.notify_one();
                true
            }
            None => false,
        }
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
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
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
        if registry.len() >= max && !registry.evict_quietest() {
            tracing::debug!(%peer, "connection cap reached with every connection busy: refused");
            drop(stream);
            continue;
        }
        next_id += 1;
        let conn = registry.add(next_id);
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
    let (svc_registry, svc_conn) = (registry.clone(), conn.clone());
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let guard = InFlight::enter(svc_registry.clone(), svc_conn.clone());
        req.extensions_mut().insert(ConnectInfo(peer));
        let app = app.clone();
        async move {
            let _guard = guard;
            app.oneshot(req.map(Body::new)).await
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
